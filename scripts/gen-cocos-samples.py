#!/usr/bin/env python3
"""Writes the Cocos Studio samples of samples/cocos/ (or of OUTDIR):

  lamp.ExportJson  lamp0.plist  lamp0.png        data version 1.1
      armature "Lamp": a desk lamp (base, two arm bones, shade, glow) and a
      fan showing the nested armature "Fan" (its movement "spin" turns one
      blade through an unbounded angle).  Movements: "nod" (looping, 41
      frames: Sine/Back/Bounce eases, a custom twE -1 Bezier on the glow's
      colour, a delayed bone, the event "click") and "reach" (once, sc 0.5,
      drTW 40: a stepped key, the glow hidden by display index -1, Elastic
      with a twEP period).  The plist is format 2 with a leading byte-order
      mark, a rotated frame and a trimmed frame.
  bird.xml  bird.png                              tool version 2.0 XML
      armature "Bird" (body, head, two wings, tail) and the nested armature
      "Eye" (isArmature="1"); movement "flap" with key transforms in
      armature space (the reader converts them into the parent's), twE 2
      (= Sine in-out), Expo and Quad eases, a <colorTransform> tint, the
      event "flap"; "Eye" has "look".  Its atlas is the <TextureAtlas>
      inside the XML (cocos2d_pX/cocos2d_pY pivots, x/y regions).

Every picture is drawn here, so the files may be shipped and changed
freely.  Standard library only; deterministic output.

usage: scripts/gen-cocos-samples.py [OUTDIR]
"""
import json
import math
import os
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngrgba import write_png  # noqa: E402


# ---------------------------------------------------------------------------
# Pictures

class Img:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = [(0, 0, 0, 0)] * (w * h)

    def fill(self, inside, rgba, edge=None, width=2):
        """Pixels where inside(x, y) holds get rgba; those within `width` of
        the outside get `edge`."""
        for y in range(self.h):
            for x in range(self.w):
                if not inside(x + 0.5, y + 0.5):
                    continue
                border = edge and not all(
                    inside(x + 0.5 + dx, y + 0.5 + dy)
                    for dx, dy in ((width, 0), (-width, 0), (0, width), (0, -width)))
                self.px[y * self.w + x] = edge if border else rgba

    def rotated_cw(self):
        """The picture turned 90 degrees clockwise (as atlases store it)."""
        out = Img(self.h, self.w)
        for y in range(self.h):
            for x in range(self.w):
                out.px[x * out.w + (self.h - 1 - y)] = self.px[y * self.w + x]
        return out

    def rows(self):
        return [self.px[y * self.w:(y + 1) * self.w] for y in range(self.h)]

    def blit(self, src, ox, oy):
        for y in range(src.h):
            for x in range(src.w):
                self.px[(oy + y) * self.w + ox + x] = src.px[y * src.w + x]


def rect(x0, y0, x1, y1):
    return lambda x, y: x0 <= x < x1 and y0 <= y < y1


def ellipse(cx, cy, rx, ry):
    return lambda x, y: ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1


def bar(w, h, rgba, edge, tip):
    """A rounded bar pointing right, its tip marked: orientation shows."""
    im = Img(w, h)
    r = h / 2
    im.fill(lambda x, y: (r <= x <= w - r and 0 <= y < h) or
            (x - r) ** 2 + (y - r) ** 2 <= r * r or
            (x - (w - r)) ** 2 + (y - r) ** 2 <= r * r, rgba, edge)
    im.fill(ellipse(w - r, r, r * 0.55, r * 0.55), tip)
    return im


def r4(v):
    return round(v, 4)


# ---------------------------------------------------------------------------
# ExportJson: the lamp

DEG = math.pi / 180


def lamp_pictures():
    base = Img(100, 24)
    base.fill(rect(0, 4, 100, 24), (70, 80, 96, 255), (30, 34, 44, 255))
    base.fill(rect(40, 0, 60, 6), (120, 130, 150, 255))
    arm = bar(90, 14, (200, 205, 215, 255), (60, 64, 76, 255), (230, 90, 60, 255))
    shade = Img(60, 50)      # content 56x40 at (2, 6): trimmed in the atlas
    shade.fill(lambda x, y: 6 <= y < 46 and 2 + (46 - y) * 0.35 <= x < 58 - (46 - y) * 0.35,
               (60, 150, 90, 255), (20, 70, 40, 255))
    glow = Img(40, 40)
    glow.fill(ellipse(20, 20, 19, 19), (255, 236, 140, 200), (255, 200, 60, 255))
    blade = bar(50, 12, (120, 170, 230, 255), (40, 70, 120, 255), (250, 250, 250, 255))
    return {"base": base, "arm": arm, "shade": shade, "glow": glow, "blade": blade}


def lamp_atlas(pics):
    """Packs the lamp's frames by hand; returns the page and plist frames."""
    page = Img(256, 128)
    frames = {}
    spots = {"base": (2, 2), "arm": (2, 30), "glow": (106, 2), "blade": (150, 2),
             "shade": (2, 50)}
    for name, (x, y) in spots.items():
        im = pics[name]
        key = name + ".png"
        if name == "shade":            # trimmed to 56x40, stored rotated
            content = Img(56, 40)
            for yy in range(40):
                for xx in range(56):
                    content.px[yy * 56 + xx] = im.px[(yy + 6) * im.w + xx + 2]
            page.blit(content.rotated_cw(), x, y)
            frames[key] = {"frame": "{{%d,%d},{56,40}}" % (x, y),
                           "offset": "{0,-1}", "rotated": True,
                           "sourceColorRect": "{{2,6},{56,40}}",
                           "sourceSize": "{60,50}"}
            continue
        page.blit(im, x, y)
        frames[key] = {"frame": "{{%d,%d},{%d,%d}}" % (x, y, im.w, im.h),
                       "offset": "{0,0}", "rotated": False,
                       "sourceColorRect": "{{0,0},{%d,%d}}" % (im.w, im.h),
                       "sourceSize": "{%d,%d}" % (im.w, im.h)}
    return page, frames


def plist_xml(frames, texture):
    def val(v):
        if v is True:
            return "<true/>"
        if v is False:
            return "<false/>"
        if isinstance(v, int):
            return "<integer>%d</integer>" % v
        if isinstance(v, dict):
            return "<dict>" + "".join("<key>%s</key>%s" % (k, val(v[k])) for k in v) + "</dict>"
        return "<string>%s</string>" % v
    body = {"frames": frames,
            "metadata": {"format": 2, "realTextureFileName": texture,
                         "size": "{256,128}", "textureFileName": texture}}
    return ('\ufeff<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
            '<plist version="1.0">' + val(body) + '</plist>\n')


def node(x=0.0, y=0.0, rot=0.0, sx=1.0, sy=1.0):
    """A cocos node rotated `rot` degrees clockwise (kX = r, kY = -r)."""
    return {"x": r4(x), "y": r4(y), "kX": r4(rot * DEG), "kY": r4(-rot * DEG),
            "cX": sx, "cY": sy}


def bone(name, parent, z, n, displays):
    b = {"name": name, "parent": parent, "z": z, "arrow_x": 0.0, "arrow_y": 0.0,
         "effectbyskeleton": True, "display_data": displays}
    b.update(n)
    return b


def sprite(name, skin=None):
    return {"name": name, "displayType": 0, "skin_data": [skin or node()]}


def key(fi, n=None, twE=0, **extra):
    k = {"fi": fi, "dI": 0, "z": 0, "twE": twE, "tweenFrame": True}
    k.update(n or node())
    k.update(extra)
    return k


def lamp_json():
    arm_skin = node(36, 0)                  # the bar starts at the joint
    bones = [
        bone("base", "", 0, node(0, -90), [sprite("base.png", node(0, 0))]),
        bone("fan", "base", 1, node(-36, 12), [{"name": "Fan", "displayType": 1}]),
        bone("arm1", "base", 2, node(0, 14, -70), [sprite("arm.png", arm_skin)]),
        bone("arm2", "arm1", 3, node(78, 0, 110), [sprite("arm.png", arm_skin)]),
        bone("head", "arm2", 4, node(78, 0, -20), [sprite("shade.png", node(4, -8, 90))]),
        bone("glow", "head", 5, node(4, -34), [sprite("glow.png")]),
    ]
    fan = [bone("hub", "", 0, node(), [sprite("blade.png", node(16, 0))])]
    color = lambda a: {"color": {"a": a, "r": 255, "g": 255, "b": 255}}
    nod = {"name": "nod", "dr": 41, "lp": True, "to": 0, "drTW": 0, "twE": 0, "sc": 1.0,
           "mov_bone_data": [
               {"name": "base", "dl": 0.0, "frame_data": [key(0), key(40)]},
               {"name": "fan", "dl": 0.0, "frame_data": [key(0), key(40)]},
               {"name": "arm1", "dl": 0.0, "frame_data": [
                   key(0, node(), 3), key(20, node(0, 0, 16), 3), key(40, node(), 3)]},
               {"name": "arm2", "dl": 0.0, "frame_data": [
                   key(0, node(), 26), key(20, node(0, 0, -24), 26), key(40, node(), 26)]},
               {"name": "head", "dl": 0.0, "frame_data": [
                   key(0, node(), 29), key(20, node(0, 0, 30, 1.15, 1.15), 29, evt="click"),
                   key(40, node(), 29)]},
               {"name": "glow", "dl": 0.25, "frame_data": [
                   key(0, node(), -1, twEP=[0, 0, 0.1, 1, 0.9, 0, 1, 1], **color(255)),
                   key(20, node(), -1, twEP=[0, 0, 0.1, 1, 0.9, 0, 1, 1], **color(60)),
                   key(40, node(), 0, **color(255))]},
           ]}
    reach = {"name": "reach", "dr": 31, "lp": False, "to": 6, "drTW": 40, "twE": 2, "sc": 0.5,
             "mov_bone_data": [
                 {"name": "base", "dl": 0.0, "frame_data": [key(0), key(30)]},
                 {"name": "arm1", "dl": 0.0, "frame_data": [
                     key(0), key(30, node(0, 0, 40))]},
                 {"name": "arm2", "dl": 0.0, "frame_data": [
                     key(0, twE=23, twEP=[0.45]), key(30, node(0, 0, -60))]},
                 {"name": "head", "dl": 0.0, "frame_data": [
                     key(0, tweenFrame=False), key(15, node(0, 0, 40)), key(30, node(0, 0, 40))]},
                 {"name": "glow", "dl": 0.0, "frame_data": [
                     key(0), dict(key(10), dI=-1), key(20, **color(150)), key(30, **color(255))]},
             ]}
    spin = {"name": "spin", "dr": 31, "lp": True, "to": 0, "drTW": 0, "twE": 0, "sc": 1.0,
            "mov_bone_data": [{"name": "hub", "dl": 0.0, "frame_data": [
                key(0), key(30, node(0, 0, 360))]}]}
    tex = lambda name, w, h, px=0.5, py=0.5: {"name": name, "width": w, "height": h,
                                              "pX": px, "pY": py, "plistFile": ""}
    return {
        "content_scale": 1.0,
        "armature_data": [
            {"strVersion": "1.1.0.0", "version": 1.1, "name": "Lamp", "bone_data": bones},
            {"strVersion": "1.1.0.0", "version": 1.1, "name": "Fan", "bone_data": fan},
        ],
        "animation_data": [{"name": "Lamp", "mov_data": [nod, reach]},
                           {"name": "Fan", "mov_data": [spin]}],
        "texture_data": [tex("base", 100, 24), tex("arm", 90, 14),
                         tex("shade", 60, 50, 0.5, 0.9), tex("glow", 40, 40),
                         tex("blade", 50, 12, 0.1, 0.5)],
        "config_file_path": ["lamp0.plist"],
        "config_png_path": ["lamp0.png"],
    }


# ---------------------------------------------------------------------------
# XML: the bird (Flash space: y down, degrees; keys in armature space)

def mat(x, y, rot, s=1.0):
    c, s_ = math.cos(rot * DEG), math.sin(rot * DEG)
    return (c * s, s_ * s, -s_ * s, c * s, x, y)


def mul(p, q):
    a, b, c, d, tx, ty = p
    return (a * q[0] + c * q[1], b * q[0] + d * q[1], a * q[2] + c * q[3],
            b * q[2] + d * q[3], a * q[4] + c * q[5] + tx, b * q[4] + d * q[5] + ty)


BIRD_BONES = [  # name, parent, z, display, (x, y, rot) local setup
    ("body", None, 2, "body", (0, 10, 0)),
    ("tail", "body", 0, "tail", (-34, 4, 200)),
    ("wing_back", "body", 1, "wing", (-4, -8, -150)),
    ("head", "body", 3, "head", (34, -18, 0)),
    ("eye", "head", 5, "Eye", (4, -4, 0)),
    ("wing_front", "body", 4, "wing", (-4, -6, -160)),
]

# per key (dr): local (dx, dy, drot) on top of the setup, per bone
BIRD_KEYS = {
    "body": [(0, 0, 0), (0, -14, -6), (0, 0, 0)],
    "tail": [(0, 0, 0), (0, 0, 20), (0, 0, 0)],
    "wing_back": [(0, 0, 0), (0, 0, 70), (0, 0, 0)],
    "head": [(0, 0, 0), (2, 2, 12), (0, 0, 0)],
    "eye": [(0, 0, 0), (0, 0, 0), (0, 0, 0)],
    "wing_front": [(0, 0, 0), (0, 0, 80), (0, 0, 0)],
}
BIRD_DR = [12, 11, 1]
BIRD_TWE = {"body": "17", "tail": "2", "wing_back": "2", "head": "5",
            "eye": "NaN", "wing_front": "2"}


def bird_pictures():
    body = Img(80, 50)
    body.fill(ellipse(40, 25, 39, 24), (236, 120, 60, 255), (120, 50, 20, 255))
    head = Img(40, 36)
    head.fill(ellipse(20, 18, 19, 17), (240, 150, 70, 255), (120, 50, 20, 255))
    head.fill(lambda x, y: 34 <= x < 40 and abs(y - 20) < (40 - x) * 0.8, (250, 210, 40, 255))
    wing = bar(60, 20, (250, 200, 120, 255), (130, 80, 30, 255), (255, 255, 255, 255))
    tail = bar(40, 14, (200, 90, 50, 255), (110, 40, 20, 255), (250, 230, 200, 255))
    white = Img(14, 14)
    white.fill(ellipse(7, 7, 6.5, 6.5), (255, 255, 255, 255), (40, 40, 40, 255), 1)
    pupil = Img(6, 6)
    pupil.fill(ellipse(3, 3, 3, 3), (20, 20, 30, 255))
    return {"body": body, "head": head, "wing": wing, "tail": tail,
            "eyewhite": white, "pupil": pupil}


BIRD_PIVOTS = {"body": (40, 25), "head": (14, 20), "wing": (8, 10), "tail": (6, 7),
               "eyewhite": (7, 7), "pupil": (3, 3)}


def fmt(v):
    return ("%.4f" % v).rstrip("0").rstrip(".") if v != int(v) else "%d" % v


def frame_attrs(g, extra=""):
    a, b, c, d, tx, ty = g
    kx = math.atan2(-c, d) / DEG
    ky = math.atan2(b, a) / DEG
    sx, sy = math.hypot(a, b), math.hypot(c, d)
    x, y = fmt(round(tx, 3)), fmt(round(ty, 3))
    return ('x="%s" y="%s" cocos2d_x="%s" cocos2d_y="%s" kX="%s" kY="%s" cX="%s" cY="%s"%s'
            % (x, y, x, y, fmt(round(kx, 3)), fmt(round(ky, 3)), fmt(round(sx, 4)),
               fmt(round(sy, 4)), extra))


def bird_xml(pics, layout):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<skeleton name="Bird" frameRate="24" version="2.0">', ' <armatures>',
           '  <armature name="Bird">']
    for name, parent, z, disp, _ in BIRD_BONES:
        par = ' parent="%s"' % parent if parent else ""
        arm = ' isArmature="1"' if disp == "Eye" else ""
        out.append('   <b name="%s"%s z="%d">' % (name, par, z))
        out.append('    <d name="%s"%s/>' % (disp, arm))
        out.append('   </b>')
    out += ['  </armature>', '  <armature name="Eye">',
            '   <b name="white" z="0"><d name="eyewhite"/></b>',
            '   <b name="pupil" parent="white" z="1"><d name="pupil"/></b>',
            '  </armature>', ' </armatures>', ' <animations>', '  <animation name="Bird">',
            '   <mov name="flap" dr="24" to="2" drTW="24" lp="1" twE="NaN">']
    setup = {b[0]: b for b in BIRD_BONES}
    for name, parent, _, _, _ in BIRD_BONES:
        out.append('    <b name="%s" sc="1" dl="0">' % name)
        for k, dr in enumerate(BIRD_DR):
            def glob(bn):
                _, par, _, _, (x, y, r) = setup[bn]
                dx, dy, dr_ = BIRD_KEYS[bn][k]
                m = mat(x + dx, y + dy, r + dr_)
                return mul(glob(par), m) if par else m
            extra = ' z="%d" dI="0" dr="%d" twE="%s"' % (setup[name][2], dr, BIRD_TWE[name])
            if name == "body" and k == 1:
                extra += ' evt="flap"'
            if name == "tail" and k == 1:
                out.append('     <f %s>' % frame_attrs(glob(name), extra))
                out.append('      <colorTransform a="0" r="0" g="0" b="0" aM="100" '
                           'rM="60" gM="100" bM="140"/>')
                out.append('     </f>')
            else:
                out.append('     <f %s/>' % frame_attrs(glob(name), extra))
        out.append('    </b>')
    out += ['   </mov>', '  </animation>', '  <animation name="Eye">',
            '   <mov name="look" dr="16" to="0" drTW="16" lp="1" twE="4">',
            '    <b name="white" sc="1" dl="0">',
            '     <f %s/>' % frame_attrs(mat(0, 0, 0), ' z="0" dI="0" dr="16"'),
            '    </b>', '    <b name="pupil" sc="1" dl="0">']
    for k, (x, dr) in enumerate(((-3, 8), (3, 7), (-3, 1))):
        out.append('     <f %s/>' % frame_attrs(mat(x, 0, 0), ' z="1" dI="0" dr="%d"' % dr))
    out += ['    </b>', '   </mov>', '  </animation>', ' </animations>',
            ' <TextureAtlas name="Bird" width="128" height="128" imagePath="bird.png">']
    for name, (x, y) in layout.items():
        im = pics[name]
        px, py = BIRD_PIVOTS[name]
        out.append('  <SubTexture name="%s" width="%d" height="%d" pX="%d" pY="%d" '
                   'cocos2d_pX="%d" cocos2d_pY="%d" x="%d" y="%d"/>'
                   % (name, im.w, im.h, px, py, px, py, x, y))
    out += [' </TextureAtlas>', '</skeleton>', '']
    return "\n".join(out)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "samples", "cocos")
    os.makedirs(out, exist_ok=True)
    page, frames = lamp_atlas(lamp_pictures())
    write_png(os.path.join(out, "lamp0.png"), page.rows())
    with open(os.path.join(out, "lamp0.plist"), "w", encoding="utf-8") as f:
        f.write(plist_xml(frames, "lamp0.png"))
    with open(os.path.join(out, "lamp.ExportJson"), "w") as f:
        json.dump(lamp_json(), f, indent=1)
        f.write("\n")
    pics = bird_pictures()
    layout = {"body": (2, 2), "head": (84, 2), "wing": (2, 56), "tail": (64, 56),
              "eyewhite": (84, 40), "pupil": (100, 40)}
    atlas = Img(128, 128)
    for name, (x, y) in layout.items():
        atlas.blit(pics[name], x, y)
    write_png(os.path.join(out, "bird.png"), atlas.rows())
    with open(os.path.join(out, "bird.xml"), "w") as f:
        f.write(bird_xml(pics, layout))


if __name__ == "__main__":
    main()
