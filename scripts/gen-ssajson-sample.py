#!/usr/bin/env python3
"""Writes samples/ssajson/: a small SpriteStudio SSAJSON file (the
Ss5ConverterToSSAJSON layout: a top-level array of animations) and its
texture, deterministically (python3 standard library only).

  demo.json   two animations:
              demo_walk (12 fps, 8 frames): a figure on a shadow, swinging
                arms (flipped cells, pivots, scale, opacity), an additive
                glow; records of 11 to 17 fields
              demo_fx (10 fps, 6 frames): over a backdrop, frame k shows
                alpha blend k (0 mix, 1 multiply, 2 add, 3 subtract) on a
                striped sprite, a quad with vertex deformation (25 fields)
                and a white quad with 1.0.4 vertex colours (39 fields,
                colour blend type k % 4, colours packed ARGB); frame 5
                drops a record
  demo.png    the 128x64 texture (cells below)

Usage: scripts/gen-ssajson-sample.py [OUTDIR]   (default samples/ssajson)
"""
import json
import math
import os
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngrgba import write_png  # noqa: E402

W, H = 128, 64

# cells: name -> (x, y, w, h)
CELLS = {
    "body": (0, 0, 32, 32),
    "glow": (32, 0, 32, 32),
    "arm": (64, 0, 64, 16),
    "stripes": (64, 16, 64, 16),
    "checker": (0, 32, 32, 32),
    "white": (32, 32, 32, 32),
    "shadow": (64, 32, 32, 32),
    "panel": (96, 32, 32, 32),
}


def clamp(v):
    return max(0, min(255, int(round(v))))


def texture():
    px = [[(0, 0, 0, 0)] * W for _ in range(H)]

    def put(x, y, c):
        px[y][x] = tuple(clamp(v) for v in c)

    # body: blue rounded square, a yellow arrow pointing right in its upper
    # half, a red dot top-left (asymmetric both ways, so flips show)
    x0, y0, w, h = CELLS["body"]
    for y in range(h):
        for x in range(w):
            cx, cy = min(x, w - 1 - x), min(y, h - 1 - y)
            if cx < 3 and cy < 3 and (3 - cx) ** 2 + (3 - cy) ** 2 > 10:
                continue
            c = (40, 90, 200, 255)
            if 4 <= y <= 14 and 8 <= x <= 26 and abs(y - 9) <= (26 - x) * 0.6:
                c = (250, 220, 40, 255)
            if (x - 5) ** 2 + (y - 5) ** 2 <= 6:
                c = (220, 30, 30, 255)
            if y >= 28:
                c = (20, 40, 110, 255)
            put(x0 + x, y0 + y, c)
    # glow: radial white -> orange, alpha falling off
    x0, y0, w, h = CELLS["glow"]
    for y in range(h):
        for x in range(w):
            d = math.hypot(x + 0.5 - w / 2, y + 0.5 - h / 2) / (w / 2)
            if d < 1:
                put(x0 + x, y0 + y, (255, 255 - 120 * d, 200 - 190 * d, 255 * (1 - d) ** 1.5))
    # arm: green -> cyan bar with a dark tip at the right end
    x0, y0, w, h = CELLS["arm"]
    for y in range(2, h - 2):
        for x in range(w):
            f = x / (w - 1)
            c = (30, 200 - 40 * f, 60 + 180 * f, 255) if x < w - 8 else (20, 30, 30, 255)
            put(x0 + x, y0 + y, c)
    # stripes: magenta / yellow diagonal stripes, opaque
    x0, y0, w, h = CELLS["stripes"]
    for y in range(h):
        for x in range(w):
            c = (230, 40, 200, 255) if ((x + y) // 6) % 2 else (250, 230, 60, 255)
            put(x0 + x, y0 + y, c)
    # checker: grey/white 8-px checks inside an orange frame
    x0, y0, w, h = CELLS["checker"]
    for y in range(h):
        for x in range(w):
            if x < 2 or y < 2 or x >= w - 2 or y >= h - 2:
                c = (240, 130, 20, 255)
            else:
                c = (235, 235, 235, 255) if ((x // 8) + (y // 8)) % 2 else (90, 90, 100, 255)
            put(x0 + x, y0 + y, c)
    # white: a white square with a grey border
    x0, y0, w, h = CELLS["white"]
    for y in range(h):
        for x in range(w):
            edge = x < 2 or y < 2 or x >= w - 2 or y >= h - 2
            put(x0 + x, y0 + y, (120, 120, 120, 255) if edge else (255, 255, 255, 255))
    # shadow: a soft black ellipse
    x0, y0, w, h = CELLS["shadow"]
    for y in range(h):
        for x in range(w):
            d = math.hypot((x + 0.5 - w / 2) / (w / 2), (y + 0.5 - h / 2) / (h / 2))
            if d < 1:
                put(x0 + x, y0 + y, (0, 0, 0, 160 * (1 - d * d)))
    # panel: opaque vertical gradient, dark blue to pale
    x0, y0, w, h = CELLS["panel"]
    for y in range(h):
        for x in range(w):
            f = y / (h - 1)
            put(x0 + x, y0 + y, (40 + 170 * f, 60 + 160 * f, 120 + 110 * f, 255))
    return px


def r6(v):
    """The converter's number format: 1 decimal if integral, else 6."""
    v = round(v, 6)
    return float(v) if v == int(v) else v


def record(part, cell, px, py, angle=0.0, sx=1.0, sy=1.0, ox=0, oy=0,
           fh=0, fv=0, opacity=1.0, blend=0, deform=None, color=None):
    """A part record, shortened like the writer does: the trailing run of
    fields equal to their defaults is dropped (never below 11 fields)."""
    x, y, w, h = CELLS[cell]
    rec = [part, 0, x, y, w, h, r6(px), r6(py), r6(angle), r6(sx), r6(sy),
           ox, oy, fh, fv, r6(opacity), blend] + list(deform or [0] * 8)
    defaults = [0, 0, 0, 0, 1.0, 0] + [0] * 8
    if color is not None:
        cblend, colors = color
        rec += [0, cblend] + colors + [0.0] * 8   # label, type, 4 ARGB, positions
        return rec
    while len(rec) > 11 and rec[-1] == defaults[len(rec) - 12]:
        rec.pop()
    return rec


def argb(a, r, g, b):
    return (a << 24) | (r << 16) | (g << 8) | b


def walk():
    parts = ["root", "shadow", "arm_back", "body", "head", "arm_front", "glow"]
    P = {n: i for i, n in enumerate(parts)}
    frames = []
    for k in range(8):
        ph = 2 * math.pi * k / 8
        bob = -3 * abs(math.sin(ph))
        swing = 0.6 * math.sin(ph)
        fr = [
            # 11 fields: all defaults after scale
            record(P["shadow"], "shadow", -16, -6, sy=0.375),
            # arms: pivot at the bar's left end, flipped vertically on the way back
            record(P["arm_back"], "arm", 2, -40 + bob, angle=-1.2 - swing, sx=0.6,
                   ox=2, oy=8, fv=1 if swing < 0 else 0, opacity=0.8),
            # 13 fields: pivot at the bottom centre
            record(P["body"], "body", 0, -8 + bob, angle=0.08 * math.sin(ph),
                   ox=16, oy=32),
            # 14 fields: the head is the body cell flipped horizontally, smaller
            record(P["head"], "body", 0, -40 + bob, angle=0.15 * math.sin(ph),
                   sx=0.7, sy=0.7, ox=16, oy=32, fh=1),
            record(P["arm_front"], "arm", -2, -38 + bob, angle=-1.9 + swing, sx=0.6,
                   ox=2, oy=8, fh=1, fv=1 if swing > 0 else 0),
            # 17 fields: additive glow with opacity
            record(P["glow"], "glow", 14, -52 + bob, sx=1.2, sy=1.2, ox=16, oy=16,
                   opacity=0.5 + 0.4 * math.cos(ph), blend=2),
        ]
        frames.append(fr)
    return {"images": ["demo.png"], "name": "demo_walk",
            "animation": {"fps": 12, "CanvasWidth": 160, "CanvasHeight": 120,
                          "MarginWidth": 80, "MarginHeight": 24,
                          "parts": parts, "ssa": frames}}


def fx():
    parts = ["root", "backdrop", "blend", "deform", "tint"]
    P = {n: i for i, n in enumerate(parts)}
    colors = [argb(255, 255, 0, 0), argb(255, 0, 200, 0),     # TL TR
              argb(255, 0, 0, 255), argb(128, 255, 255, 0)]   # BL BR
    frames = []
    for k in range(6):
        fr = [
            record(P["backdrop"], "panel", -60, -60, sx=3.75, sy=3.75),
            record(P["blend"], "stripes", -52, -30, angle=0.1 * (k - 2), sx=1.2,
                   sy=2.0, blend=k % 4, opacity=0.9),
            record(P["deform"], "checker", 20, -24, ox=16, oy=16, sx=1.1, sy=1.1,
                   deform=[-4 * k, -3 * k, 2 * k, -4 * k, -2 * k, 3 * k, 5 * k, 2 * k]),
        ]
        if k != 5:
            fr.append(record(P["tint"], "white", 20, 30, angle=-0.2 * k, ox=16, oy=16,
                             fh=k & 1, color=[k % 4, colors]))
        frames.append(fr)
    return {"images": ["demo.png"], "name": "demo_fx",
            "animation": {"fps": 10, "CanvasWidth": 160, "CanvasHeight": 160,
                          "MarginWidth": 80, "MarginHeight": 80,
                          "parts": parts, "ssa": frames}}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "samples", "ssajson")
    os.makedirs(out, exist_ok=True)
    write_png(os.path.join(out, "demo.png"), texture())
    with open(os.path.join(out, "demo.json"), "w") as f:
        f.write(json.dumps([walk(), fx()], separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
