#!/bin/sh
# bonebake sheet: render + pack in one go.  Every sheet frame, cut out and
# pasted at its recorded offset, equals the frame `bonebake render` writes
# for the same options, pixel for pixel (sheet's default canvas is render's
# --canvas union: one per armature; with --canvas auto, render's default);
# metadata carries fps, loop and the pivot (the figure origin); failures
# leave nothing behind.
. "$(dirname "$0")/lib.sh"
H="$SAMPLES/humanoid.json"
VERIFY="$top_builddir/tests/tools/pack-verify"
[ -x "$VERIFY" ] || skip "tests/tools/pack-verify not built"
command -v python3 >/dev/null || skip "python3 is needed"

run "$BONEBAKE" sheet "$H" -o "$T/s" --anim walk --anim attack --quiet --format json,libgdx,godot
expect_rc 0
for f in sheet.json sheet.png sheet.atlas sheet.tres; do
	[ -f "$T/s/$f" ] || fail "sheet did not write $f: $(ls "$T/s")"
done
run "$BONEBAKE" render "$H" -o "$T/r" --anim walk --anim attack --quiet --canvas union
expect_rc 0
# frame names are <anim>_NNNN, the render's file names without .png
run "$VERIFY" "$T/s/sheet.json" -- "$T"/r/walk/*.png "$T"/r/attack/*.png
expect_rc 0
expect_out ' 0 problems'
python3 - "$T/s/sheet.json" "$T/r/walk/frames.json" <<'PY' || fail "sheet metadata is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
assert len(d["frames"]) == 24 + 16, len(d["frames"])
assert d["animations"]["walk"] == [f"walk_{i:04d}" for i in range(24)]
pb = d["meta"]["playback"]
assert pb["walk"]["fps"] == 30 and pb["walk"]["loop"] is True and pb["attack"]["loop"] is False
f = d["frames"]["walk_0003"]
w, h = r["canvas"]["width"], r["canvas"]["height"]
assert f["sourceSize"] == {"w": w, "h": h}, (f, w, h)
assert abs(f["pivot"]["x"] * w - r["origin"]["x"]) < 1e-3, (f, r["origin"])
assert abs(f["pivot"]["y"] * h - r["origin"]["y"]) < 1e-3
# one canvas and origin for both animations
g = d["frames"]["attack_0005"]
assert g["sourceSize"] == f["sourceSize"] and g["pivot"] == f["pivot"], (f, g)
PY
checks=$((checks + 1))

# --canvas auto: each animation's own canvas, as render's default
run "$BONEBAKE" sheet "$H" -o "$T/sa" --anim walk --anim attack --quiet --canvas auto
expect_rc 0
run "$BONEBAKE" render "$H" -o "$T/ra" --anim walk --anim attack --quiet
expect_rc 0
run "$VERIFY" "$T/sa/sheet.json" -- "$T"/ra/walk/*.png "$T"/ra/attack/*.png
expect_rc 0
expect_out ' 0 problems'
python3 - "$T/sa/sheet.json" <<'PY' || fail "--canvas auto: the animations share a canvas"
import json, sys
d = json.load(open(sys.argv[1]))["frames"]
assert d["walk_0003"]["sourceSize"] != d["attack_0005"]["sourceSize"]
PY
checks=$((checks + 1))

# the same sheet twice: identical bytes, whatever the thread count
run "$BONEBAKE" sheet "$H" -o "$T/s2" --anim walk --anim attack --quiet --jobs 1 --format json,libgdx,godot
expect_rc 0
diff -r "$T/s" "$T/s2" >/dev/null || fail "two sheets differ"
checks=$((checks + 1))

# too big for one page without --multipack: a clear error, nothing written
run "$BONEBAKE" sheet "$H" -o "$T/big" --max-size 256 --quiet
expect_rc 3
expect_err 'do not fit'
expect_absent "$T/big"
run "$BONEBAKE" sheet "$H" -o "$T/bad" --anim nope
expect_rc 2
expect_absent "$T/bad"
# a usage error names the command that was run
run "$BONEBAKE" sheet "$H" -o "$T/bad" --canvas native --size 10x10
expect_rc 2
expect_err '^bonebake sheet: --canvas native and --size exclude each other'
expect_absent "$T/bad"
run "$BONEBAKE" sheet --help
expect_rc 0
expect_out 'usage: bonebake sheet'
pass
