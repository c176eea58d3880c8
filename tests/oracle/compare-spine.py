#!/usr/bin/env python3
"""Compares `bonebake pose` with the official Spine runtime's poses in
../shared/oracle/spine/ (spine-core 4.2): bone world matrices, which bones
are active, slots in draw order with attachment, blend and colour, region
corners, mesh and clipping vertices, for every animation the oracle holds:
spineboy_4.2/<anim>.json[.gz] and examples/<example>/<stem>/<anim>.json.gz.
Each is compared from the JSON export and, with --skel, also from the binary
`.skel` beside it (the same oracle: the binary holds the same skeleton).
The spineboy 4.0 and 4.1 exports hold the same skeleton as the 4.2 one
(the same keys at the same times, exported by older editors), so the 4.2
oracle is theirs too: they are compared with it as well.

usage: compare-spine.py [--skel] [--only SUBSTR] BONEBAKE SHARED_DIR [CORPUS_DIR]
Exits 77 (skip) when the oracle or the corpus files it refers to are
absent, 1 when a tolerance is exceeded.  Prints the worst error per
animation.  Tolerances: 0.01 px in translation and vertices (0.05 px for
skeletons with physics constraints, sampled at their 60 Hz step), 1e-4 in
the linear part (5e-4 with physics); attachment, draw order, blend and
active bones exactly, colour to 1e-4.

Conventions mapped here, not in `pose`: the oracle is in Spine's space (y
up, rows a b / c d); bonebake's pose is y down (the figure matrix flips y,
Spine's skeleton scaleY = -1) with columns named a b / c d
(x' = a x + c y + tx).  So Spine's (a, b, c, d, x, y) is bonebake's
(a, c, -b, -d, tx, -ty), and a vertex (x, y) is (x, -y).  An inactive bone
(a skin-required bone no skin in use lists) has no world transform in the
runtime: only its being inactive is compared, and no slot on it may be
drawn.  A missing dark colour is black: with two-colour tint, a black dark
colour draws as no dark colour does."""
import concurrent.futures
import glob
import gzip
import json
import os
import subprocess
import sys

TOL_C = 1e-4
BLEND = {"normal": "normal", "add": "additive", "multiply": "multiply",
         "screen": "screen"}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def spine_matrix(m):
    a, b, c, d, tx, ty = m
    return [a, c, -b, -d, tx, -ty]


def oracle_files(shared):
    root = os.path.join(shared, "oracle", "spine")
    pats = ["*/*.json", "*/*.json.gz", "examples/*/*/*.json.gz"]
    return sorted(f for p in pats for f in glob.glob(os.path.join(root, p)))


def locate(meta, corpus_root):
    rel = meta["json"][len("corpus/"):] if meta["json"].startswith("corpus/") else meta["json"]
    for base in (os.path.join(corpus_root, "corpus"), corpus_root):
        if os.path.exists(os.path.join(base, rel)):
            return os.path.join(base, rel)
    return None


# Exports of the same skeleton by other Spine versions, by the oracle's.
SAME_SKELETON = {"spineboy_4.2": ("spineboy_4.0", "spineboy_4.1")}


def exports(ske):
    """ske and the other versions' exports of the same skeleton."""
    folder = os.path.dirname(ske)
    out = [ske]
    for other in SAME_SKELETON.get(os.path.basename(folder), ()):
        alt = os.path.join(os.path.dirname(folder), other, os.path.basename(ske))
        if os.path.exists(alt):
            out.append(alt)
    return out


def run_pose(bonebake, ske, meta):
    # --once: floor(d*fps)+1 frames, at least the oracle's ceil(d*fps);
    # frames are matched by time
    args = [bonebake, "pose", ske, "--anim", meta["animation"], "--once",
            "--fps", repr(meta["fps"])]
    return subprocess.run(args, capture_output=True, text=True)


def main():
    argv = sys.argv[1:]
    skel = "--skel" in argv
    argv = [a for a in argv if a != "--skel"]
    only = None
    if "--only" in argv:
        k = argv.index("--only")
        only = argv[k + 1]
        del argv[k:k + 2]
    bonebake, shared = argv[0], argv[1]
    corpus_root = argv[2] if len(argv) > 2 else shared
    files = [f for f in oracle_files(shared) if not only or only in f]
    if not files:
        print(f"SKIP: no oracle poses under {shared}/oracle/spine")
        return 77
    jobs, missing = [], 0
    for of in files:
        o = load(of)
        ske = locate(o["meta"], corpus_root)
        if ske is None:
            missing += 1
            continue
        for path in exports(ske):
            jobs.append((of, o, path))
            bin_path = os.path.splitext(path)[0] + ".skel"
            if skel and not os.path.exists(bin_path):
                print(f"FAIL {bin_path}: no binary export beside the JSON")
                return 1
            if skel:
                jobs.append((of, o, bin_path))
    if not jobs:
        print(f"SKIP: the corpus files the oracle refers to are absent ({missing} files)")
        return 77
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = ex.map(lambda j: run_pose(bonebake, j[2], j[1]["meta"]), jobs)
        for (of, o, ske), r in zip(jobs, results):
            meta = o["meta"]
            name = (f"{os.path.basename(os.path.dirname(ske))}/{os.path.basename(ske)} "
                    f"{meta['animation']}")
            if r.returncode != 0:
                print(f"FAIL {name}: bonebake exited {r.returncode}: {r.stderr.strip()}")
                failed += 1
                continue
            physics = meta.get("physicsConstraints", 0) > 0
            tol = (0.05, 5e-4) if physics else (0.01, 1e-4)
            worst = {"t": 0.0, "l": 0.0, "v": 0.0, "slots": 0, "frames": 0,
                     "inactive": 0}
            bad = compare(o, json.loads(r.stdout), worst, tol)
            print(f"{name}: {worst['frames']} frames @ {meta['fps']} fps, worst "
                  f"translation {worst['t']:.3g} px, linear {worst['l']:.3g}, vertices "
                  f"{worst['v']:.3g} px, inactive bones {worst['inactive']}, "
                  f"slot mismatches {worst['slots']}")
            if bad:
                print(f"FAIL {name}: {bad}")
                failed += 1
    print(f"{len(jobs) - failed} passed, {failed} failed")
    return 1 if failed else 0


def compare_bones(fo, fb, worst, tol):
    bones = {b["name"]: b for b in fb["bones"]}
    first = None
    inactive = set()
    for b in fo["bones"]:
        ours = bones.get(b["name"])
        if ours is None:
            return f"no bone {b['name']}", inactive
        active = b.get("active", True)
        if active != ours.get("active", True):
            return (f"bone {b['name']} is {'active' if ours.get('active', True) else 'inactive'}"
                    f", runtime: {'active' if active else 'inactive'}"), inactive
        if not active:
            inactive.add(b["name"])
            continue
        m = spine_matrix(ours["m"])
        et = max(abs(m[4] - b["m"][4]), abs(m[5] - b["m"][5]))
        el = max(abs(m[k] - b["m"][k]) for k in range(4))
        worst["t"] = max(worst["t"], et)
        worst["l"] = max(worst["l"], el)
        if (et > tol[0] or el > tol[1]) and first is None:
            first = (f"bone {b['name']}: ours {[round(v, 4) for v in m]} runtime "
                     f"{[round(v, 4) for v in b['m']]}")
    worst["inactive"] = max(worst["inactive"], len(inactive))
    return first, inactive


def compare_slot(s, b, it, worst, tol):
    color = [b["color"][1], b["color"][2], b["color"][3], b["color"][0]]
    dark = b.get("dark") or [0, 0, 0]
    rdark = s["darkColor"] or [0, 0, 0]
    if b["display"] != s["attachment"]:
        return f"attachment {b['display']} vs runtime {s['attachment']}"
    if any(abs(x - y) > TOL_C for x, y in zip(color, s["color"])):
        return f"colour {color} vs runtime {s['color']}"
    if any(abs(x - y) > TOL_C for x, y in zip(dark, rdark)):
        return f"dark colour {dark} vs runtime {s['darkColor']}"
    if s["attachment"] is None or s["type"] not in ("region", "mesh", "clipping"):
        return None
    if it is None:
        return "not drawn"
    if s["type"] != "clipping" and BLEND.get(it["blend"]) != s["blend"]:
        return f"blend {it['blend']} vs runtime {s['blend']}"
    ref = s.get("quad") or s.get("verts")
    if ref:
        got = [v if k % 2 == 0 else -v for k, v in enumerate(it["verts"])]
        ev = (max(abs(x - y) for x, y in zip(got, ref))
              if len(got) == len(ref) else float("inf"))
        worst["v"] = max(worst["v"], ev)
        if ev > tol[0]:
            return (f"vertices differ by {ev:.4g} px (ours {[round(v, 2) for v in got[:8]]} "
                    f"runtime {[round(v, 2) for v in ref[:8]]})")
    return None


def compare(o, ours, worst, tol):
    by_t = {round(f["t"], 9): f for f in ours["frames"]}
    first = None
    for fo in o["frames"]:
        fb = by_t.get(round(fo["t"], 9))
        if fb is None:
            return f"frame {fo['i']} t={fo['t']}: not in bonebake's frames"
        worst["frames"] += 1
        where = f"frame {fo['i']} t={fo['t']:.4f}"
        msg, inactive = compare_bones(fo, fb, worst, tol)
        if msg and first is None:
            first = f"{where} {msg}"
        order_o = [s["name"] for s in fo["slots"]]
        order_b = [s["name"] for s in fb["slots"]]
        if order_b != order_o:
            worst["slots"] += 1
            if first is None:
                first = f"{where}: draw order {order_b} != {order_o}"
        bslots = {s["name"]: s for s in fb["slots"]}
        draws = {}
        for it in fb.get("draw", []):
            if it["slot"] is not None and it["slot"] not in draws and it["kind"] != "clip-end":
                draws[it["slot"]] = it
        for s in fo["slots"]:
            b = bslots.get(s["name"])
            if b is None:
                continue
            if s["bone"] in inactive or s.get("active") is False:
                msg = "drawn on an inactive bone" if s["name"] in draws else None
            else:
                msg = compare_slot(s, b, draws.get(s["name"]), worst, tol)
            if msg:
                worst["slots"] += 1
                if first is None:
                    first = f"{where} slot {s['name']}: {msg}"
    return first


if __name__ == "__main__":
    sys.exit(main())
