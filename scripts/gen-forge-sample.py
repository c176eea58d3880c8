#!/usr/bin/env python3
"""Writes the Forge sample of samples/forge/ (or of OUTDIR): a small mod
layout, namespace "bbsample", with a block model, its parent, its own
16x16 textures and the armature that animates it:

  assets/bbsample/armatures/block/lidbox.json
      joints "lid" (the lid and its latch, elements 1 and 2) and "gem"
      (element 3); clips
        "open"  (not looping): the lid turns 0 -> 100 degrees about the
                hinge at its bottom back edge (axis_x with origin_y and
                origin_z: rotation about an origin; linear, keys at i/3)
                and the gem pops (scale 1 -> 1.5, nearest) at the end;
                event "creak" at 0.5.
        "idle"  (looping): the gem bobs (offset_y, linear), spins about y
                (angle 0, 90, 180, 270: from 270 back to 0 it turns on
                through 360, the shorter arc) and pulses (scale, nearest);
                the lid rattles (linear, keys at i/4); event "sparkle" at
                0.5.
  assets/bbsample/models/block/lidbox.json
      parent "bbsample:block/lidbox_base"; elements: the box (0), the lid
      (1), the latch on the front (2), the gem (3, an element rotation of
      45 degrees about y, rescaled) — faces with uv, rotation and
      texture variables, one face without uv (the vanilla default).
  assets/bbsample/models/block/lidbox_base.json
      the textures ("side", "top", "latch"; "particle" = "#side").
  assets/bbsample/textures/blocks/{lidbox_side,lidbox_top,lidbox_latch,gem}.png
      drawn here, with a marked top-left corner so UV orientation shows.

Standard library only; deterministic (byte-identical on every run).

usage: scripts/gen-forge-sample.py [OUTDIR]
"""
import json
import os
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngrgba import png_bytes  # noqa: E402

NS = "bbsample"


def texture(fn):
    """16x16 picture from fn(x, y) -> (r, g, b)."""
    return [[tuple(fn(x, y)) + (255,) for x in range(16)] for y in range(16)]


def side(x, y):
    """Planks with dark seams; the top-left corner marked light."""
    if x < 3 and y < 3:
        return (250, 230, 170)
    if y % 4 == 3:
        return (96, 60, 30)
    shade = 150 + ((x * 7 + (y // 4) * 13) % 5) * 6
    return (shade, int(shade * 0.66), int(shade * 0.36))


def top(x, y):
    """A framed lid top with a cross; top-left marked."""
    if x < 3 and y < 3:
        return (250, 230, 170)
    if x in (0, 15) or y in (0, 15):
        return (80, 50, 25)
    if x in (7, 8) or y in (7, 8):
        return (120, 80, 40)
    return (170, 115, 60)


def latch(x, y):
    """Gold with a keyhole."""
    if 6 <= x <= 9 and 5 <= y <= 10 and (y <= 7 or x in (7, 8)):
        return (40, 30, 10)
    edge = x in (0, 15) or y in (0, 15)
    return (200, 150, 30) if edge else (250, 205, 60)


def gem(x, y):
    """Cyan facets: a diamond of light in a darker square."""
    d = abs(x - 7.5) + abs(y - 7.5)
    if d < 4:
        return (200, 255, 255)
    if d < 8:
        return (60, 200, 220)
    return (20, 110, 150)


def face(uv, tex, rotation=0):
    f = {"uv": uv, "texture": tex}
    if rotation:
        f["rotation"] = rotation
    return f


def model():
    box = {
        "name": "box", "from": [1, 0, 1], "to": [15, 9, 15],
        "faces": {
            "down": face([1, 1, 15, 15], "#top"),
            "up": face([1, 1, 15, 15], "#top"),
            "north": face([1, 7, 15, 16], "#particle"),
            "south": face([1, 7, 15, 16], "#side"),
            "west": face([1, 7, 15, 16], "#side"),
            "east": {"texture": "#side"},            # vanilla default uv
        },
    }
    lid = {
        "name": "lid", "from": [1, 9, 1], "to": [15, 13, 15],
        "faces": {
            "down": face([1, 1, 15, 15], "#side"),
            "up": face([0, 0, 16, 16], "#top", 90),
            "north": face([1, 0, 15, 4], "#side"),
            "south": face([1, 0, 15, 4], "#side"),
            "west": face([1, 0, 15, 4], "#side"),
            "east": face([1, 0, 15, 4], "#side"),
        },
    }
    latch_el = {
        "name": "latch", "from": [7, 7, 0], "to": [9, 11, 1],
        "faces": {k: face([5, 4, 11, 12], "#latch")
                  for k in ("down", "up", "north", "south", "west", "east")},
    }
    gem_el = {
        "name": "gem", "from": [6, 14, 6], "to": [10, 18, 10],
        "rotation": {"origin": [8, 16, 8], "axis": "y", "angle": 45,
                     "rescale": True},
        "faces": {k: face([0, 0, 16, 16], "#gem")
                  for k in ("down", "up", "north", "south", "west", "east")},
    }
    return {
        "parent": NS + ":block/lidbox_base",
        "textures": {"gem": NS + ":blocks/gem"},
        "elements": [box, lid, latch_el, gem_el],
    }


def base_model():
    return {
        "textures": {
            "side": NS + ":blocks/lidbox_side",
            "top": NS + ":blocks/lidbox_top",
            "latch": NS + ":blocks/lidbox_latch",
            "particle": "#side",
        }
    }


def var(name, interp, samples):
    return {"variable": name, "type": "uniform", "interpolation": interp,
            "samples": samples}


def armature():
    def hinge(n):
        """Constants: one sample when looping; a non-looping clip needs two
        (with one the runtime indexes sample -1)."""
        return [var("axis_x", "nearest", [1] * n),
                var("origin_y", "nearest", [0.5625] * n),  # 9/16: lid bottom
                var("origin_z", "nearest", [0.9375] * n)]  # 15/16: back edge
    return {
        "joints": {
            "lid": {"1": [1.0], "2": [1.0]},
            "gem": {"3": [1.0]},
        },
        "clips": {
            "open": {
                "loop": False,
                "joint_clips": {
                    "lid": hinge(2) + [var("angle", "linear", [0, 30, 70, 100])],
                    "gem": [var("scale", "nearest", [1, 1, 1.5])],
                },
                "events": {"0.5": "creak"},
            },
            "idle": {
                "loop": True,
                "joint_clips": {
                    "lid": hinge(1) + [var("angle", "linear", [0, 12, 0, 0])],
                    "gem": [
                        var("offset_y", "linear", [0, 0.0625, 0.125, 0.0625]),
                        var("axis_y", "nearest", [1]),
                        var("angle", "linear", [0, 90, 180, 270]),
                        var("scale", "nearest", [1, 1, 1.2, 1]),
                    ],
                },
                "events": {"0.5": "sparkle"},
            },
        },
    }


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def dumps(obj):
    return (json.dumps(obj, indent=2, sort_keys=False) + "\n").encode()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..",
                                                             "samples", "forge")
    root = os.path.join(out, "assets", NS)
    write(os.path.join(root, "armatures", "block", "lidbox.json"),
          dumps(armature()))
    write(os.path.join(root, "models", "block", "lidbox.json"), dumps(model()))
    write(os.path.join(root, "models", "block", "lidbox_base.json"),
          dumps(base_model()))
    for name, fn in (("lidbox_side", side), ("lidbox_top", top),
                     ("lidbox_latch", latch), ("gem", gem)):
        write(os.path.join(root, "textures", "blocks", name + ".png"),
              png_bytes(texture(fn)))


if __name__ == "__main__":
    main()
