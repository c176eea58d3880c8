lib_libbonebake_core_la_SOURCES += \
	lib/model/model.c \
	lib/model/build.c \
	lib/model/build.h \
	lib/model/solid.c \
	lib/model/model.h
bonebakeinclude_HEADERS += lib/include/bonebake/model.h
