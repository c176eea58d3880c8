#!/bin/sh
# Write errors are never silent (issue: hostile input): standard output on a
# full device exits 4 with one line, and so does one closed before the run
# when something is written to it (nothing written: no error); a full disk under render, sheet, pack,
# pose -o, info -o and diff -o/--html/--json exits 4 and leaves nothing
# partial (no staging folder, no half file, an earlier output intact; a
# video preview too); a report aimed at a device is written in place, never
# renamed over it; past a file size limit (ulimit -f) the same, with one
# line however many threads hit it; a failed sheet removes the folders it
# made for its destination, also when it staged inside it.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
H="$SAMPLES/humanoid.json"
[ -w /dev/full ] || unavailable "no writable /dev/full"

"$BONEBAKE" render "$H" -o "$T/a" --anim idle --quiet || fail "render a"
"$BONEBAKE" render "$H" -o "$T/b" --anim idle --bg white --quiet || fail "render b"

full() {  # EXPECTED-STDERR-REGEX COMMAND...
	re=$1; shift
	"$@" >/dev/full 2>"$T/.err"
	rc=$?
	err=$(cat "$T/.err")
	last="$* >/dev/full"
	expect_rc 4
	expect_err "$re"
}
full 'standard output: write error: No space left' "$BONEBAKE" info "$H"
full 'standard output: write error' "$BONEBAKE" --help
full 'standard output: write error' "$BONEBAKE" --version
full 'standard output: write error' "$BONEBAKE" info "$H" --json
full 'standard output: write error' "$BONEBAKE" pose "$H" --anim walk
full 'standard output: write error' "$BONEBAKE" render "$H" -o "$T/r" --anim walk
full 'standard output: write error' "$BONEBAKE" pack "$T/a/idle" -o "$T/p"
full 'standard output: write error' "$BONEBAKE" diff "$T/a" "$T/b" --max-diff-ratio 1
full 'standard output: write error' "$BONEBAKE" diff "$T/a" "$T/b" --max-diff-ratio 1 --json - --quiet
# a stdout closed before the run: an error when the command writes to it,
# none when it writes nothing (--quiet)
"$BONEBAKE" info "$H" >&- 2>"$T/.err"
rc=$?; err=$(cat "$T/.err"); last="info >&-"
expect_rc 4
expect_err 'standard output: write error: Bad file descriptor'
"$BONEBAKE" render "$H" -o "$T/closed" --anim idle --quiet >&- 2>"$T/.err"
rc=$?; err=$(cat "$T/.err"); last="render --quiet >&-"
expect_rc 0
[ -f "$T/closed/idle/idle_0000.png" ] || fail "render --quiet >&-: no frames"
checks=$((checks + 1))
full 'standard output: write error' "$BONEBAKE" diff "$T/a" "$T/b" --max-diff-ratio 1 --junit - --quiet
# a report named /dev/full: written in place, the device left a device
run "$BONEBAKE" diff "$T/a" "$T/b" --max-diff-ratio 1 --json /dev/full --quiet
expect_rc 4
expect_err '/dev/full: write failed: No space left'
[ -c /dev/full ] || fail "/dev/full is no longer a device"
checks=$((checks + 1))

# a small file system: mounted here (root), else in a user namespace
small="$T/small"
mkdir "$small"
if mount -t tmpfs -o size=1m tmpfs "$small" 2>/dev/null; then
	trap 'umount "$small" 2>/dev/null; rm -rf "$T"' EXIT
elif [ -z "${BB_IN_USERNS:-}" ] && command -v unshare >/dev/null &&
	unshare -rm true 2>/dev/null; then
	BB_IN_USERNS=1 exec unshare -rm "$SHELL" "$0" "$@"
else
	unavailable "cannot mount a small tmpfs (not root, no user namespaces)"
fi
# fill it but for 16 KiB
fill() {
	rm -f "$small/fill"
	free=$(df -k "$small" | awk 'NR == 2 { print $4 }')
	dd if=/dev/zero of="$small/fill" bs=1k count=$((free - $1)) 2>/dev/null
}
fill 16
before=$(ls -A "$small" | sort)
nothing_left() {
	checks=$((checks + 1))
	[ "$(ls -A "$small" | sort)" = "$before" ] ||
		fail "$last left: $(ls -A "$small" | tr '\n' ' ')"
}
run "$BONEBAKE" render "$H" -o "$small/r" --anim walk --scale 2 --quiet
expect_rc 4
expect_err 'No space left on device'
nothing_left
run "$BONEBAKE" sheet "$H" -o "$small/s" --anim walk --scale 2 --quiet
expect_rc 4
nothing_left
run "$BONEBAKE" pack "$T/a/idle" -o "$small/p" --quiet
expect_rc 4
nothing_left
# a video (ProRes: about 0.5 MB) failing in the muxer's writes
run "$BONEBAKE" preview "$H" -o "$small/walk.mov" --anim walk --quiet
expect_rc 4
expect_err 'walk.mov: write: No space left on device$'
checks=$((checks + 1))
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "more than one line: $err"
nothing_left
run "$BONEBAKE" pose "$H" --anim walk -o "$small/pose.json"
expect_rc 4
expect_err 'pose.json: write failed: No space left'
nothing_left
run "$BONEBAKE" diff "$T/a" "$T/b" --max-diff-ratio 1 -o "$small/d" --quiet
expect_rc 4
nothing_left
run "$BONEBAKE" diff "$T/a" "$T/b" --max-diff-ratio 1 --html "$small/h" --quiet
expect_rc 4
nothing_left
run "$BONEBAKE" diff "$T/a" "$T/b" --max-diff-ratio 1 --json "$small/r.json" --quiet
# the JSON fits, or fails whole
if [ "$rc" -eq 4 ]; then nothing_left; else expect_rc 0; fi
rm -f "$small/r.json"
# an earlier output in place stays whole when the next run fails
rm "$small/fill"
run "$BONEBAKE" render "$SAMPLES/slime.json" -o "$small/r" --quiet
expect_rc 0
cp -r "$small/r" "$T/r-before"
fill 8
run "$BONEBAKE" render "$SAMPLES/slime.json" -o "$small/r" --scale 3 --quiet
expect_rc 4
diff -r "$T/r-before" "$small/r" >/dev/null || fail "the earlier render was changed"
[ -z "$(find "$small/r" -name '.bonebake-stage-*')" ] || fail "a staging folder was left"
checks=$((checks + 2))

# a file size limit (ulimit -f): one error line naming the frame where it
# would have gone, exit 4, nothing left (SIGXFSZ killed the process with
# exit 153, no message and its staging folder left behind), with one
# thread or several hitting it
for jobs in 1 2; do
	run sh -c 'ulimit -f 20; exec "$@"' sh "$BONEBAKE" render "$H" --anim walk \
		--scale 3 -o "$T/fsize$jobs" --jobs "$jobs" --quiet
	expect_rc 4
	expect_err "^bonebake: $T/fsize$jobs/walk/walk_[0-9]+\.png: write failed: File too large\$"
	expect_absent "$T/fsize$jobs"
	checks=$((checks + 1))
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "not one line: $err"
done
# previews say why too (apng, webp: "write failed" alone)
for fmt in apng webp gif; do
	run sh -c 'ulimit -f 20; exec "$@"' sh "$BONEBAKE" preview "$H" --anim walk \
		--scale 3 -o "$T/p.$fmt" --quiet
	expect_rc 4
	expect_err "p\.$fmt: .*File too large"
	expect_absent "$T/p.$fmt"
done
[ -z "$(find "$T" -name '.p.*')" ] || fail "temporary files left: $(find "$T" -name '.p.*')"

# a sheet's folder whose parents the run made, staged inside the folder
# because no staging folder could be made beside it (an LD_PRELOAD hook
# fails the first mkdtemp): a failed write removes the parents too, and
# only those the run made
hook="$top_builddir/tests/tools/.libs/fault-rename.so"
[ -f "$hook" ] || fail "$hook is not built (make check builds it)"
"$BONEBAKE" render "$H" -o "$T/frames" --anim idle --quiet || fail "render frames"
for before in absent empty; do
	rm -rf "$T/nest"
	[ $before = empty ] && mkdir "$T/nest"
	run sh -c 'ulimit -f 2; exec "$@"' sh env BB_FAULT_MKDTEMP_FAIL=1 \
		LD_PRELOAD="$hook" "$BONEBAKE" pack "$T/frames/idle" -o "$T/nest/deeper/s"
	expect_rc 4
	expect_err "nest/deeper/s: write failed: File too large"
	if [ $before = absent ]; then
		expect_absent "$T/nest"
	else
		[ -d "$T/nest" ] && [ -z "$(ls -A "$T/nest")" ] ||
			fail "$T/nest: not kept empty: $(ls -A "$T/nest" 2>&1)"
	fi
	checks=$((checks + 1))
done
pass
