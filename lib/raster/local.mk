lib_libbonebake_core_la_SOURCES += lib/raster/raster.c \
	lib/raster/raster.h \
	lib/raster/raster-texture.c \
	lib/raster/texcache.c \
	lib/raster/sample.c
bonebakeinclude_HEADERS += lib/include/bonebake/render.h

# Where a frame's time goes, and what the texture filters cost and give
# (scripts/bench raster)
check_PROGRAMS += tests/tools/bench-raster
tests_tools_bench_raster_SOURCES = tests/tools/bench-raster.c
tests_tools_bench_raster_LDADD = lib/libbonebake-core.la -lm

# The kept canvas, culling, texture filters
check_PROGRAMS += tests/unit/check-raster
tests_unit_check_raster_SOURCES = tests/unit/check-raster.c
tests_unit_check_raster_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_raster_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-raster
