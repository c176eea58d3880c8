#!/bin/sh
# diff per animation on render folders (frame.json on both sides): the
# issue's scenarios rebuilt on the DragonBones sample.  A head tilted in
# one key: that animation changed, with a pixel count and a diff image
# even though its canvas grew (frames aligned on the origin pixel, not a
# size mismatch); fps 24 -> 30, an event renamed, an animation grown from 5
# to 8 frames: each reported as a metadata change of its animation, exit 1;
# JSON `animations`, JUnit one case per animation; --jobs does not change
# the reports.
. "$(dirname "$0")/lib.sh"
S="$SAMPLES/dragonbones"
edit() {  # NAME PYTHON: a copy of the rig in $T/NAME, edited by PYTHON on d
	mkdir -p "$T/$1"
	cp "$S/rig_tex.json" "$S/rig_tex.png" "$T/$1/"
	python3 - "$S/rig_ske.json" "$T/$1/rig_ske.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
robot = [a for a in d["armature"] if a["name"] == "robot"][0]
anim = {a["name"]: a for a in robot["animation"]}
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
	[ $? -eq 0 ] || fail "editing the rig for $1"
}
render() {  # NAME [OPTIONS]: renders $T/NAME/rig_ske.json into $T/r-NAME
	n=$1
	shift
	run "$BONEBAKE" render "$T/$n/rig_ske.json" -o "$T/r-$n" --quiet --fps 2.5 "$@"
	expect_rc 0
}
anims() {  # JSON: "path status frames_changed field,field..." per animation
	python3 -c '
import json, sys
for a in json.load(open(sys.argv[1]))["animations"]:
    print(a["path"], a["status"], a["frames_changed"],
          ",".join(c["field"] for c in a["metadata_changes"]) or "-")' "$1"
}

edit base 'pass'
render base
# 48 frames at 24 fps sampled at 2.5 fps: idle has 5 frames, wave 3
checks=$((checks + 1))
[ "$(ls "$T/r-base/idle" | grep -c png)" -eq 5 ] || fail "idle should have 5 frames"

# (a) the head tilted in one key of wave: the canvas grows
edit tilt '[b for b in anim["wave"]["bone"] if b["name"] == "head"][0]["rotateFrame"][1]["rotate"] = 55'
render tilt
run "$BONEBAKE" diff "$T/r-base" "$T/r-tilt" --json "$T/a.json" -o "$T/a-img" --junit "$T/a.xml"
expect_rc 1
expect_out '^changed +animation wave: canvas \[[0-9]+, [0-9]+\] -> \[[0-9]+, [0-9]+\]; .*[0-9]+ of 3 frames changed \([0-9]+ px\) on a [0-9]+x[0-9]+ canvas aligned on the origin'
expect_out '^2 animations: 1 changed, 1 identical$'
checks=$((checks + 1))
printf '%s\n' "$out" | grep -q '^SIZE' && fail "a size mismatch instead of aligned frames: $out"
checks=$((checks + 1))
python3 - "$T/a.json" <<'PY' || fail "tilt JSON: $(cat "$T/a.json")"
import json, os, sys
r = json.load(open(sys.argv[1]))
a = {x["path"]: x for x in r["animations"]}
w = a["wave"]
assert w["status"] == "changed" and w["frames_changed"] > 0 and w["diff_pixels"] > 0, w
assert "canvas" in [c["field"] for c in w["metadata_changes"]], w
assert w["aligned"] and w["aligned"]["width"] >= 1, w
assert w["diff_images"] and all(os.path.exists(p) for p in w["diff_images"]), w
assert a["idle"]["status"] == "identical" and a["idle"]["metadata_changes"] == [], a["idle"]
assert r["totals"]["size-mismatch"] == 0, r["totals"]
st = {p["path"]: p["status"] for p in r["pairs"]}
assert all(s != "size-mismatch" for s in st.values()), st
assert r["animation_totals"] == {"animations": 2, "changed": 1, "removed": 0,
                                 "added": 0, "error": 0, "identical": 1}, r["animation_totals"]
PY
# JUnit: one test case per animation, the failing frames in the message
checks=$((checks + 1))
python3 - "$T/a.xml" <<'PY' || fail "tilt JUnit: $(cat "$T/a.xml")"
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
cases = t.findall(".//testcase")
assert sorted(c.get("name") for c in cases) == ["idle", "wave"], [c.get("name") for c in cases]
wave = [c for c in cases if c.get("name") == "wave"][0]
f = wave.find("failure")
assert f is not None and "wave_0001.png" in f.get("message"), f.get("message")
assert [c for c in cases if c.get("name") == "idle"][0].find("failure") is None
assert t.get("tests") == "2" and t.get("failures") == "1", t.attrib
PY

# (b) fps 24 -> 30: reported, with what follows from it
edit fps 'robot["frameRate"] = 30'
run "$BONEBAKE" render "$S/rig_ske.json" -o "$T/r-base24" --quiet
expect_rc 0
run "$BONEBAKE" render "$T/fps/rig_ske.json" -o "$T/r-fps30" --quiet
expect_rc 0
run "$BONEBAKE" diff "$T/r-base24" "$T/r-fps30" --json "$T/b.json"
expect_rc 1
expect_out '^changed +animation idle: fps 24 -> 30; duration 2 -> 1\.6'
expect_out '^changed +animation wave: fps 24 -> 30;'
checks=$((checks + 1))
anims "$T/b.json" | grep -q '^wave changed [0-9]* fps,duration,.*events\[0\]\.time' ||
	fail "fps JSON: $(anims "$T/b.json")"

# (c) an event renamed: exit 1, the field and both names
edit event 'anim["wave"]["frame"][1]["events"][0]["name"] = "step_heavy"'
render event
run "$BONEBAKE" diff "$T/r-base" "$T/r-event" --json "$T/c.json" --junit "$T/c.xml"
expect_rc 1
expect_out '^changed +animation wave: events\[0\]\.name "step" -> "step_heavy"; frames identical$'
checks=$((checks + 1))
[ "$(anims "$T/c.json")" = "idle identical 0 -
wave changed 0 events[0].name" ] || fail "event JSON: $(anims "$T/c.json")"
checks=$((checks + 1))
grep -q 'name="wave">' "$T/c.xml" && grep -q 'events\[0\]\.name &quot;step&quot; -&gt; &quot;step_heavy&quot;' "$T/c.xml" ||
	fail "event JUnit: $(cat "$T/c.xml")"

# (d) idle grown from 5 to 8 frames: a changed animation with 3 added frames
# (a third key that holds the first 2 s as they were)
edit grow 'anim["idle"]["duration"] = 72
anim["idle"]["bone"][0]["translateFrame"].append({"duration": 24, "tweenEasing": 2, "y": 0})'
render grow
run "$BONEBAKE" diff "$T/r-base" "$T/r-grow" --json "$T/d.json"
expect_rc 1
expect_out '^changed +animation idle: duration 2 -> 3; frames 5 -> 8; 3 of 8 frames changed \(3 added\)'
checks=$((checks + 1))
python3 - "$T/d.json" <<'PY' || fail "grow JSON: $(cat "$T/d.json")"
import json, sys
r = json.load(open(sys.argv[1]))
a = {x["path"]: x for x in r["animations"]}
i = a["idle"]
assert i["status"] == "changed" and i["frames_changed"] == 3, i
assert i["baseline_frames"] == 5 and i["current_frames"] == 8, i
ch = {c["field"]: (c["baseline"], c["current"]) for c in i["metadata_changes"]}
assert ch["frames"] == (5, 8), ch
assert i["changed_frames"] == ["idle/idle_%04d.png" % k for k in (5, 6, 7)], i
assert a["wave"]["status"] == "identical", a["wave"]
assert r["totals"]["exit_code"] == 1, r["totals"]
PY

# an animation only on one side: added / removed, exit 6
mkdir "$T/r-more"
cp -r "$T/r-base/." "$T/r-more/"
cp -r "$T/r-base/idle" "$T/r-more/idle2"
run "$BONEBAKE" diff "$T/r-base" "$T/r-more" --json "$T/e.json"
expect_rc 6
expect_out '^added +animation idle2: only in the current side \(5 frames\)'
run "$BONEBAKE" diff "$T/r-more" "$T/r-base"
expect_rc 6
expect_out '^removed +animation idle2: only in the baseline'
# a broken frames.json on both sides is bad input, naming the file
cp -r "$T/r-base" "$T/r-broken"
printf '{"fps": "x"}' >"$T/r-broken/wave/frames.json"
run "$BONEBAKE" diff "$T/r-base" "$T/r-broken"
expect_rc 3
expect_err 'r-broken/wave/frames.json'

# Markdown: counts, then a row per changed animation; on stdout with "-"
run "$BONEBAKE" diff "$T/r-base" "$T/r-event" --markdown -
expect_rc 1
expect_out '^## bonebake diff: 1 of 2 animations changed$'
expect_out '^\*\*2 animations:\*\* 1 changed, 1 identical · 8 frames compared · exit 1$'
expect_out '^\| `wave` \| changed \| events\[0\]\.name "step" -&gt; "step_heavy"; frames identical \| 0 of 3 \|$'
checks=$((checks + 1))
printf '%s\n' "$out" | grep -q 'bonebake diff: threshold' && fail "--markdown - also printed the text report"
run "$BONEBAKE" diff "$T/r-base" "$T/r-base" --markdown - --report-url 'https://x.example/r (1)/index.html'
expect_rc 0
expect_out '^Every animation is identical\.$'
expect_out '\[full report\]\(https://x\.example/r%20%281%29/index\.html#top-0\)'

# --update takes a changed animation whole (its frames.json and every
# frame, for a new canvas), after which the folders compare identical
cp -r "$T/r-base" "$T/r-upd"
run "$BONEBAKE" diff "$T/r-upd" "$T/r-tilt" --update
expect_rc 0
expect_out '^updated wave/frames\.json$'
run "$BONEBAKE" diff "$T/r-upd" "$T/r-tilt"
expect_rc 0
expect_out '^2 animations: 2 identical$'
checks=$((checks + 1))
cmp -s "$T/r-upd/wave/frames.json" "$T/r-tilt/wave/frames.json" || fail "--update left the old frames.json"

# the same reports whatever --jobs
run "$BONEBAKE" diff "$T/r-base" "$T/r-tilt" --json "$T/j1.json" --jobs 1
run "$BONEBAKE" diff "$T/r-base" "$T/r-tilt" --json "$T/j4.json" --jobs 4
checks=$((checks + 1))
cmp -s "$T/j1.json" "$T/j4.json" || fail "JSON differs between --jobs 1 and 4"
pass
