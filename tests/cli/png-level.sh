#!/bin/sh
# --png-level for render, sheet and pack: every level writes the same
# pixels (checked with bonebake diff at budget 0), the levels order file
# sizes (0 stores, 9 is smallest), the defaults are documented ones
# (frames: the fast encoder; sheet pages: 6), bad values are usage
# errors, and
# the output does not depend on --jobs.
. "$(dirname "$0")/lib.sh"
H="$SAMPLES/humanoid.json"
size() { cat "$@" | wc -c; }

# render: levels 0, fast, 6, small
for l in 0 fast 1 6 small; do
	run "$BONEBAKE" render "$H" -o "$T/r$l" --anim walk --quiet --png-level "$l"
	expect_rc 0
done
run "$BONEBAKE" render "$H" -o "$T/rdef" --anim walk --quiet
expect_rc 0
# frames are the fast encoder's by default, small and large
diff -r "$T/rdef" "$T/rfast" >/dev/null || fail "render default of small frames is not --png-level fast"
# a 512x512 canvas: the fast encoder by default
run "$BONEBAKE" render "$H" -o "$T/bdef" --anim walk --quiet --size 512x512
expect_rc 0
run "$BONEBAKE" render "$H" -o "$T/bfast" --anim walk --quiet --size 512x512 --png-level fast
expect_rc 0
diff -r "$T/bdef" "$T/bfast" >/dev/null || fail "render default of large frames is not --png-level fast"
run "$BONEBAKE" render "$H" -o "$T/rfast3" --anim walk --quiet --png-level fast --jobs 3
expect_rc 0
diff -r "$T/rfast3" "$T/rfast" >/dev/null || fail "--jobs changed the fast encoder's bytes"
checks=$((checks + 2))
for l in fast 1 6 small; do
	run "$BONEBAKE" diff "$T/r0" "$T/r$l"
	expect_rc 0
	expect_out '24 identical'
done
s0=$(size "$T"/r0/walk/*.png)
sf=$(size "$T"/rfast/walk/*.png)
s1=$(size "$T"/r1/walk/*.png)
s6=$(size "$T"/r6/walk/*.png)
s9=$(size "$T"/rsmall/walk/*.png)
[ "$s0" -gt $((sf * 4)) ] || fail "level 0 ($s0 bytes) should store, fast is $sf"
[ "$s6" -le "$s1" ] && [ "$s9" -le "$s6" ] ||
	fail "sizes not ordered: 1 $s1, 6 $s6, small $s9"
# the fast encoder: no LZ77, but within 15 % of level 6 on these frames
[ $((sf * 100)) -le $((s6 * 115)) ] || fail "fast ($sf bytes) over 1.15 x level 6 ($s6)"
checks=$((checks + 3))

usage() {  # CMD STDERR-REGEX ARGS...
	cmd=$1 re=$2
	shift 2
	run "$BONEBAKE" "$cmd" "$@"
	expect_rc 2
	expect_err "$re"
	expect_absent "$T/u"
}
usage render "--png-level takes 0..9, fast or small, not '10'" "$H" -o "$T/u" --png-level 10
usage render "not 'quick'" "$H" -o "$T/u" --png-level quick
usage sheet "--png-level takes 0..9, fast or small, not '-1'" "$H" -o "$T/u" --png-level -1
usage pack "--png-level takes 0..9" "$T/rfast" -o "$T/u" --png-level 1x

# sheet: default pages are level 6; level 1 is larger, same pixels
run "$BONEBAKE" sheet "$H" -o "$T/sdef" --anim walk --anim attack --quiet
expect_rc 0
run "$BONEBAKE" sheet "$H" -o "$T/s6" --anim walk --anim attack --quiet --png-level 6 --jobs 1
expect_rc 0
run "$BONEBAKE" sheet "$H" -o "$T/s1" --anim walk --anim attack --quiet --png-level fast
expect_rc 0
cmp -s "$T/sdef/sheet.png" "$T/s6/sheet.png" || fail "sheet default is not level 6"
[ "$(size "$T/s1/sheet.png")" -ge "$(size "$T/s6/sheet.png")" ] || fail "sheet level 1 smaller than 6"
cmp -s "$T/s1/sheet.json" "$T/s6/sheet.json" || fail "the level changed the metadata"
checks=$((checks + 3))
run "$BONEBAKE" diff "$T/s1/sheet.png" "$T/s6/sheet.png"
expect_rc 0

# pack: the same, on several pages encoded in parallel
run "$BONEBAKE" pack "$T/rfast" -o "$T/p6" -q --max-size 512 --multipack --jobs 1
expect_rc 0
run "$BONEBAKE" pack "$T/rfast" -o "$T/p6b" -q --max-size 512 --multipack --jobs 4 --png-level 6
expect_rc 0
run "$BONEBAKE" pack "$T/rfast" -o "$T/p0" -q --max-size 512 --multipack --png-level 0
expect_rc 0
[ "$(ls "$T/p6"/*.png | wc -l)" -gt 1 ] || fail "expected several pages"
diff -r "$T/p6" "$T/p6b" >/dev/null || fail "pack: default is not 6, or --jobs changed bytes"
[ "$(size "$T"/p0/*.png)" -gt "$(size "$T"/p6/*.png)" ] || fail "pack level 0 not larger"
checks=$((checks + 3))
run "$BONEBAKE" diff "$T/p0" "$T/p6"
expect_rc 0
pass
