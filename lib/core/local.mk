lib_libbonebake_core_la_SOURCES += \
	lib/core/status.c \
	lib/core/geom.c \
	lib/core/util.c \
	lib/core/util.h \
	lib/core/json.c \
	lib/core/json.h \
	lib/core/names.c \
	lib/core/foreign.c \
	lib/core/parallel.c \
	lib/core/parallel.h \
	lib/core/foreign.h \
	lib/core/names.h \
	lib/core/sha256.c \
	lib/core/sha256.h
bonebakeinclude_HEADERS += \
	lib/include/bonebake/bonebake.h \
	lib/include/bonebake/status.h \
	lib/include/bonebake/geom.h \
	lib/include/bonebake/files.h \
	lib/include/bonebake/parallel.h
