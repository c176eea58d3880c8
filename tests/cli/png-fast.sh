#!/bin/sh
# The fast PNG encoder, render's default for frames over 2^17 pixels:
# pngcheck finds its files clean, they decode to the pixels of a stored
# (level 0) render, and the bytes are the same whatever the thread count
# and whichever row-filter path runs (BONEBAKE_PNG_SIMD=scalar, sse4,
# avx2: the ones this CPU lacks fall back to the best it has, and still
# must give the same bytes).
. "$(dirname "$0")/lib.sh"
command -v pngcheck >/dev/null 2>&1 ||
	unavailable "pngcheck not installed (scripts/test installs it)"

# textured meshes (keeper) and flat shapes (humanoid), 512 x 512 frames
render() {  # NAME FILE ANIM ARGS...
	name=$1 file=$2 anim=$3
	shift 3
	run "$BONEBAKE" render "$file" -o "$T/$name" --anim "$anim" --size 512x512 --quiet "$@"
	expect_rc 0
}
for s in "keeper $SAMPLES/spine/keeper.json reach" \
	"humanoid $SAMPLES/humanoid.json walk"; do
	set -- $s
	anim=$3
	render "$1-fast" "$2" "$anim" --png-level fast --jobs 2
	render "$1-def" "$2" "$anim"
	render "$1-0" "$2" "$anim" --png-level 0
	render "$1-1job" "$2" "$anim" --png-level fast --jobs 1
	for path in scalar sse4 avx2; do
		BONEBAKE_PNG_SIMD=$path
		export BONEBAKE_PNG_SIMD
		render "$1-$path" "$2" "$anim" --png-level fast
		unset BONEBAKE_PNG_SIMD
		diff -r "$T/$1-$path" "$T/$1-fast" >/dev/null ||
			fail "$1: BONEBAKE_PNG_SIMD=$path changed the bytes"
		checks=$((checks + 1))
	done
	diff -r "$T/$1-def" "$T/$1-fast" >/dev/null || fail "$1: the default is not fast"
	diff -r "$T/$1-1job" "$T/$1-fast" >/dev/null || fail "$1: --jobs changed the bytes"
	checks=$((checks + 2))
	n=$(ls "$T/$1-fast/$anim"/*.png | wc -l)
	[ "$n" -gt 1 ] || fail "$1: expected frames, found $n"
	run pngcheck -q "$T/$1-fast/$anim"/*.png
	expect_rc 0
	run "$BONEBAKE" diff "$T/$1-0" "$T/$1-fast"
	expect_rc 0
	expect_out "$n identical"
done
pass
