#!/bin/sh
# bonebake's poses against the official Spine runtime's (spine-core 4.2),
# for every animation ../shared/oracle/spine/ holds (spineboy 4.2 and every
# animation of the runtime's example projects, physics included): bone
# world matrices, active bones, draw order, attachments, blend, colours,
# region corners, mesh and clipping vertices.
# Skips (77), saying why, when ../shared, its oracle or its corpus is absent
# (fails instead when CI is set: CI always has them).  BB_SHARED names
# ../shared; BB_CORPUS may name another folder holding corpus/spine/.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
need_shared "$SHARED/oracle/spine" "no $SHARED/oracle/spine (../shared is absent)"
command -v python3 >/dev/null || fail "python3 is needed (scripts/test installs it)"
python3 "$top_srcdir/tests/oracle/compare-spine.py" "$BONEBAKE" "$SHARED" \
	"${BB_CORPUS:-$SHARED}"
rc=$?
[ "$rc" -eq 77 ] && [ -n "${CI:-}" ] && fail "the corpus files the oracle compares are absent, and CI is set"
exit "$rc"
