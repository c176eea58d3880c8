#!/bin/sh
# Interrupted runs never leave a mix (issue: hostile input and interrupted
# runs).  With an earlier good output present:
#  - SIGINT / SIGTERM / SIGHUP mid-render (and mid-diff --html): exit 130 / 143 / 129, the staging folder gone,
#    the old output byte-identical;
#  - SIGKILL mid-render: the staging folder stays until the next run, which
#    removes it (and diff never counts it);
#  - SIGKILL at every rename of the final move (an LD_PRELOAD hook): each
#    animation folder, and a sheet with its pages and metadata, is wholly
#    the old one or wholly the new one; a rename that fails puts the old
#    output back, and leaves no folder the run made;
#  - a sheet re-packed onto fewer pages leaves no stale pages.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
H="$SAMPLES/humanoid.json"
hook="$top_builddir/tests/tools/.libs/fault-rename.so"
[ -f "$hook" ] || fail "$hook is not built (make check builds it)"

stages() { find "$1" -maxdepth 2 -name '.bonebake-stage-*' | wc -l; }
same() { diff -r -x '.bonebake-*' "$1" "$2" >/dev/null; }

"$BONEBAKE" render "$H" -o "$T/old" --anim walk --anim idle --quiet || fail "first render"
"$BONEBAKE" render "$H" -o "$T/new" --anim walk --anim idle --bg white --quiet || fail "second render"

# stopped SIG DIR CMD...: runs CMD in the background, sends SIG once a
# PNG is staged in DIR, and checks the exit code is 128 + SIG's number
stopped() {
	sig=$1 dir=$2; shift 2
	"$@" >/dev/null 2>"$T/err" &
	pid=$!
	n=0
	until [ -n "$(find "$dir" -path '*/.bonebake-stage-*' -name '*.png' 2>/dev/null | head -1)" ]; do
		n=$((n + 1)); [ $n -lt 400 ] || fail "$1 $2: no frame staged after 20 s"
		sleep 0.05
	done
	kill -$sig $pid
	wait $pid
	rc=$?
	want=130; [ $sig = TERM ] && want=143; [ $sig = HUP ] && want=129
	[ $rc -eq $want ] || fail "$1 $2, SIG$sig: exit $rc, expected $want; $(cat "$T/err")"
	last="$1 $2, SIG$sig"
}

# a long render (about 1,500 frames on one thread) to interrupt
slow="--all --scale 3 --fps 120 --jobs 1"
for sig in INT TERM HUP; do
	rm -rf "$T/out"; cp -r "$T/old" "$T/out"
	# shellcheck disable=SC2086
	stopped $sig "$T/out" "$BONEBAKE" render "$H" -o "$T/out" $slow --quiet
	[ "$(stages "$T/out")" -eq 0 ] || fail "SIG$sig left a staging folder"
	same "$T/old" "$T/out" || fail "SIG$sig changed the old output"
	checks=$((checks + 3))
done

# SIGKILL: the staging folder stays; diff ignores it; the next run removes it
rm -rf "$T/out"; cp -r "$T/old" "$T/out"
# shellcheck disable=SC2086
"$BONEBAKE" render "$H" -o "$T/out" $slow --quiet &
pid=$!
n=0
until [ -n "$(find "$T/out" -path '*/.bonebake-stage-*' -name '*.png' 2>/dev/null | head -1)" ]; do
	n=$((n + 1)); [ $n -lt 400 ] || fail "no frame staged after 20 s"
	sleep 0.05
done
kill -KILL $pid
wait $pid 2>/dev/null
[ "$(stages "$T/out")" -eq 1 ] || fail "SIGKILL: expected the staging folder to remain"
run "$BONEBAKE" diff "$T/old" "$T/out"
expect_rc 0
run "$BONEBAKE" render "$H" -o "$T/out" --anim walk --anim idle --quiet
expect_rc 0
[ "$(stages "$T/out")" -eq 0 ] || fail "the next run did not remove the killed run's staging folder"
checks=$((checks + 1))
# a staging folder whose run is alive is left alone
mkdir -p "$T/live"
"$BONEBAKE" render "$H" -o "$T/live" $slow --quiet &
pid=$!
n=0
until [ "$(stages "$T/live")" -eq 1 ]; do
	n=$((n + 1)); [ $n -lt 400 ] || fail "no staging folder after 20 s"
	sleep 0.05
done
run "$BONEBAKE" render "$H" -o "$T/live" --anim walk --quiet
expect_rc 0
kill -INT $pid
wait $pid
[ $? -eq 130 ] || fail "the first run did not survive the second"
[ "$(stages "$T/live")" -eq 0 ] || fail "staging folders left in $T/live"
checks=$((checks + 2))

# SIGKILL at each rename of the final move: every animation folder is the
# old one or the new one, whole
k=1
while :; do
	rm -rf "$T/out"; cp -r "$T/old" "$T/out"
	for when in "$k" "${k}a"; do
		BB_FAULT_KILL_AT=$when LD_PRELOAD="$hook" "$BONEBAKE" render "$H" -o "$T/out" \
			--anim walk --anim idle --bg white --quiet 2>/dev/null
		rc=$?
		for a in walk idle; do
			same "$T/old/$a" "$T/out/$a" || same "$T/new/$a" "$T/out/$a" ||
				fail "kill at rename $when: $a is neither the old nor the new output"
			checks=$((checks + 1))
		done
	done
	[ $rc -eq 0 ] && break      # no kill happened: every rename was covered
	k=$((k + 1))
	[ $k -lt 50 ] || fail "more renames than expected"
done

[ $k -gt 2 ] || fail "the commit made only $((k - 1)) renames"

# a rename that fails (a folder the user may not replace) after others
# went in: they are put back, DIR is as it was, exit 4
for nth in 1 2; do
	rm -rf "$T/out"; cp -r "$T/old" "$T/out"
	BB_FAULT_FAIL_AT=$nth LD_PRELOAD="$hook" "$BONEBAKE" render "$H" -o "$T/out" \
		--anim walk --anim idle --bg white --quiet 2>"$T/err"
	rc=$?
	[ $rc -eq 4 ] || fail "rename $nth failing: exit $rc, expected 4; $(cat "$T/err")"
	grep -q 'cannot replace: Permission denied' "$T/err" || fail "no reason: $(cat "$T/err")"
	same "$T/old" "$T/out" || fail "rename $nth failing: DIR is not as it was"
	[ "$(stages "$T/out")" -eq 0 ] || fail "rename $nth failing: a staging folder was left"
	checks=$((checks + 3))
done
# the same into a DEST the run made, with a parent: neither is left
rm -rf "$T/fresh"
BB_FAULT_FAIL_AT=1 LD_PRELOAD="$hook" "$BONEBAKE" render "$H" -o "$T/fresh/out" \
	--anim walk --anim idle --quiet 2>"$T/err"
rc=$?
[ $rc -eq 4 ] || fail "rename failing into a new DIR: exit $rc, expected 4; $(cat "$T/err")"
[ ! -e "$T/fresh" ] || fail "rename failing into a new DIR: left $(find "$T/fresh")"
checks=$((checks + 2))
run "$BONEBAKE" render "$H" -o "$T/out" --anim walk --anim idle --bg white --quiet
expect_rc 0
same "$T/new" "$T/out" || fail "a clean run after the kills differs from the new output"
[ "$(stages "$T/out")" -eq 0 ] || fail "staging folders left after the kills"

# a preview written beside its final name: SIGINT removes its temporary
mkdir "$T/pv"
# shellcheck disable=SC2086
"$BONEBAKE" preview "$H" -o "$T/pv/walk.gif" --anim walk --duration 60 --fps 60 --jobs 1 --quiet &
pid=$!
n=0
until [ -n "$(find "$T/pv" -name '.walk.gif.bonebake-*' -size +0 2>/dev/null | head -1)" ]; do
	n=$((n + 1)); [ $n -lt 400 ] || fail "no preview data after 20 s"
	sleep 0.05
done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "preview SIGINT: exit $rc, expected 130"
[ -z "$(ls -A "$T/pv")" ] || fail "preview SIGINT left: $(ls -A "$T/pv")"
checks=$((checks + 2))

# sheets: a set of pages and metadata, replaced whole
sheet() { "$BONEBAKE" sheet "$H" -o "$1" --anim walk --anim idle --quiet --multipack --format json,libgdx "$@"; }
"$BONEBAKE" sheet "$H" -o "$T/s-old" --anim walk --anim idle --quiet --multipack \
	--format json,libgdx --max-size 256 || fail "small sheet"
"$BONEBAKE" sheet "$H" -o "$T/s-new" --anim walk --anim idle --quiet --multipack \
	--format json,libgdx --max-size 1024 || fail "large sheet"
[ "$(ls "$T/s-old" | grep -c '^sheet-.*\.png$')" -gt 2 ] || fail "the small sheet has too few pages"
# fewer pages than before: no stale page or metadata left
cp -r "$T/s-old" "$T/s"
run "$BONEBAKE" sheet "$H" -o "$T/s" --anim walk --anim idle --quiet --multipack \
	--format json,libgdx --max-size 1024
expect_rc 0
same "$T/s-new" "$T/s" || fail "re-packing onto fewer pages: $(ls "$T/s")"
checks=$((checks + 1))
# killed at each rename: the old sheet or the new one, whole
for when in 1 1a 2 2a 3; do
	rm -rf "$T/s"; cp -r "$T/s-old" "$T/s"
	BB_FAULT_KILL_AT=$when LD_PRELOAD="$hook" "$BONEBAKE" sheet "$H" -o "$T/s" \
		--anim walk --anim idle --quiet --multipack --format json,libgdx \
		--max-size 1024 2>/dev/null
	same "$T/s-old" "$T/s" || same "$T/s-new" "$T/s" ||
		fail "sheet killed at rename $when: neither the old nor the new sheet: $(ls "$T/s")"
	checks=$((checks + 1))
done
# a folder with other files in it: the sheet's files are replaced, the
# others kept, stale pages removed
cp -r "$T/s-old" "$T/mixed"; echo keep >"$T/mixed/notes.txt"
run "$BONEBAKE" sheet "$H" -o "$T/mixed" --anim walk --anim idle --quiet --multipack \
	--format json,libgdx --max-size 1024
expect_rc 0
[ -f "$T/mixed/notes.txt" ] || fail "a file beside the sheet was removed"
rm "$T/mixed/notes.txt"
same "$T/s-new" "$T/mixed" || fail "sheet beside other files: $(ls "$T/mixed")"
[ "$(stages "$T")" -eq 0 ] || fail "staging folders left beside the sheets"

# diff --html and gallery stop at SIGINT / SIGTERM too: no report or site
# is committed (they ran to the end, committed everything, then said 130)
"$BONEBAKE" render "$H" -o "$T/dA" --all --scale 3 --fps 60 --quiet || fail "render dA"
"$BONEBAKE" render "$H" -o "$T/dB" --all --scale 3 --fps 60 --bg white --quiet ||
	fail "render dB"
for sig in INT TERM; do
	stopped $sig "$T/report" "$BONEBAKE" diff "$T/dA" "$T/dB" --html "$T/report" \
		--jobs 1 --quiet
	expect_absent "$T/report"
	checks=$((checks + 1))
done
pass
