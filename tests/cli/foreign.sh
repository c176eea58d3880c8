#!/bin/sh
# Files bonebake does not read but recognises get what they are and what
# to do, by content whatever their name: a Git LFS pointer (as the input,
# as a texture, as a frame to pack or diff), a DragonBones binary, a
# Spriter project (.scml XML and .scon JSON).  Exit 3, one line.
. "$(dirname "$0")/lib.sh"
lfs() {
	printf 'version https://git-lfs.github.com/spec/v1\n'
	printf 'oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n'
	printf 'size 12345\n'
}
one_line() {
	checks=$((checks + 1))
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$last: not one line: $err"
}
LFS_MSG='a Git LFS pointer, not the file itself: fetch the file \(`git lfs pull`'

lfs >"$T/hero_ske.json"
run "$BONEBAKE" render "$T/hero_ske.json" -o "$T/out"
expect_rc 3; expect_err "^bonebake: hero_ske.json: $LFS_MSG"; one_line
expect_absent "$T/out"

# a texture that is a pointer: named through the field that refers to it
mkdir "$T/db"
cp "$SAMPLES/dragonbones/rig_ske.json" "$SAMPLES/dragonbones/rig_tex.json" "$T/db/"
lfs >"$T/db/rig_tex.png"
run "$BONEBAKE" render "$T/db/rig_ske.json" -o "$T/out"
expect_rc 3; expect_err "rig_tex.json: imagePath: page \"rig_tex.png\": not a PNG file: $LFS_MSG"
one_line

# frames to pack or compare
mkdir "$T/frames" "$T/a" "$T/b"
"$BONEBAKE" render "$SAMPLES/slime.json" --anim blink -o "$T/r" --quiet || fail "render"
cp "$T/r/blink/blink_0000.png" "$T/frames/a.png"
lfs >"$T/frames/b.png"
run "$BONEBAKE" pack "$T/frames" -o "$T/packed"
expect_rc 3; expect_err "b.png: not a PNG file: $LFS_MSG"
cp "$T/r/blink/blink_0000.png" "$T/a/f.png"
lfs >"$T/b/f.png"
run "$BONEBAKE" diff "$T/a/f.png" "$T/b/f.png"
expect_err "f.png: not a PNG file: $LFS_MSG"

# DragonBones binary, by content under any name
printf 'DBDT\001\000\000\000\024\000\000\000{"frameRate":24}' >"$T/hero.bin"
run "$BONEBAKE" info "$T/hero.bin"
expect_rc 3
expect_err '^bonebake: hero.bin: a DragonBones binary \(\.dbbin\): bonebake reads DragonBones JSON; export the armature with data type JSON$'
one_line

# Spriter, XML and JSON
cat >"$T/knight.scml" <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<spriter_data scml_version="1.0" generator="BrashMonkey Spriter" generator_version="r11">
    <folder id="0"/>
    <entity id="0" name="knight"/>
</spriter_data>
X
run "$BONEBAKE" info "$T/knight.scml"
expect_rc 3
expect_err '^bonebake: knight.scml: a Spriter project \(\.scml\), which bonebake does not read: export PNG frames from Spriter and pack them with `bonebake pack`$'
one_line
printf '{"entity": [], "folder": [], "generator": "BrashMonkey Spriter", "scon_version": "1.0"}\n' >"$T/knight.scon"
run "$BONEBAKE" render "$T/knight.scon" -o "$T/out"
expect_rc 3; expect_err '^bonebake: knight.scon: a Spriter project \(\.scon\)'; one_line
expect_absent "$T/out"

# an unknown document still lists what bonebake reads
printf '{"hello": 1}\n' >"$T/x.json"
run "$BONEBAKE" info "$T/x.json"
expect_rc 3; expect_err '^bonebake: x.json: not a format bonebake reads \(bonebake-skeleton, '
pass
