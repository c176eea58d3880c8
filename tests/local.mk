# Unit tests (Check), one binary per module; reference images; CLI tests;
# fuzz replays.
check_PROGRAMS += tests/unit/check-native tests/unit/check-core
tests_unit_check_native_SOURCES = tests/unit/check-native.c
tests_unit_check_native_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_native_LDADD = $(CHECK_TEST_LIBS)
tests_unit_check_core_SOURCES = tests/unit/check-core.c
tests_unit_check_core_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_core_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-native tests/unit/check-core

EXTRA_DIST += tests/cli/lib.sh samples

# Reference images
check_PROGRAMS += tests/ref/ref-test
tests_ref_ref_test_SOURCES = tests/ref/ref-test.c
tests_ref_ref_test_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_ref_ref_test_LDADD = lib/libbonebake-core.la -lm
TESTS += tests/ref/ref-test
EXTRA_DIST += tests/ref/images
CLEANFILES += tests/ref/*.out.png tests/ref/*.diff.png

# Fuzz target (plain replay main unless built for libFuzzer)
check_PROGRAMS += tests/fuzz/fuzz-native
tests_fuzz_fuzz_native_SOURCES = tests/fuzz/fuzz-native.c tests/fuzz/replay-main.c
tests_fuzz_fuzz_native_LDADD = lib/libbonebake-core.la -lm
check_PROGRAMS += tests/fuzz/fuzz-forge
tests_fuzz_fuzz_forge_SOURCES = tests/fuzz/fuzz-forge.c tests/fuzz/replay-main.c
tests_fuzz_fuzz_forge_CFLAGS = $(AM_CFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_fuzz_fuzz_forge_LDADD = lib/libbonebake-core.la -lm
TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/fuzz/replay.sh tests/fuzz/corpus

# CLI tests
TESTS += tests/cli/render.sh tests/cli/bad-input.sh
EXTRA_DIST += tests/cli/render.sh tests/cli/bad-input.sh tests/cli/pngsize.py
TESTS += tests/include-rules.sh
EXTRA_DIST += tests/include-rules.sh

# Official-runtime poses (skip without ../shared)
TESTS += tests/oracle/dragonbones.sh
EXTRA_DIST += tests/oracle/dragonbones.sh tests/oracle/compare-dragonbones.py
TESTS += tests/cli/sheet.sh
EXTRA_DIST += tests/cli/sheet.sh
TESTS += tests/cli/bad-dragonbones.sh tests/oracle/corpus-render.sh
EXTRA_DIST += tests/cli/bad-dragonbones.sh tests/oracle/corpus-render.sh
check_PROGRAMS += tests/unit/check-dragonbones
tests_unit_check_dragonbones_SOURCES = tests/unit/check-dragonbones.c
tests_unit_check_dragonbones_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_dragonbones_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-dragonbones
check_PROGRAMS += tests/unit/check-cocos
tests_unit_check_cocos_SOURCES = tests/unit/check-cocos.c
tests_unit_check_cocos_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_cocos_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-cocos
TESTS += tests/cli/bad-cocos.sh
EXTRA_DIST += tests/cli/bad-cocos.sh
TESTS += tests/oracle/cocos-corpus.sh
EXTRA_DIST += tests/oracle/cocos-corpus.sh
# SSAJSON (issue 7)
check_PROGRAMS += tests/unit/check-ssajson
tests_unit_check_ssajson_SOURCES = tests/unit/check-ssajson.c
tests_unit_check_ssajson_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_ssajson_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-ssajson tests/cli/ssajson.sh
EXTRA_DIST += tests/cli/ssajson.sh

# Forge armatures: unit tests, CLI tests, the corpus in every view
check_PROGRAMS += tests/unit/check-forge
tests_unit_check_forge_SOURCES = tests/unit/check-forge.c
tests_unit_check_forge_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_forge_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-forge tests/cli/forge.sh tests/oracle/forge-corpus.sh
EXTRA_DIST += tests/cli/forge.sh tests/oracle/forge-corpus.sh
TESTS += tests/cli/samples.sh
EXTRA_DIST += tests/cli/samples.sh
TESTS += tests/cli/filter.sh
EXTRA_DIST += tests/cli/filter.sh
