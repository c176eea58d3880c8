#!/usr/bin/env python3
"""Compares `bonebake pose` with the official DragonBones runtime's poses in
../shared/oracle/dragonbones/ (bone world matrices, slot display index,
draw order and colour), for every armature and animation the oracle holds.

usage: compare-dragonbones.py BONEBAKE SHARED_DIR [CORPUS_DIR]
Exits 77 (skip) when the oracle or the corpus files it refers to are
absent, 1 when a tolerance is exceeded.  Prints the worst error per file.
Tolerances: 0.01 px in translation, 1e-4 in the linear part; display index,
draw order and colour exactly (colour to 1e-6)."""
import glob
import json
import os
import subprocess
import sys

TOL_T, TOL_L, TOL_C = 0.01, 1e-4, 1e-6


def main():
    bonebake, shared = sys.argv[1], sys.argv[2]
    corpus_root = sys.argv[3] if len(sys.argv) > 3 else shared
    files = sorted(glob.glob(os.path.join(shared, "oracle", "dragonbones", "*", "*.json")))
    if not files:
        print(f"SKIP: no oracle poses under {shared}/oracle/dragonbones")
        return 77
    by_sample = {}
    for f in files:
        by_sample.setdefault(os.path.dirname(f), []).append(f)
    failed = compared = missing = 0
    for sample, oracles in sorted(by_sample.items()):
        worst = {"t": 0.0, "l": 0.0, "slots": 0, "v": 0.0}
        before = compared
        for of in oracles:
            o = json.load(open(of))
            meta = o["meta"]
            rel = meta["ske"][len("corpus/"):] if meta["ske"].startswith("corpus/") else meta["ske"]
            ske = os.path.join(corpus_root, "corpus", rel)
            if not os.path.exists(ske):
                ske = os.path.join(corpus_root, rel)
            if not os.path.exists(ske):
                missing += 1
                continue
            args = [bonebake, "pose", ske, "--armature", meta["armature"],
                    "--anim", meta["animation"], "--loop", "--fps", repr(meta["fps"])]
            r = subprocess.run(args, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"FAIL {of}: bonebake exited {r.returncode}: {r.stderr.strip()}")
                failed += 1
                continue
            ours = json.loads(r.stdout)
            compared += 1
            bad = compare(o, ours, worst)
            if bad:
                print(f"FAIL {os.path.basename(of)}: {bad}")
                failed += 1
        name = os.path.basename(sample)
        if compared == before:
            print(f"{name}: corpus file absent, not compared")
            continue
        print(f"{name}: worst translation error {worst['t']:.3g} px, linear {worst['l']:.3g}, "
              f"slot mismatches {worst['slots']}, vertices {worst['v']:.3g} px")
    if compared == 0:
        print(f"SKIP: the corpus files the oracle refers to are absent ({missing} poses)")
        return 77
    print(f"{compared - failed} passed, {failed} failed")
    return 1 if failed else 0


def compare(o, ours, worst):
    by_t = {round(f["t"], 6): f for f in ours["frames"]}
    first = None
    for fo in o["frames"]:
        fb = by_t.get(round(fo["t"], 6))
        if fb is None:
            continue
        bones = {b["name"]: b["m"] for b in fb["bones"]}
        for b in fo["bones"]:
            m = bones.get(b["name"])
            if m is None:
                return f"frame {fo['i']}: no bone {b['name']}"
            et = max(abs(m[4] - b["m"][4]), abs(m[5] - b["m"][5]))
            el = max(abs(m[k] - b["m"][k]) for k in range(4))
            worst["t"] = max(worst["t"], et)
            worst["l"] = max(worst["l"], el)
            if (et > TOL_T or el > TOL_L) and first is None:
                first = (f"frame {fo['i']} t={fo['t']:.4f} bone {b['name']}: "
                         f"ours {[round(v, 4) for v in m]} runtime {[round(v, 4) for v in b['m']]}")
        oslots = [s for s in fo["slots"]]
        bslots = {s["name"]: s for s in fb["slots"]}
        order_o = [s["name"] for s in oslots]
        order_b = [s["name"] for s in fb["slots"]]
        if [n for n in order_b if n in set(order_o)] != order_o:
            worst["slots"] += 1
            if first is None:
                first = f"frame {fo['i']}: draw order {order_b} != {order_o}"
        draws = {}
        for it in fb.get("draw", []):
            if it["kind"] in ("quad", "mesh") and it["slot"] not in draws:
                draws[it["slot"]] = it["verts"]
        for s in oslots:
            ref = s.get("quad") or s.get("verts")
            if ref and s.get("visible", True) and s["name"] in draws:
                got = draws[s["name"]]
                ev = max(abs(x - y) for x, y in zip(got, ref)) if len(got) == len(ref) else 1e9
                worst["v"] = max(worst["v"], ev)
                if ev > TOL_T * 10 and first is None:
                    first = (f"frame {fo['i']} slot {s['name']}: vertices differ by {ev:.4g} px"
                             f" (ours {[round(v, 2) for v in got[:8]]} runtime "
                             f"{[round(v, 2) for v in ref[:8]]})")
            b = bslots.get(s["name"])
            if b is None:
                continue
            if b["displayIndex"] != s["displayIndex"] or any(
                    abs(x - y) > TOL_C * max(1, abs(y)) for x, y in zip(b["color"], s["color"])):
                worst["slots"] += 1
                if first is None:
                    first = (f"frame {fo['i']} slot {s['name']}: display {b['displayIndex']} "
                             f"color {b['color']} vs runtime {s['displayIndex']} {s['color']}")
    return first


if __name__ == "__main__":
    sys.exit(main())
