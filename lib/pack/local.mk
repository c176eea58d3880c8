# lib/pack — owned by the pack work (issue 4)
lib_libbonebake_core_la_SOURCES += \
	lib/pack/pack-int.h \
	lib/pack/maxrects.h \
	lib/pack/maxrects.c \
	lib/pack/layout.c \
	lib/pack/compose.c \
	lib/pack/parallel.c \
	lib/pack/sheet.c \
	lib/pack/files.c \
	lib/pack/write-json.c \
	lib/pack/write-atlas.c \
	lib/pack/write-plist.c \
	lib/pack/write-godot.c
bonebakeinclude_HEADERS += lib/include/bonebake/pack.h

# CLI: `pack`, and the options `sheet` shares (frames.json is read with
# jansson, hence the flags)
src_bonebake_SOURCES += \
	src/cmd-pack.c \
	src/pack-options.c \
	src/pack-options.h
src_bonebake_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
src_bonebake_LDADD += $(JANSSON_LIBS)

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
tests_tools_gen_sprites_LDADD = lib/libbonebake-core.la -lm
tests_tools_pack_verify_SOURCES = tests/tools/pack-verify.c
tests_tools_pack_verify_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
tests_tools_pack_verify_LDADD = lib/libbonebake-core.la $(JANSSON_LIBS) -lm
TESTS += tests/cli/pack.sh tests/cli/pack-verify.sh tests/cli/pack-folders.sh
EXTRA_DIST += tests/cli/pack.sh tests/cli/pack-verify.sh tests/cli/pack-folders.sh

check_PROGRAMS += tests/unit/check-pack-meta
tests_unit_check_pack_meta_SOURCES = tests/unit/check-pack-meta.c \
	tests/unit/pack-fixtures.c tests/unit/pack-fixtures.h
tests_unit_check_pack_meta_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_pack_meta_LDADD = $(CHECK_TEST_LIBS) $(JANSSON_LIBS)
TESTS += tests/unit/check-pack-meta
