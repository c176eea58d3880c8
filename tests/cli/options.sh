#!/bin/sh
# The rough edges a first user hits: a misspelled option gets "did you
# mean" (every command), a missing or unwanted value and an ambiguous
# abbreviation say so; `info` marks the default armature (text and JSON)
# that `render --help` describes, and gives Forge armatures the rate their
# clips render at; repeated warnings collapse into one line with a count,
# and no per-image warning follows the one that says no atlas was found.
. "$(dirname "$0")/lib.sh"
S="$SAMPLES/slime.json"
typo() {   # command, typo, suggestion, arguments...
	c=$1 t=$2 want=$3
	shift 3
	run "$BONEBAKE" "$c" "$@" "$t"
	expect_rc 2
	expect_err "^bonebake $c: unknown option ${t%%=*}; did you mean $want\?\$"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 2 ] || fail "$last: not two lines: $err"
}
typo render --scael=2 --scale "$S" -o "$T/o"
typo sheet --paddng=2 --padding "$S" -o "$T/o"
typo preview --formt=gif --format "$S" -o "$T/o.gif"
typo pose --fsp=10 --fps "$S"
typo info --jsno --json "$S"
typo pack --trimm --trim "$T" -o "$T/o"
typo diff --treshold=1 --threshold "$T/a" "$T/b"
typo gallery --titel=x --title "$T" -o "$T/o"
typo batch --shrad=0/2 --shard "$T/m.json"
expect_absent "$T/o"

run "$BONEBAKE" render "$S" -o "$T/o" --zzzzzz
expect_rc 2; expect_err '^bonebake render: unknown option --zzzzzz$'
run "$BONEBAKE" render "$S" -o
expect_rc 2; expect_err '^bonebake render: option -o needs a value$'
run "$BONEBAKE" render "$S" -o "$T/o" --scale
expect_rc 2; expect_err '^bonebake render: option --scale needs a value$'
run "$BONEBAKE" render "$S" -o "$T/o" --quiet=yes
expect_rc 2; expect_err '^bonebake render: option --quiet takes no value$'
run "$BONEBAKE" render "$S" -o "$T/o" --p 1
expect_rc 2; expect_err '^bonebake render: option --p is ambiguous \([0-9]+ options start so\)$'
run "$BONEBAKE" info -x "$S"
expect_rc 2; expect_err '^bonebake info: unknown option -x$'
expect_absent "$T/o"

# the default armature: what render --help says, what info marks
run "$BONEBAKE" render --help
expect_out 'most'
run "$BONEBAKE" info "$SAMPLES/dragonbones/rig_ske.json"
expect_rc 0
expect_out '^armature robot \(default\): '
printf '%s\n' "$out" | grep -q '^armature orb (default)' && fail "orb marked default"
run "$BONEBAKE" info --json "$SAMPLES/dragonbones/rig_ske.json"
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
flags = {a["name"]: a["default"] for a in d["armatures"]}
assert flags == {"robot": True, "orb": False}, flags
' || fail "info --json default flags: $out"
checks=$((checks + 1))
run "$BONEBAKE" render "$SAMPLES/dragonbones/rig_ske.json" -o "$T/d" --quiet
[ -d "$T/d/idle" ] && [ -d "$T/d/wave" ] || fail "render did not take robot (idle, wave)"
checks=$((checks + 1))

# Forge: the armature's rate is the one its clips render at
run "$BONEBAKE" info "$SAMPLES/forge/assets/bbsample/armatures/block/lidbox.json"
expect_rc 0
expect_out '^armature lidbox: .* 30 fps$'
expect_out '^  open +.* @ 30 fps'
printf '%s\n' "$out" | grep -q ' 0 fps' && fail "info prints 0 fps: $out"

# warnings: one line for the missing atlas, none per image after it
mkdir "$T/rig"
cp "$SAMPLES/dragonbones/rig_ske.json" "$T/rig/"
run "$BONEBAKE" render "$T/rig/rig_ske.json" -o "$T/r1" --quiet
expect_rc 0
# (the frames that draw nothing are render's own warning, per animation)
[ "$(printf '%s\n' "$err" | grep warning | grep -vc 'frames are blank')" -eq 1 ] ||
	fail "not one warning: $err"
expect_err 'no texture atlas found'
# with an atlas lacking some images: one line naming three and the count
cp "$SAMPLES/dragonbones/rig_tex.png" "$T/rig/"
python3 - "$SAMPLES/dragonbones/rig_tex.json" "$T/rig/rig_tex.json" <<'P'
import json, sys
a = json.load(open(sys.argv[1]))
a["SubTexture"] = a["SubTexture"][:1]
json.dump(a, open(sys.argv[2], "w"))
P
run "$BONEBAKE" render "$T/rig/rig_ske.json" -o "$T/r2" --quiet
expect_rc 0
[ "$(printf '%s\n' "$err" | grep warning | grep -vc 'frames are blank')" -eq 1 ] ||
	fail "not one warning: $err"
expect_err '^bonebake: warning: rig_ske\.json: no atlas entry for "[^"]+", "[^"]+", "[^"]+" and [0-9]+ more \([0-9]+ in all\); drawn as nothing$'
pass
