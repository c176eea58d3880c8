#!/bin/sh
# Video previews (WebM VP9 with alpha, MP4 H.264, MOV ProRes 4444), read
# back with FFmpeg's own tools (Debian ffmpeg, installed by scripts/test):
# codec, pixel format, frame count against render's frames.json, duration
# frames / fps, the frame rate as an exact fraction; the first WebM frame
# decoded by libvpx against render's PNG (transparent stays transparent,
# opaque within the codec's error); the same bytes across --jobs and
# whatever the heap held before;
# --loop-count; bad options and outputs.
. "$(dirname "$0")/lib.sh"
command -v ffprobe >/dev/null 2>&1 && command -v ffmpeg >/dev/null 2>&1 ||
	unavailable "no ffprobe/ffmpeg (Debian ffmpeg; scripts/test installs it)"
H="$SAMPLES/humanoid.json"

run "$BONEBAKE" render "$H" --anim walk -o "$T/r" --quiet
expect_rc 0
json="$T/r/walk/frames.json"
field() {  # KEY: a number of frames.json
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$json" "$1"
}
nframes=$(field 'len(d["frames"])')
fps=$(field 'd["fps"]')
cw=$(field 'd["canvas"]["width"]')
ch=$(field 'd["canvas"]["height"]')

probe() {  # FILE ENTRY: one value of ffprobe's first video stream (or format)
	case $2 in
	duration) ffprobe -v error -show_entries format=duration -of csv=p=0 "$1" ;;
	frames) ffprobe -v error -count_frames -select_streams v:0 \
		-show_entries stream=nb_read_frames -of csv=p=0 "$1" ;;
	*) ffprobe -v error -select_streams v:0 -show_entries "stream=$2" \
		-of csv=p=0 "$1" ;;
	esac
}
check_eq() {  # WHAT GOT WANTED
	checks=$((checks + 1))
	[ "$2" = "$3" ] || fail "$1: $2, expected $3"
}
# duration D of N frames at FPS (a fraction a/b), within one frame
check_duration() {  # WHAT D N FPS
	checks=$((checks + 1))
	python3 -c "
from fractions import Fraction as F
d, n, fps = float('$2'), int('$3'), F('$4')
assert abs(d - float(n / fps)) <= float(1 / fps) + 1e-9, (d, float(n / fps))
" || fail "$1: duration $2 s for $3 frames at $4 fps"
}

for fmt in webm mp4 mov; do
	run "$BONEBAKE" preview "$H" --anim walk -o "$T/walk.$fmt" --jobs 2
	expect_rc 0
	expect_out "^walk: $nframes frames, .* -> $T/walk.$fmt \\([0-9]+ bytes\\)"
	f="$T/walk.$fmt"
	case $fmt in
	webm) check_eq "$fmt codec" "$(probe "$f" codec_name)" vp9
		# FFmpeg's own VP9 decoder ignores alpha: libvpx's reports it
		checks=$((checks + 2))
		ffprobe -v error -show_entries stream_tags=alpha_mode -of csv=p=0 "$f" |
			grep -qx 1 || fail "webm: no AlphaMode 1 in the track"
		ffmpeg -hide_banner -c:v libvpx-vp9 -i "$f" 2>&1 |
			grep -q 'Video: vp9.*yuva420p' || fail "webm: libvpx does not decode yuva420p"
		size="$cw,$ch" ;;
	mp4) check_eq "$fmt codec" "$(probe "$f" codec_name)" h264
		check_eq "$fmt pixel format" "$(probe "$f" pix_fmt)" yuv420p
		size="$((cw + cw % 2)),$((ch + ch % 2))" ;;
	mov) check_eq "$fmt codec" "$(probe "$f" codec_name)" prores
		check_eq "$fmt profile" "$(probe "$f" profile)" 4444
		check_eq "$fmt pixel format" "$(probe "$f" pix_fmt)" yuva444p12le
		size="$cw,$ch" ;;
	esac
	check_eq "$fmt size" "$(probe "$f" width,height)" "$size"
	check_eq "$fmt colours" "$(probe "$f" color_range,color_space)" tv,bt709
	check_eq "$fmt frames" "$(probe "$f" frames)" "$nframes"
	check_eq "$fmt frame rate" "$(probe "$f" avg_frame_rate)" "$fps/1"
	check_duration "$fmt" "$(probe "$f" duration)" "$nframes" "$fps"
	# the same bytes whatever --jobs, run after run
	run "$BONEBAKE" preview "$H" --anim walk -o "$T/walk1.$fmt" --jobs 1 --quiet
	expect_rc 0
	checks=$((checks + 1))
	cmp -s "$f" "$T/walk1.$fmt" || fail "$fmt: --jobs 1 and 2 differ"
	# and whatever the heap held before (glibc fills fresh blocks with
	# the complement of MALLOC_PERTURB_): no encoder reads memory it
	# never wrote into the bytes (x264's SIMD macroblock tree did)
	for p in 85 170; do
		run env MALLOC_PERTURB_=$p "$BONEBAKE" preview "$H" --anim walk \
			-o "$T/walk-p$p.$fmt" --jobs 1 --quiet
		expect_rc 0
		checks=$((checks + 1))
		cmp -s "$f" "$T/walk-p$p.$fmt" ||
			fail "$fmt: the bytes depend on the heap's old contents (MALLOC_PERTURB_=$p)"
	done
done

# the first frame decoded (libvpx for the WebM's alpha) against render's
# PNG: pixels 4 px inside transparency are transparent, pixels inside a
# flat opaque 7x7 patch within the codec's error (16 of 255; 4 for 10-bit
# 4:4:4 ProRes); MP4 over white
rgba() {  # FILE OUT [DECODER...]: the first frame as raw RGBA
	f=$1 o=$2
	shift 2
	ffmpeg -v error -y "$@" -i "$f" -frames:v 1 -pix_fmt rgba -f rawvideo "$o" ||
		fail "ffmpeg cannot decode $f"
}
rgba "$T/r/walk/walk_0000.png" "$T/png.rgba"
rgba "$T/walk.webm" "$T/webm.rgba" -c:v libvpx-vp9
rgba "$T/walk.mp4" "$T/mp4.rgba"
rgba "$T/walk.mov" "$T/mov.rgba"
compare() {  # VIDEO.rgba VIDEO-WIDTH BACKGROUND (r,g,b or "alpha") ERROR
	checks=$((checks + 1))
	python3 - "$T/png.rgba" "$1" "$cw" "$ch" "$2" "$3" "$4" <<'EOF' || fail "$1: first frame off"
import sys
png, vid = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
w, h, vw, bg = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
tol = int(sys.argv[7])
P = lambda x, y: png[(y * w + x) * 4:(y * w + x) * 4 + 4]
V = lambda x, y: vid[(y * vw + x) * 4:(y * vw + x) * 4 + 4]
clear = flat = 0
for y in range(4, h - 4):
    for x in range(4, w - 4):
        p = P(x, y)
        if all(P(x + i, y + j)[3] == 0 for i in range(-4, 5) for j in range(-4, 5)):
            clear += 1
            v = V(x, y)
            if bg == "alpha":
                assert v[3] == 0, ("transparent pixel", x, y, tuple(v))
            else:
                want = [int(c) for c in bg.split(",")]
                assert max(abs(v[k] - want[k]) for k in range(3)) <= 12 and v[3] == 255, \
                    ("background pixel", x, y, tuple(v))
        elif p[3] == 255 and all(P(x + i, y + j) == p for i in range(-3, 4) for j in range(-3, 4)):
            flat += 1
            v = V(x, y)
            assert max(abs(v[k] - p[k]) for k in range(4)) <= tol, \
                ("opaque pixel", x, y, tuple(p), tuple(v))
assert clear > 1000 and flat > 1000, (clear, flat)
EOF
}
compare "$T/webm.rgba" "$cw" alpha 16
compare "$T/mp4.rgba" "$((cw + cw % 2))" 255,255,255 16
compare "$T/mov.rgba" "$cw" alpha 4

# render --preview and sheet --preview: the same file as preview writes
run "$BONEBAKE" render "$H" --anim walk -o "$T/rp" --preview webm --jobs 2 --quiet
expect_rc 0
checks=$((checks + 2))
cmp -s "$T/rp/walk/walk.webm" "$T/walk.webm" || fail "render --preview webm differs from preview"
[ "$(ls "$T/rp/walk" | grep -c '^walk_[0-9]*\.png$')" = "$nframes" ] || fail "render --preview: frames missing"
run "$BONEBAKE" sheet "$H" --anim walk -o "$T/sh" --preview mov --canvas auto --quiet
expect_rc 0
checks=$((checks + 1))
cmp -s "$T/sh/walk.mov" "$T/walk.mov" || fail "sheet --preview mov differs from preview"

# --loop-count: the cycle N times in the file; an exact fractional rate;
# an odd canvas padded for H.264 only; a bit rate instead of a CRF
run "$BONEBAKE" preview "$H" --anim walk --loop-count 3 -o "$T/loop3.webm" --quiet
expect_rc 0
check_eq "--loop-count 3 frames" "$(probe "$T/loop3.webm" frames)" $((3 * nframes))
check_duration "--loop-count 3" "$(probe "$T/loop3.webm" duration)" $((3 * nframes)) "$fps"
run "$BONEBAKE" preview "$H" --anim walk --fps 29.97 -o "$T/ntsc.mov" --quiet
expect_rc 0
check_eq "--fps 29.97 rate" "$(probe "$T/ntsc.mov" avg_frame_rate)" 2997/100
n=$(probe "$T/ntsc.mov" frames)
check_duration "--fps 29.97" "$(probe "$T/ntsc.mov" duration)" "$n" 2997/100
run "$BONEBAKE" preview "$H" --anim walk --size 81x51 -o "$T/odd.mp4" --quiet
expect_rc 0
check_eq "odd canvas mp4" "$(probe "$T/odd.mp4" width,height)" 82,52
run "$BONEBAKE" preview "$H" --anim walk --size 81x51 -o "$T/odd.webm" --quiet
expect_rc 0
check_eq "odd canvas webm" "$(probe "$T/odd.webm" width,height)" 81,51
run "$BONEBAKE" preview "$H" --anim walk --quality 50 -o "$T/q50.webm" --quiet
expect_rc 0
checks=$((checks + 1))
[ "$(wc -c <"$T/q50.webm")" -lt "$(wc -c <"$T/walk.webm")" ] || fail "--quality 50 is not smaller than the default"
run "$BONEBAKE" preview "$H" --anim walk --video-bitrate 2M -o "$T/rate.mp4" --quiet
expect_rc 0
check_eq "--video-bitrate frames" "$(probe "$T/rate.mp4" frames)" "$nframes"

# bad options and outputs: one line, the code, nothing left behind
mkdir "$T/empty"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/nowhere/x.webm"
expect_rc 4
expect_err "^bonebake: $T/nowhere/x.webm: cannot write: No such file or directory$"
checks=$((checks + 1))
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "more than one line: $err"
chmod 500 "$T/empty"
if [ ! -w "$T/empty" ]; then   # root writes anyway
	run "$BONEBAKE" render "$H" --anim walk -o "$T/empty/r" --preview mp4
	expect_rc 4
fi
chmod 700 "$T/empty"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.mkv"
expect_rc 2
expect_err "unknown extension '.mkv'"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x" --format avi
expect_rc 2
expect_err "format takes webp, gif, apng, webm, mp4 or mov, not 'avi'"
run "$BONEBAKE" render "$H" --anim walk -o "$T/empty/r" --preview mkv
expect_rc 2
expect_err "preview takes webp, gif, apng, webm, mp4 or mov"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.webm" --quality 64
expect_rc 2
expect_err "quality for webm is a CRF 0..63, not 64"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.mp4" --quality 52
expect_rc 2
expect_err "quality for mp4 is a CRF 0..51"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.mov" --quality 0
expect_rc 2
expect_err "quality for mov is a ProRes quantiser 1..31"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.mov" --video-bitrate 5M
expect_rc 2
expect_err "video-bitrate applies to webm and mp4"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.gif" --video-bitrate 5M
expect_rc 2
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.webm" --video-bitrate 5X
expect_rc 2
expect_err "video-bitrate takes bits per second"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.webm" --video-bitrate 0
expect_rc 2
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.webm" --video-bitrate 1M --quality 30
expect_rc 2
expect_err "exclude each other"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.webm" --loop-count 0
expect_rc 2
expect_err "loop-count takes an integer 1..65535"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/empty/x.webm" --format mp4
expect_rc 2
expect_err "the extension says webm, --format mp4"
checks=$((checks + 1))
[ -z "$(ls -A "$T/empty")" ] || fail "left behind: $(ls -A "$T/empty")"
pass
