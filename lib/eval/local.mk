lib_libbonebake_core_la_SOURCES += \
	lib/eval/eval.h \
	lib/eval/pose.h \
	lib/eval/timeline.c \
	lib/eval/tween.c \
	lib/eval/tween.h \
	lib/eval/pose.c \
	lib/eval/world.c \
	lib/eval/constrain.c \
	lib/eval/path.c \
	lib/eval/physics.c \
	lib/eval/drawlist.c \
	lib/eval/solid.c \
	lib/eval/solid.h
bonebakeinclude_HEADERS += lib/include/bonebake/eval.h
