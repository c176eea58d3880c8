#!/bin/sh
# Spine binaries (.skel) against the official runtime's poses of the same
# binaries: every animation of every example, and spineboy 4.0-4.2, with
# the tolerances of tests/oracle/spine.sh (0.01 px for the bones of active
# bones, 0.05 px with physics at 60 fps, the same slots in the same order,
# colours within 1e-4).  The reference is computed here by the runtime
# (spine-core 4.2.119 from tests/node/package.json, which scripts/test
# installs into build/node) through ../shared/peers/spine-oracle.mjs, run
# from a temporary folder: ../shared/oracle/spine was sampled from the JSON
# exports, whose rounded numbers pose differently (compare-spine.py says
# why).  Skips (77) when ../shared, node or the npm package is missing; CI
# has them all, so there it fails instead.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
need_shared "$SHARED/oracle/spine" "no $SHARED/oracle/spine (../shared is absent)"
command -v python3 >/dev/null || fail "python3 is needed (scripts/test installs it)"
BONEBAKE_NODE_MODULES=${BONEBAKE_NODE_MODULES:-$top_builddir/node/node_modules}
export BONEBAKE_NODE_MODULES
python3 "$top_srcdir/tests/oracle/compare-spine.py" --skel "$BONEBAKE" "$SHARED" \
	"${BB_CORPUS:-$SHARED}" >"$T/out" 2>&1
rc=$?
cat "$T/out"
[ "$rc" -eq 77 ] && unavailable "$(grep SKIP "$T/out")"
[ "$rc" -eq 0 ] || fail "binary poses differ from the runtime's"
