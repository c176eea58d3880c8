lib_libbonebake_core_la_SOURCES += lib/raster/raster.c \
	lib/raster/raster.h \
	lib/raster/raster-texture.c \
	lib/raster/texcache.c
bonebakeinclude_HEADERS += lib/include/bonebake/render.h

# The kept canvas, culling, texture filters
check_PROGRAMS += tests/unit/check-raster
tests_unit_check_raster_SOURCES = tests/unit/check-raster.c
tests_unit_check_raster_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_raster_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-raster
