#!/bin/sh
# Terminal escapes (issue 22, item 2): names from input files reach no
# terminal or CI log raw.  A skeleton whose armature, animation and bone
# names hold ESC/BEL/OSC sequences (set the title, clear the screen), a
# newline (a forged log line) and U+202E (right-to-left override): `info`,
# an error naming them and a batch report print \xHH / \u{XXXX} escapes
# instead (as does diff's report for a file name from a folder), and
# `info --json` keeps valid JSON with the bidi character as
# \u202e.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
# ESC ] 0 ; title BEL, ESC [ 2 J, a newline, U+202E (UTF-8 e2 80 ae)
python3 - "$T" <<'PY'
import json, sys
bad = "x\x1b]0;pwned\x07\x1b[2J\n::error::forged\u202eevil"
doc = {"format": "bonebake-skeleton", "version": 1, "name": "arm" + bad,
       "bones": [{"name": "root"}, {"name": "b" + bad, "parent": "root",
                  "attachments": {"front": {"width": 8, "height": 8,
                                            "color": [255, 0, 0, 255]}}}],
       "animations": [{"name": "anim" + bad, "duration": 0.1, "bones": {}}]}
open(sys.argv[1] + "/evil.json", "w").write(json.dumps(doc))
doc["bones"][1]["parent"] = "missing" + bad
open(sys.argv[1] + "/broken.json", "w").write(json.dumps(doc))
PY
# no raw ESC, BEL or U+202E, and no line of output beginning with "::error"
clean() {  # FILE
	checks=$((checks + 1))
	if LC_ALL=C grep -q "$(printf '[\033\007]')" "$1" ||
	   LC_ALL=C grep -q "$(printf '\342\200\256')" "$1" ||
	   grep -q '^::error' "$1"; then
		fail "$last: raw control or bidi characters reached the output: $(od -c "$1" | head -5)"
	fi
}
run "$BONEBAKE" info "$T/evil.json"
expect_rc 0
clean "$T/.out"
expect_out 'animx\\x1b\]0;pwned\\x07\\x1b\[2J\\x0a::error::forged\\u\{202e\}evil'
run "$BONEBAKE" info --json "$T/evil.json"
expect_rc 0
clean "$T/.out"
printf '%s\n' "$out" | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["armatures"][0]["animations"][0]["name"].endswith("\u202eevil")' ||
	fail "info --json: not the name back"
expect_out 'forged\\u202eevil'
# an error naming a name of the file (the unknown parent) and one listing
# them (an unknown animation)
run "$BONEBAKE" info "$T/broken.json"
expect_rc 3
clean "$T/.err"
expect_err 'missing'
run "$BONEBAKE" render "$T/evil.json" --anim nope -o "$T/out"
expect_rc 2
clean "$T/.err"
expect_err 'the file has: animx\\x1b'
# a file name from a folder in diff's report
run "$BONEBAKE" render "$T/evil.json" -o "$T/r"
expect_rc 0
clean "$T/.out"
expect_out '^animx\\x1b\]0;pwned'
mkdir "$T/da" "$T/db"
png=$(find "$T/r" -name '*.png' | head -n 1)
cp "$png" "$T/db/$(printf 'x\033]0;pwned\007\342\200\256.png')"
run "$BONEBAKE" diff "$T/da" "$T/db"
expect_rc 6
clean "$T/.out"
clean "$T/.err"
expect_out 'ADDED +x\\x1b\]0;pwned\\x07\\u\{202e\}\.png'
# a batch job's name, in the --list, the report and a failure
python3 - "$T" <<'PY'
import json, sys
bad = "job\x1b]0;pwned\x07\n::error::forged\u202e"
json.dump({"jobs": [{"name": bad + "1", "command": "render", "input": "evil.json",
                     "output": "out1"},
                    {"name": bad + "2", "command": "render", "input": "broken.json",
                     "output": "out2"}]}, open(sys.argv[1] + "/m.json", "w"))
PY
run "$BONEBAKE" batch "$T/m.json" --list
expect_rc 0
clean "$T/.out"
expect_out 'job\\x1b\]0;pwned\\x07\\x0a::error::forged\\u\{202e\}1'
run "$BONEBAKE" batch "$T/m.json" --jobs 1
expect_rc 3
clean "$T/.out"
clean "$T/.err"
expect_err 'job "job\\x1b.*2" failed \(exit 3\)'
expect_out 'forged\\u\{202e\}1: rendered'
pass
