# lib/diff — image comparison (issue 5): the library part, the `diff`
# command, its tests and bench.
lib_libbonebake_core_la_SOURCES += \
	lib/diff/compare.c \
	lib/diff/files.c \
	lib/diff/internal.h
bonebakeinclude_HEADERS += lib/include/bonebake/diff.h

src_bonebake_SOURCES += \
	src/cmd-diff.c \
	src/diff-run.c \
	src/diff-run.h \
	src/diff-report.c \
	src/diff-html.c

check_PROGRAMS += tests/unit/check-diff tests/cli/diff-mkpng
tests_unit_check_diff_SOURCES = tests/unit/check-diff.c
tests_unit_check_diff_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_diff_LDADD = $(CHECK_TEST_LIBS)
tests_cli_diff_mkpng_SOURCES = tests/cli/diff-mkpng.c
tests_cli_diff_mkpng_LDADD = lib/libbonebake-core.la -lm

TESTS += tests/unit/check-diff tests/cli/diff.sh tests/cli/diff-folders.sh \
	tests/cli/diff-html.sh tests/cli/diff-pixelmatch.sh
EXTRA_DIST += tests/cli/diff.sh tests/cli/diff-folders.sh \
	tests/cli/diff-html.sh tests/cli/diff-pixelmatch.sh
