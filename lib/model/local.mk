lib_libbonebake_core_la_SOURCES += \
	lib/model/model.c \
	lib/model/solid.c \
	lib/model/model.h
bonebakeinclude_HEADERS += lib/include/bonebake/model.h
