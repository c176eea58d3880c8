#!/bin/sh
# Reference check for `bonebake pack`: every frame cut from the written
# pages at its JSON rectangle (turned back when rotated) and pasted at its
# recorded offset equals the PNG it came from, pixel for pixel -- for the
# generated sprite set under several option sets, and for the humanoid
# sample's rendered frames when `bonebake render` is available.
. "$(dirname "$0")/lib.sh"
GEN="$top_builddir/tests/tools/gen-sprites"
VERIFY="$top_builddir/tests/tools/pack-verify"
[ -x "$GEN" ] && [ -x "$VERIFY" ] || skip "test tools not built"
mkdir "$T/in"
"$GEN" "$T/in" 120 || fail "gen-sprites failed"

verify() {  # DIR-OF-FRAMES OPTIONS...
	src=$1
	shift
	rm -rf "$T/out"
	run "$BONEBAKE" pack "$src" -o "$T/out" -q "$@"
	expect_rc 0
	run "$VERIFY" "$T/out"/*.json -- $(find "$src" -name '*.png' | sort)
	expect_rc 0
	expect_out ' 0 problems'
}

verify "$T/in"
verify "$T/in" --rotate --padding 0
verify "$T/in" --extrude 2 --border 3 --pot
verify "$T/in" --no-trim --no-dedupe --square
verify "$T/in" --max-size 256 --multipack --rotate --format json-array

if [ -f "$SAMPLES/humanoid.json" ] &&
   "$BONEBAKE" render "$SAMPLES/humanoid.json" -o "$T/hum" --quiet >/dev/null 2>&1; then
	verify "$T/hum" --multipack
	verify "$T/hum" --max-size 4096 --rotate --extrude 1
else
	echo "humanoid: bonebake render not available; rendered frames not checked"
fi
pass
