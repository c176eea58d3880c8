#!/bin/sh
# Replays every fuzz target's saved inputs (tests/fuzz/corpus/<target>/:
# seeds and every crasher found) and the samples of its format through the
# target's plain main (no libFuzzer needed; with --enable-fuzzing the
# targets are libFuzzer binaries and replay with -runs=0).  A crash or a
# sanitizer report fails the test.
. "$(dirname "$0")/../cli/lib.sh"
C="$top_srcdir/tests/fuzz/corpus"
S="$top_srcdir/samples"
replay() {  # TARGET MIN-INPUTS PATH...
	t=$1 min=$2
	shift 2
	bin="$top_builddir/tests/fuzz/fuzz-$t"
	[ -x "$bin" ] || fail "$bin is not built"
	set -- $(for p in "$@"; do [ -e "$p" ] && echo "$p"; done)
	if "$bin" -help=1 >/dev/null 2>&1; then
		out=$("$bin" -runs=0 "$@" 2>&1) || fail "fuzz-$t replay failed: $out"
		n=$(printf '%s\n' "$out" | sed -n 's/.*INITED.*corp: \([0-9]*\).*/\1/p' | tail -1)
	else
		out=$("$bin" "$@" 2>&1) || fail "fuzz-$t replay failed: $out"
		n=$(printf '%s' "$out" | sed -n 's/^replayed \([0-9]*\) inputs$/\1/p')
	fi
	printf 'fuzz-%s: %s inputs\n' "$t" "${n:-?}"
	[ "${n:-0}" -ge "$min" ] || fail "fuzz-$t replayed only ${n:-0} inputs"
	checks=$((checks + 1))
}
replay native 10 "$C" "$S"
replay skeleton 3 "$C/skeleton" "$S/humanoid.json" "$S/slime.json" "$S/snake.json" "$C/native"
replay dragonbones 3 "$C/dragonbones" "$S/dragonbones/rig_ske.json" \
	"$S/dragonbones/mesh_ske.json" "$S/dragonbones/old_ske.json"
replay dragonbones-atlas 2 "$C/dragonbones-atlas" "$S/dragonbones/rig_tex.json" \
	"$S/dragonbones/mesh_tex.json"
replay cocos-json 2 "$C/cocos" "$S/cocos/lamp.ExportJson"
replay cocos-xml 2 "$C/cocos" "$S/cocos/bird.xml"
replay cocos-plist 1 "$C/cocos-plist" "$S/cocos/lamp0.plist"
replay ssajson 1 "$C/ssajson" "$S/ssajson/demo.json"
replay forge 3 "$C/forge"
replay spine 5 "$C/spine" "$S/spine/keeper.json"
replay spine-atlas 5 "$C/spine-atlas" "$S/spine/keeper.atlas"
replay spine-binary 4 "$C/spine-binary" "$S/spine/keeper.skel"
replay batch 4 "$C/batch"
replay png 10 "$C/png" "$S" "$top_srcdir/tests/ref/images"
replay png-encode 8 "$C/png-encode"
pass
