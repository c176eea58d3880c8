#!/usr/bin/env python3
"""Prints the PNGs given whose every byte of pixel data is zero (bonebake
writes a transparent pixel as 0, 0, 0, 0, so such a frame is blank);
exits 1 when there is one.  PNG filters map zero rows to zero rows and
are invertible, so the filtered data is all zero (but for the rows' filter
type bytes) exactly when the image is.  Stdlib only."""
import struct
import sys
import zlib


def blank(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, w, h, bpp = 8, [], 0, 0, 4
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            bpp = {6: 4, 2: 3, 4: 2, 0: 1}.get(ctype, 4) * depth // 8
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp + 1
    filters = sum(1 for y in range(h) if raw[y * stride] != 0)
    return len(raw) - raw.count(0) == filters


found = 0
for p in sys.argv[1:]:
    if blank(p):
        print(p)
        found += 1
sys.exit(1 if found else 0)
