#!/bin/sh
# Every DragonBones export in ../shared/corpus/dragonbones/ loads and
# renders every animation of every armature without an error.  Skips (77)
# when the corpus is absent.  BB_CORPUS may name another folder holding
# corpus/dragonbones/.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
root="${BB_CORPUS:-$SHARED}/corpus/dragonbones"
[ -d "$root" ] || skip "no $root (../shared/corpus is absent)"
n=0
for f in $(find -L "$root" -name '*.json' ! -name '*_tex*.json' ! -name 'texture*.json' | sort); do
	grep -q '"armature"' "$f" || continue
	run "$BONEBAKE" render "$f" --all -o "$T/out" --quiet --scale 0.25 --jobs 2
	expect_rc 0
	frames=$(find "$T/out" -name '*.png' | wc -l)
	[ "$frames" -gt 0 ] || fail "$f: no frames rendered"
	echo "$f: $frames frames"
	rm -rf "$T/out"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "no DragonBones skeletons under $root"
pass
