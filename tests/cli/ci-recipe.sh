#!/bin/sh
# The CI recipe (examples/ci/bonebake-review.sh) on a throwaway git
# repository holding three corpus exports: on a branch (a) one bone key of
# the Dragon's walk is rotated, (b) NewDragon's rate changes from 30 to 24
# fps, (c) an event of mecha_1004d's skill_03 is renamed, (d) the Dragon's
# jump grows from 5 to 8 frames.  Both sides rendered with default options;
# the JSON report must name exactly those four animations changed ((a) with
# changed frames and diff images, (b)-(d) with their metadata changes),
# every other one identical; the Markdown names the four; JUnit has one
# case per animation; a second run with the cache re-renders nothing of
# the base; and the HTML report, opened in headless Chromium, plays the
# changed animations' three views.  The workflow file is valid YAML that
# runs the script.
. "$(dirname "$0")/lib.sh"
C="$SHARED/corpus/dragonbones"
need_shared "$C/db55_Dragon/Dragon_ske.json" "../shared/corpus is not there"
command -v git >/dev/null 2>&1 || unavailable "git not found"
SCRIPT="$top_srcdir/examples/ci/bonebake-review.sh"
R="$T/repo"
mkdir -p "$R/art"
cp -r "$C/db55_Dragon" "$C/db50_newdragon_ik_mesh" "$C/db55_mecha_1004d_nested_events" "$R/art/"
FILES="art/db55_Dragon/Dragon_ske.json art/db50_newdragon_ik_mesh/NewDragon_ske.json art/db55_mecha_1004d_nested_events/mecha_1004d_ske.json"
g() { git -C "$R" -c user.name=t -c user.email=t@example.invalid "$@" >/dev/null 2>&1 || fail "git $*"; }
g init -q -b main
g add -A
g commit -q -m base
g checkout -q -b change
python3 - "$R/art" <<'PY' || fail "editing the exports"
import json, sys
def edit(path, fn):
    p = sys.argv[1] + "/" + path
    d = json.load(open(p))
    fn(d)
    json.dump(d, open(p, "w"))
def dragon(d):
    anims = {a["name"]: a for a in d["armature"][0]["animation"]}
    head = [b for b in anims["walk"]["bone"] if b["name"] == "head"][0]
    head["rotateFrame"][1]["rotate"] = 25          # (a)
    anims["jump"]["duration"] = 8                  # (d) 5 -> 8 frames
def newdragon(d):
    d["frameRate"] = 24                            # (b)
    for a in d["armature"]:
        a["frameRate"] = 24
def mecha(d):
    arm = [a for a in d["armature"] if a["name"] == "mecha_1004d"][0]
    s3 = [a for a in arm["animation"] if a["name"] == "skill_03"][0]
    for fr in s3["frame"]:
        for ev in fr.get("events", []):
            if ev["name"] == "onTimeStart":
                ev["name"] = "onTimeStart_heavy"   # (c)
edit("db55_Dragon/Dragon_ske.json", dragon)
edit("db50_newdragon_ik_mesh/NewDragon_ske.json", newdragon)
edit("db55_mecha_1004d_nested_events/mecha_1004d_ske.json", mecha)
PY
g commit -q -am change

# the recipe, as CI runs it (a step summary file like GitHub's)
: >"$T/step-summary.md"
(cd "$R" && BONEBAKE="$BONEBAKE" REVIEW_CACHE="$T/cache" GITHUB_STEP_SUMMARY="$T/step-summary.md" \
	"$SCRIPT" -b main -o "$T/review" -u "https://ci.example/run/7/report/index.html" $FILES) \
	>"$T/recipe.out" 2>"$T/recipe.err"
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 1 ] || fail "the recipe exited $rc, expected 1: $(cat "$T/recipe.err")"
for f in diff.json junit.xml summary.md report/index.html; do
	checks=$((checks + 1))
	[ -s "$T/review/$f" ] || fail "the recipe wrote no $f"
done
checks=$((checks + 1))
python3 - "$T/review/diff.json" <<'PY' || fail "JSON report"
import json, os, sys
r = json.load(open(sys.argv[1]))
a = {x["path"]: x for x in r["animations"]}
D = "art/db55_Dragon/Dragon_ske.json/"
N = "art/db50_newdragon_ik_mesh/NewDragon_ske.json/"
M = "art/db55_mecha_1004d_nested_events/mecha_1004d_ske.json/"
changed = sorted(p for p, x in a.items() if x["status"] == "changed")
assert changed == sorted([D + "walk", D + "jump", N + "stand", M + "skill_03"]), changed
assert all(x["status"] in ("changed", "identical") for x in a.values()), a
assert len(a) == 4 + 1 + 10, sorted(a)
fields = lambda p: [c["field"] for c in a[p]["metadata_changes"]]
w = a[D + "walk"]                                   # (a)
assert w["frames_changed"] > 0 and w["diff_pixels"] > 0, w
assert w["diff_images"] and all(os.path.exists(p) for p in w["diff_images"]), w
assert "fps" in fields(N + "stand"), a[N + "stand"]  # (b)
fps = {c["field"]: (c["baseline"], c["current"]) for c in a[N + "stand"]["metadata_changes"]}
assert fps["fps"] == (30, 24), fps
ev = {c["field"]: (c["baseline"], c["current"]) for c in a[M + "skill_03"]["metadata_changes"]}
assert ("onTimeStart", "onTimeStart_heavy") in ev.values(), ev   # (c)
assert all(f.startswith("events") for f in ev), ev
j = a[D + "jump"]                                   # (d)
fr = {c["field"]: (c["baseline"], c["current"]) for c in j["metadata_changes"]}
assert fr["frames"] == (5, 8) and j["baseline_frames"] == 5 and j["current_frames"] == 8, j
assert r["totals"]["size-mismatch"] == 0, r["totals"]
PY
# the Markdown names the four, links into the report, and went to the step summary
for anim in db55_Dragon/Dragon_ske.json/walk db55_Dragon/Dragon_ske.json/jump \
	NewDragon_ske.json/stand mecha_1004d_ske.json/skill_03; do
	checks=$((checks + 1))
	grep -q "$anim](https://ci.example/run/7/report/index.html#anim-[0-9]*) | changed" "$T/review/summary.md" ||
		fail "summary does not name $anim: $(cat "$T/review/summary.md")"
done
checks=$((checks + 1))
grep -q '^## bonebake diff: 4 of 15 animations changed$' "$T/review/summary.md" || fail "summary title: $(head -3 "$T/review/summary.md")"
checks=$((checks + 1))
cmp -s "$T/review/summary.md" "$T/step-summary.md" || fail "the step summary is not the summary"
# JUnit: one case per animation
checks=$((checks + 1))
python3 - "$T/review/junit.xml" <<'PY' || fail "JUnit report"
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().findall(".//testcase")
assert len(cases) == 15, len(cases)
failed = sorted(c.get("name") for c in cases if c.find("failure") is not None)
assert failed == ["jump", "skill_03", "stand", "walk"], failed
assert all(c.get("classname").startswith("art/") for c in cases), [c.get("classname") for c in cases]
PY

# a second run: the base comes from the cache, batch skips every job (no
# base frame is newer than the first run)
find "$T/cache/renders" -name .bonebake-batch.json | grep -q . || fail "the cache holds no batch records"
touch "$T/marker"
sleep 1
(cd "$R" && BONEBAKE="$BONEBAKE" REVIEW_CACHE="$T/cache" "$SCRIPT" -b main -o "$T/review2" $FILES) \
	>"$T/recipe2.out" 2>"$T/recipe2.err"
rc=$?
checks=$((checks + 2))
[ "$rc" -eq 1 ] || fail "the second run exited $rc: $(cat "$T/recipe2.err")"
[ -z "$(find "$T/review2/base" -name '*.png' -newer "$T/marker" | head -n 3)" ] ||
	fail "the cached base was rendered again: $(find "$T/review2/base" -name '*.png' -newer "$T/marker" | head -n 3)"
checks=$((checks + 1))
cmp -s "$T/review/diff.json" "$T/review2/diff.json" 2>/dev/null ||
	python3 - "$T/review/diff.json" "$T/review2/diff.json" <<'PY' || fail "the cached run's verdicts differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
key = lambda r: [(x["path"], x["status"], x["frames_changed"]) for x in r["animations"]]
assert key(a) == key(b), (key(a), key(b))
PY

# the workflow: valid YAML, running the script with the files
checks=$((checks + 1))
python3 - "$top_srcdir/examples/ci/animation-review.yml" <<'PY' || fail "the workflow"
import sys
try:
    import yaml
except ImportError:
    sys.exit(0)   # python3-yaml missing: the grep below still checks it
d = yaml.safe_load(open(sys.argv[1]))
steps = d["jobs"]["review"]["steps"]
run = " ".join(s.get("run", "") for s in steps)
assert "bonebake-review.sh" in run and "$ANIMATION_FILES" in run, run
assert any("upload-artifact" in s.get("uses", "") for s in steps)
PY
grep -q 'bonebake-review.sh' "$top_srcdir/examples/ci/animation-review.yml" || fail "the workflow does not run the script"

# the HTML report in headless Chromium: the changed animations play
# baseline | difference | current, their images load
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	[ -z "${CI:-}" ] || fail "chromium is not installed (CI is set)"
	echo "chromium not installed: the report was not opened"
	pass
fi
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--disable-quic --user-data-dir="$T/profile" --virtual-time-budget=4000 \
	--dump-dom "file://$T/review/report/index.html" >"$T/dom.html" 2>"$T/chromium.err" ||
	fail "chromium: $(tail -3 "$T/chromium.err")"
checks=$((checks + 1))
python3 - "$T/dom.html" <<'PY' || fail "the report in Chromium"
import re, sys
dom = open(sys.argv[1]).read()
secs = re.findall(r'<section class="anim ([a-z]+)" id="anim-\d+" data-status="\w+" data-path="([^"]*)"', dom)
assert [p.rsplit("/", 1)[1] for s, p in secs] == ["stand", "jump", "walk", "skill_03"], secs
players = re.findall(r'<div class="player" ([^>]*)>', dom)
assert len(players) == 4, players
for p in players:
    a = dict(re.findall(r'([\w-]+)="([^"]*)"', p))
    # playing: frames advanced; the three views loaded images
    assert int(a.get("data-shown", 0)) >= 3, a
    assert int(a.get("data-loaded", 0)) >= 3, a
# walk (frame 1 changed): baseline, difference and current all showing
walk = [p for p in players if 'data-views="3"' in p]
assert len(walk) >= 1, players
PY
# a screenshot of the report, paused on frame 1, for a person to look at
# (kept in the build tree as tests/cli/ci-recipe-report.png)
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--disable-quic --hide-scrollbars --force-device-scale-factor=1 \
	--user-data-dir="$T/profile2" --window-size=1280,1400 --virtual-time-budget=4000 \
	--screenshot="$T/shot.png" "file://$T/review/report/index.html#frame=1" 2>>"$T/chromium.err" ||
	fail "chromium --screenshot: $(tail -3 "$T/chromium.err")"
checks=$((checks + 1))
[ -s "$T/shot.png" ] || fail "no screenshot"
cp "$T/shot.png" "$top_builddir/tests/cli/ci-recipe-report.png" 2>/dev/null || true
pass
