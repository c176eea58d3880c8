#!/bin/sh
# bonebake pack: exit codes and messages (0 ok, 2 usage, 3 bad input, 4 I/O),
# outputs, frames.json, determinism, and nothing left behind on failure.
. "$(dirname "$0")/lib.sh"
GEN="$top_builddir/tests/tools/gen-sprites"
[ -x "$GEN" ] || skip "tests/tools/gen-sprites not built"
mkdir "$T/in"
"$GEN" "$T/in" 60 || fail "gen-sprites failed"

# usage errors: exit 2, one message naming the problem, nothing written
usage() {  # STDERR-REGEX ARGS...
	re=$1
	shift
	run "$BONEBAKE" pack "$@"
	expect_rc 2
	expect_err "$re"
	expect_absent "$T/u"
}
usage 'expected folders or PNG files' -o "$T/u"
usage 'missing -o OUTDIR' "$T/in"
usage '--padding wants a whole number' "$T/in" -o "$T/u" --padding -1
usage '--max-size wants N or WxH' "$T/in" -o "$T/u" --max-size 0
usage "unknown --format 'xml'" "$T/in" -o "$T/u" --format json,xml
usage 'godot cannot show rotated sprites' "$T/in" -o "$T/u" --rotate --format godot
usage 'phaser3 cannot show rotated sprites' "$T/in" -o "$T/u" --rotate --format phaser3
usage 'opposite directions' "$T/in" -o "$T/u" --rotate --format libgdx,json
usage 'choose one' "$T/in" -o "$T/u" --format json,json-array
usage 'unknown option' "$T/in" -o "$T/u" --no-such-option
usage '--trim-alpha wants 0..254' "$T/in" -o "$T/u" --trim-alpha 255
usage "--name wants a plain file name" "$T/in" -o "$T/u" --name a/b

run "$BONEBAKE" pack --help
expect_rc 0
expect_out '--max-size'
expect_out '--multipack'

# a plain run: pages + JSON hash, a summary on stdout
run "$BONEBAKE" pack "$T/in" -o "$T/out"
expect_rc 0
expect_out 'sheet\.png: [0-9]+x[0-9]+'
expect_out '60 frames, [0-9]+ sprites, 1 page, occupancy [0-9.]+%'
[ -f "$T/out/sheet.png" ] && [ -f "$T/out/sheet.json" ] || fail "sheet files missing"
python3 - "$T/out/sheet.json" <<'PY' || fail "sheet.json content"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["frames"]
assert len(f) == 60, len(f)
# identical idle frames share one rectangle, names keep their own entry
assert f["idle_0003"]["frame"] == f["idle_0000"]["frame"]
assert d["animations"]["coin"] == ["coin_%04d" % i for i in range(12)]
assert d["meta"]["image"] == "sheet.png" and d["meta"]["scale"] == "1"
assert f["spark_0000"]["trimmed"] is True
PY
checks=$((checks + 1))

# every format at once, and a base name
run "$BONEBAKE" pack "$T/in" -o "$T/all" --name hero -q \
	--format json,phaser3,libgdx,cocos2d,godot
expect_rc 0
[ -z "$out" ] || fail "--quiet printed: $out"
for f in hero.png hero.json hero.multiatlas.json hero.atlas hero.plist hero.tres; do
	[ -f "$T/all/$f" ] || fail "$f missing"
done
checks=$((checks + 1))

# the same result whatever order the files are listed in
ls "$T/in"/*.png >"$T/list"
sort -r "$T/list" >"$T/rlist"
run "$BONEBAKE" pack $(cat "$T/list") -o "$T/o1" -q --rotate
expect_rc 0
run "$BONEBAKE" pack $(cat "$T/rlist") -o "$T/o2" -q --rotate
expect_rc 0
cmp -s "$T/o1/sheet.png" "$T/o2/sheet.png" || fail "page differs with input order"
cmp -s "$T/o1/sheet.json" "$T/o2/sheet.json" || fail "metadata differs with input order"
checks=$((checks + 1))

# does not fit: bad input (3) naming --multipack; with it, several pages
run "$BONEBAKE" pack "$T/in" -o "$T/small" --max-size 160
expect_rc 3
expect_err 'do not fit on one 160x160 page.*multipack'
expect_absent "$T/small"
run "$BONEBAKE" pack "$T/in" -o "$T/small" --max-size 160 --multipack \
	--format json,libgdx
expect_rc 0
expect_out 'sheet-1\.png: '
[ -f "$T/small/sheet-0.json" ] && [ -f "$T/small/sheet.atlas" ] || fail "multipack files"
grep -q '"related_multi_packs": \["sheet-1.json"' "$T/small/sheet-0.json" ||
	fail "related_multi_packs missing"
checks=$((checks + 1))

# an invalid PNG: bad input (3), the file named, nothing written and an
# existing output left as it was
cp "$T/out/sheet.json" "$T/keep.json"
printf 'not a png' >"$T/broken.png"
run "$BONEBAKE" pack "$T/in" "$T/broken.png" -o "$T/out"
expect_rc 3
expect_err 'broken\.png: .*not a PNG'
cmp -s "$T/out/sheet.json" "$T/keep.json" || fail "failed run changed the output"
[ -z "$(ls -A "$T/out" | grep -v '^sheet\.\(png\|json\)$')" ] ||
	fail "failed run left files: $(ls -A "$T/out")"
head -c 100 "$T/in/coin_0000.png" >"$T/trunc.png"
run "$BONEBAKE" pack "$T/trunc.png" -o "$T/t"
expect_rc 3
expect_err 'trunc\.png: invalid PNG'
expect_absent "$T/t"

# missing input, unwritable output: I/O (4)
run "$BONEBAKE" pack "$T/nope" -o "$T/t"
expect_rc 4
expect_err 'nope: No such file'
expect_absent "$T/t"
: >"$T/afile"
run "$BONEBAKE" pack "$T/in" -o "$T/afile/out"
expect_rc 4
expect_err 'cannot create folder'

# no PNG at all: bad input
mkdir "$T/empty"
run "$BONEBAKE" pack "$T/empty" -o "$T/t"
expect_rc 3
expect_err 'no PNG files'
expect_absent "$T/t"

# two frames with one name
mkdir "$T/dup"
cp "$T/in/coin_0000.png" "$T/dup/"
run "$BONEBAKE" pack "$T/in" "$T/dup" -o "$T/t"
expect_rc 3
expect_err "two frames named 'coin_0000'"

# frames.json (as bonebake render writes it): animation, fps, loop, origin
mkdir "$T/walk"
for i in 0 1 2; do cp "$T/in/slime_000$i.png" "$T/walk/step_000$i.png"; done
cat >"$T/walk/frames.json" <<'JSON'
{ "animation": "walk", "fps": 12, "loop": false,
  "canvas": { "width": 64, "height": 48 }, "origin": { "x": 32, "y": 47 },
  "frames": [ { "file": "step_0000.png", "time": 0 },
              { "file": "step_0001.png", "time": 0.0833333333333333 },
              { "file": "step_0002.png", "time": 0.25 } ] }
JSON
run "$BONEBAKE" pack "$T/walk" -o "$T/w" --format json,godot,libgdx
expect_rc 0
python3 - "$T/w/sheet.json" <<'PY' || fail "frames.json not applied"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["animations"] == {"walk": ["step_0000", "step_0001", "step_0002"]}, d["animations"]
f = d["frames"]["step_0001"]
assert abs(f["duration"] - 166.666667) < 1e-3, f["duration"]
assert abs(f["pivot"]["x"] - 0.5) < 1e-9 and abs(f["pivot"]["y"] - 47 / 48) < 1e-6
pb = d["meta"]["playback"]["walk"]
assert pb["fps"] == 12 and pb["loop"] is False
PY
checks=$((checks + 1))
grep -q '"speed": 12.0' "$T/w/sheet.tres" || fail "godot speed"
grep -q '"loop": false' "$T/w/sheet.tres" || fail "godot loop"
grep -q '^walk$' "$T/w/sheet.atlas" && grep -q '^index:2$' "$T/w/sheet.atlas" ||
	fail "libgdx regions not named after the animation"
checks=$((checks + 3))

# a broken frames.json is bad input
printf '{ "fps": ' >"$T/walk/frames.json"
run "$BONEBAKE" pack "$T/walk" -o "$T/w2"
expect_rc 3
expect_err 'frames\.json'
expect_absent "$T/w2"
# an output folder inside the folder packed is not an input the next time
"$BONEBAKE" render "$SAMPLES/humanoid.json" --anim walk -o "$T/inside" --quiet ||
	fail "render inside"
run "$BONEBAKE" pack "$T/inside" -o "$T/inside/packed"
expect_rc 0
expect_out '^24 frames, '
cp -r "$T/inside/packed" "$T/packed-first"
run "$BONEBAKE" pack "$T/inside" -o "$T/inside/packed"
expect_rc 0
expect_out '^24 frames, '
checks=$((checks + 1))
diff -r "$T/packed-first" "$T/inside/packed" >/dev/null || fail "the second pack differs"
pass
