#!/bin/sh
# Stable canvases and warnings that can fail a run: --canvas union gives
# every animation of an armature one canvas and origin (the one `info
# --bounds` prints), a pinned --size that cuts the figure and blank frames
# (a missing atlas) are warnings naming the animation and its frames, and
# --strict (render, sheet, preview, batch) makes any warning exit 3 with
# nothing written; batch lists each job's warnings in its report.
. "$(dirname "$0")/lib.sh"
H="$SAMPLES/humanoid.json"
canvas() {  # FRAMES.JSON: "WxH X,Y"
	python3 -c 'import json,sys; f=json.load(open(sys.argv[1])); print("%dx%d %g,%g" % (f["canvas"]["width"], f["canvas"]["height"], f["origin"]["x"], f["origin"]["y"]))' "$1"
}

# --canvas union: one canvas for all ten animations, the union info prints
run "$BONEBAKE" render "$H" --canvas union --fps 6 -o "$T/u" --quiet
expect_rc 0
checks=$((checks + 1))
[ "$(for f in "$T"/u/*/frames.json; do canvas "$f"; done | sort -u | wc -l)" -eq 1 ] ||
	fail "--canvas union gave several canvases: $(for f in "$T"/u/*/frames.json; do canvas "$f"; done | sort -u)"
run "$BONEBAKE" info "$H" --bounds --fps 6
expect_rc 0
expect_out '^  \(union\) +240x259 +origin 120,131$'
expect_out 'holds every animation: --size 240x259 --origin 120,131'
expect_out '^  walk +149x231 +origin 66,106$'
checks=$((checks + 1))
[ "$(canvas "$T/u/walk/frames.json")" = "240x259 120,131" ] ||
	fail "union canvas $(canvas "$T/u/walk/frames.json") is not what info --bounds prints"
run "$BONEBAKE" info "$H" --bounds --json --fps 6
expect_rc 0
checks=$((checks + 1))
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
a = d["armatures"][0]
assert len(a["animations"]) == 10, a
assert a["union"]["size"] == "240x259" and a["union"]["origin_option"] == "120,131", a["union"]
w = max(x["width"] for x in a["animations"]); h = max(x["height"] for x in a["animations"])
assert a["union"]["width"] >= w and a["union"]["height"] >= h, (w, h, a["union"])
' || fail "info --bounds --json"
# one animation alone gets the same canvas: a choice of animations (or a
# change inside the union) does not move it
run "$BONEBAKE" render "$H" --canvas union --anim blink --fps 6 -o "$T/u1" --quiet
expect_rc 0
checks=$((checks + 1))
[ "$(canvas "$T/u1/blink/frames.json")" = "240x259 120,131" ] || fail "blink alone: $(canvas "$T/u1/blink/frames.json")"
# pinned to what info printed, frames are byte-identical to --canvas union
run "$BONEBAKE" render "$H" --size 240x259 --origin 120,131 --anim blink --fps 6 -o "$T/p" --quiet
expect_rc 0
checks=$((checks + 1))
cmp -s "$T/p/blink/blink_0001.png" "$T/u1/blink/blink_0001.png" || fail "--size/--origin from info --bounds differs from --canvas union"
[ -z "$err" ] || fail "a canvas that holds the figure warned: $err"
# sheets too (a plan option): every frame's source size is the union's
run "$BONEBAKE" sheet "$H" --canvas union --fps 6 --no-trim -o "$T/sheet" --quiet
expect_rc 0
checks=$((checks + 1))
python3 - "$T/sheet/sheet.json" <<'PY' || fail "sheet --canvas union: $(head -c 300 "$T/sheet/sheet.json")"
import json, sys
fr = json.load(open(sys.argv[1]))["frames"]
fr = fr.values() if isinstance(fr, dict) else fr
assert {(f["sourceSize"]["w"], f["sourceSize"]["h"]) for f in fr} == {(240, 259)}
PY
run "$BONEBAKE" render "$H" --canvas union --size 100x100 -o "$T/bad" --quiet
expect_rc 2
expect_err 'canvas union and --size exclude each other'

# a pinned size that cuts: a warning naming the animation and the frames
run "$BONEBAKE" render "$H" --anim walk --anim blink --size 100x240 --origin 50,110 --fps 6 -o "$T/cut" --quiet
expect_rc 0
expect_err 'warning: animation "walk": the 100x240 canvas cuts the figure in [0-9]+ of 5 frames \([0-9]+\.\.[0-9]+; up to [0-9]+ px of frame [0-9]+'
expect_err 'info --bounds'
checks=$((checks + 1))
printf '%s\n' "$err" | grep -q '"blink"' && fail "blink fits in 100x240 but was warned about: $err"
run "$BONEBAKE" render "$H" --anim walk --size 100x240 --origin 50,110 --fps 6 -o "$T/cut2" --quiet --strict
expect_rc 3
expect_err 'warning: animation "walk": the 100x240 canvas cuts'
expect_err 'render: --strict: 1 warning above, so nothing was written'
expect_absent "$T/cut2"

# a DragonBones file whose atlas is missing: warnings, blank frames; exit 0,
# and 3 with --strict (nothing written)
mkdir "$T/db"
cp "$SAMPLES/dragonbones/rig_ske.json" "$T/db/"
run "$BONEBAKE" render "$T/db/rig_ske.json" --fps 6 -o "$T/dbout" --quiet
expect_rc 0
expect_err 'warning: .*rig_ske.json: no texture atlas found'
expect_err 'warning: animation "wave": all 6 frames are blank \(nothing drawn on the canvas\)'
run "$BONEBAKE" render "$T/db/rig_ske.json" --fps 6 -o "$T/dbstrict" --quiet --strict
expect_rc 3
expect_err 'render: --strict: [0-9]+ warnings above'
expect_absent "$T/dbstrict"
run "$BONEBAKE" sheet "$T/db/rig_ske.json" --fps 6 -o "$T/dbsheet" --quiet --strict
expect_rc 3
expect_absent "$T/dbsheet"
run "$BONEBAKE" preview "$T/db/rig_ske.json" --fps 6 -o "$T/dbprev.gif" --anim wave --quiet --strict
expect_rc 3
expect_absent "$T/dbprev.gif"
# the atlas present: no warning, --strict passes
cp "$SAMPLES"/dragonbones/rig_tex.* "$T/db/"
run "$BONEBAKE" render "$T/db/rig_ske.json" --fps 6 -o "$T/dbok" --quiet --strict
expect_rc 0
checks=$((checks + 1))
[ -z "$err" ] || fail "warnings with the atlas present: $err"
rm "$T"/db/rig_tex.*

# batch: a succeeding job's warnings are in the report; --strict fails it
cp "$H" "$T/db/"
cat >"$T/db/m.json" <<'JSON'
{ "jobs": [
  { "name": "rig", "command": "render", "input": "rig_ske.json", "output": "out/rig",
    "animations": ["wave"], "options": { "fps": 6 } },
  { "name": "hum", "command": "render", "input": "humanoid.json", "output": "out/hum",
    "animations": ["blink"], "options": { "fps": 6 } }
] }
JSON
run "$BONEBAKE" batch "$T/db/m.json" --jobs 2
expect_rc 0
expect_out '^rig: rendered with [0-9]+ warnings$'
expect_out '^  warning: animation "wave": all 6 frames are blank'
expect_out '^hum: rendered$'
expect_out 'batch: 2 ran, 0 current, 0 failed, 1 with warnings'
run "$BONEBAKE" batch "$T/db/m.json" --jobs 2 --json --force
expect_rc 0
checks=$((checks + 1))
printf '%s' "$out" | python3 -c '
import json, sys
d = {j["name"]: j for j in json.load(sys.stdin)["jobs"]}
assert any("blank" in w for w in d["rig"]["warnings"]), d["rig"]
assert d["hum"]["warnings"] == [], d["hum"]
' || fail "batch --json warnings: $out"
run "$BONEBAKE" batch "$T/db/m.json" --jobs 2 --force --strict
expect_rc 3
expect_err 'job "rig" failed \(exit 3\)'
expect_out '^hum: rendered$'
pass
