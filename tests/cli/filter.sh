#!/bin/sh
# --filter fast|good|best on render and sheet: values, usage errors, the
# default is good and byte-identical whatever --jobs, and the filters give
# different pixels where textures are drawn small (and the same at 2x).
. "$(dirname "$0")/lib.sh"
M="$SAMPLES/dragonbones/mesh_ske.json"

# the default, on 1 and 3 threads, at a quarter size (halved textures in use)
run "$BONEBAKE" render "$M" -o "$T/d1" --scale 0.25 --quiet --jobs 1
expect_rc 0
run "$BONEBAKE" render "$M" -o "$T/d3" --scale 0.25 --quiet --jobs 3
expect_rc 0
diff -r "$T/d1" "$T/d3" >/dev/null || fail "default filter: --jobs 1 and --jobs 3 differ"
checks=$((checks + 1))
for f in fast good best; do
	run "$BONEBAKE" render "$M" -o "$T/$f" --scale 0.25 --filter "$f" --quiet --jobs 2
	expect_rc 0
done
diff -r "$T/d1" "$T/good" >/dev/null || fail "the default is not --filter good"
diff -r "$T/fast" "$T/good" >/dev/null && fail "--filter fast and good give the same pixels at scale 0.25"
diff -r "$T/good" "$T/best" >/dev/null && fail "--filter good and best give the same pixels at scale 0.25"
checks=$((checks + 3))

# at twice the size no halved copy is used: fast and good agree
run "$BONEBAKE" render "$M" -o "$T/f2" --scale 2 --filter fast --anim wave --fps 4 --quiet
expect_rc 0
run "$BONEBAKE" render "$M" -o "$T/g2" --scale 2 --filter good --anim wave --fps 4 --quiet
expect_rc 0
diff -r "$T/f2" "$T/g2" >/dev/null || fail "--filter fast and good differ at scale 2"
checks=$((checks + 1))

# sheet takes it too
run "$BONEBAKE" sheet "$M" -o "$T/s" --scale 0.25 --filter best --quiet
expect_rc 0

# usage errors: exit 2, one line naming the option
run "$BONEBAKE" render "$M" -o "$T/x" --filter bilinear
expect_rc 2
expect_err "^bonebake render: --filter takes fast, good or best, not 'bilinear'"
expect_absent "$T/x"
run "$BONEBAKE" sheet "$M" -o "$T/x" --filter
expect_rc 2
pass
