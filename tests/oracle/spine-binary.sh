#!/bin/sh
# Every Spine binary (.skel) of ../shared/corpus/spine and the sample's,
# against the JSON export beside it (compare-spine-binary.py): (a) the
# decoded document holds the JSON's bones, slots, constraints, skins,
# attachments, events, animations and keys, every number equal at the
# JSON's print precision (the editor rounds JSON numbers; a binary keeps
# 32-bit floats, so the two files do not pose alike even in the official
# runtime); (b) the JSON re-valued with the binary's numbers loads to the
# same model: `info --json` identical and every animation's `pose` within
# 1e-3 px (0 measured).  Without ../shared only the sample is compared
# (CI always has it).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
command -v python3 >/dev/null || fail "python3 is needed (scripts/test installs it)"
tool="$top_builddir/tests/tools/skel2json"
[ -x "$tool" ] || fail "$tool is not built (make check builds it)"
C=${BB_CORPUS:-$SHARED}/corpus/spine
set -- "$SAMPLES/spine/keeper.skel"
if [ -d "$C" ]; then
	set -- "$@" $(find "$C" -name '*.skel' | sort)
elif [ -n "${CI:-}" ]; then
	fail "no $C, and CI is set"
fi
python3 "$top_srcdir/tests/oracle/compare-spine-binary.py" "$BONEBAKE" "$tool" "$T" "$@" ||
	fail "binary and JSON exports disagree"
checks=1
pass
