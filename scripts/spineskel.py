"""Writes a Spine 4.2 JSON document (a dict, as the editor exports it) as
the Spine 4.2 binary export (.skel) of the same skeleton, in the layout the
official runtime's SkeletonBinary reads: an 8-byte hash and the version
string, the skeleton's box, nonessential data (fps, bone colours, mesh
edges and sizes), a string table for attachment names, then bones, slots,
IK / transform / path / physics constraints (optional fields behind flag
bytes), skins, events and animations (keys with the previous key's curve
after them, Bezier handles in the timeline's units).  JSON defaults are
the runtime's (SkeletonJson).  Numbers become 32-bit floats; the JSON
written beside holds the same numbers, so both files pose alike.

Used by gen-spine-sample.py; standard library only, deterministic."""
import struct

INHERIT = ["normal", "onlyTranslation", "noRotationOrReflection", "noScale",
           "noScaleOrReflection"]
BLEND = ["normal", "additive", "multiply", "screen"]
TYPES = ["region", "boundingbox", "mesh", "linkedmesh", "path", "point", "clipping"]
SEQ_MODES = ["hold", "once", "loop", "pingpong", "onceReverse", "loopReverse",
             "pingpongReverse"]
BONE_TL = ["rotate", "translate", "translatex", "translatey", "scale", "scalex",
           "scaley", "shear", "shearx", "sheary", "inherit"]
SLOT_TL = ["attachment", "rgba", "rgb", "rgba2", "rgb2", "alpha"]
PHYS_TL = {"inertia": 0, "strength": 1, "damping": 2, "mass": 4, "wind": 5,
           "gravity": 6, "mix": 7, "reset": 8}
PHYS_GLOBAL = ["inertia", "strength", "damping", "mass", "wind", "gravity", "mix"]


class Out:
    def __init__(self, strings):
        self.b = bytearray()
        self.strings = strings  # name -> index (1-based), shared by passes

    def byte(self, v):
        self.b.append(v & 0xff)

    def bool(self, v):
        self.byte(1 if v else 0)

    def i32(self, v):
        self.b += struct.pack(">i", v if v < 2 ** 31 else v - 2 ** 32)

    def f32(self, v):
        self.b += struct.pack(">f", float(v))

    def varint(self, v):
        v &= 0xffffffff
        while True:
            b = v & 0x7f
            v >>= 7
            if v:
                self.byte(b | 0x80)
            else:
                self.byte(b)
                return

    def svarint(self, v):
        self.varint((v << 1) ^ (v >> 31))

    def string(self, s):
        if s is None:
            self.varint(0)
            return
        data = s.encode("utf-8")
        self.varint(len(data) + 1)
        self.b += data

    def ref(self, s):
        if s is None:
            self.varint(0)
            return
        if s not in self.strings:
            self.strings[s] = len(self.strings) + 1
        self.varint(self.strings[s])


def rgba(hexs, default="ffffffff"):
    h = (hexs or default).lstrip("#")
    h = h + "ff" if len(h) == 6 else h
    return int(h, 16)


def rgb(hexs):
    return int(hexs.lstrip("#")[:6], 16)


def color_bytes(hexs):
    h = hexs.lstrip("#")
    return [int(h[i:i + 2], 16) for i in range(0, len(h), 2)]


def index(items, name):
    return [x["name"] for x in items].index(name)


def write_vertices(o, m, count):
    """vertexCount, then 2 floats a vertex or (bones, (bone, x, y, w)...)."""
    verts = m.get("vertices", [])
    o.varint(count)
    if len(verts) == 2 * count:
        for v in verts:
            o.f32(v)
        return
    i = 0
    for _ in range(count):
        n = int(verts[i])
        o.varint(n)
        i += 1
        for _ in range(n):
            o.varint(int(verts[i]))
            o.f32(verts[i + 1])
            o.f32(verts[i + 2])
            o.f32(verts[i + 3])
            i += 4


def weighted(m, count):
    return len(m.get("vertices", [])) != 2 * count


def write_sequence(o, seq):
    o.varint(seq["count"])
    o.varint(seq.get("start", 1))
    o.varint(seq.get("digits", 0))
    o.varint(seq.get("setup", 0))


def write_attachment(o, doc, placeholder, a):
    t = TYPES.index(a.get("type", "region"))
    name = a.get("name", placeholder)
    flags = t | (8 if name != placeholder else 0)
    path = a.get("path")
    if t in (0, 2, 3):
        flags |= (16 if path else 0) | (32 if "color" in a else 0) | \
            (64 if "sequence" in a else 0)
    if t == 0 and a.get("rotation", 0):
        flags |= 128
    count = a.get("vertexCount", len(a.get("uvs", [])) // 2)
    if t == 2 and weighted(a, count):
        flags |= 128
    if t == 3 and a.get("timelines", True):
        flags |= 128
    if t in (1, 6) and weighted(a, count):
        flags |= 16
    if t == 4:
        flags |= (16 if a.get("closed") else 0) | (32 if a.get("constantSpeed", True) else 0) | \
            (64 if weighted(a, count) else 0)
    o.byte(flags)
    if flags & 8:
        o.ref(name)
    if t in (0, 2, 3):
        if path:
            o.ref(path)
        if "color" in a:
            o.i32(rgba(a["color"]))
        if "sequence" in a:
            write_sequence(o, a["sequence"])
    if t == 0:
        if flags & 128:
            o.f32(a["rotation"])
        for k, d in (("x", 0), ("y", 0), ("scaleX", 1), ("scaleY", 1), ("width", 32),
                     ("height", 32)):
            o.f32(a.get(k, d))
    elif t == 2:
        o.varint(a.get("hull", 0))
        write_vertices(o, a, count)
        for v in a["uvs"]:
            o.f32(v)
        for v in a["triangles"]:
            o.varint(v)
        edges = a.get("edges", [])
        o.varint(len(edges))
        for v in edges:
            o.varint(v)
        o.f32(a.get("width", 0))
        o.f32(a.get("height", 0))
    elif t == 3:
        skins = [s["name"] for s in doc["skins"]]
        o.varint(skins.index(a.get("skin", "default")))
        o.ref(a["parent"])
        o.f32(a.get("width", 0))
        o.f32(a.get("height", 0))
    elif t == 4:
        write_vertices(o, a, count)
        lengths = list(a.get("lengths", []))[:count // 3]
        for v in lengths + [0] * (count // 3 - len(lengths)):   # absent: 0
            o.f32(v)
        o.i32(rgba(a.get("color"), "ff7f00ff"))
    elif t == 5:
        for k in ("rotation", "x", "y"):
            o.f32(a.get(k, 0))
        o.i32(rgba(a.get("color"), "f1f100ff"))
    elif t == 6:
        o.varint(index(doc["slots"], a["end"]))
        write_vertices(o, a, count)
        o.i32(rgba(a.get("color"), "ce3a3aff"))
    else:
        write_vertices(o, a, count)
        o.i32(rgba(a.get("color"), "60f000ff"))


def write_skin(o, doc, skin, default):
    slots = doc["slots"]
    atts = skin.get("attachments", {})
    if not default:
        o.string(skin["name"])
        o.i32(rgba(skin.get("color"), "99999fff"))
        for key, table in (("bones", doc.get("bones", [])), ("ik", doc.get("ik", [])),
                           ("transform", doc.get("transform", [])),
                           ("path", doc.get("path", [])), ("physics", doc.get("physics", []))):
            names = skin.get(key, [])
            o.varint(len(names))
            for n in names:
                o.varint(index(table, n))
    o.varint(len(atts))
    for slot, entries in atts.items():
        o.varint(index(slots, slot))
        o.varint(len(entries))
        for placeholder, a in entries.items():
            o.ref(placeholder)
            write_attachment(o, doc, placeholder, a)


def curve_values(key, nv):
    c = key.get("curve")
    if c is None:
        return 0, []
    if c == "stepped":
        return 1, []
    return 2, list(c[:4 * nv]) + [0.0] * max(0, 4 * nv - len(c))


def bezier_count(keys, nv):
    return sum(nv for k in keys[:-1] if isinstance(k.get("curve"), list))


def write_curve(o, key, nv):
    kind, vals = curve_values(key, nv)
    o.byte(kind)
    for v in vals:
        o.f32(v)


def write_keys(o, keys, values, bytes_=False):
    """time and values per key; after each key but the first, the previous
    key's curve.  values(key) -> list of numbers (bytes when bytes_)."""
    nv = len(values(keys[0]))
    for i, k in enumerate(keys):
        o.f32(k.get("time", 0))
        for v in values(k):
            if bytes_:
                o.byte(v)
            else:
                o.f32(v)
        if i > 0:
            write_curve(o, keys[i - 1], nv)


def write_group(body, owners, owner_index, types, one):
    """Timelines grouped by owner (slot, bone, path or physics constraint):
    the owner count, then per owner its index and its timelines (type byte,
    frame count, then one(kind, keys) writes the rest).  Returns how many
    timelines were written."""
    body.varint(len(owners))
    n = 0
    for name, tls in owners.items():
        body.varint(owner_index(name))
        body.varint(len(tls))
        for kind, keys in tls.items():
            n += 1
            body.byte(types[kind] if isinstance(types, dict) else types.index(kind))
            body.varint(len(keys))
            one(kind, keys)
    return n


def write_animation(o, doc, anim):
    slots, bones = doc["slots"], doc["bones"]
    body = Out(o.strings)

    def slot_tl(kind, keys):
        t = SLOT_TL.index(kind)
        if t == 0:
            for k in keys:
                body.f32(k.get("time", 0))
                body.ref(k.get("name"))
            return
        if t == 5:
            def vals(k):
                return [round(k.get("value", 0) * 255)]
        elif t in (1, 2):
            def vals(k):
                return color_bytes(k["color"])
        else:
            def vals(k):
                return color_bytes(k["light"]) + color_bytes(k["dark"])
        body.varint(bezier_count(keys, len(vals(keys[0]))))
        write_keys(body, keys, vals, True)

    def bone_tl(kind, keys):
        t = BONE_TL.index(kind)
        if t == 10:
            for k in keys:
                body.f32(k.get("time", 0))
                body.byte(INHERIT.index(k.get("inherit", "normal")))
            return
        d = 1 if kind.startswith("scale") else 0
        if t in (1, 4, 7):
            def vals(k, d=d):
                return [k.get("x", d), k.get("y", d)]
        else:
            def vals(k, d=d):
                return [k.get("value", d)]
        body.varint(bezier_count(keys, len(vals(keys[0]))))
        write_keys(body, keys, vals)

    n = write_group(body, anim.get("slots", {}), lambda s: index(slots, s), SLOT_TL, slot_tl)
    n += write_group(body, anim.get("bones", {}), lambda b: index(bones, b), BONE_TL, bone_tl)
    ik = anim.get("ik", {})
    body.varint(len(ik))
    for name, keys in ik.items():
        n += 1
        body.varint(index(doc["ik"], name))
        body.varint(len(keys))
        body.varint(bezier_count(keys, 2))
        for i, k in enumerate(keys):
            mix, soft = k.get("mix", 1), k.get("softness", 0)
            flags = (1 if mix else 0) | (2 if mix not in (0, 1) else 0) | \
                (4 if soft else 0) | (8 if k.get("bendPositive", True) else 0) | \
                (16 if k.get("compress") else 0) | (32 if k.get("stretch") else 0)
            kind, vals = curve_values(keys[i - 1], 2) if i else (0, [])
            flags |= 64 if kind == 1 else 128 if kind == 2 else 0
            body.byte(flags)
            body.f32(k.get("time", 0))
            if flags & 2:
                body.f32(mix)
            if flags & 4:
                body.f32(soft)
            for v in vals:
                body.f32(v)
    tc = anim.get("transform", {})
    body.varint(len(tc))
    for name, keys in tc.items():
        n += 1
        body.varint(index(doc["transform"], name))
        body.varint(len(keys))
        body.varint(bezier_count(keys, 6))

        def vals(k):
            x, sx = k.get("mixX", 1), k.get("mixScaleX", 1)
            return [k.get("mixRotate", 1), x, k.get("mixY", x), sx, k.get("mixScaleY", sx),
                    k.get("mixShearY", 1)]
        write_keys(body, keys, vals)

    def path_tl(kind, keys):
        if kind == "mix":
            def vals(k):
                x = k.get("mixX", 1)
                return [k.get("mixRotate", 1), x, k.get("mixY", x)]
        else:
            def vals(k):
                return [k.get("value", 0)]
        body.varint(bezier_count(keys, len(vals(keys[0]))))
        write_keys(body, keys, vals)

    def physics_tl(kind, keys):
        if kind == "reset":
            for k in keys:
                body.f32(k.get("time", 0))
            return
        body.varint(bezier_count(keys, 1))
        write_keys(body, keys, lambda k: [k.get("value", 0)])

    n += write_group(body, anim.get("path", {}), lambda c: index(doc["path"], c),
                     ["position", "spacing", "mix"], path_tl)
    n += write_group(body, anim.get("physics", {}),
                     lambda c: index(doc["physics"], c) + 1 if c else 0, PHYS_TL, physics_tl)
    at = anim.get("attachments", {})
    body.varint(len(at))
    for skin, sl in at.items():
        body.varint([s["name"] for s in doc["skins"]].index(skin))
        body.varint(len(sl))
        for slot, atts in sl.items():
            body.varint(index(slots, slot))
            body.varint(sum(len(tls) for tls in atts.values()))
            for att, tls in atts.items():
                for kind, keys in tls.items():
                    n += 1
                    body.ref(att)
                    body.byte(0 if kind == "deform" else 1)
                    body.varint(len(keys))
                    if kind == "sequence":
                        for k in keys:
                            body.f32(k.get("time", 0))
                            body.i32(k.get("index", 0) << 4 |
                                     SEQ_MODES.index(k.get("mode", "hold")))
                            body.f32(k.get("delay", 0))
                        continue
                    body.varint(bezier_count(keys, 1))
                    body.f32(keys[0].get("time", 0))
                    for i, k in enumerate(keys):
                        verts = k.get("vertices", [])
                        body.varint(len(verts))
                        if verts:
                            body.varint(k.get("offset", 0))
                            for v in verts:
                                body.f32(v)
                        if i + 1 < len(keys):
                            body.f32(keys[i + 1].get("time", 0))
                            write_curve(body, k, 1)
    do = anim.get("drawOrder", [])
    body.varint(len(do))
    n += bool(do)
    for k in do:
        body.f32(k.get("time", 0))
        offs = sorted(k.get("offsets", []), key=lambda x: index(slots, x["slot"]))
        body.varint(len(offs))
        for off in offs:
            body.varint(index(slots, off["slot"]))
            body.varint(off["offset"])
    ev = anim.get("events", [])
    events = doc.get("events", {})
    names = list(events)
    body.varint(len(ev))
    n += bool(ev)
    for k in ev:
        e = events[k["name"]]
        body.f32(k.get("time", 0))
        body.varint(names.index(k["name"]))
        body.svarint(k.get("int", e.get("int", 0)))
        body.f32(k.get("float", e.get("float", 0)))
        body.string(k.get("string"))
        if e.get("audio"):
            body.f32(k.get("volume", e.get("volume", 1)))
            body.f32(k.get("balance", e.get("balance", 0)))
    o.varint(n)
    o.b += body.b


def write_constraint_head(o, c, bones):
    """An IK or transform constraint's name, order, bones and target bone."""
    o.string(c["name"])
    o.varint(c.get("order", 0))
    o.varint(len(c["bones"]))
    for b in c["bones"]:
        o.varint(index(bones, b))
    o.varint(index(bones, c["target"]))


def write_body(o, doc):
    bones = doc.get("bones", [])
    o.varint(len(bones))
    for i, b in enumerate(bones):
        o.string(b["name"])
        if i:
            o.varint(index(bones, b["parent"]))
        for k, d in (("rotation", 0), ("x", 0), ("y", 0), ("scaleX", 1), ("scaleY", 1),
                     ("shearX", 0), ("shearY", 0), ("length", 0)):
            o.f32(b.get(k, d))
        o.byte(INHERIT.index(b.get("inherit", "normal")))
        o.bool(b.get("skin", False))
        o.i32(rgba(b.get("color"), "9b9b9bff"))
        o.string(b.get("icon"))
        o.bool(b.get("visible", True))
    slots = doc.get("slots", [])
    o.varint(len(slots))
    for s in slots:
        o.string(s["name"])
        o.varint(index(bones, s["bone"]))
        o.i32(rgba(s.get("color")))
        o.i32(rgb(s["dark"]) if "dark" in s else -1)
        o.ref(s.get("attachment"))
        o.varint(BLEND.index(s.get("blend", "normal")))
        o.bool(s.get("visible", True))
    ik = doc.get("ik", [])
    o.varint(len(ik))
    for c in ik:
        write_constraint_head(o, c, bones)
        mix, soft = c.get("mix", 1), c.get("softness", 0)
        flags = (1 if c.get("skin") else 0) | (2 if c.get("bendPositive", True) else 0) | \
            (4 if c.get("compress") else 0) | (8 if c.get("stretch") else 0) | \
            (16 if c.get("uniform") else 0) | (32 if mix else 0) | \
            (64 if mix not in (0, 1) else 0) | (128 if soft else 0)
        o.byte(flags)
        if flags & 64:
            o.f32(mix)
        if flags & 128:
            o.f32(soft)
    tc = doc.get("transform", [])
    o.varint(len(tc))
    for c in tc:
        write_constraint_head(o, c, bones)
        x, sx = c.get("mixX", 1), c.get("mixScaleX", 1)
        vals = [c.get("rotation", 0), c.get("x", 0), c.get("y", 0), c.get("scaleX", 0),
                c.get("scaleY", 0), c.get("shearY", 0), c.get("mixRotate", 1), x,
                c.get("mixY", x), sx, c.get("mixScaleY", sx), c.get("mixShearY", 1)]
        f1 = (1 if c.get("skin") else 0) | (2 if c.get("local") else 0) | \
            (4 if c.get("relative") else 0)
        f1 |= sum(8 << i for i in range(5) if vals[i])
        o.byte(f1)
        for i in range(5):
            if vals[i]:
                o.f32(vals[i])
        f2 = sum(1 << (i - 5) for i in range(5, 12) if vals[i])
        o.byte(f2)
        for i in range(5, 12):
            if vals[i]:
                o.f32(vals[i])
    pc = doc.get("path", [])
    o.varint(len(pc))
    for c in pc:
        o.string(c["name"])
        o.varint(c.get("order", 0))
        o.bool(c.get("skin", False))
        o.varint(len(c["bones"]))
        for b in c["bones"]:
            o.varint(index(bones, b))
        o.varint(index(slots, c["target"]))
        pm = ["fixed", "percent"].index(c.get("positionMode", "percent"))
        sm = ["length", "fixed", "percent", "proportional"].index(c.get("spacingMode", "length"))
        rm = ["tangent", "chain", "chainScale"].index(c.get("rotateMode", "tangent"))
        o.byte(pm | sm << 1 | rm << 3 | (128 if c.get("rotation", 0) else 0))
        if c.get("rotation", 0):
            o.f32(c["rotation"])
        x = c.get("mixX", 1)
        for v in (c.get("position", 0), c.get("spacing", 0), c.get("mixRotate", 1), x,
                  c.get("mixY", x)):
            o.f32(v)
    ph = doc.get("physics", [])
    o.varint(len(ph))
    for c in ph:
        o.string(c["name"])
        o.varint(c.get("order", 0))
        o.varint(index(bones, c["bone"]))
        opt = [c.get(k, 0) for k in ("x", "y", "rotate", "scaleX", "shearX")]
        limit, mass = c.get("limit", 5000), c.get("mass", 1)
        flags = (1 if c.get("skin") else 0) | sum(2 << i for i in range(5) if opt[i]) | \
            (64 if limit != 5000 else 0) | (128 if mass != 1 else 0)
        o.byte(flags)
        for v in opt:
            if v:
                o.f32(v)
        if flags & 64:
            o.f32(limit)
        o.byte(int(c.get("fps", 60)))
        for k, d in (("inertia", 1), ("strength", 100), ("damping", 1)):
            o.f32(c.get(k, d))
        if flags & 128:
            o.f32(1 / mass)
        o.f32(c.get("wind", 0))
        o.f32(c.get("gravity", 0))
        mix = c.get("mix", 1)
        g = sum(1 << i for i, k in enumerate(PHYS_GLOBAL) if c.get(k + "Global"))
        o.byte(g | (128 if mix != 1 else 0))
        if mix != 1:
            o.f32(mix)
    skins = doc.get("skins", [])
    default = [s for s in skins if s["name"] == "default"]
    assert not default or skins[0] is default[0], "the default skin comes first"
    if default:
        write_skin(o, doc, default[0], True)
    else:
        o.varint(0)
    named = [s for s in skins if s["name"] != "default"]
    o.varint(len(named))
    for s in named:
        write_skin(o, doc, s, False)
    events = doc.get("events", {})
    o.varint(len(events))
    for name, e in events.items():
        o.string(name)
        o.svarint(e.get("int", 0))
        o.f32(e.get("float", 0))
        o.string(e.get("string"))
        o.string(e.get("audio"))
        if e.get("audio"):
            o.f32(e.get("volume", 1))
            o.f32(e.get("balance", 0))
    anims = doc.get("animations", {})
    o.varint(len(anims))
    for name, a in anims.items():
        o.string(name)
        write_animation(o, doc, a)


def skel_bytes(doc):
    """The .skel of a 4.2 JSON document, as bytes."""
    sk = doc["skeleton"]
    strings = {}
    body = Out(strings)
    write_body(body, doc)
    head = Out(strings)
    head.b += bytes(8)                # no hash
    head.string(sk["spine"])
    for k in ("x", "y", "width", "height"):
        head.f32(sk.get(k, 0))
    head.f32(sk.get("referenceScale", 100))
    head.bool(True)                   # nonessential data follows
    head.f32(sk.get("fps", 30))
    head.string(sk.get("images"))
    head.string(sk.get("audio"))
    head.varint(len(strings))
    for s in sorted(strings, key=strings.get):
        head.string(s)
    return bytes(head.b + body.b)
