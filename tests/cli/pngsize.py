#!/usr/bin/env python3
"""Prints WxH of each PNG given (reads the IHDR chunk; stdlib only)."""
import struct
import sys

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        print(f"{path}: not a PNG", file=sys.stderr)
        sys.exit(1)
    w, h = struct.unpack(">II", head[16:24])
    print(f"{w}x{h}")
