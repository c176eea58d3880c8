#!/bin/sh
# Memory bounded by design (issue 22, items 7 and 8).
# Canvas bomb: a skeleton of a few hundred bytes with two 20 px squares
# 16,300 px apart asks for a 16,324² automatic canvas, under the 16,384 px
# side limit; render, preview and sheet refuse it from the plan, before
# allocating (each under `prlimit --as` 2 GiB), naming --max-canvas-pixels,
# which raises the limit.
# Textures and threads: two 8192² textures (small PNGs) drawn small take
# about as much memory at --jobs 8 as at --jobs 1 (max RSS within 1.3x,
# /usr/bin/time -v): converted texture regions are shared by the threads.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
command -v prlimit >/dev/null 2>&1 || unavailable "no prlimit (util-linux)"
[ -x /usr/bin/time ] || unavailable "no /usr/bin/time (scripts/test installs time)"
cat >"$T/bomb.json" <<'JSON'
{ "format": "bonebake-skeleton", "version": 1,
  "bones": [ { "name": "root" },
    { "name": "a", "parent": "root", "attachments": { "front": { "width": 20, "height": 20, "color": [255, 0, 0, 255] } } },
    { "name": "b", "parent": "root", "x": 16300, "y": 16300,
      "attachments": { "front": { "width": 20, "height": 20, "color": [0, 0, 255, 255] } } } ],
  "animations": [ { "name": "still", "duration": 0.2, "bones": {} } ] }
JSON
checks=$((checks + 1))
[ "$(wc -c <"$T/bomb.json")" -lt 600 ] || fail "the bomb is not small"
limited() { run prlimit --as=2147483648 -- "$@"; }
msg='animation "still": canvas 16324x16324 px \(254\.1 Mpx\) exceeds the limit of 32 Mpx \(--max-canvas-pixels raises it\)'
limited "$BONEBAKE" render "$T/bomb.json" -o "$T/out"
expect_rc 3
expect_err "$msg"
expect_absent "$T/out"
limited "$BONEBAKE" preview "$T/bomb.json" -o "$T/out.webp"
expect_rc 3
expect_err "$msg"
expect_absent "$T/out.webp"
limited "$BONEBAKE" sheet "$T/bomb.json" -o "$T/out"
expect_rc 3
expect_err "$msg"
expect_absent "$T/out"
# the limit is the option's: a 3,000 px square canvas (9 Mpx) passes by
# default and is refused under 8M; a bad value is a usage error
sed 's/16300/2980/g' "$T/bomb.json" >"$T/mid.json"
run "$BONEBAKE" render "$T/mid.json" -o "$T/mid" --max-canvas-pixels 8M --quiet
expect_rc 3
expect_err 'canvas 3004x3004 px \(8\.6 Mpx\) exceeds the limit of 8 Mpx'
run "$BONEBAKE" render "$T/mid.json" -o "$T/mid" --quiet --fps 5
expect_rc 0
run "$BONEBAKE" render "$T/mid.json" -o "$T/mid" --max-canvas-pixels 0
expect_rc 2
run "$BONEBAKE" render "$T/mid.json" -o "$T/mid" --size 6000x6000 --max-canvas-pixels 16M
expect_rc 3
expect_err 'canvas 6000x6000 px \(34\.3 Mpx\) exceeds the limit of 16 Mpx'

# two 8192² textures drawn at 64 px
python3 - "$T" <<'PY'
import struct, sys, zlib
def png(path, w, h, rgba):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    z = zlib.compressobj(9)
    row = b"\0" + bytes(rgba) * w
    data = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                          + chunk(b"IDAT", data) + chunk(b"IEND", b""))
png(sys.argv[1] + "/t1.png", 8192, 8192, (200, 40, 40, 255))
png(sys.argv[1] + "/t2.png", 8192, 8192, (40, 40, 200, 200))
PY
cat >"$T/tex.json" <<'JSON'
{ "format": "bonebake-skeleton", "version": 1,
  "bones": [ { "name": "root" },
    { "name": "a", "parent": "root", "attachments": { "front": { "image": "t1.png", "width": 64, "height": 64 } } },
    { "name": "b", "parent": "root", "x": 40, "attachments": { "front": { "image": "t2.png", "width": 64, "height": 64 } } } ],
  "animations": [ { "name": "spin", "duration": 1, "bones": { "a": [ { "time": 0, "rotation": 0 }, { "time": 1, "rotation": 90 } ] } } ] }
JSON
rss() {  # JOBS: max RSS in KiB of a render at --jobs JOBS
	rm -rf "$T/tex-out"
	/usr/bin/time -v -o "$T/time.txt" "$BONEBAKE" render "$T/tex.json" -o "$T/tex-out" \
		--fps 16 --jobs "$1" --quiet >"$T/.out" 2>"$T/.err" ||
		fail "render --jobs $1 failed: $(cat "$T/.err")"
	sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$T/time.txt"
}
one=$(rss 1)
eight=$(rss 8)
printf 'max RSS: --jobs 1 %s KiB, --jobs 8 %s KiB\n' "$one" "$eight"
checks=$((checks + 1))
[ "$eight" -le $((one * 13 / 10)) ] || fail "--jobs 8 takes $eight KiB, more than 1.3x the $one KiB of --jobs 1"
pass
