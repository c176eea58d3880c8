lib_libbonebake_core_la_SOURCES += lib/raster/raster.c \
	lib/raster/raster.h \
	lib/raster/raster-texture.c \
	lib/raster/contact.c \
	lib/raster/texcache.c \
	lib/raster/sample.c
bonebakeinclude_HEADERS += lib/include/bonebake/render.h \
	lib/include/bonebake/contact.h

