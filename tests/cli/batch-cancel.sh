#!/bin/sh
# Cancelling a batch (issue 22, item 4): SIGTERM or SIGINT to `batch` (a CI
# cancel, `docker stop`) is forwarded to the running job's process group;
# batch waits for it and exits 143 / 130, leaving no process behind, no
# staging folder in the output and no /tmp/bonebake-deps-* file (TMPDIR
# points into the test's folder to see them); the jobs not started yet
# are not started.  A job process killed outright fails its job only.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
command -v pgrep >/dev/null 2>&1 || unavailable "no pgrep (procps)"
cp "$SAMPLES/humanoid.json" "$T/h.json"
# a long job (about 1,500 frames on one thread), then another
cat >"$T/m.json" <<'EOF2'
{ "jobs": [
  { "name": "slow", "command": "render", "input": "h.json", "output": "out/slow",
    "options": { "all": true, "scale": 3, "fps": 120 } },
  { "name": "next", "command": "render", "input": "h.json", "output": "out/next",
    "animations": ["walk"] } ] }
EOF2
mkdir "$T/tmp"
# starts the batch in the background (pid) once the slow job has staged a
# frame, its job processes in kids
start_batch() {
	rm -rf "$T/out"
	TMPDIR="$T/tmp" "$BONEBAKE" batch "$T/m.json" --jobs 1 --quiet 2>"$T/err" &
	pid=$!
	n=0
	until [ -n "$(find "$T/out" -path '*/.bonebake-stage-*' -name '*.png' 2>/dev/null | head -1)" ]; do
		n=$((n + 1)); [ $n -lt 600 ] || fail "no frame staged after 30 s: $(cat "$T/err")"
		sleep 0.05
	done
	kids=$(pgrep -P $pid)
	checks=$((checks + 1))
	[ -n "$kids" ] || fail "no job process under batch"
}
for sig in TERM INT; do
	start_batch
	kill -$sig $pid
	wait $pid
	rc=$?
	want=143; [ $sig = INT ] && want=130
	checks=$((checks + 1))
	[ $rc -eq $want ] || fail "SIG$sig: batch exited $rc, expected $want: $(cat "$T/err")"
	for k in $kids; do
		checks=$((checks + 1))
		! kill -0 "$k" 2>/dev/null || { kill -KILL "$k"; fail "SIG$sig: job process $k outlived batch"; }
	done
	checks=$((checks + 1))
	[ -z "$(find "$T/out" -name '.bonebake-stage-*' 2>/dev/null)" ] ||
		fail "SIG$sig: a staging folder was left: $(find "$T/out")"
	checks=$((checks + 1))
	[ -z "$(ls -A "$T/tmp")" ] || fail "SIG$sig: temporary files were left: $(ls -A "$T/tmp")"
	expect_absent "$T/out/slow"
	expect_absent "$T/out/next"
done

# a job process that dies (SIGKILL to the worker running the slow job)
# fails that job only: batch reports the signal and runs the next job in
# a new worker
start_batch
kill -KILL $kids
wait $pid
rc=$?
[ $rc -eq 70 ] || fail "a killed job: batch exited $rc, expected 70: $(cat "$T/err")"
expect_err_file() { grep -Eq -- "$1" "$T/err" || fail "expected /$1/ on stderr: $(cat "$T/err")"; }
expect_err_file 'job "slow" failed \(exit 70\)'
expect_err_file 'slow: bonebake: killed by signal 9'
[ -f "$T/out/next/walk/walk_0000.png" ] && [ -f "$T/out/next/.bonebake-batch.json" ] ||
	fail "the job after a killed one did not run: $(cat "$T/err")"
[ -z "$(ls -A "$T/tmp")" ] || fail "a killed job: temporary files were left: $(ls -A "$T/tmp")"
checks=$((checks + 5))
pass
