#!/bin/sh
# A render folder from an untrusted source (issue 22, item 1): gallery
# reads only regular files inside the folder it publishes.  A frame that
# is a link to /proc/self/environ (the CI job's secrets), to /dev/zero, a
# FIFO, a frames.json or an animation folder linking out of it, and a
# frame over --max-frame-bytes are refused with exit 3 naming the file,
# in bounded time, leaving no site; a link that stays inside is fine.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
run "$BONEBAKE" render "$SAMPLES/slime.json" --anim blink -o "$T/good" --quiet
expect_rc 0
cd "$T" || fail "no $T"
first=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["frames"][0]["file"])' good/blink/frames.json)
[ -f "good/blink/$first" ] || fail "no first frame good/blink/$first"
export BB_SECRET_TOKEN=hunter2-do-not-publish
fresh() { rm -rf r site; cp -r good r; }
refused() {  # WHAT-THE-MESSAGE-SAYS
	run timeout 20 "$BONEBAKE" gallery r -o site
	expect_rc 3
	expect_err "$1"
	expect_absent site
	checks=$((checks + 1))
	! grep -rq hunter2 . 2>/dev/null || fail "the secret was copied"
}
fresh
ln -sf /proc/self/environ "r/blink/$first"
refused "^bonebake: r/blink/$first: refused: it leads outside r\$"
fresh
ln -sf /dev/zero "r/blink/$first"
refused "r/blink/$first: refused: it leads outside r"
# a link to a device or FIFO inside the folder is refused for its type
fresh
rm "r/blink/$first"
mkfifo "r/blink/$first"
refused "^bonebake: r/blink/$first: refused: not a regular file"
fresh
mkfifo r/blink/fifo
rm "r/blink/$first"
ln -s fifo "r/blink/$first"
refused "r/blink/$first: refused: not a regular file"
# frames.json leading out, and an animation folder leading out
fresh
cp r/blink/frames.json elsewhere.json
ln -sf ../../elsewhere.json r/blink/frames.json
refused '^bonebake: r/blink/frames.json: refused: it leads outside r$'
fresh
mv r/blink outside-anim
ln -s ../outside-anim r/blink
refused 'r/blink/frames.json: refused: it leads outside r'
rm -rf outside-anim
# a frame over the size limit
fresh
run "$BONEBAKE" gallery r -o site --max-frame-bytes 64
expect_rc 3
expect_err "^bonebake: r/blink/f?[^:]*: [0-9]+ bytes exceed the limit of 64\$"
expect_absent site
run "$BONEBAKE" gallery r -o site --max-frame-bytes 0
expect_rc 2
# a link that stays inside the folder is read
fresh
second=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["frames"][1]["file"])' r/blink/frames.json)
rm "r/blink/$first"
ln -s "$second" "r/blink/$first"
run "$BONEBAKE" gallery r -o site
expect_rc 0
checks=$((checks + 1))
cmp -s "site/a0/$first" "r/blink/$second" || fail "the inside link was not followed"
pass
