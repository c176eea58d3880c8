# bonebake diff on two files: verdicts, thresholds, budgets, ignore regions,
# transparency, exit codes, diff images, reports, --update.
. "$(dirname "$0")/lib.sh"
MKPNG="$top_builddir/tests/cli/diff-mkpng"
[ -x "$MKPNG" ] || skip "tests/cli/diff-mkpng is not built"
command -v python3 >/dev/null 2>&1 || skip "python3 not found"
mk() { "$MKPNG" "$@" || fail "diff-mkpng $*"; }

mk "$T/grey.png" 8 8 fill 808080ff
mk "$T/grey2.png" 8 8 fill 808080ff
mk "$T/near.png" 8 8 fill 808080ff px 3 4 838383ff
mk "$T/far.png" 8 8 fill 808080ff px 3 4 202020ff
mk "$T/two.png" 8 8 fill 808080ff px 3 4 202020ff px 5 5 202020ff
mk "$T/tall.png" 8 9 fill 808080ff

# identical files (recognised without decoding) and identical pixels
run "$BONEBAKE" diff "$T/grey.png" "$T/grey.png"
expect_rc 0
expect_out '^1 pair: 1 identical$'
expect_out 'threshold 0.1, aa ignore, alpha-aware OKLab HyAB; budget: max diff pixels 0, max diff ratio 0'
run "$BONEBAKE" diff -v "$T/grey.png" "$T/grey2.png"
expect_rc 0
expect_out 'same +grey2.png: identical'

# one pixel off, below and above the threshold
run "$BONEBAKE" diff "$T/grey.png" "$T/near.png"
expect_rc 0
expect_out 'pass +near.png: 0 pixels .* \(below the threshold\)'
run "$BONEBAKE" diff "$T/grey.png" "$T/far.png"
expect_rc 1
expect_out 'FAIL +far.png: 1 pixels \(1.5625%\) differ, max delta 0.[0-9]+, box 3,4 1x1 \(over budget\)'
run "$BONEBAKE" diff --threshold 0.5 "$T/grey.png" "$T/far.png"
expect_rc 0
expect_out 'threshold 0.5'
run "$BONEBAKE" diff --threshold 0 "$T/grey.png" "$T/near.png"
expect_rc 1

# budgets
run "$BONEBAKE" diff --max-diff-pixels 1 "$T/grey.png" "$T/two.png"
expect_rc 1
expect_out 'max diff pixels 1, max diff ratio unlimited'
run "$BONEBAKE" diff --max-diff-pixels 2 "$T/grey.png" "$T/two.png"
expect_rc 0
expect_out 'within budget'
run "$BONEBAKE" diff --max-diff-ratio 0.04 "$T/grey.png" "$T/two.png"
expect_rc 0
run "$BONEBAKE" diff --max-diff-ratio 0.04 --max-diff-pixels 1 "$T/grey.png" "$T/two.png"
expect_rc 1

# ignore regions (repeatable)
run "$BONEBAKE" diff --ignore 3,4,1,1 "$T/grey.png" "$T/two.png"
expect_rc 1
run "$BONEBAKE" diff --ignore 3,4,1,1 --ignore 5,5,2,2 "$T/grey.png" "$T/two.png"
expect_rc 0
expect_out 'ignore 3,4,1,1 5,5,2,2'

# transparency is not hidden
mk "$T/white.png" 6 6 fill ffffffff
mk "$T/white-half.png" 6 6 fill ffffffff px 2 2 ffffff80
mk "$T/clear.png" 6 6 fill 00000000
run "$BONEBAKE" diff "$T/white.png" "$T/white-half.png"
expect_rc 1
run "$BONEBAKE" diff "$T/white.png" "$T/clear.png"
expect_rc 1
expect_out '36 pixels'
run "$BONEBAKE" diff --compat pixelmatch-white "$T/white.png" "$T/clear.png"
expect_rc 0
expect_out 'pixelmatch 8 \(OKLab HyAB\)'
run "$BONEBAKE" diff --compat pixelmatch7-white "$T/white.png" "$T/clear.png"
expect_rc 0
expect_out 'pixelmatch 7 \(YIQ\)'

# an anti-aliased edge shifted by half a pixel
mk "$T/edge-a.png" 20 10 fill ffffffff rect 0 0 8 10 000000ff rect 8 0 1 10 808080ff
mk "$T/edge-b.png" 20 10 fill ffffffff rect 0 0 9 10 000000ff
run "$BONEBAKE" diff "$T/edge-a.png" "$T/edge-b.png"
expect_rc 0
expect_out '10 anti-aliased'
run "$BONEBAKE" diff --aa count "$T/edge-a.png" "$T/edge-b.png"
expect_rc 1
expect_out '10 pixels'
run "$BONEBAKE" diff --compat pixelmatch "$T/edge-a.png" "$T/edge-b.png"
expect_rc 0

# the metric at the default threshold: OKLab HyAB (as pixelmatch 8) sees a
# step between near-blacks that YIQ does not (0.115 against 0.098), and
# lets pass a desaturation of red that YIQ fails (0.085 against 0.125)
mk "$T/black.png" 6 6 fill 000000ff
mk "$T/shadow.png" 6 6 fill 1a1a1aff
mk "$T/red.png" 6 6 fill e03030ff
mk "$T/dull.png" 6 6 fill c05050ff
run "$BONEBAKE" diff "$T/black.png" "$T/shadow.png"
expect_rc 1
expect_out 'max delta 0.115'
run "$BONEBAKE" diff --compat pixelmatch "$T/black.png" "$T/shadow.png"
expect_rc 1
run "$BONEBAKE" diff --metric yiq "$T/black.png" "$T/shadow.png"
expect_rc 0
expect_out 'alpha-aware YIQ'
run "$BONEBAKE" diff --compat pixelmatch7 "$T/black.png" "$T/shadow.png"
expect_rc 0
run "$BONEBAKE" diff "$T/red.png" "$T/dull.png"
expect_rc 0
run "$BONEBAKE" diff --metric yiq "$T/red.png" "$T/dull.png"
expect_rc 1

# the window budget: scattered single pixels pass, a moved block fails,
# with fewer differing pixels in all
mk "$T/plain.png" 40 40 fill ffffffff
mk "$T/noise.png" 40 40 fill ffffffff px 2 2 000000ff px 14 2 000000ff px 26 2 000000ff \
	px 38 2 000000ff px 2 14 000000ff px 14 14 000000ff px 26 14 000000ff px 38 14 000000ff \
	px 2 26 000000ff px 14 26 000000ff px 26 26 000000ff px 38 26 000000ff
mk "$T/moved.png" 40 40 fill ffffffff rect 20 20 3 3 000000ff
run "$BONEBAKE" diff --window 8 --max-window-pixels 4 "$T/plain.png" "$T/noise.png"
expect_rc 0
expect_out '12 pixels .* at most 1 in a 8x8 window .*\(within budget\)'
expect_out 'window 8; budget: .*max window pixels 4'
run "$BONEBAKE" diff --window 8 --max-window-pixels 4 "$T/plain.png" "$T/moved.png"
expect_rc 1
expect_out '9 pixels .* at most 9 in a 8x8 window'
run "$BONEBAKE" diff --window 8 --max-window-pixels 4 --max-diff-pixels 10 "$T/plain.png" "$T/noise.png"
expect_rc 1
run "$BONEBAKE" diff --window 8 --json - "$T/plain.png" "$T/moved.png"
expect_rc 1
expect_out '"window": 8, "max_window_pixels": null'
expect_out '"window_pixels": 9'
run "$BONEBAKE" diff --max-window-pixels 4 "$T/plain.png" "$T/moved.png"
expect_rc 2
expect_err 'needs --window'
run "$BONEBAKE" diff --window 0 "$T/plain.png" "$T/moved.png"
expect_rc 2
run "$BONEBAKE" diff --metric lab "$T/plain.png" "$T/moved.png"
expect_rc 2
run "$BONEBAKE" diff --metric yiq --compat pixelmatch "$T/plain.png" "$T/moved.png"
expect_rc 2
run "$BONEBAKE" diff --compat pixelmatch6 "$T/plain.png" "$T/moved.png"
expect_rc 2
expect_err 'pixelmatch7'

# size mismatch, bad input, unreadable, usage
run "$BONEBAKE" diff "$T/grey.png" "$T/tall.png"
expect_rc 5
expect_out 'SIZE +tall.png: size 8x8 vs 8x9'
printf 'not a png' >"$T/bad.png"
run "$BONEBAKE" diff "$T/grey.png" "$T/bad.png"
expect_rc 3
expect_err 'bad.png: not a PNG'
head -c 60 "$T/far.png" >"$T/cut.png"
run "$BONEBAKE" diff "$T/grey.png" "$T/cut.png"
expect_rc 3
expect_err 'cut.png: invalid PNG'
run "$BONEBAKE" diff "$T/grey.png" "$T/nope.png"
expect_rc 4
expect_err 'nope.png'
run "$BONEBAKE" diff "$T/grey.png"
expect_rc 2
expect_err 'expected BASELINE and CURRENT'
run "$BONEBAKE" diff --threshold 2 "$T/grey.png" "$T/far.png"
expect_rc 2
expect_err 'threshold'
run "$BONEBAKE" diff --ignore 1,2,3 "$T/grey.png" "$T/far.png"
expect_rc 2
run "$BONEBAKE" diff --aa maybe "$T/grey.png" "$T/far.png"
expect_rc 2
run "$BONEBAKE" diff --bogus "$T/grey.png" "$T/far.png"
expect_rc 2
run "$BONEBAKE" diff "$T/grey.png" "$T"
expect_rc 2
run "$BONEBAKE" diff --help
expect_rc 0
expect_out 'Exit codes: 0 every pair within budget'
expect_out 'the first of: 70, 4, 3, 5, 6, 1, 0'

# diff images: -o FILE.png, -o DIR; none for identical pairs.  The mask
# holds red on transparent only, so it equals a constructed image.
run "$BONEBAKE" diff -o "$T/d.png" "$T/grey.png" "$T/far.png"
expect_rc 1
[ -f "$T/d.png" ] || fail "no diff image at $T/d.png"
mkdir "$T/out"
run "$BONEBAKE" diff -o "$T/out" --diff-mask "$T/grey.png" "$T/far.png"
expect_rc 1
mk "$T/mask-expected.png" 8 8 px 3 4 ff0000ff
run "$BONEBAKE" diff "$T/mask-expected.png" "$T/out/far.png"
expect_rc 0
run "$BONEBAKE" diff -o "$T/none.png" "$T/grey.png" "$T/grey2.png"
expect_rc 0
expect_absent "$T/none.png"
ls "$T"/*.tmp-* >/dev/null 2>&1 && fail "temporary files left behind"

# JSON and JUnit reports echo the applied thresholds
run "$BONEBAKE" diff --json "$T/r.json" --junit "$T/r.xml" --max-diff-ratio 0.001 \
	"$T/grey.png" "$T/two.png"
expect_rc 1
python3 - "$T/r.json" "$T/r.xml" <<'PY' || fail "report contents"
import json, sys, xml.etree.ElementTree as ET
r = json.load(open(sys.argv[1]))
o = r["options"]
assert o["threshold"] == 0.1 and o["aa"] == "ignore" and o["compat"] == "none", o
assert o["max_diff_ratio"] == 0.001 and o["max_diff_pixels"] is None, o
p = r["pairs"][0]
assert p["path"] == "two.png" and p["status"] == "fail", p
assert p["diff_pixels"] == 2 and p["box"] == [3, 4, 3, 2], p
assert abs(p["diff_ratio"] - 2 / 64) < 1e-9 and 0 < p["max_delta"] <= 1, p
assert r["totals"]["fail"] == 1 and r["totals"]["exit_code"] == 1, r["totals"]
t = ET.parse(sys.argv[2]).getroot()
cases = t.findall(".//testcase")
assert len(cases) == 1 and cases[0].get("name") == "two.png"
f = cases[0].find("failure")
assert f is not None and "2 pixels" in f.get("message"), ET.tostring(t)
assert "threshold 0.1" in t.find(".//property").get("value")
PY
checks=$((checks + 1))
run "$BONEBAKE" diff --json "$T/r2.json" -o "$T/out" "$T/grey.png" "$T/two.png"
expect_rc 1
grep -q "\"diff_image\": \"$T/out/two.png\"" "$T/r2.json" || fail "diff_image path missing in JSON"
[ -f "$T/out/two.png" ] || fail "no $T/out/two.png"
checks=$((checks + 1))
# a report that cannot be written is an I/O error, whatever the verdict
run "$BONEBAKE" diff --json "$T/no/such/dir/r.json" "$T/grey.png" "$T/far.png"
expect_rc 4
expect_err 'r.json: cannot create'
run "$BONEBAKE" diff --json - "$T/grey.png" "$T/grey2.png"
expect_rc 0
printf '%s' "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["pairs"][0]["status"]=="identical"' ||
	fail "--json - is not JSON on stdout"

# --update copies current over baseline and says so
cp "$T/grey.png" "$T/base.png"
run "$BONEBAKE" diff --update "$T/base.png" "$T/far.png"
expect_rc 0
expect_out 'updated far.png \(was: 1 pixels'
cmp -s "$T/base.png" "$T/far.png" || fail "--update did not copy"
run "$BONEBAKE" diff "$T/base.png" "$T/far.png"
expect_rc 0
pass
