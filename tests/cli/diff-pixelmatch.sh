# `bonebake diff --compat pixelmatch` counts exactly what pixelmatch 7
# counts, on random and render-like pairs (translucent pixels, anti-aliased
# edges), for several thresholds, with and without AA detection.  Needs
# Node and the npm packages pixelmatch@7 and pngjs in $PIXELMATCH_DIR:
#   mkdir /tmp/pm && cd /tmp/pm && npm install pixelmatch@7 pngjs
#   make check TESTS=tests/cli/diff-pixelmatch.sh PIXELMATCH_DIR=/tmp/pm
. "$(dirname "$0")/lib.sh"
MKPNG="$top_builddir/tests/cli/diff-mkpng"
PM=${PIXELMATCH_DIR:-}
[ -n "$PM" ] || skip "PIXELMATCH_DIR not set (a folder with npm's pixelmatch@7 and pngjs)"
[ -f "$PM/node_modules/pixelmatch/index.js" ] && [ -d "$PM/node_modules/pngjs" ] ||
	skip "no pixelmatch and pngjs under $PM/node_modules"
command -v node >/dev/null 2>&1 || skip "node not found"
[ -x "$MKPNG" ] || skip "tests/cli/diff-mkpng is not built"

cat >"$T/pm.mjs" <<JS
import fs from 'fs';
import { createRequire } from 'module';
const require = createRequire('$PM/');
const { PNG } = require('pngjs');
const pixelmatch = (await import('$PM/node_modules/pixelmatch/index.js')).default;
for (const line of fs.readFileSync(process.argv[2], 'utf8').trim().split('\n')) {
	const [a, b, t, aa, white] = line.split(' ');
	const A = PNG.sync.read(fs.readFileSync(a)), B = PNG.sync.read(fs.readFileSync(b));
	const n = pixelmatch(A.data, B.data, null, A.width, A.height,
		{ threshold: +t, includeAA: aa === 'count', checkerboard: white !== '1' });
	console.log(n);
}
JS
: >"$T/cases"
for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
	"$MKPNG" "$T/n$s-a.png" 41 37 noise "$s" $((s % 4 + 2)) $((s % 2)) || fail "diff-mkpng"
	"$MKPNG" "$T/n$s-b.png" 41 37 noise "$s" $((s % 4 + 2)) $((s % 2)) perturb $((s + 50)) $((s * 9)) || fail "diff-mkpng"
	"$MKPNG" "$T/s$s-a.png" 70 50 scene "$s" || fail "diff-mkpng"
	"$MKPNG" "$T/s$s-b.png" 70 50 scene "$s" disc 30 20 $((s % 7 + 2)).5 3366ff90 perturb "$s" 6 || fail "diff-mkpng"
	for p in n s; do for t in 0 0.05 0.1 0.3; do for aa in ignore count; do for w in 0 1; do
		echo "$T/$p$s-a.png $T/$p$s-b.png $t $aa $w" >>"$T/cases"
	done; done; done; done
done
node "$T/pm.mjs" "$T/cases" >"$T/expected" 2>"$T/node.err" || fail "node: $(head -c 400 "$T/node.err")"
i=0
while read -r a b t aa w; do
	i=$((i + 1))
	compat=pixelmatch
	[ "$w" = 1 ] && compat=pixelmatch-white
	n=$("$BONEBAKE" diff --compat "$compat" --threshold "$t" --aa "$aa" --json - "$a" "$b" |
		sed -n 's/.*"diff_pixels": \([0-9]*\).*/\1/p' | head -n 1)
	want=$(sed -n "${i}p" "$T/expected")
	[ -n "$n" ] && [ "$n" = "$want" ] ||
		fail "$(basename "$a") vs $(basename "$b"), threshold $t, aa $aa, white $w: bonebake ${n:-?}, pixelmatch $want"
	checks=$((checks + 1))
done <"$T/cases"
pass
