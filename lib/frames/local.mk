# Scenes, planning and the threaded frame loop (render, sheet, pose).
lib_libbonebake_core_la_SOURCES += \
	lib/frames/plan.c \
	lib/frames/loop.c \
	lib/frames/fit.h
bonebakeinclude_HEADERS += lib/include/bonebake/frames.h
