#!/bin/sh
# Every real export of ../shared/corpus (DragonBones, Cocos Studio, Forge,
# Spine) renders every animation of every armature with only the warnings and
# blank frames tests/oracle/corpus.list expects (tests/oracle/corpus.py).
# Skips (77) when the corpus is absent, or fails when CI is set (CI always
# has it).  BB_SHARED names ../shared; BB_CORPUS may name another folder
# holding corpus/.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
root="${BB_CORPUS:-$SHARED}/corpus"
need_shared "$root/dragonbones" "no $root (../shared/corpus is absent)"
command -v python3 >/dev/null || fail "python3 is needed (scripts/test installs it)"
tool="$top_builddir/tests/tools/blank-frames"
[ -x "$tool" ] || fail "$tool is not built (make check builds it)"
python3 "$top_srcdir/tests/oracle/corpus.py" "$BONEBAKE" "$tool" "$root" \
	"$top_srcdir/tests/oracle/corpus.list" "$T"
