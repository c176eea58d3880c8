#!/bin/sh
# Armatures without animations show their setup pose as one frame named
# "setup" (info, render, pose, sheet; DragonBones and Cocos XML); a
# DragonBones animation without a name is "default", as the runtime
# calls it.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to write the test files"

# the robot of the DragonBones sample with its animations taken away (its
# nested orb keeps its own), and
# one more armature whose only animation has an empty name
python3 - "$SAMPLES/dragonbones/rig_ske.json" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for a in d["armature"]:
    if a["name"] == "robot":
        a.pop("animation", None)
        a.pop("defaultActions", None)
# "unnamed": one bone, and an animation whose name is ""
d["armature"].append({"name": "unnamed", "bone": [{"name": "root"}],
                      "animation": [{"name": "", "duration": 2}]})
json.dump(d, open(sys.argv[2] + "/still_ske.json", "w"))
PY
cp "$SAMPLES/dragonbones/rig_tex.json" "$T/still_tex.json"
cp "$SAMPLES/dragonbones/rig_tex.png" "$T/rig_tex.png"
F="$T/still_ske.json"

# info lists the setup pose, and says so
run "$BONEBAKE" info "$F"
expect_rc 0
expect_out '^  setup +0\.000 s +1 frames .*\(setup pose: the armature has no animation\)'
expect_out '^  default +'
run "$BONEBAKE" info --json "$F"
expect_rc 0
expect_out '"name": "setup", "duration": 0, "loop": false, .*"frames": 1, .*"setupPose": true'

# render --all: one frame per armature without animations, and the unnamed
# animation in a folder named "default"
run "$BONEBAKE" render "$F" --all -o "$T/all" --quiet
expect_rc 0
# "unnamed" has one bone and draws nothing: its frames are blank, and
# render says so (a warning, which --strict would make an error)
expect_err 'warning: animation "unnamed/default": all 3 frames are blank'
[ -z "$(printf '%s\n' "$err" | grep -v 'animation "unnamed/default": all 3 frames are blank')" ] ||
	fail "unexpected stderr: $err"
[ -f "$T/all/robot/setup/setup_0000.png" ] || fail "no setup frame for robot: $(find "$T/all")"
[ -d "$T/all/orb/spin" ] || fail "orb lost its animation"
[ "$(ls "$T/all/robot/setup" | grep -c png)" -eq 1 ] || fail "setup: expected one frame"
[ -d "$T/all/unnamed/default" ] || fail "the unnamed animation is not in default/"
grep -q '"animation": "setup"' "$T/all/robot/setup/frames.json" || fail "frames.json does not name setup"
checks=$((checks + 6))
# the setup frame draws the robot (not fully transparent)
"$top_builddir/tests/tools/blank-frames" "$T/all/robot/setup/setup_0000.png" >/dev/null ||
	fail "the setup frame is blank"
checks=$((checks + 1))

# the default armature (robot) renders its setup pose without --all, once
# even with --loop
run "$BONEBAKE" render "$F" -o "$T/one" --quiet --loop
expect_rc 0
[ "$(find "$T/one" -name '*.png' | wc -l)" -eq 1 ] || fail "expected one frame: $(find "$T/one")"
checks=$((checks + 1))

# --anim setup / --anim default name them
run "$BONEBAKE" pose "$F" --anim setup
expect_rc 0
expect_out '"animation": "setup"'
expect_out '"frames": 1'
run "$BONEBAKE" pose "$F" --armature unnamed --anim default
expect_rc 0
expect_out '"animation": "default"'
run "$BONEBAKE" render "$F" --armature unnamed --anim '' -o "$T/x" --quiet
expect_rc 2
expect_err 'unknown animation "" \(the file has: default\)'
run "$BONEBAKE" sheet "$F" --anim setup -o "$T/sheet" --quiet
expect_rc 0
grep -q 'setup_0000' "$T/sheet/"*.json || fail "sheet lacks setup_0000"
checks=$((checks + 1))

# Cocos XML: the bird sample without its <animations>
python3 - "$SAMPLES/cocos/bird.xml" "$T/still.xml" <<'PY'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
s2 = re.sub(r"<animations>.*?</animations>", "", s, flags=re.S)
assert s2 != s
open(sys.argv[2], "w", encoding="utf-8").write(s2)
PY
cp "$SAMPLES/cocos/bird.png" "$T/bird.png"
run "$BONEBAKE" render "$T/still.xml" --all -o "$T/cc" --quiet
expect_rc 0
[ -z "$err" ] || fail "unexpected stderr: $err"
for a in Bird Eye; do
	[ -f "$T/cc/$a/setup/setup_0000.png" ] ||
		fail "no setup frame for the Cocos armature $a: $(find "$T/cc")"
	checks=$((checks + 1))
done
"$top_builddir/tests/tools/blank-frames" "$T/cc/Bird/setup/setup_0000.png" >/dev/null ||
	fail "the Cocos setup frame is blank"
pass
