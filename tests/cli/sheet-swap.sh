#!/bin/sh
# A sheet folder exchanged whole (it holds nothing but the sheet) only when
# that leaves everything else as it was:
#  - -o a symbolic link to a folder: the sheet goes into the folder, the
#    link stays a link (the exchange replaced the link with a folder);
#  - a folder's mode (here setgid, group-writable) is kept;
#  - a folder holding a live render's staging folder: the sheet goes in
#    beside it, and the render's stage is still there afterwards (the
#    exchange swapped it away, and the render then failed).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
sheet() { "$BONEBAKE" sheet "$SAMPLES/humanoid.json" --anim walk --scale 1 \
	--progress none -o "$@"; }

# a link
mkdir "$T/real"
ln -s real "$T/link"
run sheet "$T/link"
expect_rc 0
checks=$((checks + 2))
[ -L "$T/link" ] || fail "the link was replaced: $(ls -la "$T")"
[ -f "$T/real/sheet.json" ] && [ -f "$T/real/sheet.png" ] ||
	fail "the sheet is not in the link's folder: $(ls -a "$T/real")"
# again, now that the folder holds the sheet only
run sheet "$T/link"
expect_rc 0
checks=$((checks + 1))
[ -L "$T/link" ] || fail "the second run replaced the link"

# a mode
mkdir "$T/shared"
chmod 2770 "$T/shared"
run sheet "$T/shared"
expect_rc 0
run sheet "$T/shared"
expect_rc 0
checks=$((checks + 1))
[ "$(stat -c %a "$T/shared")" = 2770 ] ||
	fail "the folder's mode became $(stat -c %a "$T/shared")"

# a live run's stage
command -v flock >/dev/null 2>&1 || unavailable "no flock (util-linux)"
mkdir "$T/busy"
live="$T/busy/.bonebake-stage-L1ve00"
mkdir "$live"
: >"$live/.lock"
( exec 9>"$live/.lock"; flock 9; exec sleep 30 ) &
holder=$!
while flock -n "$live/.lock" true; do sleep 0.05; done
run sheet "$T/busy"
expect_rc 0
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
checks=$((checks + 2))
[ -d "$live" ] || fail "the live run's stage was swapped away: $(ls -a "$T/busy")"
[ -f "$T/busy/sheet.json" ] || fail "no sheet beside the live stage"
pass
