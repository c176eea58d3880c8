#!/bin/sh
# bonebake pack on a folder of sub-folders (TexturePacker's layout): frames
# are named by their path relative to the packed folder in every metadata
# format (escaped where the format needs it), a numbered run in a folder is
# that folder's animation, two runs in one folder stay apart, names that
# only share a file name are no duplicates (real duplicates still are), and
# the bytes written do not depend on --jobs.
. "$(dirname "$0")/lib.sh"
GEN="$top_builddir/tests/tools/gen-sprites"
VERIFY="$top_builddir/tests/tools/pack-verify"
[ -x "$GEN" ] && [ -x "$VERIFY" ] || skip "test tools not built"
mkdir "$T/g"
"$GEN" "$T/g" 60 || fail "gen-sprites failed"
A="$T/anims"
mkdir -p "$A/dragon_fall" "$A/dragon_jump" "$A/fx" "$A/icons" \
	"$A/chars/hero/walk" "$A/a&b <\"q\">"
for i in 0 1 2; do cp "$T/g/coin_000$i.png" "$A/dragon_fall/frame_000$i.png"; done
for i in 0 1; do cp "$T/g/slime_000$i.png" "$A/dragon_jump/frame_000$i.png"; done
for i in 0 1; do cp "$T/g/spark_000$i.png" "$A/fx/spark_000$i.png"; done
cp "$T/g/flame_0000.png" "$A/fx/smoke-7.png"
cp "$T/g/icon000.png" "$A/icons/sword.png"
for i in 1 2; do cp "$T/g/bar_000$i.png" "$A/chars/hero/walk/000$i.png"; done
cp "$T/g/icon001.png" "$A/a&b <\"q\">/x_0000.png"
cp "$T/g/coin_0005.png" "$A/coin_0000.png"
cp "$T/g/coin_0006.png" "$A/coin_0001.png"
cp "$T/g/icon002.png" "$A/logo.png"

run "$BONEBAKE" pack "$A" -o "$T/out" -q --format json,phaser3,libgdx,cocos2d,godot
expect_rc 0
run "$BONEBAKE" pack "$A" -o "$T/arr" -q --format json-array
expect_rc 0
python3 - "$T/out" "$T/arr" <<'PY' || fail "names or animations wrong"
import json, plistlib, re, sys
out, arr = sys.argv[1], sys.argv[2]
names = {"dragon_fall/frame_0000", "dragon_fall/frame_0001", "dragon_fall/frame_0002",
         "dragon_jump/frame_0000", "dragon_jump/frame_0001",
         "fx/spark_0000", "fx/spark_0001", "fx/smoke-7", "icons/sword",
         "chars/hero/walk/0001", "chars/hero/walk/0002",
         'a&b <"q">/x_0000', "coin_0000", "coin_0001", "logo"}
anims = {"dragon_fall": ["dragon_fall/frame_%04d" % i for i in range(3)],
         "dragon_jump": ["dragon_jump/frame_0000", "dragon_jump/frame_0001"],
         "fx/spark": ["fx/spark_0000", "fx/spark_0001"],
         "fx/smoke": ["fx/smoke-7"],
         "chars/hero/walk": ["chars/hero/walk/0001", "chars/hero/walk/0002"],
         'a&b <"q">': ['a&b <"q">/x_0000'],
         "coin": ["coin_0000", "coin_0001"]}
h = json.load(open(out + "/sheet.json"))
assert set(h["frames"]) == names, sorted(set(h["frames"]) ^ names)
assert h["animations"] == anims, h["animations"]
a = json.load(open(arr + "/sheet.json"))
assert {f["filename"] for f in a["frames"]} == names
assert a["animations"] == anims
m = json.load(open(out + "/sheet.multiatlas.json"))
assert {f["filename"] for t in m["textures"] for f in t["frames"]} == names
assert m["animations"] == anims
p = plistlib.load(open(out + "/sheet.plist", "rb"))
assert set(p["frames"]) == names, sorted(p["frames"])
# libGDX: a frame of an animation is a region named after it with an index
regions, cur = [], None
for line in open(out + "/sheet.atlas").read().split("\n"):
    if line and ":" not in line and not line.endswith(".png"):
        cur = [line, None]
        regions.append(cur)
    elif line.startswith("index:"):
        cur[1] = int(line[6:])
want = sorted([(k, i) for k, v in anims.items() for i in range(len(v))] +
              [("icons/sword", None), ("logo", None)], key=str)
got = sorted((r, i) for r, i in regions)
idx = {"dragon_fall": [0, 1, 2], "dragon_jump": [0, 1], "fx/spark": [0, 1],
       "fx/smoke": [7], "chars/hero/walk": [1, 2], 'a&b <"q">': [0], "coin": [0, 1]}
want = sorted([(k, i) for k, v in idx.items() for i in v] +
              [("icons/sword", None), ("logo", None)], key=str)
assert sorted(got, key=str) == want, (got, want)
# Godot: animations by name, escaped as Godot's VariantParser reads
# strings (\" \\ \n \t \r and \uXXXX)
def godot_unescape(s):
    def one(m):
        e = m.group(1)
        if e[0] == "u" and len(e) == 5:
            return chr(int(e[1:], 16))
        return {"n": "\n", "t": "\t", "r": "\r"}.get(e, e)
    return re.sub(r'\\(u[0-9a-fA-F]{4}|.)', one, s)
t = open(out + "/sheet.tres").read()
got = [godot_unescape(g) for g in re.findall(r'"name": &"((?:[^"\\]|\\.)*)"', t)]
assert sorted(got) == sorted(list(anims) + ["default"]), got
PY
checks=$((checks + 1))
# the plist is valid XML with the special characters escaped
grep -q '<key>a&amp;b &lt;&quot;q&quot;&gt;/x_0000</key>' "$T/out/sheet.plist" ||
	fail "plist key not escaped"
checks=$((checks + 1))
run "$VERIFY" "$T/out/sheet.json" -- $(find "$A" -name '*.png' | grep -v '"' | sort) \
	"$A/a&b <\"q\">/x_0000.png"
expect_rc 0
expect_out ' 0 problems'

# a file name shared by two folders is no duplicate; packing the two
# folders on their own makes both 'frame_0000': that one is
run "$BONEBAKE" pack "$A/dragon_fall" "$A/dragon_jump" -o "$T/dup"
expect_rc 3
expect_err "two frames named 'frame_0000': .*dragon_fall/frame_0000\.png and .*dragon_jump/frame_0000\.png"
expect_absent "$T/dup"
mkdir -p "$T/b/dragon_fall"
cp "$A/dragon_fall/frame_0001.png" "$T/b/dragon_fall/"
run "$BONEBAKE" pack "$A" "$T/b" -o "$T/dup"
expect_rc 3
expect_err "two frames named 'dragon_fall/frame_0001'"
expect_absent "$T/dup"

# render's layout (DIR/<anim>/<anim>_NNNN.png + frames.json): animation
# names from frames.json, frames under their folder
if "$BONEBAKE" render "$SAMPLES/humanoid.json" -o "$T/hum" --anim walk --anim attack \
	--quiet >/dev/null 2>&1; then
	run "$BONEBAKE" pack "$T/hum" -o "$T/hp" -q
	expect_rc 0
	python3 - "$T/hp/sheet.json" <<'PY' || fail "render layout: names"
import json, sys
d = json.load(open(sys.argv[1]))
assert sorted(d["animations"]) == ["attack", "walk"], d["animations"]
assert d["animations"]["walk"] == ["walk/walk_%04d" % i for i in range(24)]
assert d["meta"]["playback"]["walk"]["fps"] == 30
PY
	checks=$((checks + 1))
fi

# the same bytes whatever --jobs, over several pages
mkdir "$T/more"
cp -r "$T/g" "$T/more/set"
for j in 1 2 5; do
	run "$BONEBAKE" pack "$A" "$T/more" -o "$T/j$j" -q --jobs "$j" --max-size 160 \
		--multipack --rotate --format json,cocos2d
	expect_rc 0
done
[ "$(ls "$T/j1"/*.png | wc -l)" -gt 2 ] || fail "expected several pages"
diff -r "$T/j1" "$T/j2" >/dev/null || fail "--jobs 1 and 2 differ"
diff -r "$T/j1" "$T/j5" >/dev/null || fail "--jobs 1 and 5 differ"
checks=$((checks + 3))
run "$BONEBAKE" pack "$A" -o "$T/u" --jobs 0
expect_rc 2
expect_err '--jobs takes an integer 1..256'
pass
