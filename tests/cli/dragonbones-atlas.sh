#!/bin/sh
# DragonBones atlas discovery beside the skeleton: <name>_tex.json,
# <name>_tex_N.json, <name>_texture_N.json (the 4.5 exporter's
# Knight_texture_1.json), texture.json; several pages all load.  Each form
# renders the rig sample exactly as its own rig_tex.json does.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to split the atlas"
S="$SAMPLES/dragonbones"

# reference: the sample as shipped
run "$BONEBAKE" render "$S/rig_ske.json" -o "$T/ref" --anim idle --quiet --jobs 1
expect_rc 0
[ -z "$err" ] || fail "sample: unexpected stderr: $err"

# FOLDER SKELETON-NAME PAGE-NAME...: the skeleton, and the atlas split over
# the pages (regions dealt out in turn), all naming rig_tex.png
layout() {
	dir="$T/$1"
	mkdir -p "$dir"
	cp "$S/rig_ske.json" "$dir/$2"
	cp "$S/rig_tex.png" "$dir/rig_tex.png"
	shift 2
	python3 - "$S/rig_tex.json" "$dir" "$@" <<'PY'
import json, sys
atlas = json.load(open(sys.argv[1]))
pages = sys.argv[3:]
subs = atlas["SubTexture"]
for k, name in enumerate(pages):
    page = dict(atlas, SubTexture=subs[k::len(pages)])
    json.dump(page, open(sys.argv[2] + "/" + name, "w"))
PY
}

# CASE SKELETON: renders without a warning, frames identical to the reference
same() {
	run "$BONEBAKE" render "$T/$1/$2" -o "$T/$1/out" --anim idle --quiet --jobs 1
	expect_rc 0
	[ -z "$err" ] || fail "$1: unexpected stderr: $err"
	for f in "$T/ref/idle/"*.png; do
		cmp -s "$f" "$T/$1/out/idle/$(basename "$f")" ||
			fail "$1: $(basename "$f") differs from the sample's"
	done
	checks=$((checks + 1))
}

layout texture1 Knight.json Knight_texture_1.json
same texture1 Knight.json
layout texture2 Knight.json Knight_texture_1.json Knight_texture_2.json
same texture2 Knight.json
layout tex0 hero_ske.json hero_tex_0.json hero_tex_1.json hero_tex_2.json
same tex0 hero_ske.json
layout tex1 hero_ske.json hero_tex_1.json hero_tex_2.json
same tex1 hero_ske.json
layout plain Ubbie.json texture.json
same plain Ubbie.json

# a page past a gap is not part of the atlas: its regions are missing
layout gap Knight.json Knight_texture_1.json Knight_texture_3.json
run "$BONEBAKE" render "$T/gap/Knight.json" -o "$T/gap/out" --anim idle --quiet
expect_rc 0
expect_err 'warning: Knight\.json: no atlas entry for'

# none of them: the warning names every form looked for
mkdir -p "$T/none"
cp "$S/rig_ske.json" "$T/none/Knight.json"
run "$BONEBAKE" render "$T/none/Knight.json" -o "$T/none/out" --anim idle --quiet
expect_rc 0
expect_err 'no texture atlas found \(Knight_tex\.json, Knight_tex_N\.json, Knight_texture_N\.json or texture\.json; --atlas names one\)'
pass
