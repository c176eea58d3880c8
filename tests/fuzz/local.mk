# Fuzz targets, one per loader and for the PNG reader.  Each is a plain
# program whose main (replay-main.c) replays saved inputs in `make check`,
# or, configured with --enable-fuzzing (clang), a libFuzzer target that
# scripts/fuzz runs.  tests/fuzz/corpus/<target>/ holds the saved inputs
# (seeds and every crasher found, fixed and kept).
if FUZZING
FUZZ_MAIN_ =
FUZZ_LINKFLAGS_ = -fsanitize=fuzzer
FUZZ_DEFINES_ = -DBB_LIBFUZZER
else
FUZZ_MAIN_ = tests/fuzz/replay-main.c
FUZZ_LINKFLAGS_ =
FUZZ_DEFINES_ =
endif
FUZZ_CCFLAGS_ = $(AM_CFLAGS) $(FUZZ_DEFINES_)
FUZZ_LINKLIBS_ = $(CORE_LIBS)
EXTRA_DIST += tests/fuzz/replay-main.c
S = $(abs_top_srcdir)/samples

FUZZ_TARGETS = tests/fuzz/fuzz-native tests/fuzz/fuzz-skeleton \
	tests/fuzz/fuzz-dragonbones tests/fuzz/fuzz-dragonbones-atlas \
	tests/fuzz/fuzz-cocos-json tests/fuzz/fuzz-cocos-xml \
	tests/fuzz/fuzz-cocos-plist tests/fuzz/fuzz-ssajson \
	tests/fuzz/fuzz-forge tests/fuzz/fuzz-spine tests/fuzz/fuzz-spine-atlas \
	tests/fuzz/fuzz-spine-binary \
	tests/fuzz/fuzz-png tests/fuzz/fuzz-png-encode tests/fuzz/fuzz-batch
check_PROGRAMS += $(FUZZ_TARGETS)

# every loader, picked by sniffing
tests_fuzz_fuzz_native_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_native_CFLAGS = $(FUZZ_CCFLAGS_)
tests_fuzz_fuzz_native_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_native_LDADD = $(FUZZ_LINKLIBS_)
# one loader each
tests_fuzz_fuzz_skeleton_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_skeleton_CFLAGS = $(FUZZ_CCFLAGS_) -DFUZZ_FORMAT='"bonebake-skeleton"'
tests_fuzz_fuzz_skeleton_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_skeleton_LDADD = $(FUZZ_LINKLIBS_)
tests_fuzz_fuzz_dragonbones_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_dragonbones_CFLAGS = $(FUZZ_CCFLAGS_) -DFUZZ_FORMAT='"dragonbones"'
tests_fuzz_fuzz_dragonbones_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_dragonbones_LDADD = $(FUZZ_LINKLIBS_)
tests_fuzz_fuzz_cocos_json_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_cocos_json_CFLAGS = $(FUZZ_CCFLAGS_) -DFUZZ_FORMAT='"cocos-json"'
tests_fuzz_fuzz_cocos_json_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_cocos_json_LDADD = $(FUZZ_LINKLIBS_)
tests_fuzz_fuzz_cocos_xml_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_cocos_xml_CFLAGS = $(FUZZ_CCFLAGS_) -DFUZZ_FORMAT='"cocos-xml"'
tests_fuzz_fuzz_cocos_xml_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_cocos_xml_LDADD = $(FUZZ_LINKLIBS_)
tests_fuzz_fuzz_ssajson_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_ssajson_CFLAGS = $(FUZZ_CCFLAGS_) -DFUZZ_FORMAT='"ssajson"'
tests_fuzz_fuzz_ssajson_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_ssajson_LDADD = $(FUZZ_LINKLIBS_)
# a file a sample refers to: the DragonBones atlas, the Cocos plist
tests_fuzz_fuzz_dragonbones_atlas_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_dragonbones_atlas_CFLAGS = $(FUZZ_CCFLAGS_) \
	-DFUZZ_MAIN='"$(S)/dragonbones/rig_ske.json"' -DFUZZ_REF='"rig_tex.json"'
tests_fuzz_fuzz_dragonbones_atlas_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_dragonbones_atlas_LDADD = $(FUZZ_LINKLIBS_)
tests_fuzz_fuzz_cocos_plist_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_cocos_plist_CFLAGS = $(FUZZ_CCFLAGS_) \
	-DFUZZ_MAIN='"$(S)/cocos/lamp.ExportJson"' -DFUZZ_REF='"lamp0.plist"'
tests_fuzz_fuzz_cocos_plist_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_cocos_plist_LDADD = $(FUZZ_LINKLIBS_)
# Spine: the skeleton beside the sample's atlas and page, or the atlas
# beside the sample's skeleton and page
tests_fuzz_fuzz_spine_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_spine_CFLAGS = $(FUZZ_CCFLAGS_) \
	-DFUZZ_MAIN='"$(S)/spine/keeper.json"' -DFUZZ_REF='"keeper.json"'
tests_fuzz_fuzz_spine_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_spine_LDADD = $(FUZZ_LINKLIBS_)
tests_fuzz_fuzz_spine_atlas_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_spine_atlas_CFLAGS = $(FUZZ_CCFLAGS_) \
	-DFUZZ_MAIN='"$(S)/spine/keeper.json"' -DFUZZ_REF='"keeper.atlas"'
tests_fuzz_fuzz_spine_atlas_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_spine_atlas_LDADD = $(FUZZ_LINKLIBS_)
# Spine binary (.skel): the sample's binary beside its atlas and page (the
# seeds in corpus/spine-binary/ are small 3.8, 4.0 and 4.1 files written
# for it; the 4.2 one is the sample)
tests_fuzz_fuzz_spine_binary_SOURCES = tests/fuzz/fuzz-load.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_spine_binary_CFLAGS = $(FUZZ_CCFLAGS_) \
	-DFUZZ_MAIN='"$(S)/spine/keeper.skel"' -DFUZZ_REF='"keeper.skel"'
tests_fuzz_fuzz_spine_binary_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_spine_binary_LDADD = $(FUZZ_LINKLIBS_)
# Forge: the armature or its block model (first byte)
tests_fuzz_fuzz_forge_SOURCES = tests/fuzz/fuzz-forge.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_forge_CFLAGS = $(FUZZ_CCFLAGS_) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_fuzz_fuzz_forge_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_forge_LDADD = $(FUZZ_LINKLIBS_)
# PNG reading: the fast path against libpng
tests_fuzz_fuzz_png_SOURCES = tests/fuzz/fuzz-png.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_png_CFLAGS = $(FUZZ_CCFLAGS_)
tests_fuzz_fuzz_png_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_png_LDADD = $(FUZZ_LINKLIBS_)
tests_fuzz_fuzz_png_encode_SOURCES = tests/fuzz/fuzz-png-encode.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_png_encode_CFLAGS = $(FUZZ_CCFLAGS_)
tests_fuzz_fuzz_png_encode_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_png_encode_LDADD = $(FUZZ_LINKLIBS_)
# batch manifests
tests_fuzz_fuzz_batch_SOURCES = tests/fuzz/fuzz-batch.c $(FUZZ_MAIN_)
tests_fuzz_fuzz_batch_CFLAGS = $(FUZZ_CCFLAGS_)
tests_fuzz_fuzz_batch_LDFLAGS = $(FUZZ_LINKFLAGS_)
tests_fuzz_fuzz_batch_LDADD = $(FUZZ_LINKLIBS_)

TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/fuzz/replay.sh tests/fuzz/corpus
