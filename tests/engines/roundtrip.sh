# Engine round trips (issue 15): sheets bonebake writes, loaded in headless
# Chromium by PixiJS's spritesheet loader (JSON hash, JSON array,
# multipack) and by Phaser 3's load.atlas (hash, array) and
# load.multiatlas (phaser3, one page and multipack), with WebGL.
# Every frame is drawn at its trimmed offset on an untrimmed canvas and
# read back; each must equal the frame `bonebake render --canvas union`
# writes for the same options (sheet's default canvas: one per armature),
# and the pivot the engine reads must be the figure origin.
# PixiJS gets sheets with rotated frames.  Phaser 3 does not read
# "rotated" (no Phaser 3 release supports rotated atlas frames), so its
# sheets are packed without --rotate, and one more job checks that on a
# rotated sheet exactly the rotated frames come out wrong (the reason
# rotation must stay off for Phaser).  Needs Debian's chromium and the npm
# packages of tests/node/package.json (scripts/test installs both;
# BONEBAKE_NODE_MODULES names their node_modules folder).
. "$top_srcdir/tests/cli/lib.sh"
HERE="$top_srcdir/tests/engines"
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
NM=${BONEBAKE_NODE_MODULES:-$top_builddir/node/node_modules}
[ -x "$CHROMIUM" ] || unavailable "$CHROMIUM not installed (apt-get install chromium)"
command -v node >/dev/null 2>&1 || unavailable "node not found (apt-get install nodejs)"
for p in pixi.js phaser playwright-core pngjs; do
	[ -f "$NM/$p/package.json" ] ||
		unavailable "npm package $p not in $NM (scripts/test installs tests/node/package.json there)"
done
command -v timeout >/dev/null 2>&1 || unavailable "timeout(1) not found"
export CHROMIUM

FILE="$SAMPLES/dragonbones/rig_ske.json"
set -- --anim wave --anim idle --fps 12 --scale 0.5 --quiet
run "$BONEBAKE" render "$FILE" -o "$T/src" "$@" --canvas union
expect_rc 0
frames=$(find "$T/src" -name '*.png' | wc -l)
[ "$frames" -ge 30 ] || fail "expected at least 30 rendered frames, got $frames"

# name: sheet options.  *-rot sheets have rotated frames, multi* several pages.
mkdir -p "$T/site/sheets"
sheet() {
	name=$1
	shift
	run "$BONEBAKE" sheet "$FILE" -o "$T/site/sheets/$name" "$@"
	expect_rc 0
	cat "$T/site/sheets/$name"/*.json >"$T/$name.all"
	grep -q '"trimmed": true' "$T/$name.all" || fail "$name: no trimmed frame in the sheet"
	checks=$((checks + 1))
	case $name in
	*-rot)
		grep -q '"rotated": true' "$T/$name.all" || fail "$name: no rotated frame (the test needs one)"
		checks=$((checks + 1)) ;;
	*)
		grep -q '"rotated": true' "$T/$name.all" && fail "$name: rotated frames without --rotate"
		checks=$((checks + 1)) ;;
	esac
	case $name in
	multi*)
		pages=$(ls "$T/site/sheets/$name"/sheet-*.png | wc -l)
		[ "$pages" -ge 3 ] || fail "$name: expected at least 3 pages, got $pages"
		checks=$((checks + 1)) ;;
	esac
}
sheet single-rot "$@" --rotate --format json
sheet array-rot "$@" --rotate --format json-array
sheet multi-rot "$@" --rotate --multipack --max-size 160 --format json
sheet single "$@" --format json,phaser3
sheet array "$@" --format json-array
sheet multi "$@" --multipack --max-size 160 --format json,phaser3
sheet var "$@" --variants 1,2 --format json
cp "$HERE/pixi.html" "$HERE/phaser.html" "$HERE/capture.js" "$HERE/pixi-variants.html" \
	"$HERE/phaser-variants.html" "$T/site/"

# the canvas: big enough for the largest untrimmed frame; expected pivots
W=0 H=0
: >"$T/pivots"
for f in "$T"/src/*/frames.json; do
	anim=$(basename "$(dirname "$f")")
	line=$(tr -d ' \n' <"$f" | sed -n 's/.*"canvas":{"width":\([0-9]*\),"height":\([0-9]*\)},"origin":{"x":\([-0-9.e]*\),"y":\([-0-9.e]*\)}.*/\1 \2 \3 \4/p')
	[ -n "$line" ] || fail "no canvas and origin in $f"
	set -- $line
	[ "$1" -gt "$W" ] && W=$1
	[ "$2" -gt "$H" ] && H=$2
	echo "$anim $1 $2 $3 $4" >>"$T/pivots"
done
job() { # id page key=value...
	id=$1 page=$2
	shift 2
	printf '%s{"id": "%s", "page": "%s", "width": %d, "height": %d' "$sep" "$id" "$page" "$W" "$H"
	for kv in "$@"; do printf ', "%s": "%s"' "${kv%%=*}" "${kv#*=}"; done
	printf '}'
	sep=",
"
}
sep=
{
	printf '['
	job pixi-json pixi.html sheet=sheets/single-rot/sheet.json
	job pixi-json-array pixi.html sheet=sheets/array-rot/sheet.json
	job pixi-multipack pixi.html sheet=sheets/multi-rot/sheet-0.json
	job phaser-atlas-json phaser.html image=sheets/single/sheet.png json=sheets/single/sheet.json anims=sheets/single/sheet.json
	job phaser-atlas-json-array phaser.html image=sheets/array/sheet.png json=sheets/array/sheet.json
	job phaser-multiatlas phaser.html multiatlas=sheets/single/sheet.multiatlas.json path=sheets/single/
	job phaser-multiatlas-multipack phaser.html multiatlas=sheets/multi/sheet.multiatlas.json path=sheets/multi/ anims=sheets/multi/sheet.multiatlas.json
	job phaser-rotated phaser.html image=sheets/single-rot/sheet.png json=sheets/single-rot/sheet.json
	# scale variants: wave then idle on one sprite at (W0, H0) of a
	# canvas twice the largest frame
	W0=$W H0=$H W=$((2 * W0)) H=$((2 * H0))
	v=sheets/var
	job pixi-var-1 pixi-variants.html sheet=$v/sheet.json x=$W0 y=$H0 play=wave,idle
	job pixi-var-2 pixi-variants.html sheet=$v/sheet@2x.json x=$W0 y=$H0 play=wave,idle
	job phaser-var-1 phaser-variants.html key=sheet image=$v/sheet.png json=$v/sheet.json x=$W0 y=$H0 play=wave,idle
	job phaser-var-2 phaser-variants.html key=sheet@2x image=$v/sheet@2x.png json=$v/sheet@2x.json x=$W0 y=$H0 play=wave,idle
	W=$W0 H=$H0
	printf ']\n'
} >"$T/jobs.json"
ids=$(sed -n 's/.*"id": "\([^"]*\)".*/\1/p' "$T/jobs.json" | grep -v '^phaser-rotated$' | grep -v -- '-var-')

timeout 300 node "$HERE/roundtrip.mjs" "$NM" "$T/site" "$T/out" "$T/jobs.json" >"$T/node.out" 2>"$T/node.err"
rc=$?
[ "$rc" -eq 0 ] || fail "roundtrip.mjs exited $rc: $(head -c 1500 "$T/node.err")"
cat "$T/node.out"

# Pixels: the engines upload straight-alpha PNGs premultiplied and read
# them back straight, so a translucent pixel's colour may move by a
# rounding step; the premultiplied colours bonebake compares move by at
# most about one level, far below --threshold 0.02 (a misplaced, turned
# or mirrored frame differs by up to 1).  Every frame must be there (a
# missing or extra one exits 6); anti-aliased pixels count.
pivots_ok() { # engine.json of a job
	{ tr -d ' \n' <"$1"; echo; } | sed 's/},{/}\n{/g' |
		sed -n 's/.*"name":"\([^"]*\)_[0-9]*",.*"pivot":\[\([-0-9.e]*\),\([-0-9.e]*\)\].*/\1 \2 \3/p' >"$T/got"
	[ "$(wc -l <"$T/got")" -eq "$frames" ] || return 1
	awk 'NR == FNR { w[$1] = $2; h[$1] = $3; x[$1] = $4; y[$1] = $5; next }
		!($1 in w) { bad = 1 }
		{ dx = $2 - x[$1] / w[$1]; dy = $3 - y[$1] / h[$1]
		  if (dx < -1e-5 || dx > 1e-5 || dy < -1e-5 || dy > 1e-5) bad = 1 }
		END { exit bad }' "$T/pivots" "$T/got"
}
for id in $ids; do
	run "$BONEBAKE" diff "$T/src" "$T/out/$id" --threshold 0.02 --aa count
	[ "$rc" -eq 0 ] || fail "$id: frames differ from the render (bonebake diff exit $rc): $(printf '%s\n' "$out" | head -n 8)"
	checks=$((checks + 1))
	n=$(find "$T/out/$id" -name '*.png' | wc -l)
	[ "$n" -eq "$frames" ] || fail "$id: the engine drew $n frames, $frames rendered"
	checks=$((checks + 1))
	grep -q '"trimmed": true' "$T/out/$id/engine.json" || fail "$id: the engine saw no trimmed frame"
	checks=$((checks + 1))
	case $id in pixi-*)
		[ -s "$T/out/$id/rotated.txt" ] || fail "$id: the engine saw no rotated frame"
		checks=$((checks + 1)) ;;
	esac
	pivots_ok "$T/out/$id/engine.json" || fail "$id: the pivots the engine read are not the figure origin: $(head -n 3 "$T/got")"
	checks=$((checks + 1))
done
# PixiJS resolves the "animations" lists of a hash sheet to its textures
for id in pixi-json pixi-multipack; do
	grep -q '"animations": {' "$T/out/$id/engine.json" || fail "$id: no animations"
	grep -q 'null' "$T/out/$id/engine.json" && fail "$id: an animation names a frame PixiJS does not have"
	checks=$((checks + 2))
done

# Phaser 3 creates the animations of the sheet's "anims" block
# (load.animation(key, "sheet.json")): every frame found, in
# render order, at the render's fps, looping, and playing
for id in phaser-atlas-json phaser-multiatlas-multipack; do
	python3 - "$T/out/$id/engine.json" "$T/src" <<'PY' || fail "$id: Phaser's animations are not the render's"
import json, os, sys
got = json.load(open(sys.argv[1]))["animations"]
src = sys.argv[2]
want = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
assert sorted(got) == want, (sorted(got), want)
for anim, a in got.items():
    fj = json.load(open(os.path.join(src, anim, "frames.json")))
    names = [os.path.splitext(f["file"])[0] for f in fj["frames"]]
    assert None not in a["frames"], (anim, "a frame Phaser did not find")
    assert [f.split("/", 1)[1] for f in a["frames"]] == names, (anim, a["frames"][:3], names[:3])
    assert abs(a["frameRate"] - fj["fps"]) < 1e-9, (anim, a["frameRate"], fj["fps"])
    assert a["repeat"] == (-1 if fj["loop"] else 0), (anim, a["repeat"])
    assert a["playing"] == names[1], (anim, "after 1.5 frame times", a["playing"], names[1])
PY
	checks=$((checks + 1))
done

# Scale variants (sheet --variants 1,2): the @1x and @2x sheets drawn by
# PixiJS (which takes meta.scale 2 as the texture resolution) and by Phaser
# 3 (the sprite scaled by 1 / meta.scale, as a Phaser user does: Phaser
# reads no scale from the sheet), both filtering linearly.  Every frame of
# wave then idle, played on one sprite: the figure has the same size and
# place in both variants (each edge of its rectangle of alpha >= 128
# within 1 px), and at @1x the figure origin -- where the render's drawn
# rectangle says it is -- lands exactly on the sprite's position in every
# frame, before and after switching from wave to idle.
python3 - "$T/out" "$T/src" "$W" "$H" "$top_srcdir/tests/cli/engine-place.py" <<'PY' || fail "scale variants: the engines draw them wrong"
import importlib.util, json, os, sys
out, src, W, H, place = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
spec = importlib.util.spec_from_file_location("place", place)
pl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pl)
want = []
for anim in ("wave", "idle"):
    fj = json.load(open(os.path.join(src, anim, "frames.json")))
    want += [(anim, i, os.path.splitext(f["file"])[0], fj["origin"]) for i, f in enumerate(fj["frames"])]
for engine in ("pixi", "phaser"):
    b1 = json.load(open(os.path.join(out, engine + "-var-1", "boxes.json")))
    b2 = json.load(open(os.path.join(out, engine + "-var-2", "boxes.json")))
    assert [b["name"] for b in b1] == [w[2] for w in want], (engine, [b["name"] for b in b1][:4])
    assert [b["name"] for b in b2] == [w[2] for w in want], (engine, "@2x")
    worst = moved = 0
    for (anim, i, name, origin), x, y in zip(want, b1, b2):
        assert x["solid"] and y["solid"], (engine, name, "nothing drawn")
        d = max(abs(p - q) for p, q in zip(x["solid"], y["solid"]))
        assert d <= 1, (engine, name, "@1x", x["solid"], "@2x", y["solid"])
        worst = max(worst, d)
        w, h, rows = pl.png_rgba(os.path.join(src, anim, name + ".png"))
        bx, by, _, _ = pl.drawn_box(rows, w)
        ox = x["any"][0] - bx + origin["x"]
        oy = x["any"][1] - by + origin["y"]
        moved = max(moved, abs(ox - W), abs(oy - H))
        assert (ox, oy) == (W, H), (engine, name, "origin at", ox, oy, "sprite at", W, H)
    print("%s: %d frames; @2x vs @1x edges within %d px; @1x origin off the sprite by %d px"
          % (engine, len(b1), worst, moved))
PY
checks=$((checks + 1))

# Phaser 3 on a rotated sheet: exactly the rotated frames are wrong
run "$BONEBAKE" diff "$T/src" "$T/out/phaser-rotated" --threshold 0.02 --aa count
expect_rc 1
printf '%s\n' "$out" | sed -n 's/^FAIL *[^/]*\/\([^:]*\)\.png:.*/\1/p' | sort >"$T/wrong"
[ -s "$T/wrong" ] && cmp -s "$T/wrong" "$T/out/phaser-rotated/rotated.txt" ||
	fail "phaser-rotated: the wrong frames are not the rotated ones: $(head -n 3 "$T/wrong") vs $(head -n 3 "$T/out/phaser-rotated/rotated.txt")"
checks=$((checks + 1))
pass
