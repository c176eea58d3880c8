# bonebake diff on two folders: pairing by relative path, missing/added
# files, exit-code precedence, determinism across --jobs, diff images,
# reports, the HTML folder's structure, --update.
. "$(dirname "$0")/lib.sh"
MKPNG="$top_builddir/tests/cli/diff-mkpng"
[ -x "$MKPNG" ] || skip "tests/cli/diff-mkpng is not built"
command -v python3 >/dev/null 2>&1 || skip "python3 not found"
mk() { "$MKPNG" "$@" || fail "diff-mkpng $*"; }

B="$T/base" C="$T/cur"
mkdir -p "$B/walk" "$C/walk" "$B/idle" "$C/idle"
for i in 0 1 2 3; do
	mk "$B/walk/walk_000$i.png" 32 24 fill 204060ff disc $((8 + i * 4)) 12 6 ffcc00ff
	cp "$B/walk/walk_000$i.png" "$C/walk/walk_000$i.png"
done
mk "$B/idle/idle_0000.png" 32 24 fill 204060ff
mk "$C/idle/idle_0000.png" 32 24 fill 204060ff
# a real change in walk_0002, a size change, one file per side only, a
# broken file, and a non-PNG file
mk "$C/walk/walk_0002.png" 32 24 fill 204060ff disc 16 12 6 ffcc00ff rect 28 2 3 3 ff00ffff
mk "$C/walk/walk_0003.png" 32 25 fill 204060ff
mk "$B/walk/walk_0009.png" 4 4 fill 000000ff
mk "$C/walk/walk_0010.png" 4 4 fill 000000ff
mk "$B/zz.png" 4 4 fill 000000ff
printf 'garbage' >"$C/zz.png"
echo '{}' >"$C/walk/frames.json"

run "$BONEBAKE" diff "$B" "$C"
expect_rc 3
expect_err 'zz.png: not a PNG'
expect_out 'FAIL +walk/walk_0002.png: 9 pixels .*box 28,2 3x3'
expect_out 'SIZE +walk/walk_0003.png: size 32x24 vs 32x25'
expect_out 'MISSING walk/walk_0009.png: only in the baseline'
expect_out 'ADDED +walk/walk_0010.png: only in the current side'
expect_out 'ERROR +zz.png'
expect_out '^8 pairs: 1 fail, 1 size-mismatch, 1 missing, 1 added, 1 error, 3 identical; 1 non-PNG file not compared$'
printf '%s\n' "$out" | grep -q 'idle_0000' && fail "identical pairs listed without -v"
checks=$((checks + 1))

# precedence: bad input > size mismatch > missing/added > differences
rm "$B/zz.png" "$C/zz.png"
run "$BONEBAKE" diff "$B" "$C"
expect_rc 5
rm "$C/walk/walk_0003.png"
cp "$B/walk/walk_0003.png" "$C/walk/walk_0003.png"
run "$BONEBAKE" diff "$B" "$C"
expect_rc 6
mv "$C/walk/walk_0010.png" "$T/w10.png"
run "$BONEBAKE" diff "$B" "$C"
expect_rc 6
mv "$B/walk/walk_0009.png" "$T/w9.png"
run "$BONEBAKE" diff "$B" "$C"
expect_rc 1
mv "$T/w9.png" "$B/walk/walk_0009.png"
mv "$T/w10.png" "$C/walk/walk_0010.png"

# the same output whatever the thread count, sorted by path
run "$BONEBAKE" diff --jobs 1 --json "$T/j1.json" "$B" "$C"
expect_rc 6
out1=$out
run "$BONEBAKE" diff --jobs 8 --json "$T/j8.json" "$B" "$C"
expect_rc 6
[ "$out" = "$out1" ] || fail "stdout differs between --jobs 1 and --jobs 8"
cmp -s "$T/j1.json" "$T/j8.json" || fail "JSON differs between --jobs 1 and --jobs 8"
python3 - "$T/j1.json" <<'PY' || fail "folder JSON"
import json, sys
r = json.load(open(sys.argv[1]))
paths = [p["path"] for p in r["pairs"]]
assert paths == sorted(paths), paths
st = {p["path"]: p["status"] for p in r["pairs"]}
assert st["walk/walk_0002.png"] == "fail" and st["walk/walk_0009.png"] == "missing"
assert st["walk/walk_0010.png"] == "added" and st["idle/idle_0000.png"] == "identical"
t = r["totals"]
assert t["pairs"] == 7 and t["missing"] == 1 and t["added"] == 1 and t["exit_code"] == 6, t
assert t["skipped_files"] == 1, t
PY
checks=$((checks + 3))

# diff images: only for differing pairs, at their relative paths
run "$BONEBAKE" diff -o "$T/d" --jobs 3 "$B" "$C"
expect_rc 6
[ -f "$T/d/walk/walk_0002.png" ] || fail "no diff image for walk_0002"
expect_absent "$T/d/walk/walk_0001.png"
expect_absent "$T/d/idle"

# JUnit: one test case per pair, failures carry the numbers
run "$BONEBAKE" diff --junit "$T/j.xml" "$B" "$C"
python3 - "$T/j.xml" <<'PY' || fail "JUnit"
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
cases = {c.get("name"): c for c in t.iter("testcase")}
assert len(cases) == 7, cases.keys()
f = cases["walk/walk_0002.png"].find("failure")
assert f is not None and "9 pixels" in f.get("message"), f
assert cases["walk/walk_0009.png"].find("failure").get("type") == "missing"
assert cases["idle/idle_0000.png"].find("failure") is None
assert t.get("failures") == "3", t.attrib
PY
checks=$((checks + 1))

# HTML: self-contained folder, failures first, relative lazy images
run "$BONEBAKE" diff --html "$T/h" "$B" "$C"
expect_rc 6
python3 - "$T/h" <<'PY' || fail "HTML report"
import os, re, sys
d = sys.argv[1]
html = open(os.path.join(d, "index.html")).read()
sections = re.findall(r'<section class="pair [^"]*" id="[^"]*" data-status="([^"]*)" data-path="([^"]*)"', html)
assert sections[0] == ("fail", "walk/walk_0002.png"), sections
assert [s for s, _ in sections] == ["fail", "missing", "added"], sections
srcs = re.findall(r'<img [^>]*src="([^"]+)"', html)
assert srcs, "no images"
for s in srcs:
    assert not s.startswith("/") and "://" not in s, s
    assert os.path.isfile(os.path.join(d, s)), s
assert all('loading="lazy"' in tag for tag in re.findall(r"<img [^>]*>", html))
assert "4 identical pairs" in html and "<li><code>idle/idle_0000.png</code></li>" in html
PY
checks=$((checks + 1))
ls -R "$T/h" | grep -q 'tmp-' && fail "temporary files left in the HTML folder"

# --update: replaces differing pairs, adds new files, keeps baseline-only ones
run "$BONEBAKE" diff --update "$B" "$C"
expect_rc 6
expect_out 'updated walk/walk_0002.png \(was: 9 pixels'
expect_out 'added +walk/walk_0010.png'
expect_out 'kept +walk/walk_0009.png: only in the baseline, not removed'
expect_out 'updated 2 files in '
cmp -s "$B/walk/walk_0002.png" "$C/walk/walk_0002.png" || fail "walk_0002 not updated"
cmp -s "$B/walk/walk_0010.png" "$C/walk/walk_0010.png" || fail "walk_0010 not added"
rm "$B/walk/walk_0009.png"
run "$BONEBAKE" diff "$B" "$C"
expect_rc 0
expect_out '^6 pairs: 6 identical; 1 non-PNG file not compared$'
pass
