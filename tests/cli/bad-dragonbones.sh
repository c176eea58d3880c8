#!/bin/sh
# DragonBones bad input: the one-line file+field error, exit 3, no output.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to write the test atlas"

# a 64x64 atlas page and its JSON
python3 - "$T" <<'PY'
import struct, sys, zlib
def png(path, w, h):
    raw = b"".join(b"\0" + b"\xff\x80\x40\xff" * w for _ in range(h))
    def chunk(t, c):
        return struct.pack(">I", len(c)) + t + c + struct.pack(">I", zlib.crc32(t + c) & 0xffffffff)
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    open(path, "wb").write(data)
    return data
d = png(sys.argv[1] + "/a_tex.png", 64, 64)
open(sys.argv[1] + "/cut_tex.png", "wb").write(d[:len(d) // 2])
PY
tex() {  # NAME PAGE SUBTEXTURE-JSON
	printf '{"name":"a","imagePath":"%s","width":64,"height":64,"SubTexture":[%s]}' "$2" "$3" \
		>"$T/$1_tex.json"
}
# bad NAME SKELETON-BODY RC STDERR-REGEX
bad() {
	printf '{"frameRate":24,"version":"5.5","armature":[%s]}\n' "$2" >"$T/$1_ske.json"
	rm -rf "$T/out"
	run "$BONEBAKE" render "$T/$1_ske.json" -o "$T/out" --quiet
	expect_rc "$3"
	expect_err "$4"
	expect_absent "$T/out"
	[ "$(printf '%s\n' "$err" | grep -vc warning)" -eq 1 ] || fail "expected one error line: $err"
}
ok_region='{"name":"p","x":0,"y":0,"width":16,"height":16}'
tex a a_tex.png "$ok_region"
ARM='"name":"x","bone":[{"name":"root"},{"name":"arm","parent":"root"}],"slot":[{"name":"s","parent":"arm"}]'

bad a "{$ARM,\"animation\":[{\"name\":\"w\",\"duration\":\"ten\"}]}" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.duration: expected a number'
bad a "{$ARM,\"animation\":[{\"name\":\"w\",\"duration\":2,\"bone\":[{\"name\":\"arm\",\"scale\":1e300,\"frame\":[{}]}]}]}" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.bone\[0\]\.scale: 1e\+300 is out of range'
bad a '{"name":"x","bone":[{"name":"root"},{"name":"b","parent":"arm"}]}' \
	3 'a_ske\.json: armature\[0\]\.bone\[1\]\.parent: unknown bone "arm"'
bad a '{"name":"x","bone":[{"name":"a","parent":"b"},{"name":"b","parent":"a"}]}' \
	3 'a_ske\.json: armature\[0\]\.bone\[0\]\.parent: bone hierarchy has a cycle'
bad a '{"name":"x","bone":[{"name":"a","transform":{"x":[1]}}]}' \
	3 'a_ske\.json: armature\[0\]\.bone\[0\]\.transform\.x: expected a number'
bad a "{$ARM,\"skin\":[{\"slot\":[{\"name\":\"s\",\"display\":[{\"type\":\"mesh\",\"name\":\"p\",
	\"vertices\":[0,0,10,0,0,10],\"uvs\":[0,0,1,0,0,1],\"triangles\":[0,1,7]}]}]}]}" \
	3 'a_ske\.json: armature\[0\]\.skin\[0\]\.slot\[0\]\.display\[0\]\.triangles\[2\]: vertex index 7 out of range \(3 vertices\)'
bad a "{$ARM,\"skin\":[{\"slot\":[{\"name\":\"s\",\"display\":[{\"type\":\"mesh\",\"name\":\"p\",
	\"vertices\":[0,0,10,0,0,10],\"uvs\":[0,0,1,0,0,1],\"triangles\":[0,1,2],
	\"weights\":[1,5,1,1,0,1,1,0,1],\"bonePose\":[0,1,0,0,1,0,0]}]}]}]}" \
	3 'a_ske\.json: armature\[0\]\.skin\[0\]\.slot\[0\]\.display\[0\]\.weights: vertex 0 names bone 5, which does not exist'
bad a "{$ARM,\"ik\":[{\"bone\":\"arm\",\"target\":\"hand\"}]}" \
	3 'a_ske\.json: armature\[0\]\.ik\[0\]\.target: unknown bone "hand"'
bad a '{"name":"x","bone":[{"name":"root"}],"slot":[{"name":"s","parent":"nope"}]}' \
	3 'a_ske\.json: armature\[0\]\.slot\[0\]\.parent: unknown bone "nope"'
bad a "{$ARM,\"animation\":[{\"name\":\"w\",\"duration\":2,\"ffd\":[{\"name\":\"p\",\"slot\":\"zz\",\"frame\":[]}]}]}" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.ffd\[0\]\.slot: unknown slot "zz"'

# a display type the runtime does not know: a number other than 0-4, an
# unknown name, a value of the wrong type (the runtime's names and numbers
# are accepted, names in any case)
DISP='"skin":[{"slot":[{"name":"s","display":[{"name":"p","type":%s}]}]}]'
for t in 5 1.5 -1; do
	bad a "{$ARM,$(printf "$DISP" "$t")}" \
		3 "a_ske\\.json: armature\\[0\\]\\.skin\\[0\\]\\.slot\\[0\\]\\.display\\[0\\]\\.type: unknown display type $t \\(0-4: image, armature, mesh, boundingBox, path\\)"
done
bad a "{$ARM,$(printf "$DISP" '"sprite"')}" \
	3 'a_ske\.json: armature\[0\]\.skin\[0\]\.slot\[0\]\.display\[0\]\.type: unknown display type "sprite" \(image, armature, mesh, boundingBox or path\)'
bad a "{$ARM,$(printf "$DISP" '[0]')}" \
	3 'display\[0\]\.type: expected a string or a number, found an array'
for t in 0 '"Image"' '"IMAGE"' 3 '"boundingbox"' 4; do
	printf '{"frameRate":24,"version":"5.5","armature":[{%s,%s}]}' "$ARM" \
		"$(printf "$DISP" "$t")" >"$T/a_ske.json"
	run "$BONEBAKE" render "$T/a_ske.json" -o "$T/out" --quiet
	expect_rc 0
	rm -rf "$T/out"
done
# 2.3 (global-space) documents: slots in the skin, per-bone timelines
bad23() {
	printf '{"frameRate":24,"version":2.3,"armature":[%s]}\n' "$2" >"$T/$1_ske.json"
	rm -rf "$T/out"
	run "$BONEBAKE" render "$T/$1_ske.json" -o "$T/out" --quiet
	expect_rc "$3"
	expect_err "$4"
	expect_absent "$T/out"
	[ "$(printf '%s\n' "$err" | grep -vc warning)" -eq 1 ] || fail "expected one error line: $err"
}
OLD='"name":"x","bone":[{"name":"root"},{"name":"arm","parent":"root","transform":{"x":5}}],"skin":[{"slot":[{"name":"arm","parent":"arm","z":0,"display":[{"name":"p","transform":{"pX":8,"pY":8}}]}]}]'
tl() {  # FRAMES-JSON of the arm's timeline
	printf '{%s,"animation":[{"name":"w","duration":2,"timeline":[{"name":"arm","frame":[%s]}]}]}' "$OLD" "$1"
}
bad23 a "$(tl '{"duration":"two"}')" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.timeline\[0\]\.frame\[0\]\.duration: expected a number'
bad23 a "$(tl '{"transform":{"skX":"left"}}')" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.timeline\[0\]\.frame\[0\]\.transform\.skX: expected a number'
bad23 a "$(tl '{"colorTransform":{"rM":[50]}}')" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.timeline\[0\]\.frame\[0\]\.colorTransform\.rM: expected a number'
bad23 a "$(tl '{"event":7}')" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.timeline\[0\]\.frame\[0\]\.event: expected a string'
bad23 a "$(tl '{"duration":1},{"duration":1,"displayIndex":1}')" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.timeline\[0\]\.frame\[1\]\.displayIndex: display 1 out of range \(slot "arm" has 1\)'
bad23 a "$(tl '{"displayIndex":-2}')" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.timeline\[0\]\.frame\[0\]\.displayIndex: display -2 out of range'
bad23 a "{$OLD,\"animation\":[{\"name\":\"w\",\"timeline\":[{\"name\":\"leg\",\"frame\":[{}]}]}]}" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.timeline\[0\]\.name: unknown bone "leg"'
bad23 a "{$OLD,\"animation\":[{\"name\":\"w\",\"loop\":true,\"timeline\":[]}]}" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.loop: expected a number'
bad23 a '{"name":"x","bone":[{"name":"root"},{"name":"b","parent":"arm"}]}' \
	3 'a_ske\.json: armature\[0\]\.bone\[1\]\.parent: unknown bone "arm"'
bad23 a '{"name":"x","bone":[{"name":"root","transform":{"scX":{}}}]}' \
	3 'a_ske\.json: armature\[0\]\.bone\[0\]\.transform\.scX: expected a number'
bad23 a '{"name":"x","bone":[{"name":"root"}],"skin":[{"slot":[{"name":"s","parent":"nope","display":[]}]}]}' \
	3 'a_ske\.json: armature\[0\]\.skin\[0\]\.slot\[0\]\.parent: unknown bone "nope"'
bad23 a '{"name":"x","bone":[{"name":"root"}],"skin":[{"slot":[{"name":"s","parent":"root","z":"top","display":[]}]}]}' \
	3 'a_ske\.json: armature\[0\]\.skin\[0\]\.slot\[0\]\.z: expected a number'
bad23 a '{"name":"x","bone":[{"name":"root"}],"skin":[{"slot":[{"name":"s","parent":"root","displayIndex":2,"display":[{"name":"p"}]}]}]}' \
	3 'a_ske\.json: armature\[0\]\.skin\[0\]\.slot\[0\]\.displayIndex: display 2 out of range \(slot "s" has 1\)'
bad23 a '{"name":"x","bone":[{"name":"root"}],"skin":[{"slot":[{"name":"s","parent":"root","display":[{"name":"p","transform":{"pX":"mid"}}]}]}]}' \
	3 'a_ske\.json: armature\[0\]\.skin\[0\]\.slot\[0\]\.display\[0\]\.transform\.pX: expected a number'
bad23 a "{$OLD,\"animation\":[{\"name\":\"w\",\"timeline\":[{\"name\":\"arm\",\"offset\":1e308,\"frame\":[{}]}]}]}" \
	3 'a_ske\.json: armature\[0\]\.animation\[0\]\.timeline\[0\]\.offset: 1e\+308 is out of range'
# other versions before 4.0 are refused
printf '{"version":"2.2","armature":[{"name":"x"}]}' >"$T/old_ske.json"
run "$BONEBAKE" render "$T/old_ske.json" -o "$T/out" --quiet
expect_rc 3
expect_err 'old_ske\.json: version: data version 2\.2 is not supported'
printf '{"version":1.5,"armature":[{"name":"x"}]}' >"$T/old_ske.json"
run "$BONEBAKE" render "$T/old_ske.json" -o "$T/out" --quiet
expect_rc 3
expect_err 'old_ske\.json: version: data version 1\.5 is not supported'

# atlas problems: truncated page PNG, a region outside its page
tex cut cut_tex.png "$ok_region"
bad cut '{"name":"x","bone":[{"name":"root"}]}' 3 'cut_tex\.json: imagePath: page "cut_tex\.png": invalid PNG'
tex out a_tex.png '{"name":"p","x":60,"y":0,"width":16,"height":16}'
bad out '{"name":"x","bone":[{"name":"root"}]}' 3 'out_tex\.json: SubTexture\[0\]: region 60,0 16x16 of "p" lies outside its 64x64 page'

# a missing atlas entry is a warning, not an error: the display draws nothing
printf '{"frameRate":24,"version":"5.5","armature":[{%s,"skin":[{"slot":[{"name":"s","display":[{"name":"nothere"}]}]}],"animation":[{"name":"w","duration":2}]}]}' \
	"$ARM" >"$T/a_ske.json"
run "$BONEBAKE" render "$T/a_ske.json" -o "$T/out" --quiet
expect_rc 0
expect_err 'warning: a_ske\.json: no atlas entry for "nothere"'
[ "$(printf '%s\n' "$err" | grep -c nothere)" -eq 1 ] || fail "the warning must be printed once"
pass
