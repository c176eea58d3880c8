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
TESTS += tests/cli/bad-dragonbones.sh
EXTRA_DIST += tests/cli/bad-dragonbones.sh
check_PROGRAMS += tests/unit/check-dragonbones
tests_unit_check_dragonbones_SOURCES = tests/unit/check-dragonbones.c
tests_unit_check_dragonbones_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_dragonbones_LDADD = $(CHECK_TEST_LIBS) $(JANSSON_LIBS)
TESTS += tests/unit/check-dragonbones
check_PROGRAMS += tests/unit/check-cocos
tests_unit_check_cocos_SOURCES = tests/unit/check-cocos.c
tests_unit_check_cocos_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_cocos_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-cocos
TESTS += tests/cli/bad-cocos.sh
EXTRA_DIST += tests/cli/bad-cocos.sh
# SSAJSON (issue 7)
check_PROGRAMS += tests/unit/check-ssajson
tests_unit_check_ssajson_SOURCES = tests/unit/check-ssajson.c
tests_unit_check_ssajson_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_ssajson_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-ssajson tests/cli/ssajson.sh
EXTRA_DIST += tests/cli/ssajson.sh

# Forge armatures: unit tests, CLI tests
check_PROGRAMS += tests/unit/check-forge
tests_unit_check_forge_SOURCES = tests/unit/check-forge.c
tests_unit_check_forge_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_forge_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-forge tests/cli/forge.sh
EXTRA_DIST += tests/cli/forge.sh
TESTS += tests/cli/samples.sh
EXTRA_DIST += tests/cli/samples.sh

# Real exports of ../shared/corpus (DragonBones, Cocos, Forge): every
# animation of every armature renders, no frame blank, only the warnings
# tests/oracle/corpus.list expects
check_PROGRAMS += tests/tools/blank-frames
tests_tools_blank_frames_SOURCES = tests/tools/blank-frames.c
tests_tools_blank_frames_LDADD = lib/libbonebake-core.la -lm
TESTS += tests/oracle/corpus.sh
EXTRA_DIST += tests/oracle/corpus.sh tests/oracle/corpus.py tests/oracle/corpus.list
TESTS += tests/cli/setup-pose.sh tests/cli/dragonbones-atlas.sh tests/cli/cocos-atlas.sh
EXTRA_DIST += tests/cli/setup-pose.sh tests/cli/dragonbones-atlas.sh tests/cli/cocos-atlas.sh
# Engine round trips in headless Chromium (PixiJS, Phaser 3), with the npm
# packages pinned by tests/node (scripts/test installs them into build/node)
TESTS += tests/engines/roundtrip.sh
EXTRA_DIST += tests/engines/roundtrip.sh tests/engines/roundtrip.mjs \
	tests/engines/pixi.html tests/engines/phaser.html tests/engines/capture.js \
	tests/node/package.json tests/node/package-lock.json

# make install into a temporary DESTDIR; a program built with pkg-config
# against it; the man page
TESTS += tests/cli/install.sh
EXTRA_DIST += tests/cli/install.sh
# Scenes, planning and the frame loop (lib/frames)
check_PROGRAMS += tests/unit/check-frames
tests_unit_check_frames_SOURCES = tests/unit/check-frames.c
tests_unit_check_frames_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_frames_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-frames
# bonebake batch
check_PROGRAMS += tests/unit/check-batch
tests_unit_check_batch_SOURCES = tests/unit/check-batch.c
tests_unit_check_batch_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_batch_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-batch tests/cli/batch.sh
EXTRA_DIST += tests/cli/batch.sh
# Interrupted runs: signals, kills at every rename (LD_PRELOAD hook)
check_LTLIBRARIES = tests/tools/fault-rename.la
tests_tools_fault_rename_la_SOURCES = tests/tools/fault-rename.c
tests_tools_fault_rename_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
tests_tools_fault_rename_la_LIBADD = -ldl
TESTS += tests/cli/interrupt.sh
EXTRA_DIST += tests/cli/interrupt.sh
# Files an input references: confined to its folder, recorded (issue 14.2)
TESTS += tests/cli/referenced-files.sh
EXTRA_DIST += tests/cli/referenced-files.sh
# The evaluator and the rasterizer, module by module, on small models made
# with the builder and tiny canvases
check_PROGRAMS += tests/unit/check-eval tests/unit/check-raster
tests_unit_check_eval_SOURCES = tests/unit/check-eval.c
tests_unit_check_eval_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_eval_LDADD = $(CHECK_TEST_LIBS)
tests_unit_check_raster_SOURCES = tests/unit/check-raster.c
tests_unit_check_raster_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_raster_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-eval tests/unit/check-raster
