lib_libbonebake_core_la_SOURCES += \
	lib/loaders/loader.c \
	lib/loaders/loader.h \
	lib/loaders/json.c \
	lib/loaders/json.h \
	lib/loaders/native.c
