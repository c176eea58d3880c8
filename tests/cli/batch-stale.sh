#!/bin/sh
# Up-to-date records that can be trusted (issue 22, items 3 and 5).
# A stamp in the output folder is untrusted: one listing /dev/zero or a
# FIFO (as a file read, or as the stamp itself) makes the job stale at
# once instead of hanging batch, even --list (each run bounded by
# `timeout`).  A job is stale again when an output it wrote is deleted
# (an animation folder, a sheet page), when a file it looked for and did
# not find appears, and its key does not depend on how paths are spelt
# (./art/x.json and the absolute path agree).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
mkdir "$T/art"
cp "$SAMPLES/slime.json" "$T/art/"
cp "$SAMPLES"/cocos/bird.* "$T/art/"
cat >"$T/m.json" <<'EOF2'
{ "jobs": [
  { "name": "slime", "command": "render", "input": "./art/slime.json",
    "output": "out/slime", "animations": ["bounce", "blink"] },
  { "name": "sheet", "command": "sheet", "input": "art/slime.json",
    "output": "out/sheet", "options": { "all": true, "multipack": true, "max-size": "128x128" } },
  { "name": "bird", "command": "render", "input": "art/bird.xml",
    "output": "out/bird", "animations": ["flap"], "options": { "scale": 0.25 } } ] }
EOF2
b() { run timeout 20 "$BONEBAKE" batch "$T/m.json" "$@"; }
status() {  # JOB WANT: the job's line in --list
	b --list
	expect_rc 0
	expect_out "^$1	0	$2\$"
}
b --quiet
expect_rc 0
for j in slime sheet bird; do status $j current; done
stamp() { printf '%s/out/%s/.bonebake-batch.json' "$T" "$1"; }
edit_stamp() {  # JOB PYTHON-STATEMENT (on the dict d)
	python3 - "$(stamp "$1")" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"))
PY
}
# item 3: a stamp naming /dev/zero, a FIFO inside the input's folder, a
# file outside the folders the job may read
cp "$(stamp slime)" "$T/stamp.keep"
edit_stamp slime 'd["files"].append({"path": "/dev/zero", "sha256": "0" * 64})'
status slime stale
cp "$T/stamp.keep" "$(stamp slime)"
mkfifo "$T/art/fifo"
edit_stamp slime 'd["files"].insert(0, {"path": "'"$T"'/art/fifo", "sha256": "0" * 64})'
status slime stale
cp "$T/stamp.keep" "$(stamp slime)"
edit_stamp slime 'd["files"].append({"path": "/etc/passwd", "sha256": "0" * 64})'
status slime stale
# the stamp itself a FIFO, or a link to /dev/zero
rm "$(stamp slime)"
mkfifo "$(stamp slime)"
status slime stale
rm "$(stamp slime)"
ln -s /dev/zero "$(stamp slime)"
status slime stale
rm "$(stamp slime)"
cp "$T/stamp.keep" "$(stamp slime)"
status slime current
# item 5: a deleted animation folder, a deleted sheet page
rm -r "$T/out/slime/blink"
status slime stale
checks=$((checks + 1))
ls "$T"/out/sheet/*-1.png >/dev/null 2>&1 || fail "the sheet has one page: $(ls "$T/out/sheet")"
rm "$T"/out/sheet/*-1.png
status sheet stale
b --quiet
expect_rc 0
checks=$((checks + 1))
[ -d "$T/out/slime/blink" ] && ls "$T"/out/sheet/*-1.png >/dev/null 2>&1 ||
	fail "the deleted outputs were not made again"
for j in slime sheet bird; do status $j current; done
# a file the job looked for and did not find appears (the Cocos XML
# loader looks for a plist atlas beside it)
miss=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["missing"][0])' "$(stamp bird)") ||
	fail "the bird's stamp lists nothing it looked for and missed"
case $miss in "$T"/*.plist) ;; *) fail "not the plist beside the input: $miss" ;; esac
echo '<plist/>' >"$miss"
status bird stale
rm "$miss"
status bird current
# the same job with its paths spelt another way is current
sed -e "s|\"./art/slime.json\"|\"$T/art/../art/slime.json\"|" -e "s|\"out/slime\"|\"$T/out/./slime/\"|" \
	"$T/m.json" >"$T/m2.json"
run "$BONEBAKE" batch "$T/m2.json" --list
expect_rc 0
expect_out '^slime	0	current$'
pass
