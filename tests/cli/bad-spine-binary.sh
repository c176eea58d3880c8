#!/bin/sh
# Spine binaries (.skel) that are truncated or garbled get what bad JSON
# gets: exit 3, one line naming the file, the section and what was being
# read, with the byte offset; never a crash, nothing written.  Also: a
# binary is recognised by its content whatever its name (and a JSON export
# named .skel is read as JSON), the 3.8, 4.0 and 4.1 layouts load, and the
# load limits hold (10001 bones refused, in bounded memory).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || fail "python3 is needed to write the test files (scripts/test installs it)"
K="$SAMPLES/spine/keeper.skel"
[ -f "$K" ] || fail "missing sample $K"

# bad NAME RC STDERR-REGEX: render exits RC with one error line, no output
bad() {
	rm -rf "$T/out"
	run "$BONEBAKE" render "$T/$1" -o "$T/out" --quiet
	expect_rc "$2"
	expect_err "$3"
	expect_absent "$T/out"
	[ "$(printf '%s\n' "$err" | grep -vc warning)" -eq 1 ] || fail "$1: expected one error line: $err"
}

# ---- truncated at many offsets -------------------------------------------------
size=$(wc -c <"$K")
offsets=$(python3 -c "import sys; n=int(sys.argv[1]); print(' '.join(map(str, sorted(set(list(range(0, 64)) + list(range(64, n, 29)) + [n - 1])))))" "$size")
for n in $offsets; do
	head -c "$n" "$K" >"$T/cut.skel"
	run "$BONEBAKE" info "$T/cut.skel"
	[ "$rc" -eq 3 ] || fail "cut at $n bytes: exit $rc, expected 3: $err"
	[ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] || fail "cut at $n bytes: not one line: $err"
	case $err in *"cut.skel"*) ;; *) fail "cut at $n bytes: the file is not named: $err" ;; esac
	# past the header, the decoder says what it read and where
	if [ "$n" -ge 24 ]; then
		printf '%s\n' "$err" | grep -Eq " at byte [0-9]+$" ||
			fail "cut at $n bytes: no byte offset: $err"
	fi
done
checks=$((checks + 1))

# ---- garbled counts, indices, varints, string references -----------------
python3 - "$T" "$top_srcdir/scripts" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from spineskel import Out


def skel(ver="4.2.22", strings_count=None, slot_ref=1, tl_bone=1, curve=2, tail=b""):
    """A small skeleton: bones root and arm, slot s, one rotate timeline."""
    o = Out({})
    major, minor = int(ver[0]), int(ver[2])
    if major == 3:
        o.string("hash")
    else:
        o.b += bytes(8)
    o.string(ver)
    for v in (0, 0, 100, 100):
        o.f32(v)
    if (major, minor) >= (4, 2):
        o.f32(100)
    o.bool(False)
    if strings_count is None:
        o.varint(2)
    else:
        o.b += strings_count
    o.string("a")
    o.string("e")
    o.varint(2)
    for i, (name, vals) in enumerate((("root", (0, 0, 0, 1, 1, 0, 0, 0)),
                                      ("arm", (30, 10, 0, 1, 1, 0, 0, 40)))):
        o.string(name)
        if i:
            o.varint(0)
        for v in vals:
            o.f32(v)
        if (major, minor) >= (4, 2):
            o.byte(0)
        else:
            o.varint(0)
        o.bool(False)
    o.varint(1)
    o.string("s")
    o.varint(1)
    o.i32(-1)
    o.i32(-1)
    o.varint(slot_ref)
    o.varint(0)
    o.varint(0)   # ik
    o.varint(0)   # transform
    o.varint(0)   # path
    if (major, minor) >= (4, 2):
        o.varint(0)   # physics
    o.varint(0)   # no default skin
    o.varint(0)   # no skins
    o.varint(0)   # no events
    o.varint(1)
    o.string("a")
    if major == 4:
        o.varint(1)
    o.varint(0)   # slot timelines
    o.varint(1)
    o.varint(tl_bone)
    o.varint(1)
    o.byte(0)     # rotate
    o.varint(2)
    if major == 4:
        o.varint(1)
        o.f32(0); o.f32(0); o.f32(1); o.f32(90)
        o.byte(curve)
        for v in (0.3, 0, 0.7, 90):
            o.f32(v)
    else:
        o.f32(0); o.f32(0)
        o.byte(curve)
        for v in (0.25, 0, 0.75, 1):
            o.f32(v)
        o.f32(1); o.f32(90)
    for _ in range(5 if major == 3 else 5):
        o.varint(0)   # ik, transform, path, deform, draw order
    if (major, minor) >= (4, 2):
        o.varint(0)   # physics timelines
    o.varint(0)       # events
    return bytes(o.b) + tail


d = sys.argv[1] + "/"
for ver in ("3.8.99", "4.0.64", "4.1.24", "4.2.22"):
    open(d + "v%s.skel" % ver[:3], "wb").write(skel(ver))
open(d + "huge.skel", "wb").write(skel(strings_count=b"\xff\xff\xff\xff\x07"))
open(d + "wide.skel", "wb").write(skel(strings_count=b"\xff\xff\xff\xff\x7f"))
open(d + "ref.skel", "wb").write(skel(slot_ref=9))
open(d + "bone.skel", "wb").write(skel(tl_bone=97))
open(d + "curve.skel", "wb").write(skel(curve=7))
open(d + "tail.skel", "wb").write(skel(tail=b"junk"))
open(d + "v43.skel", "wb").write(skel("4.3.01"))
open(d + "v37.skel", "wb").write(skel("3.7.94"))
# the load limits hold for a binary as for JSON: 10001 bones (400 KB)
o = Out({})
o.b += bytes(8)
o.string("4.2.22")
for v in (0, 0, 100, 100, 100):
    o.f32(v)
o.bool(False)
o.varint(0)
o.varint(10001)
for i in range(10001):
    o.string("b%d" % i)
    if i:
        o.varint(i - 1)
    for v in (0, 1, 0, 1, 1, 0, 0, 1):
        o.f32(v)
    o.byte(0)
    o.bool(False)
for _ in range(9):
    o.varint(0)
open(d + "bones.skel", "wb").write(bytes(o.b))
PY
# every layout loads, and poses its rotate key (90 degrees at 1 s)
for v in 3.8 4.0 4.1 4.2; do
	run "$BONEBAKE" info "$T/v$v.skel"
	expect_rc 0
	expect_out "v$v: 2 bones, 1 slots"
done
bad huge.skel 3 '^bonebake: huge\.skel: strings: string count 2147483647: more than the [0-9]+ bytes left can hold at byte 36$'
bad wide.skel 3 '^bonebake: wide\.skel: strings: string count: varint larger than 32 bits at byte 36$'
bad ref.skel 3 '^bonebake: ref\.skel: slots: slot 0: attachment: unknown string reference 9 \(2 strings\) at byte [0-9]+$'
bad bone.skel 3 '^bonebake: bone\.skel: animations\.a: bone timelines 0: unknown bone index 97 \(2 known\) at byte [0-9]+$'
bad curve.skel 3 '^bonebake: curve\.skel: animations\.a: bone "arm" timeline 0: unknown curve type 7 at byte [0-9]+$'
bad tail.skel 3 '^bonebake: tail\.skel: 4 bytes after the last animation at byte [0-9]+$'
bad v43.skel 3 '^bonebake: v43\.skel: skeleton: version "4\.3\.01" is not supported \(3\.8 and 4\.0-4\.2 are\) at byte 9$'
bad v37.skel 3 '^bonebake: v37\.skel: skeleton: version "3\.7\.94" is not supported'
if command -v prlimit >/dev/null 2>&1; then
	run prlimit --as=2147483648 -- "$BONEBAKE" info "$T/bones.skel"
else
	run "$BONEBAKE" info "$T/bones.skel"
fi
expect_rc 3
expect_err '^bonebake: bones\.skel: bones: 10001 bones exceed the limit of 10000$'

# ---- recognised by content, not by name ------------------------------------
cp "$K" "$T/named.json"
cp "$SAMPLES/spine/keeper.atlas" "$T/named.atlas"
cp "$SAMPLES/spine/keeper.png" "$T/keeper.png"
run "$BONEBAKE" info "$T/named.json"
expect_rc 0
expect_out 'named: 20 bones, 19 slots'
cp "$SAMPLES/spine/keeper.json" "$T/text.skel"
cp "$SAMPLES/spine/keeper.atlas" "$T/text.atlas"
run "$BONEBAKE" info "$T/text.skel"
expect_rc 0
expect_out 'text: 20 bones, 19 slots'
pass
