#!/bin/sh
# The gallery plays WebM previews: render --preview webm, then the gallery
# page in headless Chromium (playwright-core, Debian's chromium): its
# <video> reaches readyState 4 and the frame it draws is render's frame 0,
# transparent where the animation is empty (tests/cli/gallery-video.mjs).
# Needs chromium, node and tests/node's packages (scripts/test installs
# them; BONEBAKE_NODE_MODULES names their node_modules folder).
. "$(dirname "$0")/lib.sh"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
NM=${BONEBAKE_NODE_MODULES:-$top_builddir/node/node_modules}
[ -x "$CHROMIUM" ] || unavailable "$CHROMIUM not installed (apt-get install chromium)"
command -v node >/dev/null 2>&1 || unavailable "node not found (apt-get install nodejs)"
for p in playwright-core pngjs; do
	[ -f "$NM/$p/package.json" ] ||
		unavailable "npm package $p not in $NM (scripts/test installs tests/node/package.json there)"
done
export CHROMIUM BONEBAKE_NODE_MODULES="$NM"
H="$SAMPLES/humanoid.json"

run "$BONEBAKE" render "$H" --anim walk --anim run --preview webm -o "$T/r" --quiet
expect_rc 0
run "$BONEBAKE" gallery "$T/r" -o "$T/site"
expect_rc 0
checks=$((checks + 2))
cmp -s "$T/r/walk/walk.webm" "$T/site/a1/walk.webm" || fail "walk.webm not copied beside the page"
grep -q '"video":"walk.webm"' "$T/site/index.html" || fail "the page does not name walk.webm"

# walk is the second card (a1), after run
run timeout 120 node "$top_srcdir/tests/cli/gallery-video.mjs" \
	"file://$T/site/index.html" "$T/r/walk/walk_0000.png" 1
expect_rc 0
expect_out '"ready":4'

# frames without a preview: no <video>, no "video" file named
run "$BONEBAKE" render "$H" --anim walk -o "$T/plain" --quiet
expect_rc 0
run "$BONEBAKE" gallery "$T/plain" -o "$T/site2"
expect_rc 0
checks=$((checks + 1))
grep -q '"video":""' "$T/site2/index.html" || fail "a video named without a preview"
pass
