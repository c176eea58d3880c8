lib_libbonebake_core_la_SOURCES += \
	lib/loaders/loader.c \
	lib/loaders/loader.h \
	lib/loaders/json.c \
	lib/loaders/json.h \
	lib/loaders/native.c \
	lib/loaders/atlas.c \
	lib/loaders/atlas.h \
	lib/loaders/dragonbones.c \
	lib/loaders/dragonbones.h \
	lib/loaders/dragonbones-mesh.c \
	lib/loaders/dragonbones-anim.c \
	lib/loaders/ssajson.c \
	lib/loaders/ssajson.h \
	lib/loaders/ssajson-build.c \
	lib/loaders/forge.c \
	lib/loaders/forge-model.c \
	lib/loaders/forge.h \
	lib/loaders/xml.c \
	lib/loaders/xml.h \
	lib/loaders/plist.c \
	lib/loaders/plist.h \
	lib/loaders/cocos.c \
	lib/loaders/cocos.h \
	lib/loaders/cocos-xml.c \
	lib/loaders/cocos-build.c \
	lib/loaders/cocos-anim.c \
	lib/loaders/dragonbones-slots.c
