#!/bin/sh
# bonebake's poses against the official DragonBones runtime's, for the real
# exports of ../shared/corpus/dragonbones/ that ../shared/oracle/ covers.
# Skips (77), saying why, when ../shared, its oracle or its corpus is absent.
# BB_CORPUS may name another folder holding corpus/dragonbones/.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
[ -d "$SHARED/oracle/dragonbones" ] || skip "no $SHARED/oracle/dragonbones (../shared is absent)"
command -v python3 >/dev/null || skip "python3 is needed"
python3 "$top_srcdir/tests/oracle/compare-dragonbones.py" "$BONEBAKE" "$SHARED" \
	"${BB_CORPUS:-$SHARED}"
