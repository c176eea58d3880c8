#!/bin/sh
# SSAJSON from the command line: the sample renders at each animation's own
# fps, --canvas native uses the file's canvas and origin, bad input gives
# the one-line file+field error (exit 3) and no output, a missing image is
# an error unless --placeholder draws it as outlined boxes.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to check PNG sizes and write inputs"
S="$SAMPLES/ssajson/demo.json"
size() { python3 "$top_srcdir/tests/cli/pngsize.py" "$1"; }

# ---- the sample: every animation, frames at each one's own rate
run "$BONEBAKE" render "$S" -o "$T/out" --quiet
expect_rc 0
[ "$(ls "$T/out/demo_walk" | grep -c '\.png$')" -eq 8 ] || fail "demo_walk: expected 8 frames"
[ "$(ls "$T/out/demo_fx" | grep -c '\.png$')" -eq 6 ] || fail "demo_fx: expected 6 frames"
grep -q '"fps": 12' "$T/out/demo_walk/frames.json" || fail "demo_walk plays at 12 fps"
grep -q '"fps": 10' "$T/out/demo_fx/frames.json" || fail "demo_fx plays at 10 fps"
grep -q '"armature": "demo"' "$T/out/demo_fx/frames.json" || fail "armature named after the file"
checks=$((checks + 5))
run "$BONEBAKE" info "$S"
expect_rc 0
expect_out 'demo_walk +0\.667 s +8 frames @ 12 fps'
expect_out 'demo_fx +0\.600 s +6 frames @ 10 fps'

# ---- --canvas native: CanvasWidth/Height, origin at the margins
# (MarginHeight counts from the bottom edge)
run "$BONEBAKE" render "$S" -o "$T/native" --canvas native --scale 2 --quiet
expect_rc 0
[ "$(size "$T/native/demo_walk/demo_walk_0000.png")" = 320x240 ] || fail "native canvas 160x120 at scale 2"
grep -q '"origin": { "x": 160, "y": 192 }' "$T/native/demo_walk/frames.json" ||
	fail "native origin (80, 120-24) at scale 2: $(grep origin "$T/native/demo_walk/frames.json")"
[ "$(size "$T/native/demo_fx/demo_fx_0003.png")" = 320x320 ] || fail "native canvas 160x160 at scale 2"
checks=$((checks + 3))
run "$BONEBAKE" render "$SAMPLES/slime.json" -o "$T/x" --canvas native --quiet
expect_rc 2
expect_err 'defines no canvas'
expect_absent "$T/x"
run "$BONEBAKE" render "$S" -o "$T/x" --canvas fixed --quiet
expect_rc 2
expect_err "--canvas takes auto, union or native"
run "$BONEBAKE" render "$S" -o "$T/x" --canvas native --size 10x10 --quiet
expect_rc 2
expect_absent "$T/x"

# ---- determinism: the same bytes whatever the thread count
run "$BONEBAKE" render "$S" -o "$T/j1" --jobs 1 --quiet
expect_rc 0
cmp -s "$T/j1/demo_fx/demo_fx_0003.png" "$T/out/demo_fx/demo_fx_0003.png" ||
	fail "output differs between thread counts"
checks=$((checks + 1))

# ---- bad input: one line naming file and field, exit 3, nothing written
cp "$SAMPLES/ssajson/demo.png" "$T/demo.png"
# anim NAME FRAMES-JSON: a one-animation file with two images
anim() {
	printf '[{"images":["demo.png","demo.png"],"name":"a","animation":{"fps":30,"parts":["p","q"],"ssa":%s}}]\n' "$2" >"$T/$1"
}
bad() {  # FILE REGEX
	rm -rf "$T/out2"
	run "$BONEBAKE" render "$T/$1" -o "$T/out2" --quiet
	expect_rc 3
	expect_err "$2"
	expect_absent "$T/out2"
	[ "$(printf '%s\n' "$err" | grep -vc warning)" -eq 1 ] || fail "expected one error line: $err"
}
ok='[0,0,0,0,8,8,0,0,0,1,1]'
frames=$(python3 -c "
import sys
ok = sys.argv[1]
fr = ['[' + ','.join([ok] * 4) + ']'] * 12
fr.append('[%s,%s,%s,[1,4,0,0,8,8,0,0,0,1,1]]' % (ok, ok, ok))
print('[' + ','.join(fr) + ']')" "$ok")
anim anim.json "$frames"
bad anim.json '^bonebake: anim\.json: \[0\]\.animation\.ssa\[12\]\[3\]\[1\]: image index 4 out of range \(2 images\)$'
anim part.json "[[[7,0,0,0,8,8,0,0,0,1,1]]]"
bad part.json 'part\.json: \[0\]\.animation\.ssa\[0\]\[0\]\[0\]: part index 7 out of range \(2 parts\)'
anim neg.json "[[$ok,[1,0,0,0,-8,8,0,0,0,1,1]]]"
bad neg.json 'neg\.json: \[0\]\.animation\.ssa\[0\]\[1\]\[4\]: negative size -8'
anim nan.json '[[[1,0,0,0,8,8,0,"x",0,1,1]]]'
bad nan.json 'nan\.json: \[0\]\.animation\.ssa\[0\]\[0\]\[7\]: expected a number, found a string'
anim empty.json '[]'
bad empty.json 'empty\.json: \[0\]\.animation\.ssa: no frames'
anim short.json '[[[1,0,0,0,8,8]]]'
bad short.json 'short\.json: \[0\]\.animation\.ssa\[0\]\[0\]: a part record has at least 11 fields, found 6'
printf '{"images":["demo.png"],"name":"solo","animation":{"fps":30,"parts":["p"],"ssa":[[[0,0,0,0,8,8,0,0,0,1,1,0,0,0,0,1,5]]]}}' >"$T/solo.json"
bad solo.json 'solo\.json: animation\.ssa\[0\]\[0\]\[16\]: unknown alpha blend type 5'

# ---- a missing image: an error naming it, or outlined boxes
printf '[{"images":["demo.png","gone.png"],"name":"a","animation":{"fps":30,"parts":["p"],"ssa":[[[0,1,0,0,16,16,0,0,0.5,1,1],[0,0,0,0,32,32,20,0,0,1,1]]]}}]' >"$T/miss.json"
bad miss.json 'miss\.json: \[0\]\.images\[1\]: image "gone\.png"'
run "$BONEBAKE" render "$T/miss.json" -o "$T/ph" --placeholder --quiet
expect_rc 0
expect_err 'warning: miss\.json: image "gone\.png" not found; its parts are drawn as outlined boxes'
[ -f "$T/ph/a/a_0000.png" ] || fail "--placeholder: no frame written"
checks=$((checks + 1))
pass
