#!/bin/sh
# sheet --variants: scale variants rendered again from the skeleton.  Each
# variant equals `bonebake render` at --scale times its scale (sharp, not
# resampled), is packed with the same options, and is written next to the
# base as NAME@Sx.* (NAME.* for scale 1; LABEL=S pairs: NAME@2x.* for
# labels starting with @, NAME-LABEL.* for the others) in every format
# asked for, with meta.scale = S, the same frame names in the same order
# and each pivot in its own pixels.  Bad lists exit 2; a variant that fails
# leaves nothing behind.  PixiJS and Phaser 3 load them in
# tests/engines/roundtrip.sh.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || unavailable "python3 is needed"
H="$SAMPLES/humanoid.json"
VERIFY="$top_builddir/tests/tools/pack-verify"
[ -x "$VERIFY" ] || skip "tests/tools/pack-verify not built"
PLACE="$top_srcdir/tests/cli/engine-place.py"
set -- --anim walk --anim attack --scale 0.5 --quiet
FORMATS=json,libgdx,godot,cocos2d,phaser3

run "$BONEBAKE" sheet "$H" -o "$T/v" "$@" --variants 1,2 --format $FORMATS
expect_rc 0
for n in sheet sheet@2x; do
	for e in png json atlas tres plist multiatlas.json; do
		[ -f "$T/v/$n.$e" ] || fail "--variants 1,2 did not write $n.$e: $(ls "$T/v")"
	done
done
checks=$((checks + 1))

# each variant is the render at its own scale, pixel for pixel
run "$BONEBAKE" render "$H" -o "$T/r1" "$@" --canvas union
expect_rc 0
run "$BONEBAKE" render "$H" -o "$T/r2" --anim walk --anim attack --scale 1 --quiet --canvas union
expect_rc 0
for v in "sheet r1" "sheet@2x r2"; do
	run "$VERIFY" "$T/v/${v% *}.json" -- "$T/${v#* }"/walk/*.png "$T/${v#* }"/attack/*.png
	expect_rc 0
	expect_out ' 0 problems'
done

# meta.scale, names and order, pivots in each variant's pixels
python3 - "$T/v" "$T/r1" "$T/r2" <<'PY' || fail "the variants' metadata is wrong"
import json, os, re, sys
d, r1, r2 = sys.argv[1:]
a = json.load(open(os.path.join(d, "sheet.json")))
b = json.load(open(os.path.join(d, "sheet@2x.json")))
assert a["meta"]["scale"] == "1" and b["meta"]["scale"] == "2", (a["meta"]["scale"], b["meta"]["scale"])
assert b["meta"]["image"] == "sheet@2x.png"
assert list(a["frames"]) == list(b["frames"]) and len(a["frames"]) == 40
assert a["animations"] == b["animations"]
assert {x["key"] for an in b["anims"] for x in an["frames"]} == {"sheet@2x"}
m = json.load(open(os.path.join(d, "sheet@2x.multiatlas.json")))
assert m["textures"][0]["scale"] == 2 and m["textures"][0]["image"] == "sheet@2x.png"
for name in a["frames"]:
    anim = name.rsplit("_", 1)[0]
    for f, r, k in ((a["frames"][name], r1, 1), (b["frames"][name], r2, 2)):
        fj = json.load(open(os.path.join(r, anim, "frames.json")))
        w, h = fj["canvas"]["width"], fj["canvas"]["height"]
        assert f["sourceSize"] == {"w": w, "h": h}, (name, k, f["sourceSize"], w, h)
        assert abs(f["pivot"]["x"] * w - fj["origin"]["x"]) < 1e-3, (name, k)
        assert abs(f["pivot"]["y"] * h - fj["origin"]["y"]) < 1e-3, (name, k)
    fa, fb = a["frames"][name], b["frames"][name]
    # the same figure twice as large: the drawn size doubles (within the
    # edge pixels' rounding)
    assert abs(fb["spriteSourceSize"]["w"] - 2 * fa["spriteSourceSize"]["w"]) <= 2, (name, fa, fb)
    assert abs(fb["spriteSourceSize"]["h"] - 2 * fa["spriteSourceSize"]["h"]) <= 2, (name, fa, fb)
# libGDX and Godot list the same frames in the same order
def order(path, pat):
    return re.findall(pat, open(os.path.join(d, path)).read())
assert order("sheet.tres", r'&"([^"]*)"') == order("sheet@2x.tres", r'&"([^"]*)"')
assert order("sheet@2x.tres", r'path="([^"]*)"') == ["sheet@2x.png"]
assert open(os.path.join(d, "sheet@2x.atlas")).readline().strip() == "sheet@2x.png"
PY
checks=$((checks + 1))
# every format's pivot holds the @2x origin still across animations
for f in json godot libgdx cocos2d; do
	python3 "$PLACE" $f "$T/v" "$T/r2" sheet@2x >"$T/placed.json" || fail "@2x $f: frames placed wrong"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert len(d) == 40 and max(p[2] for p in d) - min(p[2] for p in d) < 0.01 and \
    max(p[3] for p in d) - min(p[3] for p in d) < 0.01, d[:3]' "$T/placed.json" ||
		fail "@2x $f: the origin moves between frames"
	checks=$((checks + 1))
done

# the same bytes with one thread
run "$BONEBAKE" sheet "$H" -o "$T/v1" "$@" --variants 1,2 --format $FORMATS --jobs 1
expect_rc 0
diff -r "$T/v" "$T/v1" >/dev/null || fail "--variants: --jobs 1 writes other bytes"
checks=$((checks + 1))

# --scale without --variants: meta.scale stays 1 (the pages' pixels are
# the display's); labels name the files
run "$BONEBAKE" sheet "$H" -o "$T/s2" --anim walk --scale 1 --quiet
expect_rc 0
grep -q '"scale": "1"' "$T/s2/sheet.json" || fail "--scale 1 without variants: meta.scale is not 1"
checks=$((checks + 1))
run "$BONEBAKE" sheet "$H" -o "$T/sd" "$@" --variants sd=0.5,hd=1 --name hero
expect_rc 0
[ "$(ls "$T/sd" | tr '\n' ' ')" = "hero-hd.json hero-hd.png hero-sd.json hero-sd.png " ] ||
	fail "--variants sd=0.5,hd=1: $(ls "$T/sd")"
grep -q '"scale": "0.5"' "$T/sd/hero-sd.json" || fail "sd: meta.scale is not 0.5"
checks=$((checks + 2))
run "$BONEBAKE" sheet "$H" -o "$T/at" "$@" --variants @1x=1,@2x=2
expect_rc 0
[ "$(ls "$T/at" | tr '\n' ' ')" = "sheet@1x.json sheet@1x.png sheet@2x.json sheet@2x.png " ] ||
	fail "--variants @1x=1,@2x=2: $(ls "$T/at")"
cmp -s "$T/at/sheet@2x.png" "$T/v/sheet@2x.png" || fail "@2x=2 and 2 differ"
checks=$((checks + 2))

# a fixed canvas is in the base's pixels: each variant's grows with it
run "$BONEBAKE" sheet "$H" -o "$T/fx" --anim walk --quiet --scale 0.5 --size 160x240 --origin 80,230 --variants 1,2
expect_rc 0
python3 - "$T/fx" <<'PY' || fail "--size with --variants: the @2x canvas is not twice the size"
import json, os, sys
for n, k in (("sheet", 1), ("sheet@2x", 2)):
    f = json.load(open(os.path.join(sys.argv[1], n + ".json")))["frames"]["walk_0000"]
    assert f["sourceSize"] == {"w": 160 * k, "h": 240 * k}, (n, f)
    assert abs(f["pivot"]["x"] - 0.5) < 1e-6 and abs(f["pivot"]["y"] - 230 / 240) < 1e-6, (n, f)
PY
checks=$((checks + 1))

# previews come from the variant at scale 1
run "$BONEBAKE" sheet "$H" -o "$T/p" "$@" --variants 2,1 --preview apng
expect_rc 0
run "$BONEBAKE" sheet "$H" -o "$T/p1" "$@" --preview apng
expect_rc 0
cmp -s "$T/p/walk.apng" "$T/p1/walk.apng" || fail "--variants 2,1: the preview is not the scale-1 one"
checks=$((checks + 1))

# bad lists: exit 2, nothing written
for bad in "" 0 -1 2,2 1,,2 x 1000 a= =2 a/b=2 12=2 1,2,3,4,5,6,7,8,9; do
	run "$BONEBAKE" sheet "$H" -o "$T/bad" "$@" --variants "$bad"
	expect_rc 2
	expect_err "^bonebake sheet: --variants '"
	expect_absent "$T/bad"
done
# a variant that does not fit: exit 3 naming it, nothing written, an
# earlier sheet left as it was
run "$BONEBAKE" sheet "$H" -o "$T/big" "$@" --variants 1,2 --max-size 1024
expect_rc 3
expect_err 'variant sheet@2x, scale 2.*do not fit'
expect_absent "$T/big"
cp -r "$T/v" "$T/keep"
run "$BONEBAKE" sheet "$H" -o "$T/v" "$@" --variants 1,2 --max-size 1024 --format $FORMATS
expect_rc 3
diff -r "$T/v" "$T/keep" >/dev/null || fail "a failed --variants run changed the earlier sheet"
checks=$((checks + 1))
pass
