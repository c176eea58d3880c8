#!/bin/sh
# Figures stand still when a sprite switches animation, in every format
# sheet writes.  tests/cli/engine-place.py places each frame as the engine
# would from the metadata alone (PixiJS/Phaser reading the TexturePacker
# JSON anchor, Godot 4's AnimatedSprite2D centring a SpriteFrames
# AtlasTexture with its margin, libGDX's AtlasSprite with the atlas
# offsets, cocos2d-x's Sprite with plist format 3's spriteOffset, with its
# default anchor and with the plist's anchor), checks the drawn pixels
# against `bonebake render`, and gives where the figure origin lands on the
# screen.  Godot, libGDX and cocos2d-x do not install from the package
# registries reached here, so those readers follow the engines' documented
# formats (see the script's header); PixiJS and Phaser 3 themselves run in
# tests/engines/roundtrip.sh.
#
# sheet's default canvas (one per armature, --canvas union): the origin
# lands on the same screen pixel for every frame of walk, attack and jump,
# in every format.  --canvas auto (one canvas per animation): the formats
# that place the untrimmed frame (Godot, libGDX, cocos2d's default anchor)
# move the figure between animations, which is what the default prevents;
# the ones that read the pivot (JSON anchor, plist anchor) still hold.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || unavailable "python3 is needed"
H="$SAMPLES/humanoid.json"
PLACE="$top_srcdir/tests/cli/engine-place.py"
set -- --anim walk --anim attack --anim jump --quiet

# spread FORMAT SHEET RENDER still|moves: the largest distance, in pixels,
# between two frames' screen origins (and the move from walk's last frame
# to attack's first) must be 0 (within the pivots' 6 decimals) or not
spread() {
	python3 "$PLACE" "$1" "$2" "$3" >"$T/placed.json" || fail "$1: frames placed wrong ($2)"
	python3 - "$T/placed.json" "$1" "$4" <<'PY' || fail "$1 ($2): the origin does not hold as it should"
import json, sys
d = json.load(open(sys.argv[1]))
xs, ys = [p[2] for p in d], [p[3] for p in d]
assert sorted(set(p[0] for p in d)) == ["attack", "jump", "walk"]
last = max((p for p in d if p[0] == "walk"), key=lambda p: p[1])
first = min((p for p in d if p[0] == "attack"), key=lambda p: p[1])
most = max(max(xs) - min(xs), max(ys) - min(ys))
print("%s: the origin moves up to %.3f px; walk->attack %.3f,%.3f" % (
    sys.argv[2], most, first[2] - last[2], first[3] - last[3]))
if sys.argv[3] == "still":
    assert most < 0.01
else:
    assert most >= 1
PY
	checks=$((checks + 1))
}

run "$BONEBAKE" sheet "$H" -o "$T/u" "$@" --format json,libgdx,cocos2d,godot
expect_rc 0
run "$BONEBAKE" render "$H" -o "$T/ru" "$@" --canvas union
expect_rc 0
for f in json godot libgdx cocos2d cocos2d-anchor; do
	spread $f "$T/u" "$T/ru" still
done

run "$BONEBAKE" sheet "$H" -o "$T/a" "$@" --format json,libgdx,cocos2d,godot --canvas auto
expect_rc 0
run "$BONEBAKE" render "$H" -o "$T/ra" "$@"
expect_rc 0
for f in godot libgdx cocos2d; do
	spread $f "$T/a" "$T/ra" moves
done
for f in json cocos2d-anchor; do
	spread $f "$T/a" "$T/ra" still
done
pass
