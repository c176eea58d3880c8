# Unit tests (Check), one binary per module; reference images; CLI tests;
# fuzz replays (tests/fuzz/local.mk).
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
tests_ref_ref_test_LDADD = $(CORE_LIBS)
TESTS += tests/ref/ref-test
EXTRA_DIST += tests/ref/images
CLEANFILES += tests/ref/*.out.png tests/ref/*.diff.png


# CLI tests
TESTS += tests/cli/render.sh tests/cli/bad-input.sh
EXTRA_DIST += tests/cli/render.sh tests/cli/bad-input.sh tests/cli/pngsize.py
TESTS += tests/include-rules.sh
EXTRA_DIST += tests/include-rules.sh

# Official-runtime poses (skip without ../shared)
TESTS += tests/oracle/dragonbones.sh
EXTRA_DIST += tests/oracle/dragonbones.sh tests/oracle/compare-dragonbones.py
TESTS += tests/cli/sheet.sh tests/cli/modes.sh tests/cli/foreign.sh tests/cli/options.sh
EXTRA_DIST += tests/cli/sheet.sh tests/cli/modes.sh tests/cli/foreign.sh tests/cli/options.sh
TESTS += tests/cli/sheet-pivots.sh tests/cli/sheet-variants.sh
EXTRA_DIST += tests/cli/sheet-pivots.sh tests/cli/sheet-variants.sh tests/cli/engine-place.py
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
# Spine (issue 17): poses against the official runtime
TESTS += tests/oracle/spine.sh tests/oracle/spine-versions.sh \
	tests/oracle/spine-skel.sh
EXTRA_DIST += tests/oracle/spine.sh tests/oracle/spine-versions.sh \
	tests/oracle/spine-skel.sh tests/oracle/compare-spine.py
TESTS += tests/cli/bad-spine.sh
EXTRA_DIST += tests/cli/bad-spine.sh
# Spine binaries: bad input; the decoded document against the JSON export
# beside it
TESTS += tests/cli/bad-spine-binary.sh tests/oracle/spine-binary.sh
EXTRA_DIST += tests/cli/bad-spine-binary.sh tests/oracle/spine-binary.sh \
	tests/oracle/compare-spine-binary.py
check_PROGRAMS += tests/unit/check-spine-binary
tests_unit_check_spine_binary_SOURCES = tests/unit/check-spine-binary.c
tests_unit_check_spine_binary_CFLAGS = $(CHECK_TEST_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_check_spine_binary_LDADD = $(CHECK_TEST_LIBS) $(JANSSON_LIBS)
TESTS += tests/unit/check-spine-binary
check_PROGRAMS += tests/tools/skel2json
tests_tools_skel2json_SOURCES = tests/tools/skel2json.c
tests_tools_skel2json_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_tools_skel2json_LDADD = $(CORE_LIBS) $(JANSSON_LIBS)
check_PROGRAMS += tests/unit/check-spine
tests_unit_check_spine_SOURCES = tests/unit/check-spine.c
tests_unit_check_spine_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_spine_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-spine
# core/json.h, the readers every JSON document is read through
check_PROGRAMS += tests/unit/check-json
tests_unit_check_json_SOURCES = tests/unit/check-json.c
tests_unit_check_json_CFLAGS = $(CHECK_TEST_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_check_json_LDADD = $(CHECK_TEST_LIBS) $(JANSSON_LIBS)
TESTS += tests/unit/check-json

# Previews (issue 13): the decoder the tests read previews back with
check_PROGRAMS += tests/tools/anim-probe
tests_tools_anim_probe_SOURCES = tests/tools/anim-probe.c \
	tests/tools/anim-read.c tests/tools/anim-read.h
tests_tools_anim_probe_CFLAGS = $(AM_CFLAGS) $(WEBPDEMUX_CFLAGS) $(GIF_CFLAGS) \
	$(ZLIB_CFLAGS)
tests_tools_anim_probe_LDADD = $(CORE_LIBS) $(WEBPDEMUX_LIBS) \
	$(WEBP_LIBS) $(GIF_LIBS) $(ZLIB_LIBS) -lm
check_PROGRAMS += tests/unit/check-anim
tests_unit_check_anim_SOURCES = tests/unit/check-anim.c \
	tests/tools/anim-read.c tests/tools/anim-read.h
tests_unit_check_anim_CFLAGS = $(CHECK_TEST_CFLAGS) $(WEBPDEMUX_CFLAGS) \
	$(GIF_CFLAGS) $(ZLIB_CFLAGS)
tests_unit_check_anim_LDADD = $(CHECK_TEST_LIBS) $(WEBPDEMUX_LIBS) \
	$(WEBP_LIBS) $(GIF_LIBS) $(ZLIB_LIBS)
TESTS += tests/unit/check-anim tests/cli/preview.sh
EXTRA_DIST += tests/cli/preview.sh
# Video previews (issue 25), read back with ffprobe/ffmpeg
TESTS += tests/cli/video.sh
EXTRA_DIST += tests/cli/video.sh
# (run by scripts/test on a second build configured --without-video)
EXTRA_DIST += tests/cli/novideo.sh
TESTS += tests/cli/gallery.sh tests/cli/gallery-chromium.sh
EXTRA_DIST += tests/cli/gallery.sh tests/cli/gallery-chromium.sh
# the gallery's <video> plays render --preview webm (issue 25)
TESTS += tests/cli/gallery-video.sh
EXTRA_DIST += tests/cli/gallery-video.sh tests/cli/gallery-video.mjs
# Real exports of ../shared/corpus (DragonBones, Cocos, Forge): every
# animation of every armature renders, no frame blank, only the warnings
# tests/oracle/corpus.list expects
check_PROGRAMS += tests/tools/blank-frames
tests_tools_blank_frames_SOURCES = tests/tools/blank-frames.c
tests_tools_blank_frames_LDADD = $(CORE_LIBS)
TESTS += tests/oracle/corpus.sh
EXTRA_DIST += tests/oracle/corpus.sh tests/oracle/corpus.py tests/oracle/corpus.list
TESTS += tests/cli/setup-pose.sh tests/cli/dragonbones-atlas.sh tests/cli/cocos-atlas.sh
EXTRA_DIST += tests/cli/setup-pose.sh tests/cli/dragonbones-atlas.sh tests/cli/cocos-atlas.sh
# Engine round trips in headless Chromium (PixiJS, Phaser 3), with the npm
# packages pinned by tests/node (scripts/test installs them into build/node)
TESTS += tests/engines/roundtrip.sh
EXTRA_DIST += tests/engines/roundtrip.sh tests/engines/roundtrip.mjs \
	tests/engines/pixi.html tests/engines/phaser.html tests/engines/capture.js \
	tests/engines/pixi-variants.html tests/engines/phaser-variants.html \
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

# diff, PNG, pack
check_PROGRAMS += tests/unit/check-diff tests/cli/diff-mkpng
tests_unit_check_diff_SOURCES = tests/unit/check-diff.c
tests_unit_check_diff_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_diff_LDADD = $(CHECK_TEST_LIBS)
tests_cli_diff_mkpng_SOURCES = tests/cli/diff-mkpng.c
tests_cli_diff_mkpng_LDADD = $(CORE_LIBS)

TESTS += tests/unit/check-diff tests/cli/diff.sh tests/cli/diff-folders.sh \
	tests/cli/diff-html.sh tests/cli/diff-pixelmatch.sh
EXTRA_DIST += tests/cli/diff.sh tests/cli/diff-folders.sh \
	tests/cli/diff-html.sh tests/cli/diff-pixelmatch.sh

# scripts/bench machine (and bench-peers' header): what a second thread
# can gain on this machine, for reading the benchmarks' two-thread ratios
check_PROGRAMS += tests/tools/machine-probe
tests_tools_machine_probe_SOURCES = tests/tools/machine-probe.c
tests_tools_machine_probe_LDADD = $(PTHREAD_LIBS)

# scripts/bench png: encoder settings against libpng's simplified API
# (links libpng and zlib itself for the baselines)
check_PROGRAMS += tests/tools/png-bench
tests_tools_png_bench_SOURCES = tests/tools/png-bench.c
tests_tools_png_bench_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS)
tests_tools_png_bench_LDADD = $(CORE_LIBS) $(PNG_LIBS) -lz -lm

# The encoder's unit tests
check_PROGRAMS += tests/unit/check-png
tests_unit_check_png_SOURCES = tests/unit/check-png.c
tests_unit_check_png_CFLAGS = $(CHECK_TEST_CFLAGS) $(LIBDEFLATE_CFLAGS)
tests_unit_check_png_LDADD = $(CHECK_TEST_LIBS) $(LIBDEFLATE_LIBS)
TESTS += tests/unit/check-png tests/cli/png-level.sh tests/cli/png-fast.sh
EXTRA_DIST += tests/cli/png-level.sh tests/cli/png-fast.sh


# Tests
check_PROGRAMS += tests/unit/check-pack
tests_unit_check_pack_SOURCES = tests/unit/check-pack.c \
	tests/unit/pack-fixtures.c tests/unit/pack-fixtures.h
tests_unit_check_pack_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_pack_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-pack

# Sprites for the CLI tests and scripts/bench-pack, and the reference
# check of written sheets
check_PROGRAMS += tests/tools/gen-sprites tests/tools/pack-verify
tests_tools_gen_sprites_SOURCES = tests/tools/gen-sprites.c
tests_tools_gen_sprites_LDADD = $(CORE_LIBS)
tests_tools_pack_verify_SOURCES = tests/tools/pack-verify.c
tests_tools_pack_verify_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_tools_pack_verify_LDADD = $(CORE_LIBS) $(JANSSON_LIBS)
TESTS += tests/cli/pack.sh tests/cli/pack-verify.sh tests/cli/pack-folders.sh
EXTRA_DIST += tests/cli/pack.sh tests/cli/pack-verify.sh tests/cli/pack-folders.sh

check_PROGRAMS += tests/unit/check-pack-meta
tests_unit_check_pack_meta_SOURCES = tests/unit/check-pack-meta.c \
	tests/unit/pack-fixtures.c tests/unit/pack-fixtures.h
tests_unit_check_pack_meta_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_pack_meta_LDADD = $(CHECK_TEST_LIBS) $(JANSSON_LIBS)
TESTS += tests/unit/check-pack-meta
# Write errors: full devices and file systems
TESTS += tests/cli/write-errors.sh
EXTRA_DIST += tests/cli/write-errors.sh
# PNG bombs under a 2 GiB address-space limit
TESTS += tests/cli/bombs.sh
EXTRA_DIST += tests/cli/bombs.sh
TESTS += tests/cli/filter.sh
EXTRA_DIST += tests/cli/filter.sh

# Raster: where a frame's time goes, the kept canvas, culling, filters
check_PROGRAMS += tests/tools/bench-raster
tests_tools_bench_raster_SOURCES = tests/tools/bench-raster.c \
	tests/tools/raster-error.c tests/tools/raster-error.h
tests_tools_bench_raster_LDADD = $(CORE_LIBS)

# The kept canvas, culling, texture filters
check_PROGRAMS += tests/unit/check-raster
tests_unit_check_raster_SOURCES = tests/unit/check-raster.c \
	tests/tools/raster-error.c tests/tools/raster-error.h
tests_unit_check_raster_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_raster_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-raster

# Byte-identical outputs of every kind whatever --jobs
TESTS += tests/cli/jobs-identical.sh
EXTRA_DIST += tests/cli/jobs-identical.sh
# Degenerate geometry and view scales
TESTS += tests/cli/degenerate.sh
EXTRA_DIST += tests/cli/degenerate.sh
# Files an input references: confined to its folder, recorded (issue 14.2)
TESTS += tests/cli/referenced-files.sh
EXTRA_DIST += tests/cli/referenced-files.sh
# The evaluator, module by module, on small models made with the builder
check_PROGRAMS += tests/unit/check-eval
tests_unit_check_eval_SOURCES = tests/unit/check-eval.c
tests_unit_check_eval_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_eval_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-eval

# Review in CI (issue 21): stable canvases, warnings and --strict
TESTS += tests/cli/canvas-strict.sh tests/cli/diff-anims.sh tests/cli/ci-recipe.sh
EXTRA_DIST += tests/cli/canvas-strict.sh tests/cli/diff-anims.sh \
	tests/cli/ci-recipe.sh examples/ci/bonebake-review.sh \
	examples/ci/animation-review.yml
CLEANFILES += tests/cli/ci-recipe-report.png

# Untrusted input and batch in CI (issue 22)
TESTS += tests/cli/escapes.sh tests/cli/stage-sweep.sh tests/cli/batch-manifest.sh \
	tests/cli/untrusted-gallery.sh tests/cli/batch-stale.sh tests/cli/memory.sh \
	tests/cli/batch-cancel.sh tests/cli/sheet-swap.sh
EXTRA_DIST += tests/cli/escapes.sh tests/cli/stage-sweep.sh tests/cli/batch-manifest.sh \
	tests/cli/untrusted-gallery.sh tests/cli/batch-stale.sh tests/cli/memory.sh \
	tests/cli/batch-cancel.sh tests/cli/sheet-swap.sh
