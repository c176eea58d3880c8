#!/bin/sh
# A killed sheet's stage (issue 22, item 9): `sheet -o P/sheet` stages the
# whole folder beside it as P/.sheet.bonebake-stage-XXXXXX/.  A SIGKILL
# while it writes its pages leaves that folder; `diff` of the parent must not count
# its pages (was exit 6, "ADDED"), and the next run sweeps it, whichever
# way that run stages (here into a folder holding another file too, where
# it stages inside the folder).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
P="$T/P"
sheet() { "$BONEBAKE" sheet "$SAMPLES/humanoid.json" --all --scale 2 --fps 60 \
	--multipack --jobs 1 --progress none -o "$P/sheet" "$@"; }
run sheet
expect_rc 0
cp -r "$P" "$T/base"
# What a sheet killed while writing its pages leaves (its stage holds
# pages and a lock file nobody holds: a kill cannot be timed into the few
# milliseconds the pages take to write), and a stage of a run still alive
# (its lock held), which must be kept.
dead="$P/.sheet.bonebake-stage-Kx1ll3"
live="$P/.other.bonebake-stage-L1ve00"
mkdir "$dead" "$live"
cp "$P"/sheet/sheet-0.png "$P"/sheet/sheet-0.json "$dead/"
: >"$dead/.lock"
: >"$live/.lock"
command -v flock >/dev/null 2>&1 || unavailable "no flock (util-linux)"
# the lock is held on fd 9 by the sleep the subshell becomes
( exec 9>"$live/.lock"; flock 9; exec sleep 30 ) &
holder=$!
while flock -n "$live/.lock" true; do sleep 0.05; done
# diff of the parent: the stage is bonebake's, not an added output
run "$BONEBAKE" diff "$T/base" "$P"
expect_rc 0
# the next run sweeps it, also when it stages inside a shared folder
echo notes >"$P/sheet/notes.txt"
run sheet
expect_rc 0
checks=$((checks + 1))
[ -e "$dead" ] && fail "the next run left the killed run's stage: $(ls -a "$P")"
checks=$((checks + 1))
[ -d "$live" ] || fail "the next run removed a live run's stage"
kill $holder 2>/dev/null
wait $holder 2>/dev/null
checks=$((checks + 1))
[ -f "$P/sheet/notes.txt" ] && [ -f "$P/sheet/sheet-0.png" ] || fail "the sheet or the other file is missing: $(ls -a "$P" "$P/sheet")"
pass
