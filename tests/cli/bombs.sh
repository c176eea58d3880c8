#!/bin/sh
# PNG bombs (issue: hostile input): a 1.5 MB PNG declaring 20000x20000
# pixels is refused from its header by every command that reads PNGs
# (render/info/pose through a texture, pack, diff), exit 3 and one line
# naming the file, in bounded memory: each run under `prlimit --as` 2 GiB.
# --max-image-pixels raises the limit.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
command -v prlimit >/dev/null 2>&1 || unavailable "no prlimit (util-linux)"
python3 - "$T" <<'PY'
import struct, sys, zlib
def png(path, w, h):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    z = zlib.compressobj(9)
    row = b"\0" * (w * 4 + 1)
    data = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                          + chunk(b"IDAT", data) + chunk(b"IEND", b""))
png(sys.argv[1] + "/bomb.png", 20000, 20000)
png(sys.argv[1] + "/big.png", 3000, 3000)
for i in range(5):
    png(sys.argv[1] + "/part%d.png" % i, 2000, 1000)
PY
[ "$(wc -c <"$T/bomb.png")" -lt 2000000 ] || fail "the bomb is not small"
cat >"$T/skel.json" <<'JSON'
{ "format": "bonebake-skeleton", "version": 1,
  "bones": [ { "name": "b", "attachments": { "front": {
    "image": "bomb.png", "width": 10, "height": 10 } } } ],
  "animations": [ { "name": "a", "duration": 1, "bones": {} } ] }
JSON
mkdir "$T/frames" && cp "$T/bomb.png" "$T/frames/f_0000.png"
cp "$T/bomb.png" "$T/bomb2.png" && printf x >>"$T/bomb2.png"
limited() { run prlimit --as=2147483648 -- "$@"; }
msg='(bomb2?\.png"?|f_0000\.png): 20000x20000 px image exceeds the limit of 67108864 pixels'
for c in info pose; do
	limited "$BONEBAKE" $c "$T/skel.json"
	expect_rc 3
	expect_err "$msg"
done
limited "$BONEBAKE" render "$T/skel.json" -o "$T/out"
expect_rc 3
expect_err "$msg"
expect_absent "$T/out"
limited "$BONEBAKE" sheet "$T/skel.json" -o "$T/out"
expect_rc 3
expect_absent "$T/out"
limited "$BONEBAKE" pack "$T/frames" -o "$T/out"
expect_rc 3
expect_err "$msg"
expect_absent "$T/out"
limited "$BONEBAKE" diff "$T/bomb.png" "$T/bomb2.png"
expect_rc 3
expect_err "$msg"
# a Spine atlas page (pma: kept premultiplied; the limit before decoding)
printf '{"skeleton":{"spine":"4.2.0"},"bones":[{"name":"root"}],"slots":[],"animations":{}}\n' >"$T/sp.json"
printf 'bomb.png\nsize: 20000, 20000\npma: true\np\n  bounds: 0, 0, 16, 16\n' >"$T/sp.atlas"
# the same atlas beside a binary export (.skel)
cp "$SAMPLES/spine/keeper.skel" "$T/sp.skel"
for f in sp.json sp.skel; do
	for c in info render; do
		limited "$BONEBAKE" $c "$T/$f" -o "$T/out"
		expect_rc 3
		expect_err '^bonebake: sp\.atlas:1: page "bomb\.png": 20000x20000 px image exceeds the limit of 67108864 pixels'
		expect_absent "$T/out"
	done
done
# the limit is a flag away: a 9 Mpx image over an 8M limit, then under 16M
mkdir "$T/big" && cp "$T/big.png" "$T/big/f_0000.png"
run "$BONEBAKE" pack "$T/big" -o "$T/p8" --max-image-pixels 8M
expect_rc 3
expect_err '3000x3000 px image exceeds the limit of 8388608 pixels'
run "$BONEBAKE" pack "$T/big" -o "$T/p16" --max-image-pixels 16M --max-size 4096 --quiet
expect_rc 0
run "$BONEBAKE" diff "$T/big.png" "$T/big/f_0000.png" --max-image-pixels 8000000 --quiet
expect_rc 0        # identical bytes: decided from the header, nothing decoded
run "$BONEBAKE" pack "$T/big" -o "$T/p" --max-image-pixels lots
expect_rc 2
# render takes the flag too; a texture over it is refused before decoding
sed 's/bomb\.png/big.png/' "$T/skel.json" >"$T/big.json"
run "$BONEBAKE" render "$T/big.json" -o "$T/rb" --quiet --max-image-pixels 8M
expect_rc 3
expect_err 'big\.png": 3000x3000 px image exceeds the limit of 8388608 pixels'
run "$BONEBAKE" render "$T/big.json" -o "$T/rb" --quiet --max-image-pixels 16M
expect_rc 0
# all of a file's textures together: at most twice the per-image limit
python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
bones = [{"name": "b%d" % i, "attachments": {"front": {"image": "part%d.png" % i,
          "width": 10, "height": 10}}} for i in range(5)]
json.dump({"format": "bonebake-skeleton", "version": 1, "bones": bones,
           "animations": [{"name": "a", "duration": 1, "bones": {}}]}, open(t + "/parts.json", "w"))
PY
run "$BONEBAKE" render "$T/parts.json" -o "$T/rp" --quiet --max-image-pixels 4M
expect_rc 3
expect_err 'bones\[4\]\.attachments\.front: image "part4\.png": 2000x1000 px would take the model.s textures past 8388608 pixels'
expect_absent "$T/rp"
run "$BONEBAKE" render "$T/parts.json" -o "$T/rp" --quiet --max-image-pixels 6M
expect_rc 0
# info reads no pixels: the textures' size only, however many
run "$BONEBAKE" info "$T/parts.json" --max-image-pixels 4M
expect_rc 0
pass
