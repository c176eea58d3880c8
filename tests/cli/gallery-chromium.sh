#!/bin/sh
# The gallery page in headless Chromium, opened from a file:// URL: every
# animation is on the page, playing advances frames, and the scrubber
# shows the frame it is set to (a screenshot compared with render's PNG of
# that frame by bonebake's own diff).  The page mirrors its state into the
# DOM (data-frame, data-shown, data-playing), read with --dump-dom; the
# URL hash sets the scrubbers (frame=N), shows one animation alone at the
# top left (solo=K) and picks the background (bg=light).
. "$(dirname "$0")/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || skip "chromium is not installed (scripts/test installs the Debian package)"
H="$SAMPLES/humanoid.json"

# walk opaque (over white, so the screenshot must equal the PNG), the rig
# transparent (over the light background: compared with a white render)
run "$BONEBAKE" render "$H" --anim walk --anim run --bg white -o "$T/hum" --quiet
expect_rc 0
run "$BONEBAKE" render "$SAMPLES/dragonbones/rig_ske.json" --anim wave -o "$T/rig" --quiet
expect_rc 0
run "$BONEBAKE" render "$SAMPLES/dragonbones/rig_ske.json" --anim wave --bg white -o "$T/rigw" --quiet
expect_rc 0
run "$BONEBAKE" gallery "$T/hum" "$T/rig" -o "$T/site"
expect_rc 0
URL="file://$T/site/index.html"

n=0
browse() {  # WxH HASH ARGS...: runs Chromium on the page
	n=$((n + 1))
	size=$1 hash=$2
	shift 2
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --disable-quic --hide-scrollbars \
		--force-device-scale-factor=1 --user-data-dir="$T/profile$n" \
		--window-size="$size" "$@" "$URL#$hash" 2>"$T/chromium$n.err"
}
attrs() {  # DOM: one line per animation "name frame shown playing"
	python3 - "$1" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
for m in re.finditer(r'<section ([^>]*)>', dom):
    a = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
    print(a.get("data-name"), a.get("data-frame"), a.get("data-shown"), a.get("data-playing"))
PY
}

# playing: after 1.5 s of virtual time every animation has moved on
browse 1200,900 "" --virtual-time-budget=1500 --dump-dom >"$T/dom1.html" ||
	fail "chromium --dump-dom failed: $(tail -3 "$T/chromium$n.err")"
attrs "$T/dom1.html" >"$T/state1"
checks=$((checks + 1))
[ "$(cut -d' ' -f1 "$T/state1" | tr '\n' ' ')" = "run walk wave " ] ||
	fail "animations on the page: $(cat "$T/state1")"
while read -r name frame shown playing; do
	checks=$((checks + 1))
	[ "$shown" -ge 5 ] && [ "$playing" = 1 ] ||
		fail "$name did not play: frame $frame, $shown frames shown, playing $playing"
done <"$T/state1"

# the scrubber set to frame 5 pauses every animation there
browse 1200,900 "frame=5" --virtual-time-budget=1500 --dump-dom >"$T/dom2.html" ||
	fail "chromium --dump-dom failed"
attrs "$T/dom2.html" >"$T/state2"
checks=$((checks + 1))
[ "$(cut -d' ' -f2,4 "$T/state2" | sort -u)" = "5 0" ] ||
	fail "after frame=5: $(cat "$T/state2")"

# what the scrubber shows is frame 5: walk (solo=1) exactly, the
# transparent rig (solo=2) over the light background like a white render
browse 160,232 "solo=1&frame=5&bg=light" --virtual-time-budget=1500 \
	--screenshot="$T/walk5.png" >/dev/null || fail "chromium --screenshot failed"
run "$BONEBAKE" diff "$T/hum/walk/walk_0005.png" "$T/walk5.png" --threshold 0 --aa count
expect_rc 0
run "$BONEBAKE" diff "$T/hum/walk/walk_0006.png" "$T/walk5.png"
expect_rc 1
size=$(python3 "$top_srcdir/tests/cli/pngsize.py" "$T/rig/wave/wave_0000.png")
browse "$(echo "$size" | tr x ,)" "solo=2&frame=5&bg=light" --virtual-time-budget=1500 \
	--screenshot="$T/wave5.png" >/dev/null || fail "chromium --screenshot failed"
run "$BONEBAKE" diff "$T/rigw/wave/wave_0005.png" "$T/wave5.png" --threshold 0.05
expect_rc 0
pass
