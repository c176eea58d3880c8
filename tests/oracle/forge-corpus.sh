#!/bin/sh
# Every Forge armature in ../shared/corpus/forge/ renders with its block
# model in every view without an error (flat colours where its textures are
# not shipped).  Skips (77) when the corpus is absent.  BB_CORPUS may name
# another folder holding corpus/forge/.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
root="${BB_CORPUS:-$SHARED}/corpus/forge"
[ -d "$root" ] || skip "no $root (../shared/corpus is absent)"
n=0
for f in $(find -L "$root" -path '*/armatures/*' -name '*.json' | sort); do
	for v in iso front back left right top; do
		run "$BONEBAKE" render "$f" -o "$T/out" --view "$v" --fps 8 --quiet --jobs 2
		expect_rc 0
		frames=$(find "$T/out" -name '*.png' | wc -l)
		[ "$frames" -gt 0 ] || fail "$f ($v): no frames rendered"
		rm -rf "$T/out"
	done
	echo "$f: every view"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "no armatures/*.json under $root"
pass
