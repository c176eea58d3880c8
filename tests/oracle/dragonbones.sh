#!/bin/sh
# bonebake's poses against the official DragonBones runtime's, for the real
# exports of ../shared/corpus/dragonbones/ that ../shared/oracle/ covers.
# Skips (77), saying why, when ../shared, its oracle or its corpus is absent
# (fails instead when CI is set: CI always has them).  BB_SHARED names
# ../shared; BB_CORPUS may name another folder holding corpus/dragonbones/.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
need_shared "$SHARED/oracle/dragonbones" "no $SHARED/oracle/dragonbones (../shared is absent)"
command -v python3 >/dev/null || fail "python3 is needed (scripts/test installs it)"
python3 "$top_srcdir/tests/oracle/compare-dragonbones.py" "$BONEBAKE" "$SHARED" \
	"${BB_CORPUS:-$SHARED}"
rc=$?
[ "$rc" -eq 77 ] && [ -n "${CI:-}" ] && fail "the corpus files the oracle compares are absent, and CI is set"
exit "$rc"
