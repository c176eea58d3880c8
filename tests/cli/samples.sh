#!/bin/sh
# Every bundled sample renders every animation of every armature, from a
# path relative to the current folder, with nothing on stderr (no warning:
# the samples ship all their textures and atlases).
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || fail "no source tree"
for f in samples/humanoid.json samples/slime.json samples/snake.json \
	samples/dragonbones/rig_ske.json samples/dragonbones/mesh_ske.json \
	samples/dragonbones/old_ske.json \
	samples/cocos/lamp.ExportJson samples/cocos/bird.xml \
	samples/ssajson/demo.json samples/spine/keeper.json samples/spine/keeper.skel \
	samples/forge/assets/bbsample/armatures/block/lidbox.json; do
	[ -f "$f" ] || fail "missing sample $f"
	rm -rf "$T/out"
	run "$BONEBAKE" render "$f" --all -o "$T/out" --quiet --jobs 2
	expect_rc 0
	[ -z "$err" ] || fail "$f: unexpected stderr: $err"
	n=$(find "$T/out" -name '*.png' | wc -l)
	[ "$n" -gt 0 ] || fail "$f: no frames"
	echo "$f: $n frames"
done
pass
