# lib/pack — rectangle packing, sheet composition, metadata writers
lib_libbonebake_core_la_SOURCES += \
	lib/pack/pack-int.h \
	lib/pack/maxrects.h \
	lib/pack/maxrects.c \
	lib/pack/layout.c \
	lib/pack/compose.c \
	lib/pack/sheet.c \
	lib/pack/files.c \
	lib/pack/write-json.c \
	lib/pack/write-atlas.c \
	lib/pack/write-plist.c \
	lib/pack/write-godot.c
bonebakeinclude_HEADERS += lib/include/bonebake/pack.h
