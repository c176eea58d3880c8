# `bonebake diff --compat pixelmatch` counts exactly what pixelmatch 8 (the
# current release) counts, and `--compat pixelmatch7` what pixelmatch 7
# counts: on random and render-like synthetic pairs (translucent pixels,
# anti-aliased edges) for several thresholds, with and without AA
# detection, on both backdrops; and on 200+ realistic pairs — the samples
# (and ../shared/corpus files when present) rendered twice with a small
# perturbation (sub-pixel origin, scale, another fps) — including
# pixelmatch 8's windowSize (bonebake's --window) and ignoreMask
# (--ignore).  Needs Node and the npm packages of tests/node/package.json
# (pixelmatch 8, pixelmatch7 = pixelmatch@7, pngjs), which scripts/test
# installs; BONEBAKE_NODE_MODULES names their node_modules folder.
. "$(dirname "$0")/lib.sh"
MKPNG="$top_builddir/tests/cli/diff-mkpng"
NM=${BONEBAKE_NODE_MODULES:-$top_builddir/node/node_modules}
command -v node >/dev/null 2>&1 || unavailable "node not found (apt-get install nodejs)"
for p in pixelmatch pixelmatch7 pngjs; do
	[ -f "$NM/$p/package.json" ] ||
		unavailable "npm package $p not in $NM (scripts/test installs tests/node/package.json there)"
done
grep -q '"version": "8\.' "$NM/pixelmatch/package.json" || fail "$NM/pixelmatch is not pixelmatch 8"
grep -q '"version": "7\.' "$NM/pixelmatch7/package.json" || fail "$NM/pixelmatch7 is not pixelmatch 7"
[ -x "$MKPNG" ] || fail "tests/cli/diff-mkpng is not built"

# One line per comparison: A B VERSION THRESHOLD AA WHITE WINDOW IGNORE
# (IGNORE: x,y,w,h or -); prints pixelmatch's count for each.
cat >"$T/pm.mjs" <<JS
import fs from 'fs';
import { createRequire } from 'module';
const require = createRequire('$NM/');
const { PNG } = require('pngjs');
const pm = { 8: (await import('$NM/pixelmatch/index.js')).default,
	7: (await import('$NM/pixelmatch7/index.js')).default };
const out = [];
for (const line of fs.readFileSync(process.argv[2], 'utf8').trim().split('\n')) {
	const [a, b, v, t, aa, white, win, ign] = line.split(' ');
	const A = PNG.sync.read(fs.readFileSync(a)), B = PNG.sync.read(fs.readFileSync(b));
	const o = { threshold: +t, includeAA: aa === 'count', checkerboard: white !== '1' };
	if (win !== '-') o.windowSize = +win;
	if (ign !== '-') {
		const [x, y, w, h] = ign.split(',').map(Number);
		o.ignoreMask = new Uint8Array(A.width * A.height);
		for (let j = Math.max(y, 0); j < Math.min(y + h, A.height); j++)
			for (let i = Math.max(x, 0); i < Math.min(x + w, A.width); i++) o.ignoreMask[j * A.width + i] = 1;
	}
	out.push(pm[v](A.data, B.data, null, A.width, A.height, o));
}
console.log(out.join('\n'));
JS

# check NAME DIR_A DIR_B < CONFIGS: for each configuration line (VERSION
# THRESHOLD AA WHITE WINDOW IGNORE, "-" for none) compares every pair of
# the two folders with bonebake (one folder run) and with pixelmatch (one
# node run for all), and fails unless every count is the same.
check() {
	name=$1 da=$2 db=$3
	(cd "$da" && find . -name '*.png' | sed 's|^\./||' | LC_ALL=C sort) >"$T/$name.pairs"
	npairs=$(wc -l <"$T/$name.pairs")
	: >"$T/$name.cases"
	: >"$T/$name.got"
	while read -r v t aa w win ign; do
		compat=pixelmatch
		[ "$v" = 7 ] && compat=pixelmatch7
		[ "$w" = 1 ] && compat=$compat-white
		set -- --compat "$compat" --threshold "$t" --aa "$aa"
		[ "$win" = - ] || set -- "$@" --window "$win"
		[ "$ign" = - ] || set -- "$@" --ignore "$ign"
		field=diff_pixels
		[ "$win" = - ] || field=window_pixels
		sed "s|.*|$da/& $db/& $v $t $aa $w $win $ign|" "$T/$name.pairs" >>"$T/$name.cases"
		"$BONEBAKE" diff "$@" --max-diff-ratio 1 --json "$T/$name.json" "$da" "$db" >/dev/null
		# the pairs (not the per-animation entries, which name their frames)
		grep '"path": ' "$T/$name.json" | grep -v '"baseline_frames": ' |
			sed -n "s/.*\"$field\": \([0-9]*\).*/\1 $*/p" >"$T/$name.one"
		[ "$(wc -l <"$T/$name.one")" -eq "$npairs" ] ||
			fail "$name: $*: bonebake reported $(wc -l <"$T/$name.one") of $npairs pairs"
		cat "$T/$name.one" >>"$T/$name.got"
		total=$(awk '{ s += $1 } END { print s }' "$T/$name.one")
		echo "$name: $npairs pairs, $*: $total"
	done
	node "$T/pm.mjs" "$T/$name.cases" >"$T/$name.expected" 2>"$T/node.err" ||
		fail "node: $(head -c 400 "$T/node.err")"
	paste -d ' ' "$T/$name.expected" "$T/$name.got" "$T/$name.cases" |
		awk '$1 != $2 { print; bad++ } END { exit bad > 0 }' >"$T/$name.bad" ||
		fail "$name: $(wc -l <"$T/$name.bad") counts differ from pixelmatch (pixelmatch, bonebake, options, pair): $(head -n 3 "$T/$name.bad")"
	checks=$((checks + $(wc -l <"$T/$name.got")))
}

# Synthetic pairs
mkdir -p "$T/sa" "$T/sb"
for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
	"$MKPNG" "$T/sa/n$s.png" 41 37 noise "$s" $((s % 4 + 2)) $((s % 2)) || fail "diff-mkpng"
	"$MKPNG" "$T/sb/n$s.png" 41 37 noise "$s" $((s % 4 + 2)) $((s % 2)) perturb $((s + 50)) $((s * 9)) || fail "diff-mkpng"
	"$MKPNG" "$T/sa/s$s.png" 70 50 scene "$s" || fail "diff-mkpng"
	"$MKPNG" "$T/sb/s$s.png" 70 50 scene "$s" disc 30 20 $((s % 7 + 2)).5 3366ff90 perturb "$s" 6 || fail "diff-mkpng"
done
for v in 7 8; do for t in 0 0.05 0.1 0.3; do for aa in ignore count; do for w in 0 1; do
	echo "$v $t $aa $w - -"
done; done; done; done >"$T/configs"
cat >>"$T/configs" <<EOF2
8 0.1 ignore 0 3 -
8 0.05 count 0 7 -
8 0.1 ignore 0 1000 -
8 0.05 count 0 - 5,3,20,12
8 0.1 ignore 1 6 0,0,30,50
EOF2
check synthetic "$T/sa" "$T/sb" <"$T/configs"

# Realistic pairs: each file rendered as a base and three perturbations
# (sub-pixel origin, scale, fps) on a fixed canvas; frame i of the base
# against frame i of each.  realistic NAME FILE SIZE X,Y FPS [options]
realistic() {
	name=$1 file=$2 size=$3 origin=$4 fps=$5
	shift 5
	x=${origin%,*} y=${origin#*,}
	"$BONEBAKE" render "$file" -o "$T/r/$name/base" --size "$size" --origin "$origin" \
		--fps "$fps" --quiet "$@" 2>/dev/null || return 1
	"$BONEBAKE" render "$file" -o "$T/r/$name/origin" --size "$size" \
		--origin "$x.37,$y.21" --fps "$fps" --quiet "$@" 2>/dev/null || return 1
	"$BONEBAKE" render "$file" -o "$T/r/$name/scale" --size "$size" --origin "$origin" \
		--fps "$fps" --scale 1.04 --quiet "$@" 2>/dev/null || return 1
	"$BONEBAKE" render "$file" -o "$T/r/$name/fps" --size "$size" --origin "$origin" \
		--fps $((fps + 1)) --quiet "$@" 2>/dev/null || return 1
	for v in origin scale fps; do
		mkdir -p "$T/ra/$name-$v" "$T/rb/$name-$v"
		cp -rs "$T/r/$name/base/." "$T/ra/$name-$v/"
		cp -rs "$T/r/$name/$v/." "$T/rb/$name-$v/"
	done
	# the other fps has more frames: only the base's are paired
	(cd "$T/rb" && find "$name-fps" -name '*.png') | while read -r f; do
		[ -e "$T/ra/$f" ] || rm -f "$T/rb/$f"
	done
}
realistic humanoid "$SAMPLES/humanoid.json" 120x170 60,150 6 || fail "render humanoid"
realistic back "$SAMPLES/humanoid.json" 120x170 60,150 6 --direction back --anim walk --anim jump || fail "render humanoid"
realistic rig "$SAMPLES/dragonbones/rig_ske.json" 160x190 45,180 6 || fail "render rig"
realistic mesh "$SAMPLES/dragonbones/mesh_ske.json" 200x200 100,150 6 || fail "render mesh"
realistic ssajson "$SAMPLES/ssajson/demo.json" 160x160 80,80 6 || fail "render ssajson"
realistic lamp "$SAMPLES/cocos/lamp.ExportJson" 160x160 80,120 6 || fail "render lamp"
realistic slime "$SAMPLES/slime.json" 120x100 60,90 6 || fail "render slime"
if [ -d "$SHARED/corpus/dragonbones" ]; then
	k=0
	for f in $(find "$SHARED/corpus/dragonbones" -name '*_ske.json' | LC_ALL=C sort | head -n 3); do
		k=$((k + 1))
		realistic "corpus$k" "$f" 200x200 100,160 3 || true
	done
fi
n=$(cd "$T/ra" && find . -name '*.png' | wc -l)
[ "$n" -ge 200 ] || fail "only $n realistic pairs (want 200 or more)"
check realistic "$T/ra" "$T/rb" <<EOF2
8 0.1 ignore 0 - -
8 0.05 count 1 - -
8 0.1 ignore 0 8 -
8 0.2 ignore 0 16 10,10,60,60
7 0.1 ignore 0 - -
7 0.05 count 1 - -
EOF2
pass
