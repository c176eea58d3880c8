#!/bin/sh
# Every Cocos Studio export in ../shared/corpus/cocos/ (.ExportJson/.json
# with armature_data, armature .xml) loads and renders every movement of
# every armature without an error.  Skips (77) when the corpus is absent.
# BB_CORPUS may name another folder holding corpus/cocos/.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
root="${BB_CORPUS:-$SHARED}/corpus/cocos"
[ -d "$root" ] || skip "no $root (../shared/corpus is absent)"
n=0
for f in $(find -L "$root" \( -name '*.ExportJson' -o -name '*.json' -o -name '*.xml' \) | sort); do
	grep -q -e '"armature_data"' -e '<armatures' "$f" || continue
	run "$BONEBAKE" info "$f"
	expect_rc 0
	run "$BONEBAKE" render "$f" --all -o "$T/out" --quiet --scale 0.25 --fps 15 --jobs 2
	expect_rc 0
	frames=$(find "$T/out" -name '*.png' | wc -l)
	[ "$frames" -gt 0 ] || fail "$f: no frames rendered"
	echo "$f: $frames frames${err:+ ($(printf '%s\n' "$err" | grep -c warning) warnings)}"
	rm -rf "$T/out"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "no Cocos armatures under $root"
pass
