#!/usr/bin/env python3
"""Renders every real export of ../shared/corpus (DragonBones, Cocos Studio,
Forge, Spine) with `bonebake render --all` and holds each to
tests/oracle/corpus.list:

- the render exits 0, and every animation of every armature that `bonebake
  info --json` lists is written, with the frame count info gives;
- stderr holds exactly the warnings the list expects for the file (a new
  warning fails, and so does an expected one that no longer appears);
- no frame is blank (fully transparent) except those the list names;
- every corpus file of these formats is in the list, and every listed file
  exists.

usage: corpus.py BONEBAKE BLANK_FRAMES CORPUS_DIR LIST WORK_DIR
CORPUS_DIR is the folder holding dragonbones/, cocos/, forge/, spine/.  Exits 1 when
a check fails, 0 otherwise.

The list: one `file PATH` line per corpus file (PATH relative to CORPUS_DIR),
followed by indented lines that apply to it:
  warn TEXT     a warning expected on stderr, exactly (after "bonebake:
                warning: "), once per render
  blank PATH    a frame expected to be blank, relative to the output folder
                (ARMATURE/ANIM/ANIM_NNNN.png with several armatures)
  views V...    render once per view (Forge: --view V); default one render
  opts ARG...   more render options (also given to info when --fps)
  pending WHY   the file is not expected to pass yet (WHY says what will
                make it): its problems are printed, not counted; once it
                passes, the test fails until the line is removed
"""
import glob
import json
import os
import shlex
import subprocess
import sys

BASE_OPTS = ["--all", "--quiet", "--scale", "0.25", "--jobs", "2"]
WARN = "bonebake: warning: "


def parse_list(path):
    entries, cur = [], None
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        word, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if word == "file" and not line[0].isspace():
            cur = {"file": rest, "warn": [], "blank": [], "views": [None],
                   "opts": [], "pending": None, "line": n}
            entries.append(cur)
        elif cur is None or not line[0].isspace():
            sys.exit(f"{path}:{n}: expected `file PATH` or an indented line")
        elif word == "warn":
            cur["warn"].append(rest)
        elif word == "blank":
            cur["blank"].append(rest)
        elif word == "views":
            cur["views"] = rest.split()
        elif word == "opts":
            cur["opts"] += shlex.split(rest)
        elif word == "pending":
            cur["pending"] = rest
        else:
            sys.exit(f"{path}:{n}: unknown keyword {word!r}")
    return entries


def discover(corpus):
    """The corpus files bonebake reads, relative to corpus."""
    found = []
    for f in glob.glob(os.path.join(corpus, "dragonbones", "**", "*.json"), recursive=True):
        try:
            doc = json.load(open(f, encoding="utf-8-sig"))
        except ValueError:
            continue
        if isinstance(doc, dict) and "armature" in doc:
            found.append(f)
    for f in glob.glob(os.path.join(corpus, "cocos", "**", "*"), recursive=True):
        if f.endswith((".ExportJson", ".json", ".xml")) and os.path.isfile(f):
            text = open(f, encoding="utf-8", errors="replace").read()
            if '"armature_data"' in text or "<armatures" in text:
                found.append(f)
    for f in glob.glob(os.path.join(corpus, "forge", "**", "armatures", "**", "*.json"),
                       recursive=True):
        found.append(f)
    for f in glob.glob(os.path.join(corpus, "spine", "**", "*.json"), recursive=True):
        try:
            doc = json.load(open(f, encoding="utf-8-sig"))
        except ValueError:
            continue
        if isinstance(doc, dict) and isinstance(doc.get("skeleton"), dict) and \
                "spine" in doc["skeleton"]:
            found.append(f)
    for f in glob.glob(os.path.join(corpus, "spine", "**", "*"), recursive=True):
        if os.path.isfile(f) and spine_binary(f):
            found.append(f)
    return sorted(os.path.relpath(f, corpus) for f in found)


def spine_binary(path):
    """Whether path is a Spine binary export, by its header (whatever its
    name): 4.x an 8-byte hash then the version string ("4.2.22"), 3.x the
    hash as a string then the version (lib/loaders/spine-binary.c)."""
    head = open(path, "rb").read(96)

    def version_at(at):
        if at >= len(head) or not 4 <= head[at] <= 33:
            return None
        v = head[at + 1:at + head[at]]
        ok = len(v) == head[at] - 1 and v[:1].isdigit() and v[1:2] == b"." and v[2:3].isdigit()
        return v.decode("ascii", "replace") if ok and all(0x21 <= c <= 0x7e for c in v) else None

    v = version_at(8)
    if v and v.startswith("4"):
        return True
    at = head[0] if head and head[0] else 1
    v = head and head[0] <= 64 and version_at(at)
    return bool(v and v.startswith("3"))


def expected_frames(bonebake, path, opts):
    """{armature/anim: frames} from `info --json` (with --fps if given)."""
    args = [bonebake, "info", "--json", path]
    if "--fps" in opts:
        args += ["--fps", opts[opts.index("--fps") + 1]]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"info exited {r.returncode}: {r.stderr.strip()}"
    info = json.loads(r.stdout)
    out = {}
    for a in info["armatures"]:
        for an in a["animations"]:
            out[(a["name"], an["name"])] = an["frames"]
    return out, None


def safe(name):
    """The folder name render gives an armature or animation name (as
    src/figure.c fig_safe_name does)."""
    s = "".join("_" if c in "/ \\" or ord(c) < 0x20 else c for c in name) or "_"
    return "_" + s[1:] if s in (".", "..") else s


def blank_frames(tool, pngs):
    blank = set()
    for i in range(0, len(pngs), 200):
        r = subprocess.run([tool] + pngs[i:i + 200], capture_output=True, text=True)
        if r.returncode not in (0, 1):
            raise RuntimeError(f"blank-frames: {r.stderr.strip()}")
        blank.update(r.stdout.split("\n"))
    blank.discard("")
    return blank


def check(entry, bonebake, tool, corpus, work):
    """Problems found rendering one list entry (empty: it passes), and a
    one-line summary."""
    path = os.path.join(corpus, entry["file"])
    problems = []
    want, err = expected_frames(bonebake, path, entry["opts"])
    if want is None:
        return [err], ""
    narm = len({a for a, _ in want})
    total = 0
    for view in entry["views"]:
        tag = f" (--view {view})" if view else ""
        out = os.path.join(work, "out")
        subprocess.run(["rm", "-rf", out])
        args = [bonebake, "render", path, "-o", out] + BASE_OPTS + entry["opts"]
        if view:
            args += ["--view", view]
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"render{tag} exited {r.returncode}: {r.stderr.strip()}")
            continue
        # warnings: exactly the expected ones
        lines = [l for l in r.stderr.split("\n") if l]
        seen = []
        for l in lines:
            if not l.startswith(WARN):
                problems.append(f"render{tag}: unexpected stderr line: {l}")
            elif l[len(WARN):] not in entry["warn"]:
                problems.append(f"render{tag}: unexpected warning: {l[len(WARN):]}")
            else:
                seen.append(l[len(WARN):])
        for w in entry["warn"]:
            if seen.count(w) != 1:
                problems.append(f"render{tag}: expected warning seen {seen.count(w)} "
                                f"times: {w}")
        # every animation of every armature, with info's frame count
        for (arm, anim), frames in sorted(want.items()):
            d = os.path.join(out, safe(arm), safe(anim)) if narm > 1 else \
                os.path.join(out, safe(anim))
            got = len(glob.glob(os.path.join(d, "*.png")))
            if not os.path.isfile(os.path.join(d, "frames.json")) or got != frames:
                problems.append(f"render{tag}: {arm}/{anim}: {got} frames in "
                                f"{os.path.relpath(d, out)}, info says {frames}")
            total += got
        # no blank frame but the expected ones
        pngs = sorted(glob.glob(os.path.join(out, "**", "*.png"), recursive=True))
        blank = {os.path.relpath(p, out) for p in blank_frames(tool, pngs)}
        for b in sorted(blank - set(entry["blank"])):
            problems.append(f"render{tag}: blank frame {b}")
        for b in sorted(set(entry["blank"]) - blank):
            problems.append(f"render{tag}: {b} was expected blank but is not "
                            f"(or was not written)")
    summary = (f"{len(want)} animations of {narm} armature{'s' if narm != 1 else ''}, "
               f"{total} frames, {len(entry['warn'])} expected warnings, "
               f"{len(entry['blank'])} expected blank frames"
               f"{', views ' + ' '.join(entry['views']) if entry['views'][0] else ''}")
    return problems, summary


def main():
    bonebake, tool, corpus, listfile, work = sys.argv[1:6]
    entries = parse_list(listfile)
    failed = 0
    listed = [e["file"] for e in entries]
    for f in discover(corpus):
        if f not in listed:
            print(f"FAIL {f}: not in {os.path.basename(listfile)} (add its entry)")
            failed += 1
    for e in entries:
        if not os.path.isfile(os.path.join(corpus, e["file"])):
            print(f"FAIL {e['file']}: listed (line {e['line']}) but absent")
            failed += 1
            continue
        problems, summary = check(e, bonebake, tool, corpus, work)
        if e["pending"]:
            if problems:
                print(f"PENDING {e['file']} ({e['pending']}): {problems[0]}")
            else:
                print(f"FAIL {e['file']}: passes now: remove its `pending` line "
                      f"(line {e['line']} on)")
                failed += 1
            continue
        for p in problems:
            print(f"FAIL {e['file']}: {p}")
        failed += bool(problems)
        if not problems:
            print(f"ok {e['file']}: {summary}")
    print(f"{len(entries)} files, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
