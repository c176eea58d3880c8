#!/bin/sh
# bonebake render / info / pose: outputs, frame rules, canvas, determinism.
. "$(dirname "$0")/lib.sh"
H="$SAMPLES/humanoid.json"
command -v python3 >/dev/null || skip "python3 is needed to read JSON and PNG headers"

run "$BONEBAKE" render "$H" -o "$T/a" --anim walk --anim attack --quiet
expect_rc 0
n=$(ls "$T/a/walk" | grep -c '^walk_[0-9]\{4\}\.png$')
[ "$n" -eq 24 ] || fail "walk: $n frames, expected 24 (0.8 s looping at 30 fps)"
n=$(ls "$T/a/attack" | grep -c '^attack_[0-9]\{4\}\.png$')
[ "$n" -eq 16 ] || fail "attack: $n frames, expected 16 (0.5 s once: floor(15)+1)"
sizes=$(python3 "$top_srcdir/tests/cli/pngsize.py" "$T"/a/walk/*.png | sort -u)
[ "$(printf '%s\n' "$sizes" | wc -l)" -eq 1 ] || fail "walk frames differ in size: $sizes"
checks=$((checks + 3))
python3 - "$T/a/walk/frames.json" "$sizes" <<'PY' || fail "walk/frames.json is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
w, h = map(int, sys.argv[2].split("x"))
assert d["fps"] == 30 and d["loop"] is True, d
assert d["canvas"] == {"width": w, "height": h}, d["canvas"]
assert len(d["frames"]) == 24
assert d["frames"][3]["file"] == "walk_0003.png"
assert abs(d["frames"][3]["time"] - 0.1) < 1e-12
assert 0 <= d["origin"]["x"] <= w and 0 <= d["origin"]["y"] <= h
PY
checks=$((checks + 1))
ls -a "$T/a" | grep -q bonebake-stage && fail "staging folder left behind"

# same input and options: byte-identical files, whatever the thread count
run "$BONEBAKE" render "$H" -o "$T/b" --anim walk --anim attack --quiet --jobs 1
expect_rc 0
run "$BONEBAKE" render "$H" -o "$T/c" --anim walk --anim attack --quiet --jobs 2
expect_rc 0
diff -r "$T/a" "$T/b" >/dev/null || fail "two renders differ (jobs default vs 1)"
diff -r "$T/b" "$T/c" >/dev/null || fail "renders differ between --jobs 1 and --jobs 2"
checks=$((checks + 2))
# and whatever the heap held before (glibc fills fresh blocks with the
# complement of MALLOC_PERTURB_): nothing read before it is written
for p in 85 170; do
	run env MALLOC_PERTURB_=$p "$BONEBAKE" render "$H" -o "$T/p$p" --anim walk \
		--anim attack --quiet --jobs 2
	expect_rc 0
	diff -r "$T/b" "$T/p$p" >/dev/null || fail "renders differ with MALLOC_PERTURB_=$p"
	checks=$((checks + 1))
done

# fixed canvas
run "$BONEBAKE" render "$H" -o "$T/d" --anim idle --size 100x150 --origin 50,120 --scale 0.5 --fps 10 --quiet
expect_rc 0
[ "$(python3 "$top_srcdir/tests/cli/pngsize.py" "$T/d/idle/idle_0000.png")" = 100x150 ] ||
	fail "--size 100x150 not honoured"
[ "$(ls "$T/d/idle" | grep -c png)" -eq 24 ] || fail "idle at 10 fps: expected 24 frames"
checks=$((checks + 2))

# layers, direction, flip, bones, background all accepted
run "$BONEBAKE" render "$H" -o "$T/e" --anim walk --overlay attack@0.2 --face blink@0.1 \
	--direction back --flip --bones --bg '#ffffff' --set hand_L=fist --quiet
expect_rc 0
grep -q '"overlay"' "$T/e/walk/frames.json" || fail "frames.json does not record the overlay"

# re-rendering into an existing folder replaces the animation's folder
touch "$T/a/walk/stale.png"
run "$BONEBAKE" render "$H" -o "$T/a" --anim walk --quiet
expect_rc 0
expect_absent "$T/a/walk/stale.png"
[ -d "$T/a/attack" ] || fail "other animations' folders must be kept"

# info
run "$BONEBAKE" info "$H"
expect_rc 0
expect_out 'walk +0\.800 s +24 frames'
run "$BONEBAKE" info --json "$H" --fps 10
expect_rc 0
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
a = d["armatures"][0]
assert a["bones"] == 16 and a["slots"] == 16, a
names = [x["name"] for x in a["animations"]]
assert names[:7] == ["idle","walk","run","attack","jump","spin","jump_slash"], names
walk = a["animations"][1]
assert walk["frames"] == 8 and walk["loop"] is True, walk
' || fail "info --json is wrong"

# pose: one JSON document, every sampled frame, 16 bones
run "$BONEBAKE" pose "$H" --anim attack
expect_rc 0
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["meta"]["frames"] == 16 and len(d["frames"]) == 16
f = d["frames"][0]
assert len(f["bones"]) == 16 and f["bones"][0]["parent"] is None
hand = [b for b in f["bones"] if b["name"] == "hand_R"][0]
assert [round(v, 9) for v in hand["m"]] == [1, 0, 0, 1, 28, 28], hand
assert f["slots"][-1]["z"] == 15 and len(f["draw"]) >= 13
' || fail "pose output is wrong"

# --help everywhere
for c in info render pose; do
	run "$BONEBAKE" "$c" --help
	expect_rc 0
	expect_out "usage: bonebake $c"
done
# progress: nothing on a non-terminal stderr by default; --progress json
# gives one object per line ending at done == total (the frames of every
# animation of the run: walk 24 + attack 16 at 30 fps, attack plays once); --progress line
# forces the rewritten line; --quiet silences both
run "$BONEBAKE" render "$H" -o "$T/p" --anim walk --anim attack
expect_rc 0
[ -z "$err" ] || fail "progress on a non-terminal stderr: $err"
checks=$((checks + 1))
run "$BONEBAKE" render "$H" -o "$T/p" --anim walk --anim attack --progress json
expect_rc 0
printf '%s\n' "$err" | python3 -c '
import json, sys
ev = [json.loads(l) for l in sys.stdin if l.strip()]
assert ev, "no events"
assert all(e["progress"] == "render" and e["total"] == 40 for e in ev), ev
assert ev[0]["done"] == 0 and ev[-1]["done"] == 40, ev
assert [e["done"] for e in ev] == sorted(e["done"] for e in ev), ev
' || fail "--progress json: $err"
checks=$((checks + 1))
run "$BONEBAKE" render "$H" -o "$T/p" --anim walk --progress line
expect_rc 0
expect_err 'render 24/24 frames \(100%\)'
run "$BONEBAKE" render "$H" -o "$T/p" --anim walk --progress json --quiet
expect_rc 0
[ -z "$err" ] || fail "--quiet still printed: $err"
checks=$((checks + 1))
run "$BONEBAKE" render "$H" -o "$T/p" --anim walk --progress sometimes
expect_rc 2
expect_err "--progress takes auto, line, json or none"
# nothing is dropped: 500 animations all render (and pack), a name with
# a leading dot is written without it being hidden
python3 - "$T/many.json" <<'PY'
import json, sys
anims = [{"name": "a%03d" % i, "duration": 0.1, "loop": False,
          "bones": {"b": [{"time": 0, "x": i}]}} for i in range(498)]
anims += [{"name": ".old-walk", "duration": 0.1, "bones": {}},
          {"name": "..", "duration": 0.1, "bones": {}}]
json.dump({"format": "bonebake-skeleton", "version": 1, "fps": 10,
           "bones": [{"name": "b", "attachments": {"front": {"width": 4, "height": 4,
                      "color": [255, 0, 0, 255]}}}],
           "animations": anims}, open(sys.argv[1], "w"))
PY
run "$BONEBAKE" render "$T/many.json" -o "$T/many" --quiet
expect_rc 0
[ "$(ls "$T/many" | wc -l)" -eq 500 ] || fail "500 animations: $(ls "$T/many" | wc -l) folders"
[ -f "$T/many/_old-walk/_old-walk_0000.png" ] && [ -f "$T/many/_./_._0000.png" ] &&
	[ -f "$T/many/a497/a497_0001.png" ] || fail "dot names: $(ls "$T/many" | tail -3)"
checks=$((checks + 2))
run "$BONEBAKE" sheet "$T/many.json" -o "$T/many-sheet" --quiet --multipack
expect_rc 0
python3 -c '
import glob, json, sys
names = set()
for f in glob.glob(sys.argv[1] + "/sheet*.json"):
    names |= set(json.load(open(f)).get("animations", {}))
assert len(names) == 500 and "_old-walk" in names, sorted(names)[-5:]
' "$T/many-sheet" || fail "the sheet lost animations"
checks=$((checks + 1))
run "$BONEBAKE" --help
expect_rc 0
pass
