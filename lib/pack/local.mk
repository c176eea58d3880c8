# lib/pack — owned by the pack work (issue 4)
lib_libbonebake_core_la_SOURCES += \
	lib/pack/pack-int.h \
	lib/pack/maxrects.c \
	lib/pack/compose.c \
	lib/pack/sheet.c \
	lib/pack/files.c \
	lib/pack/write-json.c \
	lib/pack/write-atlas.c \
	lib/pack/write-plist.c \
	lib/pack/write-godot.c
bonebakeinclude_HEADERS += lib/include/bonebake/pack.h

# Tests
check_PROGRAMS += tests/unit/check-pack
tests_unit_check_pack_SOURCES = tests/unit/check-pack.c \
	tests/unit/pack-fixtures.c tests/unit/pack-fixtures.h
tests_unit_check_pack_CFLAGS = $(CHECK_TEST_CFLAGS)
tests_unit_check_pack_LDADD = $(CHECK_TEST_LIBS)
TESTS += tests/unit/check-pack
