#!/bin/sh
# The 3.8 spineboy against the 4.2 one (../shared/corpus/spine): the same
# character exported by two Spine versions, read by two paths of the loader
# (3.8: `transform` inherit names, scalar curves, `color`/`twoColor`,
# deform under `deform`; 4.x: `inherit`, curve arrays, rgba, attachments).
# Only the animations whose data did not change between the exports are
# compared: aim and shoot have the same keys at the same times in both
# files; walk, run, jump, idle and death were re-animated for 4.x (other
# durations and bones: walk's last key is 0.867 s in 3.8, 1 s in 4.2).
# The 4.2 rig also gained three bones (back-shoulder, front-shoulder,
# head-control), which moves the arms a few pixels.  So: for the bones both
# have, every world position within 3 px on aim and on average within 2 px
# on shoot (worst 20 px there, the re-rigged gun arm), and aim's rendered
# frame differs in at most 4% of its pixels (2.3% measured: the hair).
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
C=${BB_CORPUS:-$SHARED}/corpus/spine
need_shared "$C/spineboy_3.8" "no $C/spineboy_3.8 (../shared is absent)"
command -v python3 >/dev/null || fail "python3 is needed (scripts/test installs it)"
for v in 3.8 4.2; do
	for a in aim shoot; do
		run "$BONEBAKE" pose "$C/spineboy_$v/spineboy-pro.json" --anim $a -o "$T/$v-$a.json"
		expect_rc 0
	done
	run "$BONEBAKE" render "$C/spineboy_$v/spineboy-pro.json" --anim aim -o "$T/r$v" \
		--size 400x600 --origin 200,560 --scale 0.5 --quiet
	expect_rc 0
done
python3 - "$T" <<'PY' || fail "3.8 and 4.2 poses differ"
import json, math, sys
t = sys.argv[1]
bad = 0
for anim, worst_max, mean_max in (("aim", 3.0, 3.0), ("shoot", 1e9, 2.0)):
    p3 = json.load(open("%s/3.8-%s.json" % (t, anim)))["frames"]
    p4 = json.load(open("%s/4.2-%s.json" % (t, anim)))["frames"]
    if len(p3) != len(p4):
        print("%s: %d frames in 3.8, %d in 4.2" % (anim, len(p3), len(p4)))
        bad = 1
        continue
    worst, total, n = 0.0, 0.0, 0
    for f3, f4 in zip(p3, p4):
        b4 = {b["name"]: b["m"] for b in f4["bones"]}
        for b in f3["bones"]:
            if b["name"] in b4:
                m, k = b["m"], b4[b["name"]]
                d = math.hypot(m[4] - k[4], m[5] - k[5])
                worst, total, n = max(worst, d), total + d, n + 1
    mean = total / max(n, 1)
    print("%s: %d frames, %d bone positions, mean %.3f px, worst %.3f px" % (anim, len(p3), n, mean, worst))
    if n < 60 * len(p3) or worst > worst_max or mean > mean_max:
        bad = 1
sys.exit(bad)
PY
run "$BONEBAKE" diff "$T/r3.8/aim/aim_0000.png" "$T/r4.2/aim/aim_0000.png" --max-diff-ratio 0.04
expect_rc 0
echo "$out"
pass
