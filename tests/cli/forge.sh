#!/bin/sh
# Forge armatures: the sample in every view, --model / --assets / layout
# lookup, --duration, events in frames.json, missing textures (flat colours,
# one warning), and bad input (exit 3, file and field named).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
A="$SAMPLES/forge/assets/bbsample"
ARM="$A/armatures/block/lidbox.json"

# every view renders, frames differ between views
for v in front back left right top iso; do
	run "$BONEBAKE" render "$ARM" -o "$T/$v" --view "$v" --fps 4 --quiet --jobs 2
	expect_rc 0
	[ -f "$T/$v/open/open_0004.png" ] || fail "$v: open has no frame 4"
	[ -f "$T/$v/idle/idle_0003.png" ] || fail "$v: idle has no frame 3"
	[ -z "$err" ] || fail "$v: unexpected stderr: $err"
done
cmp -s "$T/front/open/open_0002.png" "$T/back/open/open_0002.png" &&
	fail "front and back views are identical"
checks=$((checks + 1))
# a non-looping clip: floor(fps)+1 frames; a looping one: fps frames
[ "$(ls "$T/iso/open" | grep -c png)" -eq 5 ] || fail "open: expected 5 frames"
[ "$(ls "$T/iso/idle" | grep -c png)" -eq 4 ] || fail "idle: expected 4 frames"
checks=$((checks + 2))
grep -q '"name": "creak", "kind": "event", "time": 0.5, "frame": 2' "$T/iso/open/frames.json" ||
	fail "open: event creak not at frame 2: $(cat "$T/iso/open/frames.json")"
checks=$((checks + 1))

# info counts the frames render writes (the 30 fps default: Forge files
# have no rate)
run "$BONEBAKE" info "$ARM"
expect_rc 0
expect_out '^  open +1\.000 s +31 frames @ 30 fps +once'
expect_out '^  idle +1\.000 s +30 frames @ 30 fps +loop'

# --duration stretches one cycle; the event moves with it
run "$BONEBAKE" render "$ARM" -o "$T/dur" --anim idle --fps 4 --duration 2 --quiet
expect_rc 0
[ "$(ls "$T/dur/idle" | grep -c png)" -eq 8 ] || fail "--duration 2: expected 8 frames"
grep -q '"name": "sparkle", "kind": "event", "time": 1, "frame": 4' "$T/dur/idle/frames.json" ||
	fail "--duration: sparkle not at 1 s / frame 4"
grep -q '"duration": 2' "$T/dur/idle/frames.json" || fail "--duration: frames.json duration"
checks=$((checks + 3))
# frame 2 at 2 s per cycle is frame 1 at 1 s per cycle (same canvas)
run "$BONEBAKE" render "$ARM" -o "$T/dur1" --anim idle --fps 4 --size 200x200 --quiet
run "$BONEBAKE" render "$ARM" -o "$T/dur2" --anim idle --fps 4 --size 200x200 --duration 2 --quiet
cmp -s "$T/dur2/idle/idle_0002.png" "$T/dur1/idle/idle_0001.png" ||
	fail "--duration 2 frame 2 differs from the 1 s cycle's frame 1"
checks=$((checks + 1))

# --pixels-per-unit scales the canvas
run "$BONEBAKE" render "$ARM" -o "$T/ppu" --anim idle --fps 1 --pixels-per-unit 2 --quiet
expect_rc 0
small=$(python3 "$top_srcdir/tests/cli/pngsize.py" "$T/ppu/idle/idle_0000.png")
big=$(python3 "$top_srcdir/tests/cli/pngsize.py" "$T/iso/idle/idle_0000.png")
[ "$small" != "$big" ] || fail "--pixels-per-unit 2 gave the same size ($small)"
checks=$((checks + 1))

# --model and --assets outside the layout
mkdir -p "$T/elsewhere"
cp "$ARM" "$T/elsewhere/arm.json"
run "$BONEBAKE" render "$T/elsewhere/arm.json" -o "$T/nomodel" --quiet
expect_rc 3
expect_err 'arm.json: no block model: --model FILE not given, and the file is not under assets/<mod>/armatures/'
expect_absent "$T/nomodel"
run "$BONEBAKE" render "$T/elsewhere/arm.json" -o "$T/m1" --model "$A/models/block/lidbox.json" --fps 4 --quiet
expect_rc 0
cmp -s "$T/m1/idle/idle_0002.png" "$T/iso/idle/idle_0002.png" ||
	fail "--model gives another picture than the layout lookup"
checks=$((checks + 1))

# missing textures: flat colours and one warning naming them
mkdir -p "$T/mod/assets/bbsample"
cp -r "$A/armatures" "$A/models" "$T/mod/assets/bbsample/"
run "$BONEBAKE" render "$T/mod/assets/bbsample/armatures/block/lidbox.json" -o "$T/flat" --fps 2 --quiet
expect_rc 0
expect_err 'warning: lidbox.json: 4 textures not found \(bbsample:blocks/lidbox_top, bbsample:blocks/lidbox_side, .*\); drawn in flat colours'
[ "$(printf '%s\n' "$err" | grep -c warning)" -eq 1 ] || fail "expected one warning: $err"
checks=$((checks + 1))
[ -f "$T/flat/open/open_0001.png" ] || fail "flat: no frame"
# --assets points at the real textures again: no warning
run "$BONEBAKE" render "$T/mod/assets/bbsample/armatures/block/lidbox.json" -o "$T/flat2" --fps 2 --quiet --assets "$SAMPLES/forge"
expect_rc 0
[ -z "$err" ] || fail "--assets: unexpected warning: $err"
checks=$((checks + 1))
# a missing mod parent is an error; a missing vanilla parent a warning
sed 's/"bbsample:block\/lidbox_base"/"bbsample:block\/nothere"/' "$A/models/block/lidbox.json" \
	>"$T/mod/assets/bbsample/models/block/lidbox.json"
run "$BONEBAKE" render "$T/mod/assets/bbsample/armatures/block/lidbox.json" -o "$T/x" --quiet
expect_rc 3
expect_err 'lidbox.json: parent: model "bbsample:block/nothere" not found at .*assets/bbsample/models/block/nothere.json'
sed 's/"bbsample:block\/lidbox_base"/"block\/cube_all"/' "$A/models/block/lidbox.json" \
	>"$T/mod/assets/bbsample/models/block/lidbox.json"
run "$BONEBAKE" render "$T/mod/assets/bbsample/armatures/block/lidbox.json" -o "$T/x" --quiet --fps 1
expect_rc 0
expect_err 'parent "block/cube_all" not found \(vanilla models are not shipped\); treated as empty'

# bad input: exit 3, file and field named, nothing written
bad() {  # NAME JSON EXPECTED-STDERR
	mkdir -p "$T/bad/assets/bbsample/armatures/block" "$T/bad/assets/bbsample/models/block"
	cp "$A/models/block/lidbox.json" "$A/models/block/lidbox_base.json" \
		"$T/bad/assets/bbsample/models/block/"
	mv "$T/bad/assets/bbsample/models/block/lidbox.json" "$T/bad/assets/bbsample/models/block/$1.json"
	printf '%s\n' "$2" >"$T/bad/assets/bbsample/armatures/block/$1.json"
	run "$BONEBAKE" render "$T/bad/assets/bbsample/armatures/block/$1.json" -o "$T/badout" --quiet --assets "$SAMPLES/forge"
	expect_rc 3
	expect_err "$3"
	expect_absent "$T/badout"
}
clip() {  # JOINT-CLIP-LIST-JSON
	printf '{ "joints": { "lid": { "1": [1] } }, "clips": { "c": { "loop": false, "joint_clips": { "lid": %s } } } }' "$1"
}
bad idx2 '{ "joints": { "lid": { "one": [1.0] } }, "clips": {} }' \
	'idx2.json: joints.lid\["one"\]: element index "one" is not a decimal number'
bad weight '{ "joints": { "lid": { "1": [] } }, "clips": {} }' \
	'weight.json: joints.lid\["1"\]: expected \[weight\]'
bad var "$(clip '[ { "variable": "offset_w", "type": "uniform", "interpolation": "linear", "samples": [0, 1] } ]')" \
	'var.json: clips.c.joint_clips.lid\[0\].variable: unknown variable "offset_w"'
bad dup "$(clip '[ { "variable": "angle", "interpolation": "linear", "samples": [0, 1] }, { "variable": "angle", "interpolation": "linear", "samples": [1, 2] } ]')" \
	'dup.json: clips.c.joint_clips.lid\[1\].variable: variable "angle" appears twice'
bad nan "$(clip '[ { "variable": "angle", "interpolation": "linear", "samples": [0, "x"] } ]')" \
	'nan.json: clips.c.joint_clips.lid\[0\].samples\[1\]: expected a number'
bad empty "$(clip '[ { "variable": "angle", "interpolation": "linear", "samples": [] } ]')" \
	'empty.json: clips.c.joint_clips.lid\[0\].samples: no samples'
bad interp "$(clip '[ { "variable": "angle", "interpolation": "cubic", "samples": [0] } ]')" \
	'interp.json: clips.c.joint_clips.lid\[0\].interpolation: expected "linear" or "nearest"'
bad type "$(clip '[ { "variable": "angle", "type": "bezier", "interpolation": "linear", "samples": [0] } ]')" \
	'type.json: clips.c.joint_clips.lid\[0\].type: expected "uniform"'
bad joint "$(clip '[]' | sed 's/"lid": \[\]/"nope": []/')" \
	'joint.json: clips.c.joint_clips.nope: unknown joint "nope"'
bad event '{ "joints": {}, "clips": { "c": { "loop": true, "joint_clips": {}, "events": { "half": "x" } } } }' \
	'event.json: clips.c.events.half: event time "half" is not a number'
# an element index beyond the model: Forge never looks it up, so it is
# ignored with one warning naming it, and the frames are the sample's
mkdir -p "$T/past/assets/bbsample/armatures/block"
cp -r "$A/models" "$A/textures" "$T/past/assets/bbsample/"
python3 - "$ARM" "$T/past/assets/bbsample/armatures/block/lidbox.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
a["joints"]["lid"]["7"] = [1.0]
a["joints"]["gem"]["12"] = [0.5]
json.dump(a, open(sys.argv[2], "w"))
PY
run "$BONEBAKE" render "$T/past/assets/bbsample/armatures/block/lidbox.json" -o "$T/pastout" --fps 4 --quiet
expect_rc 0
expect_err '^bonebake: warning: lidbox\.json: joints\.lid\["7"\]: element 7 out of range \(4 elements\); ignored, as Forge does$'
expect_err 'joints\.gem\["12"\]: element 12 out of range \(4 elements\); ignored'
[ "$(printf '%s\n' "$err" | grep -c warning)" -eq 2 ] || fail "expected two warnings: $err"
for f in "$T/iso/open/"*.png "$T/iso/idle/"*.png; do
	g="$T/pastout/$(basename "$(dirname "$f")")/$(basename "$f")"
	cmp -s "$f" "$g" || fail "out-of-range index: $g differs from the sample's"
done
checks=$((checks + 2))

# one sample in a non-looping clip: a warning, held constant
mkdir -p "$T/one/assets/bbsample/armatures/block"
cp -r "$A/models" "$A/textures" "$T/one/assets/bbsample/"
clip '[ { "variable": "angle", "interpolation": "linear", "samples": [30] } ]' \
	>"$T/one/assets/bbsample/armatures/block/lidbox.json"
run "$BONEBAKE" render "$T/one/assets/bbsample/armatures/block/lidbox.json" -o "$T/oneout" --quiet --fps 2
expect_rc 0
expect_err 'clips.c.joint_clips.lid\[0\]: one sample in a non-looping clip .* held constant'

# bad block models
model() {  # NAME ELEMENT-JSON EXPECTED
	mkdir -p "$T/bm/assets/m/armatures/block" "$T/bm/assets/m/models/block"
	printf '{ "joints": {}, "clips": {} }\n' >"$T/bm/assets/m/armatures/block/$1.json"
	printf '{ "elements": [ %s ] }\n' "$2" >"$T/bm/assets/m/models/block/$1.json"
	run "$BONEBAKE" render "$T/bm/assets/m/armatures/block/$1.json" -o "$T/bmout" --quiet
	expect_rc 3
	expect_err "$3"
}
F='"faces": { "up": { "texture": "#a" } }'
model face "{ \"from\": [0,0,0], \"to\": [16,16,16], \"faces\": { \"top\": { \"texture\": \"#a\" } } }" \
	'face.json: elements\[0\].faces: unknown face "top"'
model axis "{ \"from\": [0,0,0], \"to\": [16,16,16], \"rotation\": { \"origin\": [8,8,8], \"axis\": \"w\", \"angle\": 45 }, $F }" \
	'axis.json: elements\[0\].rotation.axis: expected "x", "y" or "z"'
model angle "{ \"from\": [0,0,0], \"to\": [16,16,16], \"rotation\": { \"origin\": [8,8,8], \"axis\": \"x\", \"angle\": 30 }, $F }" \
	'angle.json: elements\[0\].rotation.angle: must be -45, -22.5, 0, 22.5 or 45'
model range "{ \"from\": [0,0,-20], \"to\": [16,16,16], $F }" \
	'range.json: elements\[0\].from: -20 is outside -16..32'
model nofaces "{ \"from\": [0,0,0], \"to\": [16,16,16], \"faces\": {} }" \
	'nofaces.json: elements\[0\].faces: no faces'
model frot "{ \"from\": [0,0,0], \"to\": [16,16,16], \"faces\": { \"up\": { \"texture\": \"#a\", \"rotation\": 45 } } }" \
	'frot.json: elements\[0\].faces.up.rotation: must be 0, 90, 180 or 270'
# parent cycle and texture variable cycle
printf '{ "parent": "m:block/cyc", "elements": [] }\n' >"$T/bm/assets/m/models/block/cyc.json"
printf '{ "joints": {}, "clips": {} }\n' >"$T/bm/assets/m/armatures/block/cyc.json"
run "$BONEBAKE" render "$T/bm/assets/m/armatures/block/cyc.json" -o "$T/bmout" --quiet
expect_rc 3
expect_err 'cyc.json: parent: parent cycle'
printf '{ "textures": { "a": "#b", "b": "#a" }, "elements": [ { "from": [0,0,0], "to": [16,16,16], %s } ] }\n' "$F" \
	>"$T/bm/assets/m/models/block/tcyc.json"
printf '{ "joints": {}, "clips": {} }\n' >"$T/bm/assets/m/armatures/block/tcyc.json"
run "$BONEBAKE" render "$T/bm/assets/m/armatures/block/tcyc.json" -o "$T/bmout" --quiet
expect_rc 3
expect_err 'tcyc.json: textures: texture variable cycle through "#a"'

# usage errors
run "$BONEBAKE" render "$ARM" -o "$T/u" --view side
expect_rc 2
expect_err "--view takes front, back, left, right, top or iso, not 'side'"
run "$BONEBAKE" render "$ARM" -o "$T/u" --duration 0
expect_rc 2
run "$BONEBAKE" render "$ARM" -o "$T/u" --pixels-per-unit -1
expect_rc 2
pass
