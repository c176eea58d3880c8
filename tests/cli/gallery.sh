#!/bin/sh
# bonebake gallery: the page lists every animation of the folders given,
# with its frames copied beside it, labelled by their path relative to
# the page (absolute paths too), relative paths only and nothing
# fetched; the same bytes run after run; bad folders and frames.json fail
# with one line, the documented code and no SITE left behind.
. "$(dirname "$0")/lib.sh"
H="$SAMPLES/humanoid.json"
run "$BONEBAKE" render "$H" --anim walk --anim run -o "$T/hum" --quiet
expect_rc 0
run "$BONEBAKE" render "$SAMPLES/dragonbones/rig_ske.json" --anim wave -o "$T/rig" --quiet
expect_rc 0
cd "$T" || fail "no $T"
run "$BONEBAKE" gallery hum rig/ -o site
expect_rc 0
expect_out "^3 animations -> site/index.html$"
page=site/index.html
# the data lists the animations in name order: hum/run, hum/walk, rig/wave
run python3 - "$page" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
data = json.loads(m.group(1))
print(" ".join(a["label"] + ":" + a["name"] + ":" + str(len(a["files"])) + ":" + a["dir"] for a in data))
print(" ".join("%s@%d" % (e["name"], e["frame"]) for e in data[2]["events"]))
PY
expect_rc 0
expect_out "^\.\./hum/run:run:15:a0 \.\./hum/walk:walk:24:a1 \.\./rig/wave:wave:24:a2$"
expect_out "^step@6 beep@18$"
# frames copied, byte for byte
checks=$((checks + 2))
[ "$(ls site/a1 | wc -l)" = 24 ] || fail "site/a1 holds $(ls site/a1 | wc -l) files"
cmp -s site/a1/walk_0007.png hum/walk/walk_0007.png || fail "copied frame differs"
# self-contained: no network address, no absolute path, no fetch
run grep -Eci 'https?:|//[a-z]|fetch\(|XMLHttpRequest|src="/|href="/' "$page"
expect_rc 1
run "$BONEBAKE" gallery hum rig -o site2 --title "My <review>"
expect_rc 0
run grep -c 'My &lt;review&gt;' site2/index.html
expect_out '^2$'
run "$BONEBAKE" gallery hum rig/ -o site3
checks=$((checks + 1))
cmp -s site/index.html site3/index.html || fail "two runs give different pages"
# folders given by absolute paths: the page still shows them relative to
# itself, never a path of the machine that made it
run "$BONEBAKE" gallery "$T/hum" -o "$T/pages/site4"
expect_rc 0
run grep -c "$T" pages/site4/index.html
expect_out '^0$'
run grep -c '"label":"\.\./\.\./hum/walk"' pages/site4/index.html
expect_out '^1$'

# bad input
mkdir -p empty bad/walk
run "$BONEBAKE" gallery nothere -o out1
expect_rc 4
expect_err "^bonebake: nothere: No such file or directory$"
run "$BONEBAKE" gallery empty -o out1
expect_rc 3
expect_err "no frames.json found"
printf '{ "fps": 30, "canvas": { "width": 4, "height": 4 }, "frames": [ { "file": "../../etc/passwd" } ] }\n' >bad/walk/frames.json
run "$BONEBAKE" gallery bad -o out1
expect_rc 3
expect_err "^bonebake: bad/walk/frames.json: frames\[0\].file: not a plain file name$"
printf '{ "fps": 30, "canvas": { "width": 4, "height": 4 }, "frames": [ { "file": "gone.png" } ] }\n' >bad/walk/frames.json
run "$BONEBAKE" gallery bad -o out1
expect_rc 4
expect_err "gone.png: (cannot open: )?No such file or directory"
run "$BONEBAKE" gallery hum
expect_rc 2
expect_absent out1
pass
