#!/bin/sh
# Every Spine export in ../shared/corpus/spine/ renders every animation
# (render --all, at scale 1: portal starts as a 2x3 px speck) with exit 0,
# without a warning, and no frame is blank.
# Skips (77) when the corpus is absent.  BB_CORPUS may name another folder
# holding corpus/spine/.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
root="${BB_CORPUS:-$SHARED}/corpus/spine"
[ -d "$root" ] || skip "no $root (../shared/corpus is absent)"
command -v python3 >/dev/null || skip "python3 is needed"
n=0
for f in $(find -L "$root" -name '*.json' | sort); do
	grep -q '"spine"' "$f" || continue
	run "$BONEBAKE" render "$f" --all -o "$T/out" --quiet --jobs 2
	expect_rc 0
	[ -z "$err" ] || fail "$f: warnings: $err"
	frames=$(find "$T/out" -name '*.png' | wc -l)
	[ "$frames" -gt 0 ] || fail "$f: no frames rendered"
	find "$T/out" -name '*.png' | sort >"$T/list"
	blank=$(xargs python3 "$top_srcdir/tests/cli/pngblank.py" <"$T/list") ||
		fail "$f: blank frames: $blank"
	echo "$f: $frames frames, none blank"
	rm -rf "$T/out"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || skip "no Spine skeletons under $root"
pass
