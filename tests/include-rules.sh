#!/bin/sh
# Who may include what (STYLE.md), checked from the #include lines:
#   core: libc + public value headers, jansson (json.h only)  model: core
#   loaders: model, core, expat           eval: model, core
#   raster: eval, image, core, cairo      pack, diff: image, core
#   frames: raster, eval, model, image, core  batch: core
#   image: core, libpng, libdeflate, libwebp, giflib, FFmpeg  src: public headers
#   output: core
# and that nothing but lib/core/json.c calls jansson itself: every JSON
# document (the loaders' formats, batch manifests and stamps, frames.json)
# is read through core/json.h, so its errors name the file and the field.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$(dirname "$0")/cli/lib.sh"
cd "$top_srcdir" || fail "no source tree"
bad=0
check() {  # FOLDER ALLOWED-PROJECT-PREFIXES ALLOWED-SYSTEM-LIBS
	for f in "$1"/*.c "$1"/*.h; do
		[ -e "$f" ] || continue
		grep -h '^#include' "$f" | while read -r _ inc; do
			case "$inc" in
			'"config.h"'|'<'*'.h>') # system or libc header
				case "$inc" in
				'<cairo'*) echo "$3" | grep -qw cairo || echo "$f: $inc" ;;
				'<png'*) echo "$3" | grep -qw png || echo "$f: $inc" ;;
				'<libdeflate'*) echo "$3" | grep -qw libdeflate || echo "$f: $inc" ;;
				'<jansson'*) echo "$3" | grep -qw jansson || echo "$f: $inc" ;;
				'<expat'*) echo "$3" | grep -qw expat || echo "$f: $inc" ;;
				'<webp/'*) echo "$3" | grep -qw webp || echo "$f: $inc" ;;
				'<gif_lib'*) echo "$3" | grep -qw gif || echo "$f: $inc" ;;
				'<libav'*|'<libsw'*) echo "$3" | grep -qw ffmpeg || echo "$f: $inc" ;;
				esac ;;
			'"'*)
				p=${inc#\"}; p=${p%\"}; p=${p%%/*}
				echo " $2 " | grep -q " $p " || echo "$f: $inc"
				;;
			esac
		done
	done
}
src_headers=$(cd src && ls *.h | tr "\n" " ")
out=$(
check lib/core "core bonebake" "jansson"
check lib/image "core image bonebake" "png libdeflate webp gif ffmpeg"
check lib/model "model core bonebake" ""
check lib/loaders "loaders model core bonebake" "expat"
check lib/eval "eval model core bonebake" ""
check lib/raster "raster eval image core bonebake" "cairo"
check lib/frames "frames raster eval model image core bonebake" ""
check lib/batch "batch core bonebake" ""
check lib/pack "pack image core bonebake" ""
check lib/diff "diff image core bonebake" ""
check lib/output "output core bonebake" ""
check src "bonebake $src_headers" ""
)
checks=1
[ -z "$out" ] || fail "includes that break the layering rules:
$out"
# core/json.h is the only header that includes jansson, core/json.c the
# only user of it: the others name json_t and read through json.h
# (bb__jnum, bb__jeach, ...), never jansson's getters
inc=$(grep -ln '<jansson' lib/*/*.c lib/*/*.h | grep -v '^lib/core/json\.h$')
raw=$(grep -nE '\<json_[a-z_]+' lib/*/*.c lib/*/*.h |
	grep -v '^lib/core/json\.[ch]:' | grep -E '\<json_([a-su-z_]|t[a-z_])')
checks=2
[ -z "$inc$raw" ] || fail "jansson used outside lib/core/json.c (use core/json.h):
$inc
$raw"
pass
