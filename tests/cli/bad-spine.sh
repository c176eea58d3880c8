#!/bin/sh
# Spine bad input: the one-line file+field error, exit 3, no output; the
# atlas's errors name its line and region.  Also: --skin layering and
# unknown skins (exit 2), the 3.8 key names.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || fail "python3 is needed to write the test atlas (scripts/test installs it)"

python3 - "$T" <<'PY'
import struct, sys, zlib
def png(path, w, h):
    raw = b"".join(b"\0" + b"\xff\x80\x40\xff" * w for _ in range(h))
    def chunk(t, c):
        return struct.pack(">I", len(c)) + t + c + struct.pack(">I", zlib.crc32(t + c) & 0xffffffff)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
png(sys.argv[1] + "/a.png", 64, 64)
PY
printf 'a.png\n\tsize: 64, 64\np\n\tbounds: 0, 0, 16, 16\nq\n\tbounds: 16, 0, 16, 16\n' >"$T/a.atlas"

HEAD='"skeleton":{"spine":"4.2.22"}'
BONES='"bones":[{"name":"root"},{"name":"arm","parent":"root","length":10}]'
SLOTS='"slots":[{"name":"s","bone":"arm","attachment":"p"}]'
SKIN='"skins":[{"name":"default","attachments":{"s":{"p":{"width":16,"height":16}}}}]'

# bad NAME BODY RC STDERR-REGEX [ATLAS]
bad() {
	printf '{%s}\n' "$2" >"$T/$1.json"
	rm -rf "$T/out"
	run "$BONEBAKE" render "$T/$1.json" -o "$T/out" --quiet --atlas "$T/${5:-a}.atlas"
	expect_rc "$3"
	expect_err "$4"
	expect_absent "$T/out"
	[ "$(printf '%s\n' "$err" | grep -vc warning)" -eq 1 ] || fail "expected one error line: $err"
}

# wrong types
bad a "$HEAD,\"bones\":[{\"name\":\"root\",\"x\":\"ten\"}]" \
	3 'a\.json: bones\[0\]\.x: expected a number, found a string'
bad a '"skeleton":{"spine":"2.1.27"},"bones":[{"name":"root"}]' \
	3 'a\.json: skeleton\.spine: version "2\.1\.27" is not supported'
bad a "$HEAD,$BONES,\"slots\":[{\"name\":\"s\",\"bone\":\"arm\",\"color\":\"zz\"}]" \
	3 'a\.json: slots\[0\]\.color: "zz" is not a colour'
bad a "$HEAD,\"bones\":[{\"name\":\"root\",\"inherit\":\"sideways\"}]" \
	3 'a\.json: bones\[0\]\.inherit: unknown value "sideways"'
# unknown bones, slots, skins; parents after children (no cycles possible)
bad a "$HEAD,\"bones\":[{\"name\":\"root\"},{\"name\":\"b\",\"parent\":\"c\"},{\"name\":\"c\",\"parent\":\"b\"}]" \
	3 'a\.json: bones\[1\]\.parent: unknown bone "c" \(a parent comes before its children\)'
# a bone naming itself as its parent (fuzz-spine: the update order recursed
# for ever)
bad a "$HEAD,\"bones\":[{\"name\":\"root\"},{\"name\":\"b\",\"parent\":\"b\"}]" \
	3 'a\.json: bones\[1\]\.parent: unknown bone "b" \(a parent comes before its children\)'
bad a "$HEAD,$BONES,\"slots\":[{\"name\":\"s\",\"bone\":\"leg\"}]" \
	3 'a\.json: slots\[0\]\.bone: unknown bone "leg"'
bad a "$HEAD,$BONES,$SLOTS,\"ik\":[{\"name\":\"k\",\"bones\":[\"arm\"],\"target\":\"hand\"}]" \
	3 'a\.json: ik\[0\]\.target: unknown bone "hand"'
bad a "$HEAD,$BONES,$SLOTS,\"ik\":[{\"name\":\"k\",\"bones\":[\"root\"],\"target\":\"arm\"}]" \
	3 'a\.json: ik\[0\]\.bones: the root bone cannot be constrained by IK'
bad a "$HEAD,$BONES,$SLOTS,\"skins\":[{\"name\":\"default\",\"attachments\":{\"t\":{\"p\":{}}}}]" \
	3 'a\.json: skins\[0\]\.attachments\.t: unknown slot "t"'
bad a "$HEAD,$BONES,$SLOTS,$SKIN,\"animations\":{\"w\":{\"bones\":{\"leg\":{\"rotate\":[{}]}}}}" \
	3 'a\.json: animations\.w\.bones\.leg: unknown bone "leg"'
bad a "$HEAD,$BONES,$SLOTS,$SKIN,\"animations\":{\"w\":{\"attachments\":{\"blue\":{}}}}" \
	3 'a\.json: animations\.w\.attachments\.blue: unknown skin "blue"'
bad a "$HEAD,$BONES,$SLOTS,$SKIN,\"animations\":{\"w\":{\"bones\":{\"arm\":{\"rotate\":[{\"time\":1},{\"time\":0.5}]}}}}" \
	3 'a\.json: animations\.w\.bones\.arm\.rotate\[1\]\.time: 0\.5 is before the previous key'
bad a "$HEAD,$BONES,$SLOTS,$SKIN,\"animations\":{\"w\":{\"events\":[{\"name\":\"boom\"}]}}" \
	3 'a\.json: animations\.w\.events\[0\]\.name: unknown event "boom"'
bad a "$HEAD,$BONES,$SLOTS,$SKIN,\"animations\":{\"w\":{\"drawOrder\":[{\"offsets\":[{\"slot\":\"s\",\"offset\":3}]}]}}" \
	3 'a\.json: animations\.w\.drawOrder\[0\]\.offsets\[0\]\.offset: 3 is outside -1\.\.1'
# out-of-range vertex and bone indices; a linked-mesh cycle
MESH='"type":"mesh","uvs":[0,0,1,0,0,1]'
bad a "$HEAD,$BONES,$SLOTS,\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"p\":{$MESH,\"vertices\":[0,0,9,0,0,9],\"triangles\":[0,1,5]}}}}]" \
	3 'a\.json: skins\[0\]\.attachments\.s\.p\.triangles\[2\]: vertex index 5 out of range \(3 vertices\)'
bad a "$HEAD,$BONES,$SLOTS,\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"p\":{$MESH,\"triangles\":[0,1,2],\"vertices\":[1,7,0,0,1,1,1,9,0,1,1,1,0,9,1]}}}}]" \
	3 'a\.json: skins\[0\]\.attachments\.s\.p\.vertices\[1\]: bone index 7 out of range \(2 bones\)'
bad a "$HEAD,$BONES,$SLOTS,\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"p\":{\"type\":\"linkedmesh\",\"parent\":\"q\"},\"q\":{\"type\":\"linkedmesh\",\"parent\":\"p\"}}}}]" \
	3 'a\.json: .*parent: linked meshes form a cycle'
bad a "$HEAD,$BONES,$SLOTS,\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"p\":{\"type\":\"clipping\",\"end\":\"zz\",\"vertexCount\":3,\"vertices\":[0,0,1,0,0,1]}}}}]" \
	3 'a\.json: skins\[0\]\.attachments\.s\.p\.end: unknown slot "zz"'
# numbers in arrays: each element checked where it is, keys named
bad a "$HEAD,$BONES,$SLOTS,\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"p\":{$MESH,\"vertices\":[0,0,1e10,0,0,9],\"triangles\":[0,1,2]}}}}]" \
	3 'a\.json: skins\[0\]\.attachments\.s\.p\.vertices\[2\]: 1e\+10 is too large'
bad a "$HEAD,$BONES,$SLOTS,\"skins\":[{\"name\":\"default\",\"attachments\":{\"s\":{\"p\":{$MESH,\"vertices\":[0,0,9,0,0,9],\"triangles\":[0,1,\"2\"]}}}}]" \
	3 'a\.json: skins\[0\]\.attachments\.s\.p\.triangles\[2\]: expected a number, found a string'
bad a "$HEAD,$BONES,$SLOTS,$SKIN,\"animations\":{\"w\":{\"bones\":{\"arm\":{\"rotate\":[{},{\"time\":0.5,\"curve\":[0.25,0,\"x\",1]},{\"time\":1}]}}}}" \
	3 'a\.json: animations\.w\.bones\.arm\.rotate\[1\]\.curve\[2\]: expected a number, found a string'
bad a "$HEAD,$BONES,$SLOTS,$SKIN,\"animations\":{\"w\":{\"bones\":{\"arm\":{\"rotate\":[{\"curve\":[0.25,0,0.75]},{\"time\":1}]}}}}" \
	3 'a\.json: animations\.w\.bones\.arm\.rotate\[0\]\.curve\[3\]: expected a number, found nothing'
bad a '"skeleton":{"spine":"3.8.99"},'"$BONES,$SLOTS,$SKIN"',"animations":{"w":{"bones":{"arm":{"rotate":[{"curve":0.25,"c3":"x"},{"time":1}]}}}}' \
	3 'a\.json: animations\.w\.bones\.arm\.rotate\[0\]\.c3: expected a number, found a string'
bad a "$HEAD,$BONES,$SLOTS,$SKIN,\"physics\":[{\"name\":\"ph\",\"bone\":\"arm\",\"windGlobal\":1}]" \
	3 'a\.json: physics\[0\]\.windGlobal: expected true or false, found a number'
# truncated and broken atlases
printf 'a.png\n\tsize: 64, 64\np\n\tbounds: 0, 0' >"$T/cut.atlas"
bad a "$HEAD,$BONES,$SLOTS,$SKIN" 3 'cut\.atlas:4: p: bounds: expected 4 integers, found 2' cut
printf 'a.png\n\tsize: 64, 64\np\n' >"$T/short.atlas"
bad a "$HEAD,$BONES,$SLOTS,$SKIN" 3 'short\.atlas:3: p: no bounds or xy \(truncated atlas\?\)' short
printf 'a.png\n\tsize: 64, 64\np\n\tbounds: 60, 0, 16, 16\n' >"$T/out.atlas"
bad a "$HEAD,$BONES,$SLOTS,$SKIN" 3 'out\.atlas:4: p: region 60,0 16x16 lies outside its 64x64 page' out
printf 'b.png\n\tsize: 64, 64\np\n\tbounds: 0, 0, 16, 16\n' >"$T/nopage.atlas"
bad a "$HEAD,$BONES,$SLOTS,$SKIN" 3 '^bonebake: nopage\.atlas:1: page "b\.png": cannot open: ' nopage

# good: skins layered as Spine combines them, 3.8 key names
printf '{%s,%s,%s,"skins":[{"name":"default","attachments":{"s":{"p":{"width":16,"height":16}}}},
	{"name":"blue","attachments":{"s":{"p":{"path":"q","width":16,"height":16}}}},
	{"name":"empty","attachments":{}}],
	"animations":{"w":{"bones":{"arm":{"rotate":[{},{"time":1,"value":90}]}}}}}\n' \
	"$HEAD" "$BONES" "$SLOTS" >"$T/skins.json"
for s in "" "--skin blue" "--skin empty" "--skin blue --skin empty" "--skin empty --skin blue"; do
	# shellcheck disable=SC2086
	run "$BONEBAKE" pose "$T/skins.json" --atlas "$T/a.atlas" $s
	expect_rc 0
	printf '%s\n' "$out" >"$T/pose$(printf '%s' "$s" | tr -d ' -')"
done
uv() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["frames"][0]["draw"][0]["verts"][:2])' "$1"; }
[ "$(uv "$T/pose")" = "$(uv "$T/poseskinempty")" ] || fail "an empty skin changes the default's attachment"
python3 - "$T" <<'PY' || fail "layered skins do not pick the last skin's attachment"
import json, sys
def tex(name):
    d = json.load(open(sys.argv[1] + "/" + name))["frames"][0]["draw"][0]
    return d["verts"]
# same geometry; the region differs: compare through `pose` draw uvs is not
# printed, so check the blue skin is what draws when layered last or alone
a, b = tex("poseskinblue"), tex("poseskinemptyskinblue")
c = tex("poseskinblueskinempty")
assert a == b == c, (a, b, c)
PY
run "$BONEBAKE" render "$T/skins.json" --atlas "$T/a.atlas" -o "$T/out" --skin red --quiet
expect_rc 2
expect_err 'unknown .*skin "red" \(the file has: default, blue, empty\)'
# 3.8: "angle", "translateMix", "color" keys, "transform" inherit key
printf '{"skeleton":{"spine":"3.8.99"},"bones":[{"name":"root"},{"name":"arm","parent":"root","transform":"noScale"}],
	%s,%s,"transform":[{"name":"t","bones":["arm"],"target":"root","translateMix":0.5,"rotateMix":0,"scaleMix":0,"shearMix":0}],
	"animations":{"w":{"bones":{"arm":{"rotate":[{"angle":170},{"time":1,"angle":-170}]}},
	"slots":{"s":{"color":[{"color":"ff0000ff","curve":0.25,"c2":0,"c3":0.75,"c4":1},{"time":1,"color":"00ff00ff"}]}}}}}\n' \
	"$SLOTS" "$SKIN" >"$T/v38.json"
run "$BONEBAKE" pose "$T/v38.json" --atlas "$T/a.atlas" --fps 2
expect_rc 0
python3 - "$out" <<'PY' || fail "3.8 rotation does not take the shorter way"
import json, math, sys
f = json.loads(sys.argv[1])["frames"][1]            # t = 0.5: halfway
m = [b["m"] for b in f["bones"] if b["name"] == "arm"][0]
# 170 -> -170 the shorter way passes 180 (not 0); y is down in the pose
ang = math.degrees(math.atan2(-m[1], m[0]))
assert abs(abs(ang) - 180) < 1e-6, ang
PY
# the sample: the same bytes whatever --jobs (physics is simulated from
# t = 0 for every frame), events in frames.json
run "$BONEBAKE" render "$SAMPLES/spine/keeper.json" -o "$T/j1" --jobs 1 --quiet
expect_rc 0
run "$BONEBAKE" render "$SAMPLES/spine/keeper.json" -o "$T/j2" --jobs 2 --quiet
expect_rc 0
cmp -s "$T/j1/idle/idle_0045.png" "$T/j2/idle/idle_0045.png" && diff -r "$T/j1" "$T/j2" >/dev/null ||
	fail "renders differ between --jobs 1 and --jobs 2"
grep -q '"name": "blink"' "$T/j1/idle/frames.json" || fail "no blink event in frames.json"
grep -q '"name": "grab"' "$T/j1/reach/frames.json" || fail "no grab event in frames.json"
pass
