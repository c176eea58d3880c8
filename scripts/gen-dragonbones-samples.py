#!/usr/bin/env python3
"""Writes the DragonBones samples of samples/dragonbones/ (or of OUTDIR):

  rig_ske.json  rig_tex.json  rig_tex.png    data version 5.5
      armature "robot": image rig with a two-bone IK arm whose target bone is
      animated; trimmed, rotated and pivoted atlas regions; a slot colour
      transform, an additive slot; a nested armature display ("orb", played
      through the display's actions); animations "idle" and "wave" (default
      through defaultActions) with translate/rotate/scale frames, a Bezier
      `curve` key, colour, display and z-order timelines, an event and a
      sound key.  Armature "orb": one bone, one image, "idle" and "spin".
  mesh_ske.json  mesh_tex.json  mesh_tex.png  data version 4.5
      armature "flag": a weighted 5x3 mesh over three bones (weights,
      slotPose, bonePose) bent by bone rotation in "wave", and an unweighted
      5x3 mesh with an FFD animation "ripple" whose keys start at a non-zero
      float offset; 4.5 bone frame[].transform and slot frame[] keys.
  old_ske.json  old_tex.json  old_tex.png    data version 2.3 (a number)
      armature "crane": global-space bones under a rotated, scaled parent
      (no scale inheritance), slots defined in the skin with `parent` and
      `z`, per-bone `timeline[]` keys (some between the parent's keys), a
      `z` change, a display switch, `colorTransform` keys, `hide`, a
      display index -1, a key pivot, `loop` 0 and 1, an animation without
      a timeline for the lamp (hidden); pixel pivots pX/pY on displays and
      an untrimmed atlas (frameX/frameY/frameWidth/frameHeight 0).

Every picture is drawn here (no external art), so the files may be shipped
and changed freely.  Standard library only; the output is deterministic:
running the script twice gives byte-identical files.

usage: scripts/gen-dragonbones-samples.py [OUTDIR]
"""
import math
import os
import sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pngrgba import png_bytes  # noqa: E402

GAP = 2          # pixels between atlas regions (and around the page border)

# ---------------------------------------------------------------------------
# Pictures: premultiplied float RGBA canvases, shapes as signed distances.


class Canvas:
    """A w x h picture; pixels are premultiplied RGBA floats in 0..1."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = [[0.0, 0.0, 0.0, 0.0] for _ in range(w * h)]

    def paint(self, dist, rgba, inset=0.0):
        """Composites colour rgba (0..255) over the shape whose signed
        distance (negative inside, pixels) is dist(x, y), shrunk by inset."""
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

    def shape(self, dist, fill, outline=None, width=2.0):
        """A filled shape with an outline of `width` pixels inside its edge."""
        if outline:
            self.paint(dist, outline)
            self.paint(dist, fill, inset=width)
        else:
            self.paint(dist, fill)

    def func(self, fn):
        """Composites fn(x, y) -> (r, g, b, a) 0..255 or None per pixel."""
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

    def rgba8(self):
        """Straight (non-premultiplied) 8-bit RGBA rows."""
        rows = []
        for y in range(self.h):
            row = []
            for x in range(self.w):
                r, g, b, a = self.px[y * self.w + x]
                a8 = int(round(a * 255))
                if a8 == 0:
                    row.append((0, 0, 0, 0))
                    continue
                row.append(tuple(min(255, int(round(c / a * 255))) for c in (r, g, b))
                           + (a8,))
            rows.append(row)
        return rows


def rrect(x0, y0, x1, y1, r):
    """Rounded rectangle [x0,x1] x [y0,y1] with corner radius r."""
    cx, cy, hw, hh = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2

    def d(x, y):
        qx, qy = abs(x - cx) - hw + r, abs(y - cy) - hh + r
        out = math.hypot(max(qx, 0.0), max(qy, 0.0))
        return out + min(max(qx, qy), 0.0) - r
    return d


def circle(cx, cy, r):
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def union(*ds):
    return lambda x, y: min(d(x, y) for d in ds)


def polygon(pts):
    """Convex polygon (any winding)."""
    edges = []
    n = len(pts)
    area = sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1]
               for i in range(n))
    s = 1 if area > 0 else -1
    for i in range(n):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        ln = math.hypot(ex, ey)
        edges.append((ax, ay, s * ey / ln, -s * ex / ln))

    def d(x, y):
        return max((x - ax) * nx + (y - ay) * ny for ax, ay, nx, ny in edges)
    return d


def trim(rows):
    """Crops to the bounding box of non-transparent pixels: (rows, left, top)."""
    ys = [y for y, row in enumerate(rows) if any(p[3] for p in row)]
    xs = [x for x in range(len(rows[0])) if any(row[x][3] for row in rows)]
    x0, x1, y0, y1 = xs[0], xs[-1] + 1, ys[0], ys[-1] + 1
    return [row[x0:x1] for row in rows[y0:y1]], x0, y0


def rotate_cw(rows):
    """The picture turned 90 degrees clockwise (how atlases store `rotated`)."""
    h, w = len(rows), len(rows[0])
    # unrotated (px, py) lands on (h - 1 - py, px)
    return [[rows[h - 1 - c][r] for c in range(h)] for r in range(w)]


# ---------------------------------------------------------------------------
# PNG and JSON writers.


def num(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    s = "%.6f" % v
    s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


class Rows(list):
    """A number array written `per` numbers a line (a list: per line)."""

    def __init__(self, values, per):
        super().__init__(values)
        self.per = per


def dumps(v, ind=0, width=100, lead=0):
    """JSON with one-space indentation; short containers stay on one line,
    number arrays wrap at `width` or as their Rows grouping says.  `lead`:
    characters before v on its first line (its key)."""
    def inline(x):
        if isinstance(x, dict):
            return "{" + ", ".join('"%s": %s' % (k, inline(x[k])) for k in x) + "}"
        if isinstance(x, list):
            return "[" + ", ".join(inline(e) for e in x) + "]"
        if isinstance(x, str):
            return '"' + x + '"'
        if x is None:
            return "null"
        return num(x)

    pad = " " * ind
    s = inline(v)
    if isinstance(v, Rows):
        per = v.per if isinstance(v.per, list) else [v.per] * len(v)
        lines, at = [], 0
        for n in per:
            if at >= len(v):
                break
            lines.append(", ".join(num(e) for e in v[at:at + n]))
            at += n
        return "[\n" + ",\n".join(pad + " " + ln for ln in lines) + "\n" + pad + "]"
    if len(pad) + lead + len(s) <= width or not isinstance(v, (dict, list)):
        return s
    if isinstance(v, list) and all(isinstance(e, (int, float)) for e in v):
        lines, cur = [], []
        for e in v:
            t = num(e)
            if cur and len(pad) + 1 + len(", ".join(cur + [t])) + 1 > width:
                lines.append(", ".join(cur) + ",")
                cur = []
            cur.append(t)
        lines.append(", ".join(cur))
        return "[\n" + "\n".join(pad + " " + ln for ln in lines) + "\n" + pad + "]"
    if isinstance(v, dict):
        items = ['%s "%s": %s' % (pad, k, dumps(v[k], ind + 1, width, len(k) + 4))
                 for k in v]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [pad + " " + dumps(e, ind + 1, width) for e in v]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"


# ---------------------------------------------------------------------------
# Atlas pages.


class Page:
    def __init__(self, name, w, h):
        self.name, self.w, self.h = name, w, h
        self.rows = [[(0, 0, 0, 0)] * w for _ in range(h)]
        self.subs = []

    def put(self, name, rows, x, y, rotated=False, frame=None):
        """Places picture `rows` at (x, y); rotated: stored turned clockwise;
        frame = (frameX, frameY, frameWidth, frameHeight) of a trimmed image."""
        if rotated:
            rows = rotate_cw(rows)
        h, w = len(rows), len(rows[0])
        assert x >= GAP and y >= GAP and x + w + GAP <= self.w and y + h + GAP <= self.h, name
        for s in self.subs:   # keep the gap to every other region
            assert (x + w + GAP <= s["x"] or s["x"] + s["width"] + GAP <= x or
                    y + h + GAP <= s["y"] or s["y"] + s["height"] + GAP <= y), (name, s["name"])
        for j in range(h):
            self.rows[y + j][x:x + w] = rows[j]
        sub = {"name": name, "x": x, "y": y, "width": w, "height": h}
        if frame:
            sub.update(frameX=frame[0], frameY=frame[1], frameWidth=frame[2],
                       frameHeight=frame[3])
        if rotated:
            sub["rotated"] = True
        self.subs.append(sub)

    def atlas(self, image):
        return {"name": self.name, "imagePath": image, "width": self.w,
                "height": self.h, "SubTexture": self.subs}


# ---------------------------------------------------------------------------
# Matrices (DragonBones: a = scX cos skY, b = scX sin skY, c = -scY sin skX,
# d = scY cos skX; world = parent o local).


def mat(t):
    skx, sky = math.radians(t.get("skX", 0)), math.radians(t.get("skY", 0))
    sx, sy = t.get("scX", 1), t.get("scY", 1)
    return (sx * math.cos(sky), sx * math.sin(sky), -sy * math.sin(skx),
            sy * math.cos(skx), t.get("x", 0), t.get("y", 0))


def mul(p, l):
    a, b, c, d, tx, ty = p
    return (a * l[0] + c * l[1], b * l[0] + d * l[1], a * l[2] + c * l[3],
            b * l[2] + d * l[3], a * l[4] + c * l[5] + tx, b * l[4] + d * l[5] + ty)


def world_matrices(bones):
    out = {}
    for b in bones:                       # parent-first order
        m = mat(b.get("transform", {}))
        out[b["name"]] = mul(out[b["parent"]], m) if "parent" in b else m
    return out


def rnd(m, n=6):
    return [round(v, n) + 0.0 for v in m]


# ---------------------------------------------------------------------------
# Sample 1: the robot rig (5.5) with its nested orb.

INK = (40, 44, 60, 255)


def draw_body():
    """Torso on an 80x100 frame, placed off-centre so trimming is uneven."""
    c = Canvas(80, 100)
    c.shape(rrect(6, 12, 76, 94, 14), (90, 130, 210, 255), INK, 2.5)
    c.shape(rrect(20, 58, 62, 84, 5), (60, 90, 160, 255), INK, 1.5)      # belly plate
    for x in (26, 36, 46, 56):
        c.shape(circle(x, 71, 2.5), (230, 235, 245, 255))                 # rivets
    return trim(c.rgba8())


def draw_head(closed):
    c = Canvas(56, 48)
    c.shape(rrect(2, 4, 54, 46, 12), (235, 225, 170, 255), INK, 2.5)
    c.shape(rrect(22, 0, 34, 8, 3), (200, 70, 70, 255), INK, 1.5)        # crest
    for x in (18, 38):
        if closed:
            c.shape(rrect(x - 7, 21, x + 7, 25, 2), INK)
        else:
            c.shape(circle(x, 23, 6.5), (255, 255, 255, 255), INK, 1.5)
            c.shape(circle(x + 1.5, 23, 3), (30, 110, 200, 255))
    c.shape(rrect(19, 34, 37, 38, 2), (150, 60, 60, 255))                # mouth
    return c.rgba8()


def draw_arm_upper():
    """50x18, shoulder end at x = 5 (pivot x 0.1)."""
    c = Canvas(50, 18)
    c.shape(rrect(1, 1, 49, 17, 8), (245, 150, 50, 255), INK, 2)
    c.shape(circle(5, 9, 3.5), (120, 60, 20, 255))                       # shoulder joint
    return c.rgba8()


def draw_arm_lower():
    """44x16 forearm pointing +x: darker elbow cap at the left, white cuff
    stripes and a chevron near the wrist so the orientation shows."""
    c = Canvas(44, 16)
    c.shape(rrect(1, 1, 43, 15, 7), (80, 185, 90, 255), INK, 2)
    c.shape(circle(8, 8, 4.5), (30, 100, 40, 255))
    c.shape(rrect(33, 3, 36, 13, 1), (250, 250, 250, 255))
    c.shape(polygon([(20, 4), (27, 8), (20, 12)]), (250, 250, 250, 255))
    return c.rgba8()


def draw_hand():
    """22x22 mitten, thumb towards -y (up when the forearm points right)."""
    c = Canvas(22, 22)
    c.shape(union(circle(12, 12, 8.5), rrect(5, 1, 12, 10, 3.5)), (220, 60, 60, 255), INK, 2)
    return c.rgba8()


def draw_glow():
    """36x36 soft yellow light, alpha falling off from the centre."""
    c = Canvas(36, 36)

    def f(x, y):
        r = math.hypot(x - 18, y - 18) / 17.5
        if r >= 1:
            return None
        return (255, 220, 90, int(round(255 * (1 - r) ** 1.5)))
    c.func(f)
    return c.rgba8()


def draw_orb():
    """30x30 disc with a white wedge and a dot, so its spin is visible."""
    c = Canvas(30, 30)
    c.shape(circle(15, 15, 14), (150, 80, 200, 255), INK, 2)
    c.shape(polygon([(15, 15), (27, 10), (27, 20)]), (250, 250, 250, 255))
    c.shape(circle(9, 15, 3), (250, 210, 60, 255))
    return c.rgba8()


def robot_page():
    p = Page("rig", 256, 128)
    body, left, top = draw_body()
    p.put("body", body, 2, 2, frame=(-left, -top, 80, 100))
    p.put("head_a", draw_head(False), 2 + len(body[0]) + GAP, 2)
    x = 2 + len(body[0]) + GAP + 56 + GAP
    p.put("head_b", draw_head(True), x, 2)
    p.put("arm_upper", draw_arm_upper(), x + 56 + GAP, 2)
    y = 2 + 48 + GAP
    x = 2 + len(body[0]) + GAP
    p.put("glow", draw_glow(), x, y)
    p.put("orb", draw_orb(), x + 36 + GAP, y)
    p.put("hand", draw_hand(), x + 36 + GAP + 30 + GAP, y)
    p.put("arm_lower", draw_arm_lower(), x + 36 + GAP + 30 + GAP + 22 + GAP, y,
          rotated=True)
    return p


def robot_ske():
    bones = [
        {"name": "root"},
        {"name": "body", "parent": "root", "transform": {"y": -44}},
        {"name": "head", "parent": "body", "length": 40,
         "transform": {"y": -44}},
        {"name": "arm_upper", "parent": "body", "length": 40,
         "transform": {"x": 28, "y": -30, "skX": 70, "skY": 70}},
        {"name": "arm_lower", "parent": "arm_upper", "length": 36,
         "transform": {"x": 40, "skX": -40, "skY": -40}},
        {"name": "hand_target", "parent": "root", "transform": {"x": 80, "y": -52}},
    ]
    slots = [
        # tint: the torso fill (90, 130, 210) is drawn as (144, 137, 137)
        {"name": "body", "parent": "body",
         "color": {"aM": 100, "rM": 60, "gM": 90, "bM": 70, "rO": 90, "gO": 20, "bO": -10}},
        {"name": "glow", "parent": "body", "blendMode": "add"},
        {"name": "head", "parent": "head"},
        {"name": "orb", "parent": "head"},
        {"name": "arm_upper", "parent": "arm_upper"},
        {"name": "arm_lower", "parent": "arm_lower"},
        {"name": "hand", "parent": "arm_lower"},
    ]
    skin = [{"name": "", "slot": [
        {"name": "body", "display": [{"name": "body"}]},
        {"name": "glow", "display": [{"name": "glow", "transform": {"x": 4, "y": -12}}]},
        {"name": "head", "display": [
            {"name": "head_a", "pivot": {"x": 0.5, "y": 0.9}},
            {"name": "head_b", "pivot": {"x": 0.5, "y": 0.9}}]},
        {"name": "orb", "display": [
            {"type": "armature", "name": "orb", "path": "orb",
             "transform": {"y": -64}, "actions": [{"gotoAndPlay": "spin"}]}]},
        {"name": "arm_upper", "display": [
            {"name": "arm_upper", "pivot": {"x": 0.1, "y": 0.5}}]},
        {"name": "arm_lower", "display": [{"name": "arm_lower", "transform": {"x": 18}}]},
        {"name": "hand", "display": [{"name": "hand", "transform": {"x": 36}}]},
    ]}]
    idle = {
        "name": "idle", "duration": 48, "playTimes": 0,
        "bone": [{"name": "body", "translateFrame": [
            {"duration": 24, "tweenEasing": 2, "y": 0},
            {"duration": 24, "tweenEasing": 2, "y": -3}]}],
    }
    wave = {
        "name": "wave", "duration": 24, "playTimes": 0,
        "frame": [
            {"duration": 6},
            {"duration": 12, "events": [{"name": "step"}]},
            {"duration": 6, "sound": "beep"}],
        "zOrder": {"frame": [
            {"duration": 12},
            # forearm slots behind the torso for the second half
            {"duration": 12, "zOrder": [4, -4, 5, -4, 6, -4]}]},
        "bone": [
            {"name": "body", "translateFrame": [
                {"duration": 12, "tweenEasing": 0, "y": 0},
                {"duration": 12, "tweenEasing": 0, "x": 2, "y": -6}]},
            {"name": "head",
             "rotateFrame": [
                 {"duration": 12, "curve": [0.5, 0, 0.5, 1], "rotate": -10},
                 {"duration": 12, "tweenEasing": 0, "rotate": 10}],
             "scaleFrame": [
                 {"duration": 12, "tweenEasing": 0},
                 {"duration": 12, "tweenEasing": 0, "x": 1.08, "y": 0.94}]},
            {"name": "hand_target", "translateFrame": [
                {"duration": 6, "tweenEasing": 0},
                {"duration": 6, "tweenEasing": 0, "x": 10, "y": -45},
                {"duration": 6, "tweenEasing": 0, "x": -5, "y": -72},
                {"duration": 6, "tweenEasing": 0, "x": 15, "y": -24}]},
        ],
        "slot": [
            {"name": "head", "displayFrame": [
                {"duration": 18, "value": 0},
                {"duration": 4, "value": 1},
                {"duration": 2, "value": 0}]},
            {"name": "glow", "colorFrame": [
                {"duration": 12, "tweenEasing": 0, "value": {"aM": 20, "gM": 50}},
                # no value: the identity colour
                {"duration": 12, "tweenEasing": 0}]},
        ],
    }
    robot = {
        "type": "Armature", "frameRate": 24, "name": "robot",
        "bone": bones, "slot": slots, "skin": skin,
        "ik": [{"name": "arm_ik", "bone": "arm_lower", "target": "hand_target",
                "chain": 1, "bendPositive": True}],
        "animation": [idle, wave],
        "defaultActions": [{"gotoAndPlay": "wave"}],
    }
    orb = {
        "type": "Armature", "frameRate": 24, "name": "orb",
        "bone": [{"name": "root"}],
        "slot": [{"name": "orb", "parent": "root"}],
        "skin": [{"name": "", "slot": [{"name": "orb", "display": [{"name": "orb"}]}]}],
        "animation": [
            {"name": "idle", "duration": 24, "playTimes": 0, "bone": [
                {"name": "root", "scaleFrame": [
                    {"duration": 12, "tweenEasing": 0},
                    {"duration": 12, "tweenEasing": 0, "x": 0.8, "y": 0.8}]}]},
            {"name": "spin", "duration": 24, "playTimes": 0, "bone": [
                {"name": "root", "rotateFrame": [
                    {"duration": 8, "tweenEasing": 0},
                    {"duration": 8, "tweenEasing": 0, "rotate": 120},
                    {"duration": 8, "tweenEasing": 0, "rotate": 240}]}]},
        ],
        "defaultActions": [{"gotoAndPlay": "idle"}],
    }
    return {"frameRate": 24, "name": "rig", "version": "5.5",
            "compatibleVersion": "5.5", "armature": [robot, orb]}


# ---------------------------------------------------------------------------
# Sample 2: the flag (4.5) with a weighted mesh and an FFD mesh.

FLAG_W, FLAG_H, BANNER_W, BANNER_H = 160, 80, 120, 40


def draw_flag():
    """Opaque checks with a border and a disc: deformation is easy to see."""
    def f(x, y):
        if x < 3 or y < 3 or x > FLAG_W - 3 or y > FLAG_H - 3:
            return INK
        odd = (int(x // 10) + int(y // 10)) % 2
        return (210, 50, 60, 255) if odd else (250, 200, 60, 255)
    c = Canvas(FLAG_W, FLAG_H)
    c.func(f)
    c.shape(circle(80, 40, 18), (250, 250, 250, 255), INK, 3)   # over opaque: stays opaque
    return c.rgba8()


def draw_banner():
    """Opaque vertical stripes with a horizontal band."""
    def f(x, y):
        if x < 2 or y < 2 or x > BANNER_W - 2 or y > BANNER_H - 2:
            return INK
        if 18 <= y < 22:
            return (250, 250, 250, 255)
        return (40, 120, 220, 255) if int(x // 8) % 2 else (120, 220, 230, 255)
    c = Canvas(BANNER_W, BANNER_H)
    c.func(f)
    return c.rgba8()


def draw_pole():
    c = Canvas(172, 12)
    c.shape(rrect(1, 2, 160, 10, 3), (140, 95, 55, 255), INK, 1.5)
    c.shape(circle(165, 6, 5.5), (250, 210, 60, 255), INK, 1.5)          # knob on top
    return c.rgba8()


def mesh_page():
    p = Page("mesh", 256, 256)
    p.put("flag", draw_flag(), 2, 2)
    p.put("banner", draw_banner(), 2, 2 + FLAG_H + GAP)
    p.put("pole", draw_pole(), 2, 2 + FLAG_H + GAP + BANNER_H + GAP)
    return p


def grid(cols, rows, w, h, x0=0.0, y0=0.0, column_major=False):
    """Vertices, uvs and triangles of a cols x rows grid over w x h."""
    idx = {}
    order = [(c, r) for c in range(cols) for r in range(rows)] if column_major \
        else [(c, r) for r in range(rows) for c in range(cols)]
    verts, uvs = [], []
    for i, (c, r) in enumerate(order):
        idx[c, r] = i
        verts += [x0 + w * c / (cols - 1), y0 + h * r / (rows - 1)]
        uvs += [c / (cols - 1), r / (rows - 1)]
    tris = []
    for r in range(rows - 1):
        for c in range(cols - 1):
            a, b, d, e = idx[c, r], idx[c + 1, r], idx[c, r + 1], idx[c + 1, r + 1]
            tris += [a, b, e, a, e, d]
    return [round(v, 4) for v in verts], [round(v, 6) for v in uvs], tris


def mesh_ske():
    bones = [
        {"name": "root", "transform": {}},
        {"name": "pole", "parent": "root", "length": 160,
         "transform": {"x": -90, "skX": -90, "skY": -90}},
        {"name": "flag_a", "parent": "pole", "length": 55,
         "transform": {"x": 150, "skX": 93, "skY": 93}},
        {"name": "flag_b", "parent": "flag_a", "length": 55, "transform": {"x": 55}},
        {"name": "flag_c", "parent": "flag_b", "length": 50, "transform": {"x": 55}},
    ]
    index = {b["name"]: i for i, b in enumerate(bones)}
    world = world_matrices(bones)
    # the weighted flag: 5x3 vertices in flag_a's space (its slot's bone)
    verts, uvs, tris = grid(5, 3, FLAG_W, FLAG_H)
    per_column = [
        [("flag_a", 1.0)],
        [("flag_a", 0.7), ("flag_b", 0.3)],
        [("flag_a", 0.2), ("flag_b", 0.6), ("flag_c", 0.2)],
        [("flag_b", 0.5), ("flag_c", 0.5)],
        [("flag_c", 1.0)],
    ]
    weights = []
    for i in range(15):
        infl = per_column[i % 5]
        weights.append(len(infl))
        for name, w in infl:
            weights += [index[name], w]
    bone_pose = []
    for name in ("flag_a", "flag_b", "flag_c"):
        bone_pose += [index[name]] + rnd(world[name])
    flag_mesh = {
        "type": "mesh", "name": "flag_cloth", "path": "flag",
        # one grid row a line; triangles: one cell a line
        "vertices": Rows(verts, 10), "uvs": Rows(uvs, 10), "triangles": Rows(tris, 6),
        "weights": Rows(weights, [sum(1 + 2 * len(c) for c in per_column)] * 3),
        "slotPose": rnd(world["flag_a"]),
        "bonePose": Rows(bone_pose, 7),
        # editor data (the outline), ignored by runtimes
        "edges": Rows([0, 1, 1, 2, 2, 3, 3, 4, 4, 9, 9, 14, 14, 13, 13, 12, 12, 11, 11, 10,
                       10, 5, 5, 0], 12),
        "userEdges": [],
    }
    # the unweighted banner: 5x3, column-major (column 0 = the pole edge is
    # vertices 0-2, i.e. floats 0-5), in its slot's space
    bverts, buvs, btris = grid(5, 3, BANNER_W, BANNER_H, 0, -BANNER_H / 2,
                               column_major=True)
    banner_mesh = {
        "type": "mesh", "name": "banner_cloth", "path": "banner",
        "transform": {"x": 30, "skX": 90, "skY": 90},
        # one grid column a line
        "vertices": Rows(bverts, 6), "uvs": Rows(buvs, 6), "triangles": Rows(btris, 6),
    }

    def rot(deg, dur):
        return {"duration": dur, "tweenEasing": 0, "transform": {"skX": deg, "skY": deg}}

    wave = {
        "name": "wave", "duration": 24, "playTimes": 0,
        "bone": [
            {"name": "flag_a", "frame": [rot(-3, 12), rot(3, 12)]},
            {"name": "flag_b", "frame": [rot(8, 12), rot(-10, 12)]},
            {"name": "flag_c", "frame": [rot(0, 6), rot(16, 12), rot(-16, 6)]},
        ],
        "slot": [{"name": "flag", "frame": [{"duration": 24, "displayIndex": 0}]}],
    }

    def ripple_key(k, first, last):
        """Key k of a wave travelling along the banner: columns first..last
        (the pole edge, column 0, never moves), as (offset, deltas)."""
        deltas = []
        for c in range(first, last + 1):
            dy = 3 * c * math.sin(2 * math.pi * k / 3 - (c - 1) * math.pi / 3)
            dy = round(dy, 1) + 0.0
            deltas += [round(-0.25 * abs(dy), 1) + 0.0, dy] * 3
        return {"offset": 6 * first, "vertices": Rows(deltas, 6)}

    ripple = {
        "name": "ripple", "duration": 24, "playTimes": 0,
        "slot": [{"name": "banner", "frame": [
            {"duration": 12, "tweenEasing": 0, "displayIndex": 0},
            {"duration": 12, "tweenEasing": 0, "displayIndex": 0,
             "color": {"rM": 100, "gM": 75, "bM": 85}}]}],
        "ffd": [{"name": "banner_cloth", "slot": "banner", "skin": "", "frame": [
            # offset 12 and short: columns 0, 1 and 4 have no delta here
            dict({"duration": 8, "tweenEasing": 0}, **ripple_key(0, 2, 3)),
            # offset 6: the first three vertices (floats 0-5) stay put
            dict({"duration": 8, "tweenEasing": 0}, **ripple_key(1, 1, 4)),
            dict({"duration": 8, "tweenEasing": 0}, **ripple_key(2, 1, 4)),
        ]}],
    }
    flag = {
        "type": "Armature", "frameRate": 24, "name": "flag",
        "bone": bones,
        "slot": [
            {"name": "flag", "parent": "flag_a"},
            {"name": "banner", "parent": "pole"},
            {"name": "pole", "parent": "pole"},
        ],
        "skin": [{"name": "", "slot": [
            {"name": "pole", "display": [{"name": "pole", "transform": {"x": 80}}]},
            {"name": "flag", "display": [flag_mesh]},
            {"name": "banner", "display": [banner_mesh]},
        ]}],
        "animation": [wave, ripple],
    }
    return {"frameRate": 24, "name": "mesh", "version": "4.5", "isGlobal": 0,
            "armature": [flag]}


# ---------------------------------------------------------------------------
# Sample 3: a 2.3 document (global-space data), the crane.
#
# The rig is defined here in parent space, as the 5.0 runtime holds 2.3
# data once read: bones do not inherit scale (position through the parent's
# matrix, angles plus the parent's rotation, own scale).  The file gets what
# a 2.3 exporter writes: every bone's setup and keys in armature space, a
# key's computed with its parent's pose at the key's frame (the parent's keys
# interpolated, eased, the last towards the first).

CRANE = (230, 170, 40, 255)


def draw_base():
    """72x26 plinth; the bone sits at (36, 20)."""
    c = Canvas(72, 26)
    c.shape(rrect(1, 6, 71, 25, 5), (110, 110, 125, 255), INK, 2)
    c.shape(rrect(22, 1, 50, 10, 3), (80, 80, 95, 255), INK, 1.5)
    return c.rgba8()


def draw_column():
    """64x22 boom along +x; the bone at (0, 11)."""
    c = Canvas(64, 22)
    c.shape(rrect(1, 1, 63, 21, 6), CRANE, INK, 2)
    for x in (16, 32, 48):
        c.shape(polygon([(x - 6, 4), (x, 18), (x + 6, 4)]), (120, 80, 10, 255))
    return c.rgba8()


def draw_jib():
    """52x16 arm along +x with a stripe at its tip; the bone at (0, 8)."""
    c = Canvas(52, 16)
    c.shape(rrect(1, 1, 51, 15, 7), (70, 150, 210, 255), INK, 2)
    c.shape(circle(8, 8, 4), (30, 70, 120, 255))
    c.shape(rrect(40, 2, 44, 14, 1), (250, 250, 250, 255))
    return c.rgba8()


def draw_claw(shut):
    """26x26 claw opening towards +x; the bone at (4, 13)."""
    c = Canvas(26, 26)
    c.shape(circle(7, 13, 6), (200, 60, 60, 255), INK, 1.5)
    if shut:
        c.shape(polygon([(8, 7), (25, 11), (25, 15), (8, 19)]), (200, 60, 60, 255), INK, 1.5)
    else:
        c.shape(polygon([(8, 8), (24, 1), (25, 5), (11, 12)]), (200, 60, 60, 255), INK, 1.5)
        c.shape(polygon([(8, 18), (24, 25), (25, 21), (11, 14)]), (200, 60, 60, 255), INK, 1.5)
    return c.rgba8()


def draw_lamp():
    """20x20 white bulb (tinted by the colour keys); the bone at its centre."""
    c = Canvas(20, 20)
    c.shape(circle(10, 10, 9), (245, 245, 245, 255), INK, 1.5)
    c.shape(circle(7, 7, 3), (255, 255, 255, 255))
    return c.rgba8()


def crane_page():
    """Untrimmed regions: frameX/frameY/frameWidth/frameHeight 0, as 2.3
    atlases write them (one region without the keys at all)."""
    p = Page("old", 160, 96)
    p.put("crane/base", draw_base(), 2, 2, frame=(0, 0, 0, 0))
    p.put("crane/column", draw_column(), 76, 2, frame=(0, 0, 0, 0))
    p.put("crane/jib", draw_jib(), 2, 30, frame=(0, 0, 0, 0))
    p.put("crane/claw_open", draw_claw(False), 56, 30, frame=(0, 0, 0, 0))
    p.put("crane/claw_shut", draw_claw(True), 84, 30, frame=(0, 0, 0, 0))
    p.put("crane/lamp", draw_lamp(), 112, 30)
    return p


def tf(x=0.0, y=0.0, rot=0.0, sx=1.0, sy=1.0):
    return {"x": x, "y": y, "skX": rot, "skY": rot, "scX": sx, "scY": sy}


def to_global(p, l):
    """World transform of a bone with local l under a parent at p (no scale
    inheritance)."""
    a, b, c, d, tx, ty = mat(p)
    return {"x": a * l["x"] + c * l["y"] + tx, "y": b * l["x"] + d * l["y"] + ty,
            "skX": l["skX"] + p["skY"], "skY": l["skY"] + p["skY"],
            "scX": l["scX"], "scY": l["scY"]}


def ease50(p, e):
    """The 5.0 runtime's easing of progress p by tweenEasing e."""
    if e > 1:
        return (0.5 * (1 - math.cos(p * math.pi)) - p) * (e - 1) + p
    if e > 0:
        return (1 - (1 - p) ** 2 - p) * e + p
    if e < 0:
        return (p * p - p) * -e + p
    return p


def at_frame(keys, f, frames, easing, loop, holds):
    """A local pose at frame f from keys [(duration, transform)]: eased
    towards the next key, the last towards the first while looping, keys
    listed in holds not at all."""
    start, i = 0, 0
    while i + 1 < len(keys) and start + keys[i][0] <= f:
        start += keys[i][0]
        i += 1
    ln = keys[i][0] if i + 1 < len(keys) else frames - start
    cur, nxt = keys[i][1], keys[(i + 1) % len(keys)][1]
    tweens = len(keys) > 1 and ln > 0 and i not in holds and (loop or i + 1 < len(keys))
    p = ease50((f - start) / ln, easing) if tweens else 0
    return {k: cur[k] + (nxt[k] - cur[k]) * p for k in cur}


def rnd2(t):
    return {k: round(v, 2) + 0.0 for k, v in t.items()}


def crane_ske():
    # bone: (parent, setup in parent space)
    rig = [
        ("base", None, tf(0, 0)),
        ("column", "base", tf(0, -16, -80, 1.25, 1.25)),
        ("jib", "column", tf(48, 0, 60)),
        ("claw", "jib", tf(44, 0, 35)),
        ("lamp", "column", tf(26, -13, 80)),
    ]
    parent = {n: p for n, p, _ in rig}
    setup = {}
    for n, p, l in rig:
        setup[n] = to_global(setup[p], l) if p else dict(l)
    bones = []
    for n in ("claw", "jib", "lamp", "base", "column"):   # children first
        p = parent[n]
        b = {"name": n, "transform": rnd2(setup[n])}
        if p:
            b["parent"] = p
        bones.append(b)
    # slots are defined in the skin, with their bone and z
    displays = {
        "base": [{"name": "crane/base", "pX": 36, "pY": 20}],
        "column": [{"name": "crane/column", "pX": 0, "pY": 11}],
        "jib": [{"name": "crane/jib", "pX": 0, "pY": 8}],
        "claw": [{"name": "crane/claw_open", "pX": 4, "pY": 13},
                 {"name": "crane/claw_shut", "pX": 4, "pY": 13}],
        "lamp": [{"name": "crane/lamp", "pX": 10, "pY": 10}],
    }
    z = {"base": 1, "column": 2, "jib": 3, "claw": 4, "lamp": 5}
    skin_slots = []
    for n in ("lamp", "claw", "jib", "base", "column"):   # not in z order
        skin_slots.append({"name": n, "parent": n, "z": z[n], "display": [
            {"name": d["name"], "type": "image", "transform": dict(
                tf(), pX=d["pX"], pY=d["pY"])} for d in displays[n]]})

    def animation(name, frames, scale, loop, easing, tracks, extra):
        """tracks: bone -> [(duration, parent-space transform or None)];
        extra: bone -> {key index: more fields}.  Each key goes to armature
        space with its parent's pose at its frame, which (as a Flash layer
        moves) is the parent's armature-space keys interpolated."""
        gkeys = {}

        def world_at(n, f):
            if n not in gkeys:
                return setup[n]
            ex = extra.get(n, {})
            holds = {i for i in range(len(gkeys[n]))
                     if ex.get(i, {}).get("tweenEasing", 0) is None or
                     ex.get((i + 1) % len(gkeys[n]), {}).get("displayIndex") == -1}
            return at_frame(gkeys[n], f, frames, easing, loop != 1, holds)

        timelines = []
        for n, _, _ in rig:                 # parents first
            if n not in tracks:
                continue
            out, start, gkeys[n] = [], 0, []
            for i, (dur, l) in enumerate(tracks[n]):
                key = {"duration": dur, "z": z[n]}
                g = tf()
                if l is not None:
                    g = rnd2(to_global(world_at(parent[n], start), l) if parent[n] else l)
                    key["transform"] = dict(g, pX=0, pY=0)
                gkeys[n].append((dur, g))
                key.update(extra.get(n, {}).get(i, {}))
                out.append(key)
                start += dur
            timelines.append({"name": n, "scale": 1, "offset": 0, "frame": out})
        return {"name": name, "duration": frames, "scale": scale, "loop": loop,
                "fadeInTime": 0.2, "tweenEasing": easing, "timeline": timelines}

    work = animation("work", 8, 3, 0, 0, {
        "base": [(8, tf(0, 0))],
        "column": [(4, tf(0, -16, -80, 1.25, 1.25)), (4, tf(0, -16, -65, 1.1, 1.1))],
        # keys at frames 2 and 6, where the column has none
        "jib": [(2, tf(48, 0, 60)), (2, tf(48, 0, 90)), (2, tf(48, 0, 120)),
                (2, tf(48, 0, 75))],
        "claw": [(4, tf(44, 0, 35)), (4, tf(44, 0, -20))],
        "lamp": [(4, tf(26, -13, 80)), (3, tf(26, -13, 65)), (1, tf(26, -13, 70))],
    }, {
        # the jib goes behind the base and column at frame 4
        "jib": {2: {"z": -1}},
        # the claw shuts at frame 4; a pivot moves that key along its axes
        "claw": {1: {"displayIndex": 1}},
        # the lamp warms up, then is hidden for the last frame
        "lamp": {0: {"colorTransform": {"aM": 100, "rM": 100, "gM": 100, "bM": 100,
                                        "aO": 0, "rO": 0, "gO": 0, "bO": 0}},
                 1: {"colorTransform": {"aM": 100, "rM": 100, "gM": 70, "bM": 20,
                                        "aO": 0, "rO": 10, "gO": 0, "bO": 0}},
                 2: {"hide": 1}},
    })
    work["timeline"][3]["frame"][1]["transform"].update(pX=2, pY=-1)   # claw
    nod = animation("nod", 4, 2, 1, 2, {
        "base": [(4, tf(0, 0))],
        "column": [(2, tf(0, -16, -80, 1.25, 1.25)), (2, tf(0, -16, -95, 1.25, 1.4))],
        "jib": [(1, tf(48, 0, 60)), (3, tf(48, 0, 100))],
        "claw": [(2, tf(44, 0, 35)), (1, tf(44, 0, 0)), (1, None)],
    }, {
        # the jib's second key holds; the claw shuts, then is hidden (the key
        # before a hidden one does not tween); no lamp timeline: hidden
        "jib": {1: {"tweenEasing": None}},
        "claw": {1: {"displayIndex": 1}, 2: {"displayIndex": -1}},
    })
    crane = {"name": "crane", "bone": bones, "skin": [{"name": "", "slot": skin_slots}],
             "animation": [work, nod]}
    return {"version": 2.3, "name": "old", "frameRate": 24, "armature": [crane]}


# ---------------------------------------------------------------------------


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    out = argv[1] if len(argv) > 1 else os.path.join(here, "..", "samples", "dragonbones")
    os.makedirs(out, exist_ok=True)
    for base, page, ske in (("rig", robot_page(), robot_ske()),
                            ("mesh", mesh_page(), mesh_ske()),
                            ("old", crane_page(), crane_ske())):
        write(os.path.join(out, base + "_tex.png"), png_bytes(page.rows))
        write(os.path.join(out, base + "_tex.json"),
              (dumps(page.atlas(base + "_tex.png")) + "\n").encode())
        write(os.path.join(out, base + "_ske.json"), (dumps(ske) + "\n").encode())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
