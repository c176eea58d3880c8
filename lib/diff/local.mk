# lib/diff — image comparison (issue 5): the library part, the `diff`
# command, its tests and bench.
lib_libbonebake_core_la_SOURCES += \
	lib/diff/compare.c \
	lib/diff/files.c \
	lib/diff/internal.h
bonebakeinclude_HEADERS += lib/include/bonebake/diff.h

check_PROGRAMS += tests/unit/check-diff
tests_unit_check_diff_SOURCES = tests/unit/check-diff.c
tests_unit_check_diff_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_diff_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-diff
