#!/bin/sh
# bonebake batch: manifests, shards that partition the jobs, skipping jobs
# whose outputs are current (and re-running them when an input, an option
# or the bonebake version changes), failing jobs reported by name with
# their exit code while the others' outputs stay, the same outputs
# whatever --jobs and as each command run on its own, and the
# distributed-runner recipes of the README.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
cp "$SAMPLES/humanoid.json" "$SAMPLES/slime.json" "$SAMPLES/snake.json" "$T/"
M="$T/m.json"
cat >"$M" <<JSON
{ "jobs": [
  { "name": "walk", "command": "render", "input": "humanoid.json",
    "output": "out/walk", "animations": ["walk"],
    "options": { "scale": 0.3, "fps": 8 } },
  { "name": "idle", "command": "render", "input": "humanoid.json",
    "output": "out/idle", "animations": ["idle"],
    "options": { "scale": 0.3, "fps": 4, "direction": "back" } },
  { "name": "slime", "command": "render", "input": "slime.json",
    "output": "out/slime", "options": { "fps": 6 } },
  { "name": "snake", "command": "render", "input": "snake.json",
    "output": "out/snake", "options": { "fps": 6, "scale": 0.5 } },
  { "name": "sheet", "command": "sheet", "input": "snake.json",
    "output": "out/sheet",
    "options": { "fps": 6, "multipack": true, "format": "json,libgdx" } },
  { "command": "render", "input": "humanoid.json", "output": "out/attack",
    "animations": ["attack"], "options": { "scale": 0.3, "fps": 8, "set": ["hand_L=fist"] } },
  { "name": "blink", "command": "render", "input": "humanoid.json",
    "output": "out/blink", "animations": ["blink"], "options": { "fps": 8, "scale": 0.3 } }
] }
JSON
all=$(printf '%s\n' walk idle slime snake sheet "$T/out/attack" blink | sort)

# for N = 1..5 the shards partition the jobs: every job exactly once
for n in 1 2 3 4 5; do
	got=$(k=0; while [ $k -lt $n ]; do
		"$BONEBAKE" batch "$M" --shard $k/$n --list | while IFS='	' read -r name sh st; do
			[ "$sh" = "$k" ] || echo "BAD $name in $k/$n says $sh"
			echo "$name"
		done
		k=$((k + 1))
	done | sort)
	[ "$got" = "$all" ] || fail "shards of $n: $got"
	checks=$((checks + 1))
done

# a first run renders everything; a second skips everything
run "$BONEBAKE" batch "$M" --jobs 2 --json
expect_rc 0
expect_out '"ran": 7, "current": 0, "failed": 0'
[ -f "$T/out/walk/walk/walk_0000.png" ] && [ -f "$T/out/sheet/sheet.json" ] &&
	[ -f "$T/out/walk/.bonebake-batch.json" ] || fail "outputs missing"
checks=$((checks + 1))
run "$BONEBAKE" batch "$M" --json
expect_rc 0
expect_out '"ran": 0, "current": 7, "failed": 0'
status() { printf '%s\n' "$out" | grep "\"name\": \"$1\"" | sed 's/.*"status": "\([a-z]*\)".*/\1/'; }

# an input change re-runs the jobs that read it, and only those
printf ' ' >>"$T/slime.json"
run "$BONEBAKE" batch "$M" --json
expect_out '"ran": 1, "current": 6'
[ "$(status slime)" = ran ] || fail "slime did not re-run: $out"
checks=$((checks + 1))
# an option change re-runs that job
sed 's/"fps": 4, "direction"/"fps": 5, "direction"/' "$M" >"$M.2" && mv "$M.2" "$M"
run "$BONEBAKE" batch "$M" --json
expect_out '"ran": 1, "current": 6'
[ "$(status idle)" = ran ] || fail "idle did not re-run: $out"
checks=$((checks + 1))
ls "$T/out/idle/idle" | grep -c png | grep -qx 12 || fail "idle at 5 fps (2.4 s looping: 12 frames): $(ls "$T/out/idle/idle")"
checks=$((checks + 1))
# a record written by another bonebake version is stale
sed 's/"bonebake": "[^"]*"/"bonebake": "0.0.1"/' "$T/out/snake/.bonebake-batch.json" >"$T/st" &&
	mv "$T/st" "$T/out/snake/.bonebake-batch.json"
run "$BONEBAKE" batch "$M" --json
expect_out '"ran": 1, "current": 6'
[ "$(status snake)" = ran ] || fail "snake did not re-run: $out"
checks=$((checks + 1))
# a deleted output re-runs; --force re-runs everything
rm -rf "$T/out/blink"
run "$BONEBAKE" batch "$M" --json
expect_out '"ran": 1, "current": 6'
run "$BONEBAKE" batch "$M" --json --force
expect_out '"ran": 7, "current": 0'

# the same outputs whatever --jobs (records included)
cp -r "$T/out" "$T/out1"
run "$BONEBAKE" batch "$M" --force --jobs 1 --quiet
expect_rc 0
diff -r "$T/out" "$T/out1" >/dev/null || fail "--jobs 1 and --jobs 2 outputs differ"
checks=$((checks + 1))
# at --jobs 1 one worker process ran the seven jobs one after another:
# each job's output is what the command gives run on its own
(cd "$T" && "$BONEBAKE" render humanoid.json -o "$T/alone/idle" --anim=idle \
	--scale=0.3 --fps=5 --direction=back --quiet &&
	"$BONEBAKE" render humanoid.json -o "$T/alone/attack" --anim=attack \
	--scale=0.3 --fps=8 --set=hand_L=fist --quiet &&
	"$BONEBAKE" sheet snake.json -o "$T/alone/sheet" --fps=6 --multipack \
	--format=json,libgdx --quiet) || fail "the jobs run on their own failed"
for d in idle attack sheet; do
	diff -r -x .bonebake-batch.json "$T/out/$d" "$T/alone/$d" >/dev/null ||
		fail "$d: the batch's output differs from the command's run on its own"
	checks=$((checks + 1))
done
# started with stdin and stdout closed (a pipe can then take fd 0 or 1):
# the jobs' workers still get their own descriptors, and a job's error
# still reaches batch's report
rm -rf "$T/out2"
echo '{ "format": "bonebake-skeleton", "version": 1, "bones": [ { "name": "a", "parent": "zz" } ], "animations": [] }' >"$T/broken-c.json"
sed 's#"out/#"out2/#g; s#"jobs": \[#"jobs": [ { "name": "broken", "command": "render", "input": "broken-c.json", "output": "out2/broken" },#' \
	"$M" >"$T/m-closed.json"
"$BONEBAKE" batch "$T/m-closed.json" --quiet --jobs 2 <&- >&- 2>"$T/err"
rc=$?
[ $rc -eq 3 ] || fail "batch with stdin and stdout closed: exit $rc, expected 3: $(cat "$T/err")"
grep -q 'broken: bonebake: broken-c.json: bones\[0\]\.parent: unknown bone "zz"' "$T/err" ||
	fail "batch with stdin and stdout closed: the job's message was lost: $(cat "$T/err")"
diff -r -x .bonebake-batch.json "$T/out" "$T/out2" >/dev/null ||
	fail "batch with stdin and stdout closed: outputs differ"
checks=$((checks + 3))
# bonebake's own files (records, a staging folder) are not compared by diff
mkdir "$T/out/.bonebake-stage-x"
cp "$T/out/walk/walk/walk_0000.png" "$T/out/.bonebake-stage-x/"
rm "$T/out1/walk/.bonebake-batch.json"
run "$BONEBAKE" diff "$T/out1" "$T/out"
expect_rc 0
rm -r "$T/out/.bonebake-stage-x"

# a failing job fails the batch with its name and exit code; the other
# jobs ran and their outputs are intact
echo '{ "format": "bonebake-skeleton", "version": 1, "bones": [ { "name": "a", "parent": "zz" } ], "animations": [] }' >"$T/broken.json"
cat >"$T/m2.json" <<JSON
{ "jobs": [
  { "name": "good", "command": "render", "input": "slime.json", "output": "o2/good", "options": { "fps": 4 } },
  { "name": "bad", "command": "render", "input": "broken.json", "output": "o2/bad" },
  { "name": "good2", "command": "render", "input": "snake.json", "output": "o2/good2", "options": { "fps": 4 } }
] }
JSON
run "$BONEBAKE" batch "$T/m2.json"
expect_rc 3
expect_err 'bonebake batch: job "bad" failed \(exit 3\)'
expect_err 'bad: bonebake: broken.json: bones\[0\]\.parent: unknown bone "zz"'
expect_out 'good: rendered'
expect_out 'good2: rendered'
[ -f "$T/o2/good/.bonebake-batch.json" ] && [ -f "$T/o2/good2/.bonebake-batch.json" ] ||
	fail "the good jobs' outputs are missing"
expect_absent "$T/o2/bad/.bonebake-batch.json"
# fixed, it runs; the others stay current
cp "$T/slime.json" "$T/broken.json"
run "$BONEBAKE" batch "$T/m2.json" --json
expect_rc 0
expect_out '"ran": 1, "current": 2, "failed": 0'

# CI matrix / Kubernetes Indexed Job: every shard index in turn into one
# tree gives every job's output exactly once
rm -rf "$T/out"
for k in 0 1 2; do
	run "$BONEBAKE" batch "$M" --shard $k/3 --json
	expect_rc 0
done
for d in walk idle slime snake sheet attack blink; do
	[ -f "$T/out/$d/.bonebake-batch.json" ] || fail "shards 0..2 of 3 left out $d"
done
checks=$((checks + 1))
run "$BONEBAKE" batch "$M" --json
expect_out '"ran": 0, "current": 7'
# GNU parallel (locally: the ssh form differs only in -S hosts)
if command -v parallel >/dev/null 2>&1; then
	rm -rf "$T/out"
	parallel --will-cite -j 3 "$BONEBAKE" batch "$M" --quiet --shard {}/3 ::: 0 1 2 ||
		fail "GNU parallel over the shards failed"
	run "$BONEBAKE" batch "$M" --json
	expect_out '"ran": 0, "current": 7'
fi

# bad manifests and options: the field named, exit 3; usage errors exit 2
bad() {
	printf '%s\n' "$1" >"$T/bad.json"
	run "$BONEBAKE" batch "$T/bad.json"
	expect_rc 3
	expect_err "$2"
}
bad '{ "jobs": {} }' 'bad.json: jobs: expected an array'
bad '{ "jobs": [ { "command": "render", "output": "x" } ] }' 'jobs\[0\]\.input: missing'
bad '{ "jobs": [ { "command": "render", "input": "a", "output": "x", "options": { "scale": {} } } ] }' \
	'jobs\[0\]\.options\.scale: expected a number, a string or a boolean'
bad '{ "jobs": [ { "command": "render", "input": "a", "output": "x", "outptu": 1 } ] }' \
	'jobs\[0\]\.outptu: unknown field'
bad '{ "jobs": [ { "command": "render", "input": "a", "output": "x" }, { "command": "sheet", "input": "b", "output": "x" } ] }' \
	'jobs\[1\]\.name: two jobs are named'
bad '{ "jobs": [ { "command": "diff", "input": "a", "output": "x" } ] }' \
	'jobs\[0\]\.command: "diff" is not a command a job can run'
bad '{ "jobs": [ ' 'bad.json:[0-9]+: invalid JSON'
run "$BONEBAKE" batch "$M" --shard 3/3
expect_rc 2
expect_err '--shard takes K/N'
run "$BONEBAKE" batch "$T/none.json"
expect_rc 4
run "$BONEBAKE" batch --help
expect_rc 0
expect_out 'usage: bonebake batch'
pass
