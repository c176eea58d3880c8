# lib/diff — image comparison
lib_libbonebake_core_la_SOURCES += \
	lib/diff/compare.c \
	lib/diff/files.c \
	lib/diff/internal.h
bonebakeinclude_HEADERS += lib/include/bonebake/diff.h
