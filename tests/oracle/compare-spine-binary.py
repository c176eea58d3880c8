#!/usr/bin/env python3
"""Every Spine binary export (.skel) against the JSON export beside it.

The editor rounds the numbers it writes to JSON (positions, scales and
Bezier handles to 2 decimals, times to 4 and so on) while a binary keeps
them as 32-bit floats, so the two files of one skeleton do not pose alike,
in the official runtime either (tank's treads jump by 2420 px at a frame
that falls between a stepped key at 0.6667 s in the JSON and 0.66666669 s
in the binary).  So, per pair:

(a) the document the binary decodes into (tests/tools/skel2json) holds the
    same bones, slots, constraints, skins, attachments, events, animations
    and keys as the JSON, every number equal at the JSON's print precision
    (half a unit of the last printed decimal, at least 0.005, plus float32
    rounding), every string and flag equal, and every member the JSON
    leaves out at the runtime's default;
(b) the JSON re-valued with the binary's numbers (the JSON's own layout
    and omissions, the binary's values) loads to the same model: `info
    --json` identical, and `pose` of every animation within 1e-3 px of the
    binary's (in practice byte-identical).

usage: compare-spine-binary.py BONEBAKE SKEL2JSON WORK_DIR PAIR.skel...
(each PAIR.skel with PAIR.json beside it; the atlas is found as bonebake
finds it, and given to the re-valued copy with --atlas).  Prints one line
per pair; exits 1 when a check fails."""
import concurrent.futures
import glob
import json
import os
import subprocess
import sys

# A member the JSON leaves out holds the runtime's default (SkeletonJson).
DEFAULTS = {
    "x": 0, "y": 0, "rotation": 0, "scaleX": 1, "scaleY": 1, "shearX": 0, "shearY": 0,
    "length": 0, "skin": False, "transform": "normal", "inherit": "normal",
    "color": "ffffffff", "blend": "normal", "order": 0, "mix": 1, "softness": 0,
    "bendPositive": True, "compress": False, "stretch": False, "uniform": False,
    "local": False, "relative": False, "mixRotate": 1, "mixX": 1, "mixScaleX": 1,
    "mixShearY": 1, "rotateMix": 1, "translateMix": 1, "scaleMix": 1, "shearMix": 1,
    "positionMode": "percent", "spacingMode": "length", "rotateMode": "tangent",
    "position": 0, "spacing": 0, "time": 0, "value": 0, "angle": 0, "offset": 0,
    "int": 0, "float": 0, "string": "", "volume": 1, "balance": 0, "closed": False,
    "constantSpeed": True, "hull": 0, "type": "region", "width": 32, "height": 32,
    "deform": True, "timelines": True, "limit": 5000, "fps": 60, "inertia": 1,
    "strength": 100, "damping": 1, "mass": 1, "wind": 0, "gravity": 0, "rotate": 0,
    "start": 1, "digits": 0, "setup": 0, "index": 0, "delay": 0, "mode": "hold",
    "referenceScale": 100, "c2": 0, "c3": 1, "c4": 1,
}
# The editor's colour of each kind of attachment (nonessential data).
EDITOR_COLORS = {"path": "ff7f00ff", "boundingbox": "60f000ff", "clipping": "ce3a3aff",
                 "point": "f1f100ff"}
# Editor-only members a binary without nonessential data does not hold, or
# holds in a form the JSON does not (the hash), or the loader derives.
IGNORED = {"hash", "images", "audio", "edges", "icon", "visible", "vertexCount"}


class Num(float):
    """A JSON number with the decimals it was printed with."""
    dec = 0


def parse_num(text):
    v = Num(text)
    v.dec = len(text.split(".")[1].split("e")[0].split("E")[0]) if "." in text else 0
    return v


def load_json(path):
    with open(path, encoding="utf-8-sig") as f:
        return json.load(f, parse_float=parse_num, parse_int=parse_num)


def num_equal(j, b):
    tol = 0.5 * 10.0 ** -max(2, j.dec) * (1 + 1e-6) + abs(b) * 1.2e-7
    return abs(float(j) - float(b)) <= tol


EVENTS = {}   # the pair's event definitions: an event key's defaults


def default_of(key, obj, path=""):
    if key in ("int", "float", "string", "volume", "balance") and ".events[" in path and \
            obj.get("name") in EVENTS:
        return EVENTS[obj["name"]].get(key, DEFAULTS[key])
    if key == "color" and path.startswith(".bones["):
        return "9b9b9bff"          # BoneData.color: the editor's grey
    if key == "color" and obj.get("type") in EDITOR_COLORS:
        return EDITOR_COLORS[obj["type"]]
    if key == "bendPositive" and len(obj.get("bones", [])) == 1:
        return None                # one bone: the bend direction means nothing
    if key == "delay" and "_prev_delay" in obj:
        return obj["_prev_delay"]
    if key == "fps" and path.endswith(".skeleton"):
        return 30
    if key in ("scaleX", "scaleY") and path.startswith((".transform", ".physics")):
        return 0
    if key in ("x", "y", "value") and (".scale" in path):
        return 1
    if key == "mixY":
        return obj.get("mixX", 1)
    if key == "mixScaleY":
        return obj.get("mixScaleX", 1)
    if key == "path":
        return obj.get("name")
    return DEFAULTS.get(key, "absent")


def same(j, b):
    if isinstance(j, Num) and isinstance(b, (int, float)) and not isinstance(b, bool):
        return num_equal(j, b)
    if isinstance(j, str) and isinstance(b, str):
        return j.lower() == b.lower() if len(j) in (6, 8) else j == b
    return j == b


def is_default(key, b, obj, path=""):
    if b in ([], {}):
        return True
    d = default_of(key, obj, path)
    if d == "absent":
        return False
    if d is None:
        return True
    if key == "color" and isinstance(b, str):
        return b.lower() in (d, d[:6]) if d != "ffffffff" else b.lower() in ("ffffffff", "ffffff")
    if isinstance(d, (int, float)) and not isinstance(d, bool) and \
            isinstance(b, (int, float)) and not isinstance(b, bool):
        return abs(b - d) <= 0.005 * (1 + 1e-6) + abs(d) * 1.2e-7
    return b == d


def deform_values(keys):
    """A deform key's vertices as {index: value}, zeros dropped (the editor
    and the binary may trim leading and trailing zeros differently)."""
    out = {}
    off = int(keys.get("offset", 0))
    for k, v in enumerate(keys.get("vertices", [])):
        if float(v) != 0:
            out[off + k] = v
    return out


def compare(j, b, path, errs, revalue):
    """(a): j (the JSON) against b (the decoded binary); revalue receives
    the JSON with b's numbers."""
    if len(errs) > 5:
        return j
    if isinstance(j, dict) and isinstance(b, dict):
        out = {}
        deform_key = (".deform." in path or ".deform[" in path) and path.endswith("]")
        for k, v in j.items():
            if k in IGNORED or k == "_prev_delay":
                out[k] = v
                continue
            if deform_key and k in ("offset", "vertices"):
                out[k] = v
                continue
            if k not in b:
                if not is_default(k, v, j, path) and not (k == "name" and v is None):
                    errs.append(f"{path}.{k}: {v!r} in the JSON, absent from the binary")
                out[k] = v
                continue
            out[k] = compare(v, b[k], f"{path}.{k}", errs, revalue)
        for k, v in b.items():
            if k in j or k in IGNORED or k == "_prev_delay" or \
                    (deform_key and k in ("offset", "vertices")):
                continue
            if not is_default(k, v, b, path):
                errs.append(f"{path}.{k}: {v!r} in the binary, absent from the JSON "
                            f"(default {default_of(k, b, path)!r})")
            out[k] = v     # the binary's value, where the JSON left a default
        if deform_key:
            dj, db = deform_values(j), deform_values(b)
            zero = parse_num("0")
            bad = [i for i in set(dj) | set(db) if not same(dj.get(i, zero), db.get(i, 0.0))]
            if bad:
                i = min(bad)
                errs.append(f"{path}: deform vertex {i}: {dj.get(i, 0)!r} in the JSON, "
                            f"{db.get(i, 0)!r} in the binary")
            if "vertices" in b:
                out["offset"] = b.get("offset", 0)
                out["vertices"] = b["vertices"]
            else:
                out.pop("offset", None)
                out.pop("vertices", None)
        return out
    if isinstance(j, list) and isinstance(b, list):
        keys = len(j) == len(b) and all(isinstance(k, dict) and isinstance(x, dict)
                                        for k, x in zip(j, b))
        if keys:
            j = [dict(k) for k in j]
            for i, k in enumerate(j):
                # a sequence key's delay defaults to the previous key's
                if i and "delay" in b[i - 1]:
                    k["_prev_delay"] = b[i - 1]["delay"]
                    b[i]["_prev_delay"] = b[i - 1]["delay"]
                # a stepped curve between equal values (or on the last key)
                # is the linear one: the binary may leave it out
                if k.get("curve") == "stepped" and "curve" not in b[i]:
                    nxt = j[i + 1] if i + 1 < len(j) else None
                    if nxt is None or all(same(v, nxt.get(m, v)) for m, v in k.items()
                                          if m not in ("time", "curve")):
                        del k["curve"]
        if path.endswith(".lengths") and len(j) < len(b):
            j = j + [parse_num("0")] * (len(b) - len(j))   # absent lengths are 0
        if len(j) != len(b):
            errs.append(f"{path}: {len(j)} items in the JSON, {len(b)} in the binary")
            return j
        return [compare(x, y, f"{path}[{i}]", errs, revalue) for i, (x, y) in
                enumerate(zip(j, b))]
    if not same(j, b):
        errs.append(f"{path}: {j!r} in the JSON, {b!r} in the binary")
        return j
    return b if isinstance(j, Num) else j


def plain(v):
    """Num -> float for json.dump."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, Num):
        return float(v)
    return v


def run(args):
    return subprocess.run(args, capture_output=True)


def max_diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return float("inf"), f"{path}: members {sorted(set(a) ^ set(b))}"
        worst = (0.0, "")
        for k in a:
            # a slot's display index counts its attachment names in file
            # order, which the two exports may list differently: the
            # display's name is what must agree
            if k == "displayIndex" and "display" in a:
                continue
            worst = max(worst, max_diff(a[k], b[k], f"{path}.{k}"))
        return worst
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return float("inf"), f"{path}: {len(a)} vs {len(b)} items"
        worst = (0.0, "")
        for i, (x, y) in enumerate(zip(a, b)):
            worst = max(worst, max_diff(x, y, f"{path}[{i}]"))
        return worst
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and \
            not isinstance(a, bool) and not isinstance(b, bool):
        return abs(a - b), path
    return (0.0, "") if a == b else (float("inf"), f"{path}: {a!r} vs {b!r}")


def copy_beside(src_json, folder):
    """The atlas and pages beside src_json, copied into folder (bonebake
    reads only files inside the input's folder)."""
    d = os.path.dirname(src_json)
    for f in os.listdir(d):
        if f.endswith((".atlas", ".png")):
            with open(os.path.join(d, f), "rb") as i, open(os.path.join(folder, f), "wb") as o:
                o.write(i.read())


def atlas_of(js):
    """The atlas bonebake finds for js: <stem>.atlas, without -pro/-ess, or
    the only .atlas in the folder."""
    stem = os.path.splitext(js)[0]
    for s in (stem, stem[:-4] if stem.endswith(("-pro", "-ess")) else None):
        if s and os.path.exists(s + ".atlas"):
            return s + ".atlas"
    found = glob.glob(os.path.join(os.path.dirname(js), "*.atlas"))
    return found[0] if len(found) == 1 else None


def check_pair(bonebake, skel2json, work, skel):
    js = os.path.splitext(skel)[0] + ".json"
    name = os.path.relpath(skel, os.path.dirname(os.path.dirname(skel)))
    r = run([skel2json, skel])
    if r.returncode != 0:
        return name, f"skel2json exited {r.returncode}: {r.stderr.decode().strip()}", 0, 0
    b = json.loads(r.stdout)
    j = load_json(js)
    errs = []
    EVENTS.clear()
    EVENTS.update({k: plain(v) for k, v in j.get("events", {}).items()})
    re = compare(j, b, "", errs, True)
    if errs:
        return name, "; ".join(errs[:5]), 0, 0
    # (b) the JSON with the binary's numbers
    folder = os.path.join(work, name.replace("/", "_"))
    os.makedirs(folder, exist_ok=True)
    copy = os.path.join(folder, os.path.basename(os.path.splitext(skel)[0]) + ".json")
    with open(copy, "w") as f:
        json.dump(plain(re), f)
    copy_beside(js, folder)
    extra = []
    ib, ij = run([bonebake, "info", "--json", skel]), run([bonebake, "info", "--json", copy])
    if ib.returncode or ij.returncode:
        return name, f"info failed: {ib.stderr.decode()}{ij.stderr.decode()}", 0, 0
    inf_b, inf_j = json.loads(ib.stdout), json.loads(ij.stdout)
    if inf_b["armatures"] != inf_j["armatures"] or inf_b["format"] != inf_j["format"]:
        return name, "info --json differs", 0, 0
    worst, anims = 0.0, 0
    for a in inf_b["armatures"]:
        for an in a["animations"]:
            pb = run([bonebake, "pose", skel, "--anim", an["name"]])
            pj = run([bonebake, "pose", copy, "--anim", an["name"]] + extra)
            if pb.returncode or pj.returncode:
                return name, f"pose {an['name']} failed: {pb.stderr.decode()}{pj.stderr.decode()}", \
                    anims, worst
            anims += 1
            if pb.stdout == pj.stdout:
                continue
            d, where = max_diff(json.loads(pb.stdout), json.loads(pj.stdout))
            worst = max(worst, d)
            if d > 1e-3:
                return name, f"pose {an['name']}: {where} differs by {d:.3g}", anims, worst
    return name, None, anims, worst


def main():
    bonebake, skel2json, work = sys.argv[1:4]
    pairs = sys.argv[4:]
    failed = total = 0
    worst_all = 0.0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for name, msg, anims, worst in ex.map(
                lambda s: check_pair(bonebake, skel2json, work, s), pairs):
            total += anims
            worst_all = max(worst_all, worst)
            if msg:
                failed += 1
                print(f"FAIL {name}: {msg}")
            else:
                print(f"{name}: document equal at the JSON's precision; {anims} animations "
                      f"posed alike (worst {worst:.3g} px)")
    print(f"{len(pairs) - failed} passed, {failed} failed ({total} animations, worst "
          f"{worst_all:.3g} px)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
