lib_libbonebake_core_la_SOURCES += \
	lib/image/image.c \
	lib/image/convert.c \
	lib/image/png.c \
	lib/image/anim.c \
	lib/image/anim-int.h \
	lib/image/anim-webp.c \
	lib/image/anim-gif.c \
	lib/image/anim-apng.c \
	lib/image/png-read.c \
	lib/image/png-write.c \
	lib/image/png-int.h
bonebakeinclude_HEADERS += lib/include/bonebake/image.h \
	lib/include/bonebake/anim.h

# scripts/bench png: encoder settings against libpng's simplified API
# (links libpng and zlib itself for the baselines)
check_PROGRAMS += tests/tools/png-bench
tests_tools_png_bench_SOURCES = tests/tools/png-bench.c
tests_tools_png_bench_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS)
tests_tools_png_bench_LDADD = lib/libbonebake-core.la $(PNG_LIBS) -lz -lm

# The encoder's unit tests
check_PROGRAMS += tests/unit/check-png
tests_unit_check_png_SOURCES = tests/unit/check-png.c
tests_unit_check_png_CFLAGS = $(CHECK_TEST_CFLAGS) $(LIBDEFLATE_CFLAGS)
tests_unit_check_png_LDADD = $(CHECK_TEST_LIBS) $(LIBDEFLATE_LIBS)
TESTS += tests/unit/check-png tests/cli/png-level.sh
EXTRA_DIST += tests/cli/png-level.sh

# PNG reading: the fast path against libpng, replayed on PNG files
check_PROGRAMS += tests/fuzz/fuzz-png
tests_fuzz_fuzz_png_SOURCES = tests/fuzz/fuzz-png.c tests/fuzz/replay-main.c
tests_fuzz_fuzz_png_LDADD = lib/libbonebake-core.la -lm
