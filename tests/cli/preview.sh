#!/bin/sh
# bonebake preview, render/sheet --preview and --contact-sheet: each format
# read back (tests/tools/anim-probe: libwebp demux, giflib, an APNG chunk
# reader with zlib) against render's frames.json and PNG frames; the same
# bytes across runs and --jobs; bad output paths and options fail with one
# line, the documented code and nothing left behind.
. "$(dirname "$0")/lib.sh"
PROBE="$top_builddir/tests/tools/anim-probe"
[ -x "$PROBE" ] || fail "no $PROBE (make check builds it)"
H="$SAMPLES/humanoid.json"

run "$BONEBAKE" render "$H" --anim walk -o "$T/r" --quiet
expect_rc 0
json="$T/r/walk/frames.json"
field() {  # KEY: a number of frames.json
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$json" "$1"
}
nframes=$(field 'len(d["frames"])')
fps=$(field 'd["fps"]')
dur=$(field 'd["duration"]')
canvas=$(field '"%d %d" % (d["canvas"]["width"], d["canvas"]["height"])')
lastf=$(printf '%04d' $((nframes - 1)))

probe() {  # FILE DIR: probe, decoding frames into DIR
	mkdir -p "$2"
	"$PROBE" "$1" "$2" >"$2.txt" || fail "anim-probe $1 failed"
}
value() { sed -n "s/^$2 //p" "$1.txt"; }

for fmt in webp gif apng; do
	case $fmt in webp) ext=webp ;; gif) ext=gif ;; apng) ext=png ;; esac
	run "$BONEBAKE" preview "$H" --anim walk -o "$T/walk.$ext" --jobs 2
	expect_rc 0
	expect_out "^walk: $nframes frames, .* -> $T/walk.$ext \\([0-9]+ bytes\\)"
	probe "$T/walk.$ext" "$T/d-$fmt"
	checks=$((checks + 5))
	[ "$(value "$T/d-$fmt" format)" = "$fmt" ] || fail "$fmt: format $(value "$T/d-$fmt" format)"
	[ "$(value "$T/d-$fmt" frames)" = "$nframes" ] || fail "$fmt: $(value "$T/d-$fmt" frames) frames, render wrote $nframes"
	[ "$(value "$T/d-$fmt" canvas)" = "$canvas" ] || fail "$fmt: canvas $(value "$T/d-$fmt" canvas), render's $canvas"
	[ "$(value "$T/d-$fmt" plays)" = 0 ] || fail "$fmt: walk loops, plays $(value "$T/d-$fmt" plays)"
	# the delays add up to the frames' time (frames/fps), and to the
	# animation's duration within one delay unit
	unit=$(value "$T/d-$fmt" unit)
	total=$(value "$T/d-$fmt" total)
	python3 -c "
import sys
n, fps, dur, unit, total = int('$nframes'), float('$fps'), float('$dur'), int('$unit'), int('$total')
assert total == round(n / fps * unit), (total, n / fps * unit)
assert abs(total - dur * unit) <= 1, (total, dur * unit)
" || fail "$fmt: delays total $total units of 1/$unit s for $nframes frames at $fps fps ($dur s)"
	# first and last frames against render's PNGs: exact for WebP and APNG,
	# GIF within its palette (bonebake's own diff)
	for i in 0000 "$lastf"; do
		if [ "$fmt" = gif ]; then
			run "$BONEBAKE" diff "$T/r/walk/walk_$i.png" "$T/d-$fmt/frame_$i.png" \
				--threshold 0.1 --max-diff-ratio 0.002
		else
			run "$BONEBAKE" diff "$T/r/walk/walk_$i.png" "$T/d-$fmt/frame_$i.png" \
				--threshold 0 --aa count
		fi
		expect_rc 0
	done
	# the same bytes whatever --jobs, run after run
	run "$BONEBAKE" preview "$H" --anim walk -o "$T/walk1.$ext" --jobs 1 --quiet
	expect_rc 0
	checks=$((checks + 1))
	cmp -s "$T/walk.$ext" "$T/walk1.$ext" || fail "$fmt: --jobs 1 and 2 differ"
done

# --format wins over no extension; --once plays once with the end pose
run "$BONEBAKE" preview "$H" --anim walk --once -o "$T/once.anim" --format apng --quiet
expect_rc 0
probe "$T/once.anim" "$T/d-once"
checks=$((checks + 2))
[ "$(value "$T/d-once" plays)" = 1 ] || fail "--once: plays $(value "$T/d-once" plays)"
[ "$(value "$T/d-once" frames)" = $((nframes + 1)) ] || fail "--once: $(value "$T/d-once" frames) frames"
run "$BONEBAKE" preview "$H" --anim walk --quality 60 -o "$T/lossy.webp" --quiet
expect_rc 0
probe "$T/lossy.webp" "$T/d-lossy"
run "$BONEBAKE" diff "$T/r/walk/walk_0000.png" "$T/d-lossy/frame_0000.png" --max-diff-ratio 0.05
expect_rc 0
checks=$((checks + 1))
[ "$(wc -c <"$T/lossy.webp")" -lt "$(wc -c <"$T/walk.webp")" ] || fail "lossy WebP is not smaller"

# GIF flattened onto --bg: every pixel opaque, within the palette of
# render's frames over the same colour
run "$BONEBAKE" render "$H" --anim walk --bg '#336699' -o "$T/rbg" --quiet
expect_rc 0
run "$BONEBAKE" preview "$H" --anim walk --bg '#336699' -o "$T/bg.gif" --quiet
expect_rc 0
probe "$T/bg.gif" "$T/d-bg"
run "$BONEBAKE" diff "$T/rbg/walk/walk_$lastf.png" "$T/d-bg/frame_$lastf.png" \
	--threshold 0.1 --max-diff-ratio 0.002
expect_rc 0
checks=$((checks + 1))
[ "$(value "$T/d-bg" alpha)" = "255 255" ] || fail "--bg: alpha range $(value "$T/d-bg" alpha)"
checks=$((checks + 1))
[ "$(value "$T/d-gif" alpha)" = "0 255" ] || fail "transparent GIF: alpha range $(value "$T/d-gif" alpha)"

# several animations: a folder OUT/<armature>/<anim>.<ext>, contact sheets
# FILE-<anim>.png
run "$BONEBAKE" preview "$H" --anim walk --anim run -o "$T/many" --format gif \
	--contact-sheet "$T/cs.png" --quiet
expect_rc 0
for f in many/humanoid/walk.gif many/humanoid/run.gif cs-walk.png cs-run.png; do
	checks=$((checks + 1))
	[ -s "$T/$f" ] || fail "several animations: no $f"
done
checks=$((checks + 1))
cmp -s "$T/many/humanoid/walk.gif" "$T/walk.gif" || fail "walk.gif differs in folder mode"
expect_absent "$T/cs.png"
size=$(python3 "$top_srcdir/tests/cli/pngsize.py" "$T/cs-walk.png")
checks=$((checks + 1))
w=${size%x*}
[ "$w" -gt 160 ] && [ "${size#*x}" -gt 232 ] || fail "contact sheet $size for 160x232 frames"

# render --preview and --contact-sheet: the same files as preview writes,
# beside the frames, from one rendering
run "$BONEBAKE" render "$H" --anim walk -o "$T/rp" --preview gif --contact-sheet "$T/rcs.png" --jobs 2 --quiet
expect_rc 0
checks=$((checks + 3))
cmp -s "$T/rp/walk/walk.gif" "$T/walk.gif" || fail "render --preview gif differs from preview"
cmp -s "$T/rcs.png" "$T/cs-walk.png" || fail "render --contact-sheet differs from preview's"
[ "$(ls "$T/rp/walk" | grep -c '^walk_[0-9]*\.png$')" = "$nframes" ] || fail "render --preview: frames missing"
run grep -q '"preview": "walk.gif"' "$T/rp/walk/frames.json"
expect_rc 0
run "$BONEBAKE" render "$H" --anim walk -o "$T/rp2" --preview gif --contact-sheet "$T/rcs2.png" --jobs 1 --quiet
checks=$((checks + 2))
cmp -s "$T/rp2/walk/walk.gif" "$T/walk.gif" || fail "render --preview --jobs 1 differs"
cmp -s "$T/rcs2.png" "$T/rcs.png" || fail "contact sheet differs with --jobs 1"
run "$BONEBAKE" sheet "$H" --anim walk -o "$T/sh" --preview apng --canvas auto --quiet
expect_rc 0
checks=$((checks + 1))
cmp -s "$T/sh/walk.apng" "$T/walk.png" || fail "sheet --preview apng differs from preview"

# another format's sample
run "$BONEBAKE" preview "$SAMPLES/dragonbones/rig_ske.json" --anim wave -o "$T/rig.webp" --quiet
expect_rc 0
probe "$T/rig.webp" "$T/d-rig"

# bad output paths and options: one line, the code, nothing left behind
mkdir "$T/empty"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/nowhere/x.webp"
expect_rc 4
expect_err "^bonebake: $T/nowhere/x.webp: cannot write: No such file or directory$"
checks=$((checks + 1))
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "more than one line: $err"
expect_absent "$T/nowhere"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.bmp"
expect_rc 2
expect_err "unknown extension '.bmp'"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.webp" --quality 101
expect_rc 2
expect_err "quality takes an integer 0..100"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.webp" --quality -1
expect_rc 2
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.gif" --quality 50
expect_rc 2
expect_err "WebP and video previews only"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.gif" --format webp
expect_rc 2
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.gif" --format jpeg
expect_rc 2
run "$BONEBAKE" preview "$H" -o "$T/empty/all.gif"
expect_rc 2
expect_err "names a file, but [0-9]+ animations were chosen"
run "$BONEBAKE" render "$H" --anim walk -o "$T/empty/r" --preview mkv
expect_rc 2
expect_err "preview takes webp, gif, apng, webm, mp4 or mov"
# a contact sheet that cannot be written: neither it nor the preview stays
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.webp" --contact-sheet "$T/nowhere/cs.png"
expect_rc 4
run "$BONEBAKE" render "$H" --anim walk -o "$T/empty/r" --preview webp --contact-sheet "$T/nowhere/cs.png"
expect_rc 4
checks=$((checks + 1))
[ -z "$(ls -A "$T/empty")" ] || fail "left behind: $(ls -A "$T/empty")"
# previews into a folder that has the armature's other previews: the one
# asked for is replaced, the others stay (the armature folder was swapped
# whole, deleting them); render --all's armature folders likewise
run "$BONEBAKE" preview "$H" --all -o "$T/pv" --quiet
expect_rc 0
before=$(ls "$T/pv/humanoid" | wc -l)
cp "$T/pv/humanoid/walk.webp" "$T/walk-before.webp"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/pv" --bg white --quiet
expect_rc 0
checks=$((checks + 3))
[ "$(ls "$T/pv/humanoid" | wc -l)" -eq "$before" ] ||
	fail "other previews went: $(ls "$T/pv/humanoid")"
! cmp -s "$T/walk-before.webp" "$T/pv/humanoid/walk.webp" || fail "walk.webp not replaced"
[ -z "$(find "$T/pv" -name '.bonebake-*')" ] || fail "bookkeeping left: $(find "$T/pv")"
R="$SAMPLES/dragonbones/rig_ske.json"
run "$BONEBAKE" render "$R" --all -o "$T/ra" --quiet
expect_rc 0
rm -r "$T/ra/orb/spin"
run "$BONEBAKE" render "$R" --all -o "$T/ra" --quiet
expect_rc 0
checks=$((checks + 2))
[ -d "$T/ra/orb/spin" ] && [ -d "$T/ra/robot/wave" ] || fail "render --all: $(find "$T/ra" -maxdepth 2)"
[ -z "$(find "$T/ra" -name '.bonebake-*')" ] || fail "bookkeeping left: $(find "$T/ra" -name '.bonebake-*')"
# a contact sheet or preview whose path is a folder: refused before the
# frames or the sheet are committed (they were replaced, then the rename
# of the extra failed: exit 4 with the main output already new)
run "$BONEBAKE" render "$H" --anim walk -o "$T/cr" --quiet
cp -r "$T/cr" "$T/cr-before"
mkdir -p "$T/cs.png/x"
run "$BONEBAKE" render "$H" --anim walk --scale 2 -o "$T/cr" --contact-sheet "$T/cs.png" --quiet
expect_rc 4
expect_err "cs.png: is a folder"
checks=$((checks + 1))
diff -r "$T/cr-before" "$T/cr" >/dev/null || fail "render's frames were replaced"
run "$BONEBAKE" sheet "$H" --anim idle -o "$T/sp" --quiet
cp -r "$T/sp" "$T/sp-before"
mkdir "$T/sp/idle.webp"
run "$BONEBAKE" sheet "$H" --anim idle --scale 2 -o "$T/sp" --preview webp --quiet
expect_rc 4
expect_err "idle.webp: is a folder"
rmdir "$T/sp/idle.webp"
checks=$((checks + 1))
diff -r "$T/sp-before" "$T/sp" >/dev/null || fail "the sheet was replaced"
# a failed run with its contact sheet inside the folder it made leaves
# no folder (the sheet's temporary kept it, empty)
run "$BONEBAKE" render "$H" --anim walk -o "$T/eo" --contact-sheet "$T/eo/cs.png" \
	--size 10x10 --origin 0,0 --strict --quiet
expect_rc 3
expect_absent "$T/eo"
# nor the parents it made for -o (they stayed, empty)
run "$BONEBAKE" render "$H" --anim walk -o "$T/pa/b/c" --size 10x10 --origin 0,0 \
	--strict --quiet
expect_rc 3
expect_absent "$T/pa"
run "$BONEBAKE" sheet "$H" --anim walk -o "$T/ps/q/sheet" --size 10x10 --origin 0,0 \
	--strict --quiet
expect_rc 3
expect_absent "$T/ps"
pass
