# `make install` into a temporary DESTDIR: the binary, libbonebake, its
# headers, bonebake.pc and bonebake(1).  A small C program built with
# `pkg-config --cflags --libs bonebake` against the installed files loads
# a sample and evaluates a pose; the installed man page shows every
# command `bonebake --help` lists, their options and the exit codes.
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null 2>&1 || unavailable "no C compiler (cc)"
command -v pkg-config >/dev/null 2>&1 || unavailable "pkg-config not found"
D="$T/dest"
${MAKE:-make} -C "$top_builddir" install DESTDIR="$D" >"$T/install.log" 2>&1 ||
	fail "make install DESTDIR=$D failed: $(tail -n 5 "$T/install.log")"
checks=$((checks + 1))
pc=$(find "$D" -name bonebake.pc | head -n 1)
bin=$(find "$D" -path '*/bin/bonebake' | head -n 1)
man=$(find "$D" -path '*/man1/bonebake.1' | head -n 1)
[ -n "$pc" ] || fail "no bonebake.pc installed"
[ -n "$bin" ] && [ -x "$bin" ] || fail "no bin/bonebake installed"
[ -n "$man" ] || fail "no man1/bonebake.1 installed"
libdir=$(cd "$(dirname "$pc")/.." && pwd)
ls "$libdir"/libbonebake.so* >/dev/null 2>&1 || fail "no libbonebake.so in $libdir"
for h in bonebake.h status.h geom.h image.h diff.h model.h eval.h render.h pack.h \
	frames.h files.h batch.h output.h anim.h contact.h; do
	[ -n "$(find "$D" -path "*/include/bonebake/$h")" ] || fail "header bonebake/$h not installed"
done
checks=$((checks + 5))

# a program against the installed library only
cat >"$T/pose.c" <<'C'
#include <bonebake/bonebake.h>
#include <math.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	bb_model *m; bb_pose *p; bb_error err; bb_affine w;
	bb_track tr = { 0, 0.0, -1, 0, 0, 0 };
	if (argc < 2 || bb_model_load(argv[1], NULL, &m, &err) != BB_OK) return 2;
	int arm = bb_model_default_armature(m), hand = bb_model_find_bone(m, arm, "hand_R");
	tr.anim = bb_model_find_anim(m, arm, "idle");
	if (hand < 0 || tr.anim < 0 || bb_pose_new(m, arm, &p, &err) != BB_OK ||
	    bb_pose_eval(p, &tr, 1, 0.0, NULL, &err) != BB_OK) return 3;
	w = bb_pose_bone_world(p, hand);
	printf("hand_R %g %g\n", w.tx, w.ty);
	bb_pose_free(p); bb_model_free(m);
	return fabs(w.tx - 28) < 1e-9 && fabs(w.ty - 28) < 1e-9 ? 0 : 1;
}
C
flags=$(PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$D" pkg-config --cflags --libs bonebake) ||
	fail "pkg-config --cflags --libs bonebake failed"
case $flags in *"$D"*) ;; *) fail "pkg-config flags do not point into $D: $flags" ;; esac
cc -o "$T/pose" "$T/pose.c" $flags -lm >"$T/cc.log" 2>&1 || fail "compiling against the installed library: $(head -n 5 "$T/cc.log")"
run env LD_LIBRARY_PATH="$libdir" "$T/pose" "$SAMPLES/humanoid.json"
expect_rc 0
expect_out '^hand_R 28 28$'
# it runs against the installed library, not the build tree's
run env LD_LIBRARY_PATH="$libdir" ldd "$T/pose"
expect_out "$libdir/libbonebake.so"
run env LD_LIBRARY_PATH="$libdir" "$bin" info "$SAMPLES/slime.json"
expect_rc 0

# an animation's frames through the public pipeline (scene, plan, the
# threaded frame loop) with no code from src/: the same pixels as render
cat >"$T/frames.c" <<'C'
#include <bonebake/bonebake.h>
#include <stdio.h>
static bb_status sink(void *dir, long i, const bb_image *img, bb_error *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/walk_%04ld.png", (const char *)dir, i);
	return bb_png_write(path, img, err);
}
int main(int argc, char **argv)
{
	bb_model *m; bb_error err; bb_plan plan;
	bb_scene sc = { 0 }; bb_canvas_options co = { 0 };
	if (argc < 3 || bb_model_load(argv[1], NULL, &m, &err) != BB_OK) return 2;
	sc.armature = bb_model_default_armature(m);
	sc.anim = bb_model_find_anim(m, sc.armature, "walk");
	co.scale = 1; co.pad = 2;
	if (bb_mkdirs(argv[2], NULL, &err) != BB_OK ||
	    bb_plan_scene(m, &sc, &co, &plan, &err) != BB_OK ||
	    bb_render_frames(m, &sc, &plan, 0, -1, 2, sink, argv[2], &err) != BB_OK) {
		fprintf(stderr, "%s\n", err.message);
		return 3;
	}
	printf("%ld frames %dx%d\n", plan.frames, plan.width, plan.height);
	bb_model_free(m);
	return 0;
}
C
cc -o "$T/frames" "$T/frames.c" $flags -lm >"$T/cc.log" 2>&1 || fail "compiling frames.c: $(head -n 5 "$T/cc.log")"
run env LD_LIBRARY_PATH="$libdir" "$T/frames" "$SAMPLES/humanoid.json" "$T/api/walk"
expect_rc 0
expect_out '^24 frames '
run "$BONEBAKE" render "$SAMPLES/humanoid.json" -o "$T/cli" --anim walk --quiet
expect_rc 0
run "$BONEBAKE" diff "$T/cli/walk" "$T/api/walk" --threshold 0
expect_rc 0
expect_out '24 identical'

# the man page: every command, its options, the exit codes
command -v man >/dev/null 2>&1 || unavailable "man not found (apt-get install man-db)"
MANWIDTH=120 man -l "$man" 2>"$T/man.err" | col -b >"$T/man.txt"
[ -s "$T/man.txt" ] || fail "man -l $man printed nothing: $(head -n 3 "$T/man.err")"
cmds=$("$BONEBAKE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$cmds" ] || fail "no commands in bonebake --help"
for c in $cmds; do
	grep -q "^ *bonebake $c\$" "$T/man.txt" || fail "man page has no section for '$c'"
	# every long option of the command's --help is on the page
	for o in $("$BONEBAKE" "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "$o" "$T/man.txt" || fail "man page lacks $c's option $o"
	done
	checks=$((checks + 2))
done
grep -q '^EXIT STATUS' "$T/man.txt" || fail "man page has no EXIT STATUS"
for code in 0 1 2 3 4 5 6 70; do
	grep -q "^ *$code  *[a-zA-Z/]" "$T/man.txt" || fail "man page's EXIT STATUS lacks $code"
done
checks=$((checks + 2))
# EXAMPLES (README's command examples) and the documentation it points to
grep -q '^EXAMPLES' "$T/man.txt" || fail "man page has no EXAMPLES"
grep -q 'bonebake render samples/humanoid.json' "$T/man.txt" ||
	fail "man page's EXAMPLES lacks the render example"
docdir=$(find "$D" -type d -path '*/doc/bonebake' | head -n 1)
[ -n "$docdir" ] || fail "no share/doc/bonebake installed"
for f in README.md docs/cli.md docs/architecture.md docs/formats/spine.md; do
	[ -s "$docdir/$f" ] || fail "$f not installed in $docdir"
done
grep -q "$(echo "$docdir" | sed "s|^$D||")" "$T/man.txt" ||
	fail "man page's SEE ALSO does not name $docdir"
checks=$((checks + 3))
pass
