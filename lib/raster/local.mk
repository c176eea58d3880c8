lib_libbonebake_core_la_SOURCES += lib/raster/raster.c
bonebakeinclude_HEADERS += lib/include/bonebake/render.h
