lib_libbonebake_core_la_SOURCES += \
	lib/image/image.c \
	lib/image/convert.c \
	lib/image/png.c
bonebakeinclude_HEADERS += lib/include/bonebake/image.h
