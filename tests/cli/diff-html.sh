# The diff HTML report in headless Chromium: the page's script runs, the
# failing pair comes first, and its images load through relative paths.
# Needs Debian's chromium (scripts/test installs it; without it the test
# skips, or fails when CI is set).
. "$(dirname "$0")/lib.sh"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
MKPNG="$top_builddir/tests/cli/diff-mkpng"
[ -x "$CHROMIUM" ] || unavailable "$CHROMIUM not installed (apt-get install chromium)"
[ -x "$MKPNG" ] || fail "tests/cli/diff-mkpng is not built"
command -v timeout >/dev/null 2>&1 || unavailable "timeout(1) not found"

mkdir -p "$T/base/anim" "$T/cur/anim"
for n in a b c d e f; do
	"$MKPNG" "$T/base/anim/$n.png" 48 32 scene 3 || fail "diff-mkpng"
	cp "$T/base/anim/$n.png" "$T/cur/anim/$n.png"
done
# a small change within budget sorts before the failing pair by name;
# the report must still show the failure first
"$MKPNG" "$T/cur/anim/b.png" 48 32 scene 3 px 1 1 ff00ffff || fail "diff-mkpng"
"$MKPNG" "$T/cur/anim/e.png" 48 32 scene 3 rect 20 10 6 6 ff0000ff || fail "diff-mkpng"
# a name that needs escaping in HTML and in URLs
"$MKPNG" "$T/base/anim/x #1 & <y>.png" 8 8 fill 000000ff || fail "diff-mkpng"
"$MKPNG" "$T/cur/anim/x #1 & <y>.png" 8 8 fill ffffffff || fail "diff-mkpng"

run "$BONEBAKE" diff --max-diff-pixels 5 --html "$T/report" "$T/base" "$T/cur"
expect_rc 1
[ -f "$T/report/index.html" ] || fail "no index.html"
# the folder must work after moving it (relative paths only)
mv "$T/report" "$T/moved"

mkdir "$T/profile"
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
	--no-first-run --disable-background-networking --disable-component-update \
	--disable-sync --user-data-dir="$T/profile" --virtual-time-budget=5000 \
	--dump-dom "file://$T/moved/index.html" >"$T/dom.html" 2>"$T/chromium.err"
rc=$?
[ "$rc" -eq 0 ] || fail "chromium exited $rc: $(tail -5 "$T/chromium.err")"
checks=$((checks + 1))
grep -q '<body[^>]* data-ready="1"' "$T/dom.html" || fail "the report's script did not run"
checks=$((checks + 1))
first=$(grep -o '<section class="pair [^>]*>' "$T/dom.html" | head -n 1)
printf '%s\n' "$first" | grep -q 'data-status="fail"' || fail "first pair is not a failure: $first"
printf '%s\n' "$first" | grep -Eq 'data-path="anim/(e.png|x #1 &amp; &lt;y&gt;.png)"' ||
	fail "unexpected first pair: $first"
checks=$((checks + 2))
# baseline, current and diff figures plus the two slider layers loaded
loaded=$(printf '%s\n' "$first" | sed -n 's/.*data-loaded="\([0-9]*\)".*/\1/p')
[ "${loaded:-0}" -ge 3 ] || fail "the failing pair's images did not load (data-loaded=${loaded:-none})"
checks=$((checks + 1))
grep -o '<section class="pair [^>]*>' "$T/dom.html" | grep -q 'data-path="anim/x #1 &amp; &lt;y&gt;.png" data-loaded="[3-9]"' ||
	fail "images of a file name with special characters did not load"
checks=$((checks + 1))
# the within-budget pair is listed after the failures
grep -o '<section class="pair [^>]*>' "$T/dom.html" | tail -n 1 | grep -q 'data-status="pass"' ||
	fail "the passing pair is not last"
checks=$((checks + 1))
pass
