#!/usr/bin/env python3
"""Places every frame of a bonebake sheet as an engine would, from the
metadata alone, read as each engine's documentation describes it:

  json     TexturePacker hash, as PixiJS and Phaser 3 read it: the sprite's
           anchor is the frame's `anchor` (fraction of sourceSize, y down);
           the untrimmed frame's top-left corner is at
           -anchor * sourceSize and the trimmed rectangle at
           spriteSourceSize.x, .y inside it.
  godot    Godot 4 SpriteFrames .tres played by an AnimatedSprite2D with
           `centered` on (its default): the texture of a frame is its
           AtlasTexture, whose size is region.size + margin.size and which
           draws `region` at margin.position inside that size; centered
           puts the texture's centre on the node.
  libgdx   libGDX TextureAtlas (the format since 1.9.12, also old
           `orig`/`offset` lines), drawn by an AtlasSprite at (0, 0): y up,
           the packed rectangle's bottom-left at `offsets` x, y inside the
           original (`offsets` w, h) rectangle whose bottom-left is the
           sprite's position.  Frames of an animation share a name and are
           ordered by `index` (TextureAtlas.findRegions).
  cocos2d  cocos2d-x plist format 3 (SpriteFrameCache), drawn by a Sprite
           with the default anchor (0.5, 0.5): the content size is spriteSourceSize, y
           up, and the trimmed quad's centre sits spriteOffset away from
           the content's centre.  cocos2d-anchor: the same with the
           frame's `anchor` key as the sprite's anchor point.

Neither Godot, libGDX nor cocos2d-x installs from the package registries
this project's tests reach (no Debian package, no npm package runs them
headless), so these readers are written from the formats' documentation;
PixiJS and Phaser 3 themselves run in tests/engines.

For every frame the trimmed rectangle drawn on the screen is compared,
pixel for pixel, with the drawn rectangle of the frame `bonebake render`
wrote (RENDER/<anim>/<anim>_NNNN.png with the same canvas option), which
gives where the render's figure origin (RENDER/<anim>/frames.json) lands
on the screen.  Prints one JSON object: per format, the list of
[animation, frame, origin x, origin y] in screen pixels (y down).

usage: engine-place.py FORMAT SHEET_DIR RENDER_DIR [NAME]   (NAME: sheet)
"""
import json
import os
import plistlib
import re
import struct
import sys
import zlib


def png_rgba(path, cache={}):
    """(width, height, rows) of an 8-bit RGBA PNG, rows as bytes."""
    if path in cache:
        return cache[path]
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour == 6 and interlace == 0, path
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * 4
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride if f else 0):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    cache[path] = (w, h, rows)
    return cache[path]


def drawn_box(rows, w):
    """The rectangle of pixels with alpha > 0: (x, y, w, h) or None."""
    ys = [y for y, r in enumerate(rows) if any(r[3::4])]
    if not ys:
        return None
    xs = [x for x in range(w) if any(r[x * 4 + 3] for r in rows[ys[0]:ys[-1] + 1])]
    return xs[0], ys[0], xs[-1] - xs[0] + 1, ys[-1] - ys[0] + 1


def nums(s):
    """The numbers of "{{1,2},{3,4}}" or "Rect2(1, 2, 3, 4)"."""
    return [float(v) for v in re.findall(r"-?[0-9.]+", s[s.find("(") + 1:])]


# Each reader yields (anim, index, page file, (x, y, w, h) on the page,
# (sx, sy) the screen position of that rectangle's top-left, y down).

def read_json(d):
    meta = json.load(open(os.path.join(d, NAME + ".json")))
    for name, f in meta["frames"].items():
        anim, idx = name.rsplit("_", 1)
        r, src, size, anc = f["frame"], f["spriteSourceSize"], f["sourceSize"], f["anchor"]
        assert not f["rotated"]
        yield (anim, int(idx), meta["meta"]["image"], (r["x"], r["y"], r["w"], r["h"]),
               (-anc["x"] * size["w"] + src["x"], -anc["y"] * size["h"] + src["y"]))


def read_godot(d):
    text = open(os.path.join(d, NAME + ".tres")).read()
    pages = dict((i, p) for p, i in re.findall(
        r'\[ext_resource type="Texture2D" path="([^"]*)" id="([^"]*)"\]', text))
    tex = {}
    for sid, body in re.findall(
            r'\[sub_resource type="AtlasTexture" id="([^"]*)"\]\n((?:[a-z_]+ = [^\n]*\n)*)', text):
        fields = dict(re.findall(r"([a-z_]+) = ([^\n]*)", body))
        region = nums(fields["region"])
        margin = nums(fields.get("margin", "Rect2(0, 0, 0, 0)"))
        page = pages[re.search(r'ExtResource\("([^"]*)"\)', fields["atlas"]).group(1)]
        tex[sid] = (page, region, margin)
    res = text[text.index("[resource]"):]
    for block in re.findall(r'\{\n"frames": \[(.*?)\],\n"loop": [a-z]+,\n"name": &"([^"]*)"', res, re.S):
        frames, anim = block
        for idx, sid in enumerate(re.findall(r'SubResource\("([^"]*)"\)', frames)):
            page, (x, y, w, h), (mx, my, mw, mh) = tex[sid]
            tw, th = w + mw, h + mh              # AtlasTexture.get_size()
            yield (anim, idx, page, (int(x), int(y), int(w), int(h)),
                   (-tw / 2 + mx, -th / 2 + my))  # centered


def read_libgdx(d):
    lines = open(os.path.join(d, NAME + ".atlas")).read().split("\n")
    page, region, out = None, None, []

    def flush():
        if region:
            x, y = region.get("xy") or region["bounds"][:2]
            w, h = region.get("size") or region["bounds"][2:]
            if "offsets" in region:
                ox, oy, W, H = region["offsets"]
            else:
                ox, oy = region.get("offset", (0, 0))
                W, H = region.get("orig", (w, h))
            assert "rotate" not in region or region["rotate"] in ("false", "0")
            # AtlasSprite at (0, 0), y up: the packed rectangle's bottom-left
            # is at (ox, oy); screen y = -world y
            out.append((region["name"], region.get("index", -1), page,
                        (int(x), int(y), int(w), int(h)), (ox, -(oy + h))))

    for line in lines:
        if not line.strip():
            flush()
            page = region = None
            continue
        if ":" in line:
            k, v = [s.strip() for s in line.split(":", 1)]
            if region is None:
                continue                          # a page field
            if k == "rotate":
                region[k] = v
            elif k == "index":
                region[k] = int(v)
            else:
                region[k] = [int(n) for n in v.split(",")]
        elif page is None:
            page = line.strip()
        else:
            flush()
            region = {"name": line.strip()}
    flush()
    for anim, idx, pg, rect, at in out:
        yield anim, idx, pg, rect, at


def read_cocos2d(d, anchor):
    p = plistlib.load(open(os.path.join(d, NAME + ".plist"), "rb"))
    assert p["metadata"]["format"] == 3
    page = p["metadata"]["textureFileName"]
    for name, f in p["frames"].items():
        anim, idx = name.rsplit("_", 1)
        x, y, _, _ = nums(f["textureRect"])
        w, h = nums(f["spriteSize"])
        W, H = nums(f["spriteSourceSize"])
        dx, dy = nums(f["spriteOffset"])
        ax, ay = nums(f["anchor"]) if anchor else (0.5, 0.5)
        assert not f["textureRotated"]
        # Sprite::setSpriteFrame: the quad's bottom-left in the node's
        # content box (y up), the node's anchor point on its position
        qx = dx + (W - w) / 2 - ax * W
        qy = dy + (H - h) / 2 - ay * H
        yield anim, int(idx), page, (int(x), int(y), int(w), int(h)), (qx, -(qy + h))


NAME = sys.argv[4] if len(sys.argv) > 4 else "sheet"


def main():
    fmt, sheet, render = sys.argv[1:4]
    reader = {"json": read_json, "godot": read_godot, "libgdx": read_libgdx,
              "cocos2d": lambda d: read_cocos2d(d, False),
              "cocos2d-anchor": lambda d: read_cocos2d(d, True)}[fmt]
    placed = []
    for anim, idx, page, (x, y, w, h), (sx, sy) in reader(sheet):
        pw, ph, prows = png_rgba(os.path.join(sheet, page))
        rpath = os.path.join(render, anim, "%s_%04d.png" % (anim, idx))
        rw, rh, rrows = png_rgba(rpath)
        box = drawn_box(rrows, rw)
        assert box, rpath + ": nothing drawn"
        bx, by, bw, bh = box
        assert (bw, bh) == (w, h), "%s %d: %dx%d on the page, %dx%d drawn" % (
            anim, idx, w, h, bw, bh)
        for r in range(h):
            assert prows[y + r][x * 4:(x + w) * 4] == rrows[by + r][bx * 4:(bx + w) * 4], \
                "%s %d: row %d differs from the render" % (anim, idx, r)
        origin = json.load(open(os.path.join(render, anim, "frames.json")))["origin"]
        placed.append([anim, idx, origin["x"] - bx + sx, origin["y"] - by + sy])
    placed.sort()
    print(json.dumps(placed))


if __name__ == "__main__":
    main()
