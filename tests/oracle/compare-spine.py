#!/usr/bin/env python3
"""Compares `bonebake pose` with the official Spine runtime's poses in
../shared/oracle/spine/ (spine-core 4.2): bone world matrices, slots in
draw order with attachment, blend and colour, region corners, mesh and
clipping vertices, for every animation the oracle holds.

usage: compare-spine.py BONEBAKE SHARED_DIR [CORPUS_DIR]
Exits 77 (skip) when the oracle or the corpus files it refers to are
absent, 1 when a tolerance is exceeded.  Prints the worst error per
animation.  Tolerances: 0.01 px in translation and vertices, 1e-4 in the
linear part; attachment, draw order and blend exactly, colour to 1e-6.

Conventions mapped here, not in `pose`: the oracle is in Spine's space (y
up, rows a b / c d); bonebake's pose is y down (the figure matrix flips y,
Spine's skeleton scaleY = -1) with columns named a b / c d
(x' = a x + c y + tx).  So Spine's (a, b, c, d, x, y) is bonebake's
(a, c, -b, -d, tx, -ty), and a vertex (x, y) is (x, -y)."""
import glob
import gzip
import json
import os
import subprocess
import sys

TOL_T, TOL_L, TOL_C = 0.01, 1e-4, 1e-6
BLEND = {"normal": "normal", "add": "additive", "multiply": "multiply",
         "screen": "screen"}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def spine_matrix(m):
    a, b, c, d, tx, ty = m
    return [a, c, -b, -d, tx, -ty]


def main():
    bonebake, shared = sys.argv[1], sys.argv[2]
    corpus_root = sys.argv[3] if len(sys.argv) > 3 else shared
    files = sorted(glob.glob(os.path.join(shared, "oracle", "spine", "*", "*.json")) +
                   glob.glob(os.path.join(shared, "oracle", "spine", "*", "*.json.gz")))
    if not files:
        print(f"SKIP: no oracle poses under {shared}/oracle/spine")
        return 77
    failed = compared = missing = 0
    for of in files:
        o = load(of)
        meta = o["meta"]
        rel = meta["json"][len("corpus/"):] if meta["json"].startswith("corpus/") else meta["json"]
        ske = os.path.join(corpus_root, "corpus", rel)
        if not os.path.exists(ske):
            ske = os.path.join(corpus_root, rel)
        if not os.path.exists(ske):
            missing += 1
            continue
        # --once: floor(d*fps)+1 frames, at least the oracle's ceil(d*fps);
        # frames are matched by time
        args = [bonebake, "pose", ske, "--anim", meta["animation"], "--once",
                "--fps", repr(meta["fps"])]
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL {os.path.basename(of)}: bonebake exited {r.returncode}: "
                  f"{r.stderr.strip()}")
            failed += 1
            continue
        ours = json.loads(r.stdout)
        compared += 1
        worst = {"t": 0.0, "l": 0.0, "v": 0.0, "slots": 0, "frames": 0}
        bad = compare(o, ours, worst)
        name = meta["animation"]
        print(f"{name}: {worst['frames']} frames, worst translation {worst['t']:.3g} px, "
              f"linear {worst['l']:.3g}, vertices {worst['v']:.3g} px, "
              f"slot mismatches {worst['slots']}")
        if bad:
            print(f"FAIL {name}: {bad}")
            failed += 1
    if compared == 0:
        print(f"SKIP: the corpus files the oracle refers to are absent ({missing} files)")
        return 77
    print(f"{compared - failed} passed, {failed} failed")
    return 1 if failed else 0


def compare(o, ours, worst):
    by_t = {round(f["t"], 9): f for f in ours["frames"]}
    first = None
    for fo in o["frames"]:
        fb = by_t.get(round(fo["t"], 9))
        if fb is None:
            return f"frame {fo['i']} t={fo['t']}: not in bonebake's frames"
        worst["frames"] += 1
        bones = {b["name"]: spine_matrix(b["m"]) for b in fb["bones"]}
        for b in fo["bones"]:
            m = bones.get(b["name"])
            if m is None:
                return f"frame {fo['i']}: no bone {b['name']}"
            et = max(abs(m[4] - b["m"][4]), abs(m[5] - b["m"][5]))
            el = max(abs(m[k] - b["m"][k]) for k in range(4))
            worst["t"] = max(worst["t"], et)
            worst["l"] = max(worst["l"], el)
            if (et > TOL_T or el > TOL_L) and first is None:
                first = (f"frame {fo['i']} t={fo['t']:.4f} bone {b['name']}: ours "
                         f"{[round(v, 4) for v in m]} runtime {[round(v, 4) for v in b['m']]}")
        order_o = [s["name"] for s in fo["slots"]]
        order_b = [s["name"] for s in fb["slots"]]
        if order_b != order_o:
            worst["slots"] += 1
            if first is None:
                first = f"frame {fo['i']}: draw order {order_b} != {order_o}"
        bslots = {s["name"]: s for s in fb["slots"]}
        draws = {}
        for it in fb.get("draw", []):
            if it["slot"] is not None and it["slot"] not in draws and it["kind"] != "clip-end":
                draws[it["slot"]] = it
        for s in fo["slots"]:
            b = bslots.get(s["name"])
            if b is None:
                continue
            msg = None
            color = [b["color"][1], b["color"][2], b["color"][3], b["color"][0]]
            dark = b.get("dark")
            if b["display"] != s["attachment"]:
                msg = f"attachment {b['display']} vs runtime {s['attachment']}"
            elif any(abs(x - y) > TOL_C for x, y in zip(color, s["color"])):
                msg = f"colour {color} vs runtime {s['color']}"
            elif (s["darkColor"] is None) != (dark is None) or (
                    dark and any(abs(x - y) > TOL_C for x, y in zip(dark, s["darkColor"]))):
                msg = f"dark colour {dark} vs runtime {s['darkColor']}"
            ref = s.get("quad") or s.get("verts")
            it = draws.get(s["name"])
            if msg is None and s["attachment"] is not None and s["type"] in (
                    "region", "mesh", "clipping"):
                if it is None:
                    msg = "not drawn"
                elif s["type"] != "clipping" and BLEND.get(it["blend"]) != s["blend"]:
                    msg = f"blend {it['blend']} vs runtime {s['blend']}"
                elif ref:
                    got = [v if k % 2 == 0 else -v for k, v in enumerate(it["verts"])]
                    ev = (max(abs(x - y) for x, y in zip(got, ref))
                          if len(got) == len(ref) else float("inf"))
                    worst["v"] = max(worst["v"], ev)
                    if ev > TOL_T:
                        msg = (f"vertices differ by {ev:.4g} px (ours "
                               f"{[round(v, 2) for v in got[:8]]} runtime "
                               f"{[round(v, 2) for v in ref[:8]]})")
            if msg:
                worst["slots"] += 1
                if first is None:
                    first = f"frame {fo['i']} t={fo['t']:.4f} slot {s['name']}: {msg}"
    return first


if __name__ == "__main__":
    sys.exit(main())
