#!/bin/sh
# Every output kind is byte-identical whatever --jobs: frames, frames.json,
# previews (WebP, GIF, APNG) and contact sheets of render (Spine physics
# included); sheet pages and
# every metadata format; pack; diff images and reports; batch outputs.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
H="$SAMPLES/humanoid.json"
D="$SAMPLES/dragonbones/rig_ske.json"
for j in 1 2 5; do
	o="$T/j$j"
	mkdir -p "$o"
	"$BONEBAKE" render "$H" -o "$o/render" --anim walk --anim attack --preview webp \
		--contact-sheet "$o/contact.png" --jobs $j --quiet || fail "render --jobs $j"
	"$BONEBAKE" render "$D" -o "$o/render-db" --all --preview gif --jobs $j --quiet ||
		fail "render DragonBones --jobs $j"
	# Spine physics: each frame simulated from t = 0, whichever thread
	"$BONEBAKE" render "$SAMPLES/spine/keeper.json" -o "$o/render-spine" --all --jobs $j \
		--quiet || fail "render Spine --jobs $j"
	"$BONEBAKE" preview "$D" -o "$o/prev" --all --format apng --jobs $j --quiet ||
		fail "preview --jobs $j"
	"$BONEBAKE" sheet "$H" -o "$o/sheet" --multipack --max-size 512 \
		--format json,phaser3,libgdx,cocos2d,godot --preview webp --jobs $j --quiet ||
		fail "sheet --jobs $j"
	"$BONEBAKE" pack "$o/render" -o "$o/pack" --rotate --format json,cocos2d --jobs $j --quiet ||
		fail "pack --jobs $j"
	"$BONEBAKE" render "$H" -o "$o/render-bg" --anim walk --bg white --jobs $j --quiet
	# reports name their inputs and images: the same paths for every --jobs
	(cd "$T" && "$BONEBAKE" diff j1/render j1/render-bg -o "diff$j" \
		--json "j$j/diff.json" --junit "j$j/diff.xml" --jobs $j --quiet >/dev/null)
	sed "s/diff$j/diffN/g" "$o/diff.json" >"$o/diff.json.n" && mv "$o/diff.json.n" "$o/diff.json"
	sed "s/diff$j/diffN/g" "$o/diff.xml" >"$o/diff.xml.n" && mv "$o/diff.xml.n" "$o/diff.xml"
	mv "$T/diff$j" "$o/diff"
done
for j in 2 5; do
	diff -r "$T/j1" "$T/j$j" >"$T/d" || fail "--jobs 1 and --jobs $j differ: $(head -n 5 "$T/d")"
	checks=$((checks + 1))
done
# and the set is what it should be (no kind silently missing)
for f in render/walk/walk_0000.png render/walk/frames.json render/walk/walk.webp \
	contact-walk.png render-db/robot/idle/idle.gif render-spine/idle/idle_0030.png prev/robot/wave.apng sheet/sheet-0.png \
	sheet/sheet-0.json sheet/sheet.multiatlas.json sheet/sheet.atlas sheet/sheet-0.plist \
	sheet/sheet.tres sheet/walk.webp pack/sheet.png diff.json diff.xml; do
	[ -s "$T/j1/$f" ] || fail "missing $f: $(cd "$T/j1" && find . -maxdepth 2 | head -20)"
done
checks=$((checks + 1))
pass
