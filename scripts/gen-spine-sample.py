#!/usr/bin/env python3
"""Writes the Spine sample of samples/spine/ (or of OUTDIR):

  keeper.json  keeper.atlas  keeper.png      Spine 4.2 JSON, 4.x atlas
  keeper.skel                                the same skeleton as a Spine 4.2
                                             binary export (spineskel.py)
      A lamp keeper: a two-bone IK arm reaching for an animated target, a
      local relative transform constraint moving the eye with a "look"
      bone, a weighted mesh banner over three bones, a lamp that hangs
      from the hand without turning with it (inherit noRotationOrReflection),
      whose window is a clipping attachment over an additive glow with a
      two-colour tint (rgba2 keys) and a flame sequence; a tail of three
      bones on a path constraint; an antenna on a physics constraint; skin
      "gold" replaces the lamp frame.  Animations "idle" (Bezier curves,
      the event "blink" with an attachment switch, a stepped key) and
      "reach" (IK target keys, a draw-order key, the event "grab").
      The atlas has a rotated region and a whitespace-stripped one.

Every picture is drawn here (no external art), so the files may be shipped
and changed freely.  Standard library only; the output is deterministic:
running the script twice gives byte-identical files.

usage: scripts/gen-spine-sample.py [OUTDIR]
"""
import json
import math
import os
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngrgba import png_bytes  # noqa: E402
from spineskel import skel_bytes  # noqa: E402

PAGE_W, PAGE_H, GAP = 256, 256, 2

# ---------------------------------------------------------------------------
# Pictures: straight RGBA float canvases painted with signed distances.


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = [[0.0, 0.0, 0.0, 0.0] for _ in range(w * h)]

    def paint(self, dist, rgba, inset=0.0):
        """Composites rgba (0..255) over the shape with signed distance
        dist(x, y) (negative inside, pixels; y down), shrunk by inset."""
        r, g, b, a = (c / 255.0 for c in rgba)
        for y in range(self.h):
            for x in range(self.w):
                cov = 0.5 - (dist(x + 0.5, y + 0.5) + inset)
                if cov <= 0:
                    continue
                k = min(cov, 1.0) * a
                p = self.px[y * self.w + x]
                p[0] = r * k + p[0] * (1 - k)
                p[1] = g * k + p[1] * (1 - k)
                p[2] = b * k + p[2] * (1 - k)
                p[3] = k + p[3] * (1 - k)

    def shape(self, dist, fill, outline=(40, 30, 40, 255), width=1.5):
        self.paint(dist, outline)
        self.paint(dist, fill, inset=width)

    def func(self, fn):
        for y in range(self.h):
            for x in range(self.w):
                c = fn(x + 0.5, y + 0.5)
                if c is None:
                    continue
                r, g, b, a = (v / 255.0 for v in c)
                p = self.px[y * self.w + x]
                p[0] = r * a + p[0] * (1 - a)
                p[1] = g * a + p[1] * (1 - a)
                p[2] = b * a + p[2] * (1 - a)
                p[3] = a + p[3] * (1 - a)

    def rgba(self, x, y):
        p = self.px[y * self.w + x]
        if p[3] <= 0:
            return (0, 0, 0, 0)
        return tuple(int(round(min(1, c / p[3]) * 255)) for c in p[:3]) + (
            int(round(p[3] * 255)),)


def rrect(x0, y0, x1, y1, r):
    """Rounded rectangle (x0, y0)-(x1, y1), corner radius r."""
    cx, cy, hx, hy = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - r, (y1 - y0) / 2 - r

    def d(x, y):
        qx, qy = abs(x - cx) - hx, abs(y - cy) - hy
        return math.hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - r
    return d


def circle(cx, cy, r):
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def ellipse(cx, cy, rx, ry):
    return lambda x, y: (math.hypot((x - cx) / rx, (y - cy) / ry) - 1) * min(rx, ry)


def union(*ds):
    return lambda x, y: min(d(x, y) for d in ds)


# ---------------------------------------------------------------------------
# The regions (name -> canvas), each picture upright as drawn.

def pictures():
    p = {}
    c = Canvas(52, 64)
    c.shape(rrect(2, 2, 50, 62, 14), (70, 150, 160, 255))
    c.shape(rrect(12, 14, 40, 30, 5), (230, 200, 90, 255))
    c.paint(circle(26, 46, 5), (40, 90, 100, 255))
    p["body"] = c
    c = Canvas(48, 40)
    c.shape(rrect(2, 2, 46, 38, 12), (200, 220, 210, 255))
    c.paint(rrect(8, 26, 40, 30, 2), (90, 110, 110, 255))
    p["head"] = c
    c = Canvas(14, 14)
    c.shape(circle(7, 7, 6), (250, 250, 250, 255), width=1)
    c.paint(circle(7, 7, 2.5), (30, 40, 60, 255))
    p["eye"] = c
    c = Canvas(14, 6)
    c.paint(rrect(1, 2, 13, 4, 1), (40, 30, 40, 255))
    p["eye-closed"] = c
    for name, w, h, col in (("upper-arm", 36, 12, (70, 150, 160, 255)),
                            ("fore-arm", 32, 10, (90, 170, 175, 255))):
        c = Canvas(w, h)
        c.shape(rrect(1, 1, w - 1, h - 1, h / 2 - 1), col)
        p[name] = c
    c = Canvas(16, 16)
    c.shape(circle(8, 8, 7), (200, 220, 210, 255))
    p["hand"] = c
    c = Canvas(14, 44)
    c.shape(rrect(2, 1, 12, 43, 5), (60, 120, 130, 255))
    c.paint(rrect(1, 36, 13, 43, 3), (40, 30, 40, 255))
    p["leg"] = c
    c = Canvas(72, 36)
    c.func(lambda x, y: (200, 60, 60, 255) if (int(x) // 12) % 2 == 0 else
           (240, 220, 200, 255))
    c.paint(lambda x, y: min(y, 36 - y, x) - 2, (60, 30, 30, 255))
    p["banner"] = c
    c = Canvas(32, 40)
    c.shape(rrect(1, 1, 31, 39, 6), (40, 50, 80, 255))
    p["lamp-back"] = c
    c = Canvas(48, 48)     # the glow: whitespace stripped in the atlas
    c.func(lambda x, y: (255, 230, 150, int(max(0, 1 - math.hypot(x - 24, y - 24) / 20) ** 1.5 * 255))
           if 4 <= x < 44 and 4 <= y < 44 else None)
    p["glow"] = c
    for k in range(3):
        c = Canvas(14, 20)
        h = 15 + 3 * k
        c.paint(union(ellipse(7, 20 - h / 2, 5 - k * 0.7, h / 2), circle(7, 16, 4)),
                (250, 140 + 40 * k, 40, 255))
        c.paint(ellipse(7, 15, 2, 3), (255, 250, 200, 255))
        p["flame%d" % (k + 1)] = c
    for name, col in (("lamp-frame", (60, 60, 70, 255)), ("lamp-frame-gold", (200, 160, 40, 255))):
        c = Canvas(36, 46)
        outer, inner = rrect(1, 1, 35, 45, 8), rrect(7, 9, 29, 39, 5)
        c.paint(lambda x, y, o=outer, i=inner: max(o(x, y), -i(x, y)), col)
        c.paint(rrect(14, 0, 22, 4, 2), col)
        p[name] = c
    c = Canvas(14, 14)
    c.shape(circle(7, 7, 6), (90, 170, 175, 255), width=1)
    p["tail"] = c
    c = Canvas(6, 28)
    c.paint(rrect(2, 6, 4, 28, 1), (60, 60, 70, 255))
    c.shape(circle(3, 4, 3), (230, 80, 80, 255), width=1)
    p["antenna"] = c
    return p


# ---------------------------------------------------------------------------
# The atlas: a shelf packer in a fixed order; "fore-arm" is stored turned
# (rotate: 90), "glow" stripped to its 40x40 core (offsets 4, 4).

ROTATED = {"fore-arm"}
STRIP = {"glow": (4, 4, 40, 40)}   # offset x, y (from the bottom), w, h


def pack(pics):
    page = [[(0, 0, 0, 0)] * PAGE_W for _ in range(PAGE_H)]
    x, y, shelf, out = GAP, GAP, 0, []
    for name in sorted(pics):
        c = pics[name]
        ox, oy, w, h = STRIP.get(name, (0, 0, c.w, c.h))
        pw, ph = (h, w) if name in ROTATED else (w, h)
        if x + pw + GAP > PAGE_W:
            x, y, shelf = GAP, y + shelf + GAP, 0
        # image pixel (ix, iy) of the kept rectangle (top-left at ox,
        # c.h - oy - h) lands on the page; a rotated region is turned so
        # that its top edge runs up the packed rectangle's left side
        top = c.h - oy - h
        for py in range(ph):
            for px in range(pw):
                if name in ROTATED:
                    ix, iy = w - 1 - py, px
                else:
                    ix, iy = px, py
                page[y + py][x + px] = c.rgba(ox + ix, top + iy)
        out.append((name, x, y, w, h, ox, oy, c.w, c.h))
        x += pw + GAP
        shelf = max(shelf, ph)
    assert y + shelf <= PAGE_H
    return page, out


def atlas_text(regions):
    lines = ["keeper.png", "\tsize: %d, %d" % (PAGE_W, PAGE_H), "\tfilter: Linear, Linear"]
    for name, x, y, w, h, ox, oy, ow, oh in regions:
        lines.append(name)
        lines.append("\tbounds: %d, %d, %d, %d" % (x, y, w, h))
        if (ox, oy, w, h) != (0, 0, ow, oh):
            lines.append("\toffsets: %d, %d, %d, %d" % (ox, oy, ow, oh))
        if name in ROTATED:
            lines.append("\trotate: 90")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# The skeleton (Spine units, y up, degrees).

def banner_mesh():
    """4 x 2 vertices along the flag chain (24 units per bone), weighted:
    ends to one bone, inner columns half and half."""
    verts, uvs, tris = [], [], []
    for row, yy in enumerate((-10, 10)):
        for col in range(4):
            s = 24 * col
            infl = ([(1, 1.0)] if col == 0 else [(3, 1.0)] if col == 3 else
                    [(col, 0.5), (col + 1, 0.5)])
            verts.append(len(infl))
            for bone, w in infl:
                verts += [BONES.index("flag%d" % bone), s - 24 * (bone - 1), yy, w]
            uvs += [1 - s / 72.0, (yy + 10) / 20.0]
    for col in range(3):
        a, b, c, d = col, col + 1, col + 4, col + 5
        tris += [a, b, c, b, d, c]
    return {"type": "mesh", "uvs": uvs, "triangles": tris, "vertices": verts,
            "hull": 8, "width": 72, "height": 36}


BONES = ["root", "hip", "leg-l", "leg-r", "tail1", "tail2", "tail3", "torso", "head",
         "eye", "look", "antenna", "upper-arm", "fore-arm", "hand", "lamp",
         "flag1", "flag2", "flag3", "hand-target"]


def skeleton():
    bones = [
        {"name": "root"},
        {"name": "hip", "parent": "root", "y": 60},
        {"name": "leg-l", "parent": "hip", "x": -12, "rotation": -90, "length": 50},
        {"name": "leg-r", "parent": "hip", "x": 12, "rotation": -90, "length": 50},
        {"name": "tail1", "parent": "hip", "x": -20, "length": 14},
        {"name": "tail2", "parent": "hip", "x": -34, "length": 14},
        {"name": "tail3", "parent": "hip", "x": -48, "length": 14},
        {"name": "torso", "parent": "hip", "y": 8, "rotation": 90, "length": 56},
        {"name": "head", "parent": "torso", "x": 60, "rotation": -90, "length": 30},
        {"name": "eye", "parent": "head", "x": 10, "y": 20},
        {"name": "look", "parent": "head"},
        {"name": "antenna", "parent": "head", "x": -8, "y": 36, "rotation": 100,
         "length": 28},
        {"name": "upper-arm", "parent": "torso", "x": 44, "y": -14, "rotation": -150,
         "length": 34},
        {"name": "fore-arm", "parent": "upper-arm", "x": 34, "rotation": 60, "length": 30},
        {"name": "hand", "parent": "fore-arm", "x": 30, "length": 8},
        {"name": "lamp", "parent": "hand", "x": 8, "inherit": "noRotationOrReflection"},
        {"name": "flag1", "parent": "torso", "x": 50, "y": 8, "rotation": 90, "length": 24},
        {"name": "flag2", "parent": "flag1", "x": 24, "length": 24},
        {"name": "flag3", "parent": "flag2", "x": 24, "length": 24},
        {"name": "hand-target", "parent": "root", "x": 52, "y": 96},
    ]
    assert [b["name"] for b in bones] == BONES
    slots = [
        {"name": "tail-path", "bone": "hip", "attachment": "tail-path"},
        {"name": "tail3", "bone": "tail3", "attachment": "tail"},
        {"name": "tail2", "bone": "tail2", "attachment": "tail"},
        {"name": "tail1", "bone": "tail1", "attachment": "tail"},
        {"name": "banner", "bone": "flag1", "attachment": "banner"},
        {"name": "leg-l", "bone": "leg-l", "attachment": "leg"},
        {"name": "leg-r", "bone": "leg-r", "attachment": "leg"},
        {"name": "antenna", "bone": "antenna", "attachment": "antenna"},
        {"name": "body", "bone": "torso", "attachment": "body"},
        {"name": "head", "bone": "head", "attachment": "head"},
        {"name": "eye", "bone": "eye", "attachment": "eye"},
        {"name": "upper-arm", "bone": "upper-arm", "attachment": "upper-arm"},
        {"name": "fore-arm", "bone": "fore-arm", "attachment": "fore-arm"},
        {"name": "hand", "bone": "hand", "attachment": "hand"},
        {"name": "lamp-back", "bone": "lamp", "attachment": "lamp-back"},
        {"name": "window", "bone": "lamp", "attachment": "window"},
        {"name": "glow", "bone": "lamp", "color": "ffffffff", "dark": "302000",
         "attachment": "glow", "blend": "additive"},
        {"name": "flame", "bone": "lamp", "attachment": "flame"},
        {"name": "lamp-frame", "bone": "lamp", "attachment": "lamp-frame"},
    ]
    # window: a hexagon inside the frame, in lamp space (the lamp hangs
    # 28 units below the hand)
    window = []
    for k in range(6):
        a = math.radians(90 + 60 * k)
        window += [round(10 * math.cos(a), 2), round(-28 + 14 * math.sin(a), 2)]
    tail_path = [-8, 6, -20, 0, -34, -6, -44, -2, -56, -20, -66, -38, -64, -48, -70, -62, -76, -76]
    default = {
        "tail-path": {"tail-path": {"type": "path", "closed": False, "constantSpeed": True,
                                    "lengths": [45, 95], "vertexCount": 9,
                                    "vertices": tail_path}},
        "tail1": {"tail": {"width": 14, "height": 14}},
        "tail2": {"tail": {"width": 14, "height": 14}},
        "tail3": {"tail": {"width": 14, "height": 14}},
        "banner": {"banner": banner_mesh()},
        "leg-l": {"leg": {"x": 22, "rotation": 90, "width": 14, "height": 44}},
        "leg-r": {"leg": {"x": 22, "rotation": 90, "width": 14, "height": 44}},
        "antenna": {"antenna": {"x": 14, "rotation": -100, "width": 6, "height": 28}},
        "body": {"body": {"x": 28, "rotation": -90, "width": 52, "height": 64}},
        "head": {"head": {"y": 16, "width": 48, "height": 40}},
        "eye": {"eye": {"width": 14, "height": 14},
                "eye-closed": {"width": 14, "height": 6}},
        "upper-arm": {"upper-arm": {"x": 17, "width": 36, "height": 12}},
        "fore-arm": {"fore-arm": {"x": 15, "width": 32, "height": 10}},
        "hand": {"hand": {"x": 4, "width": 16, "height": 16}},
        "lamp-back": {"lamp-back": {"y": -28, "width": 32, "height": 40}},
        "window": {"window": {"type": "clipping", "end": "flame", "vertexCount": 6,
                              "vertices": window, "color": "ce3a3aff"}},
        "glow": {"glow": {"y": -28, "width": 48, "height": 48}},
        "flame": {"flame": {"y": -30, "width": 14, "height": 20,
                            "sequence": {"count": 3, "start": 1}}},
        "lamp-frame": {"lamp-frame": {"y": -28, "width": 36, "height": 46}},
    }
    gold = {"lamp-frame": {"lamp-frame": {"path": "lamp-frame-gold", "y": -28,
                                          "width": 36, "height": 46}}}
    return {
        "skeleton": {"spine": "4.2.22", "x": -90, "y": 0, "width": 180, "height": 200,
                     "fps": 30},
        "bones": bones,
        "slots": slots,
        "ik": [{"name": "reach", "bones": ["upper-arm", "fore-arm"], "target": "hand-target",
                "bendPositive": False}],
        "transform": [{"name": "eye-look", "order": 1, "bones": ["eye"], "target": "look",
                       "local": True, "relative": True, "mixRotate": 0, "mixX": 1,
                       "mixScaleX": 0, "mixShearY": 0}],
        "path": [{"name": "tail", "order": 2, "bones": ["tail1", "tail2", "tail3"],
                  "target": "tail-path", "spacing": 2, "rotateMode": "tangent"}],
        "physics": [{"name": "antenna-sway", "order": 3, "bone": "antenna", "rotate": 1,
                     "inertia": 0.6, "strength": 120, "damping": 0.85, "limit": 2000}],
        "skins": [{"name": "default", "attachments": default},
                  {"name": "gold", "attachments": gold}],
        "events": {"blink": {"int": 1}, "grab": {"string": "lamp"}},
        "animations": {"idle": idle(), "reach": reach()},
    }


def idle():
    return {
        "slots": {
            "eye": {"attachment": [{"time": 1.0, "name": "eye-closed"},
                                   {"time": 1.1, "name": "eye"}]},
            "glow": {"rgba2": [
                {"light": "ffe080ff", "dark": "302000",
                 "curve": [0.4, 1, 0.6, 0.5, 0.4, 0.88, 0.6, 0.5, 0.4, 0.5, 0.6, 0.25,
                           0.4, 1, 0.6, 1, 0.4, 0.19, 0.6, 0.38, 0.4, 0.13, 0.6, 0,
                           0.4, 0, 0.6, 0]},
                {"time": 1.0, "light": "ff8040ff", "dark": "600000"},
                {"time": 2.0, "light": "ffe080ff", "dark": "302000"}]},
        },
        "bones": {
            "hip": {"translate": [{"curve": [0.5, 0, 0.5, 0, 0.5, 0, 0.5, -6]},
                                  {"time": 1.0, "y": -6,
                                   "curve": [1.5, 0, 1.5, 0, 1.5, -6, 1.5, 0]},
                                  {"time": 2.0}]},
            "torso": {"rotate": [{"value": 0, "curve": [0.5, 0, 0.5, -8]},
                                 {"time": 1.0, "value": -8, "curve": [1.5, -8, 1.5, 0]},
                                 {"time": 2.0}]},
            "look": {"translate": [{"x": -3}, {"time": 0.8, "x": 3, "y": 2},
                                   {"time": 1.6, "x": 0, "y": -2}, {"time": 2.0, "x": -3}]},
            "flag1": {"rotate": [{"value": 4}, {"time": 1.0, "value": -6}, {"time": 2.0, "value": 4}]},
            "flag2": {"rotate": [{"value": -8}, {"time": 1.0, "value": 10},
                                 {"time": 2.0, "value": -8}]},
            "flag3": {"rotate": [{"value": 12, "curve": "stepped"}, {"time": 0.5, "value": -12},
                                 {"time": 1.5, "value": 12}, {"time": 2.0, "value": 12}]},
        },
        "path": {"tail": {"position": [{"value": 0}, {"time": 1.0, "value": 0.25},
                                       {"time": 2.0, "value": 0}]}},
        "attachments": {"default": {"flame": {"flame": {"sequence": [
            {"mode": "loop", "delay": 0.1}]}}}},
        "events": [{"time": 1.0, "name": "blink"}],
    }


def reach():
    return {
        "bones": {
            "hand-target": {"translate": [{"curve": [0.3, 0, 0.3, 0, 0.3, 0, 0.3, 40]},
                                          {"time": 0.5, "x": 10, "y": 40},
                                          {"time": 1.0}]},
            "torso": {"rotate": [{}, {"time": 0.5, "value": 10}, {"time": 1.0}]},
        },
        "ik": {"reach": [{"mix": 1}, {"time": 0.5, "mix": 0.8, "bendPositive": False},
                         {"time": 1.0}]},
        "drawOrder": [{"time": 0.5, "offsets": [{"slot": "banner", "offset": 4}]},
                      {"time": 0.9}],
        "events": [{"time": 0.5, "name": "grab", "string": "lamp"}],
    }


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "samples", "spine")
    os.makedirs(out, exist_ok=True)
    page, regions = pack(pictures())
    with open(os.path.join(out, "keeper.png"), "wb") as f:
        f.write(png_bytes(page))
    with open(os.path.join(out, "keeper.atlas"), "w") as f:
        f.write(atlas_text(regions))
    doc = skeleton()
    with open(os.path.join(out, "keeper.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    with open(os.path.join(out, "keeper.skel"), "wb") as f:
        f.write(skel_bytes(doc))


if __name__ == "__main__":
    main()
