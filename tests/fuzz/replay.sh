#!/bin/sh
# Replays the saved fuzz corpus and crashers through the fuzz target's plain
# main (no libFuzzer needed).  A crash or sanitizer report fails the test.
. "$(dirname "$0")/../cli/lib.sh"
out=$("$top_builddir/tests/fuzz/fuzz-native" "$top_srcdir/tests/fuzz/corpus" \
	"$top_srcdir/samples" 2>&1) || fail "fuzz replay failed: $out"
printf '%s\n' "$out"
n=$(printf '%s' "$out" | sed -n 's/^replayed \([0-9]*\) inputs$/\1/p')
[ "${n:-0}" -ge 10 ] || fail "replayed only ${n:-0} inputs"
out=$("$top_builddir/tests/fuzz/fuzz-forge" "$top_srcdir/tests/fuzz/corpus/forge" 2>&1) ||
	fail "forge fuzz replay failed: $out"
printf 'forge: %s\n' "$out"
out=$("$top_builddir/tests/fuzz/fuzz-spine" "$top_srcdir/tests/fuzz/corpus/spine" 2>&1) ||
	fail "spine fuzz replay failed: $out"
printf 'spine: %s\n' "$out"
out=$("$top_builddir/tests/fuzz/fuzz-png" "$top_srcdir/samples" \
	"$top_srcdir/tests/ref/images" 2>&1) || fail "png fuzz replay failed: $out"
printf 'png: %s\n' "$out"
checks=3
pass
