#!/bin/sh
# Degenerate geometry draws nothing instead of failing (issue: hostile
# input): bones scaled to 1e-5 and 1e-300 (native, DragonBones meshes),
# vertices and UVs far out of range, Forge joints scaled to 1e-5 render
# with exit 0 and no internal error; a view scale out of range is a usage
# error (exit 2), never "cairo: ..." (70).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
cp "$SAMPLES"/dragonbones/mesh_* "$T/"
cp -r "$SAMPLES/forge" "$T/forge"
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/mesh_ske.json"))
for b in d["armature"][0]["bone"]:
    b.setdefault("transform", {}).update({"scX": 1e-5, "scY": 1e-5})
json.dump(d, open(t + "/tiny_ske.json", "w"))
d = json.load(open(t + "/mesh_ske.json"))
for sk in d["armature"][0]["skin"]:
    for sl in sk["slot"]:
        for disp in sl["display"]:
            if "vertices" in disp:
                disp["vertices"] = [v * 1e9 if i % 2 == 0 else v * 1e-9
                                    for i, v in enumerate(disp["vertices"])]
            if "uvs" in disp:
                disp["uvs"] = [1e30] * len(disp["uvs"])
json.dump(d, open(t + "/far_ske.json", "w"))
json.dump({"format": "bonebake-skeleton", "version": 1,
           "bones": [{"name": "b", "scaleX": 1e-5, "scaleY": 1e-300,
                      "attachments": {"front": {"width": 20, "height": 10,
                                                "color": [255, 0, 0, 255]}}},
                     {"name": "c", "parent": "b", "scaleX": 1e300,
                      "attachments": {"front": {"width": 20, "height": 10,
                                                "color": [0, 255, 0, 255]}}}],
           "animations": [{"name": "a", "duration": 1, "bones": {}}]},
          open(t + "/flat.json", "w"))
f = t + "/forge/assets/bbsample/armatures/block/lidbox.json"
d = json.load(open(f))
for c in d["clips"].values():
    for jc in c["joint_clips"].values():
        for var in jc:
            if var["variable"].startswith("scale"):
                var["samples"] = [1e-5] * len(var["samples"])
json.dump(d, open(f, "w"))
PY
for n in tiny far; do
	cp "$T/mesh_tex.json" "$T/${n}_tex.json"
	cp "$T/mesh_tex.png" "$T/${n}_tex.png"
done
ok() {
	run "$@"
	expect_rc 0
	case $err in *cairo*|*internal*) fail "$last: $err" ;; esac
	checks=$((checks + 1))
}
ok "$BONEBAKE" render "$T/tiny_ske.json" -o "$T/o1" --quiet
ok "$BONEBAKE" render "$T/far_ske.json" -o "$T/o2" --size 64x64 --quiet
ok "$BONEBAKE" render "$T/flat.json" -o "$T/o3" --size 64x64 --quiet
ok "$BONEBAKE" render "$T/forge/assets/bbsample/armatures/block/lidbox.json" -o "$T/o4" --quiet
ok "$BONEBAKE" render "$T/forge/assets/bbsample/armatures/block/lidbox.json" -o "$T/o5" \
	--pixels-per-unit 0.001 --quiet
ok "$BONEBAKE" sheet "$T/tiny_ske.json" -o "$T/o6" --quiet
# far-off geometry with a fitted canvas: the canvas limit, exit 3, one line
run "$BONEBAKE" render "$T/far_ske.json" -o "$T/o7" --quiet
expect_rc 3
expect_err 'far_ske\.json: animation "wave": drawn area .* exceeds the 16384 px canvas limit'
for s in 1e-300 0 -1 nan 1e400; do
	run "$BONEBAKE" render "$SAMPLES/humanoid.json" -o "$T/o8" --scale "$s"
	expect_rc 2
	expect_err "scale takes a number"
done
pass
