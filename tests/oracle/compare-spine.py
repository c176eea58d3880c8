#!/usr/bin/env python3
"""Compares `bonebake pose` with the official Spine runtime's poses in
../shared/oracle/spine/ (spine-core 4.2): bone world matrices, which bones
are active, slots in draw order with attachment, blend and colour, region
corners, mesh and clipping vertices, for every animation the oracle holds:
spineboy_4.2/<anim>.json[.gz] and examples/<example>/<stem>/<anim>.json.gz.
Each is compared from the JSON export.  The spineboy 4.0 and 4.1 exports
hold the same skeleton as the 4.2 one (the same keys at the same times,
exported by older editors), so the 4.2 oracle is theirs too: they are
compared with it as well.

With --skel, the binary `.skel` beside each of those JSON files is compared
instead, with the runtime's own poses of that binary, computed here: the
oracle was sampled from the JSON, whose numbers the editor rounded (2
decimals for positions, 4 for times), so a binary (exact 32-bit floats)
poses differently in the runtime too.  SHARED_DIR/peers/spine-oracle.mjs
runs from a temporary folder whose node_modules links to
$BONEBAKE_NODE_MODULES (spine-core 4.2.119, tests/node/package.json), with
the animation, skin, fps and method (Animation.apply, or an AnimationState
game loop for physics) of the JSON's oracle.  The runtime reads only 4.2
binaries: a 4.0 or 4.1 binary is held to the runtime's poses of the 4.2
binary of the same skeleton (binaries keep exact numbers, so their keys are
the 4.2 ones).

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
import shutil
import subprocess
import sys
import tempfile
import threading

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


def skel_version(path):
    """The version string of a Spine binary ("4.2.22"), "" when unknown."""
    head = open(path, "rb").read(96)
    at = 8 if len(head) > 9 and head[9:10] == b"4" else (head[0] or 1) if head else 0
    n = head[at] - 1 if at < len(head) else 0
    return head[at + 1:at + 1 + n].decode("ascii", "replace") if n > 0 else ""


def oracle_runner(shared):
    """A temporary folder holding spine-oracle.mjs and a node_modules link to
    $BONEBAKE_NODE_MODULES; (None, why) when something is missing."""
    nm = os.environ.get("BONEBAKE_NODE_MODULES", "")
    mjs = os.path.join(shared, "peers", "spine-oracle.mjs")
    if not shutil.which("node"):
        return None, "node is not installed (scripts/test installs nodejs)"
    if not os.path.isdir(os.path.join(nm, "@esotericsoftware", "spine-core")):
        return None, (f"no @esotericsoftware/spine-core in BONEBAKE_NODE_MODULES ({nm or 'unset'}):"
                      " scripts/test installs tests/node/package.json into build/node")
    if not os.path.exists(mjs):
        return None, f"no {mjs}"
    tmp = tempfile.mkdtemp(prefix="bb-spine-oracle-")
    shutil.copy(mjs, tmp)
    os.symlink(os.path.abspath(nm), os.path.join(tmp, "node_modules"))
    return tmp, None


REFS = {}               # (ref, animation) -> the runtime's poses, computed once
REFS_LOCK = threading.Lock()


def skel_job(bonebake, runner, meta, skel, ref, atlas, out):
    """The runtime's poses of ref (once per binary and animation: the 4.0
    and 4.1 exports share the 4.2 one's) and bonebake's of skel: (runtime,
    pose result) or (None, failure)."""
    with REFS_LOCK:
        entry = REFS.setdefault((ref, meta["animation"]), {"lock": threading.Lock()})
    with entry["lock"]:
        if "poses" not in entry:
            entry["poses"] = runtime_poses(runner, meta, ref, atlas, out)
    if isinstance(entry["poses"], str):
        return None, entry["poses"]
    return entry["poses"], run_pose(bonebake, skel, meta)


def runtime_poses(runner, meta, ref, atlas, out):
    """spine-oracle.mjs's poses of ref, or the failure as a string."""
    state = "AnimationState" in meta.get("method", "")
    args = ["node", os.path.join(runner, "spine-oracle.mjs"), "--json", ref, "--atlas", atlas,
            "--animation", meta["animation"], "--fps", repr(meta["fps"]),
            "--method", "state" if state else "apply", "--out", out, "--quiet"]
    if meta.get("skin") and meta["skin"] != "default":
        args += ["--skin", meta["skin"]]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return f"spine-oracle.mjs exited {r.returncode}: {r.stderr.strip()[-400:]}"
    o = load(out)
    os.unlink(out)
    return o


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
            if not skel:
                jobs.append((of, o, path, None))
                continue
            bin_path = os.path.splitext(path)[0] + ".skel"
            ref = bin_path
            if not os.path.exists(bin_path):
                print(f"FAIL {bin_path}: no binary export beside the JSON")
                return 1
            if not skel_version(bin_path).startswith("4.2"):
                ref = os.path.splitext(ske)[0] + ".skel"
            atlas = locate({"json": o["meta"]["atlas"]}, corpus_root)
            jobs.append((of, {"meta": o["meta"]}, bin_path, (ref, atlas)))
    if not jobs:
        print(f"SKIP: the corpus files the oracle refers to are absent ({missing} files)")
        return 77
    runner = None
    if skel:
        runner, why = oracle_runner(shared)
        if runner is None:
            print(f"SKIP: {why}")
            return 77
    failed = 0

    def work(j):
        if j[3] is None:
            return j[1], run_pose(bonebake, j[2], j[1]["meta"])
        out = os.path.join(runner, f"{abs(hash((j[3][0], j[1]['meta']['animation'])))}.json")
        return skel_job(bonebake, runner, j[1]["meta"], j[2], j[3][0], j[3][1], out)

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = ex.map(work, jobs)
        for (of, _, ske, _), (o, r) in zip(jobs, results):
            meta = o["meta"] if o else _["meta"]
            if o is None:
                print(f"FAIL {ske} {meta['animation']}: {r}")
                failed += 1
                continue
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
    if runner:
        shutil.rmtree(runner, ignore_errors=True)
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
