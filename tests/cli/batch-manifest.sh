#!/bin/sh
# Manifests that contradict themselves (issue 22, item 6): two jobs writing
# one folder however it is spelt (out/a, ./out/a/, the absolute path) are
# refused, exit 2 naming both jobs, and so is one inside another's; so is an option key getopt would take
# as an abbreviation of an option the batch sets ("outp": --output); a job
# with 2,500 animations is a limit error naming the field (exit 3), not
# "out of memory" (exit 70).  An
# option's value never passes for an option of its own.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top_srcdir/tests/cli/lib.sh"
cp "$SAMPLES/slime.json" "$T/s.json"
cat >"$T/dup.json" <<EOF2
{ "jobs": [
  { "name": "one", "command": "render", "input": "s.json", "output": "out/a" },
  { "name": "two", "command": "render", "input": "s.json", "output": "other" },
  { "name": "three", "command": "sheet", "input": "s.json", "output": "$T/./out/a/" } ] }
EOF2
run "$BONEBAKE" batch "$T/dup.json"
expect_rc 2
expect_err '^bonebake: dup.json: jobs\[2\]\.output: jobs "one" and "three" both write'
expect_absent "$T/out"
expect_absent "$T/other"
# a job writing inside another's output (a sheet into a render's
# animation folder): whether its files survive the render's commit would
# depend on --jobs; refused, naming both, nothing run
cat >"$T/nest.json" <<EOF2
{ "jobs": [
  { "name": "frames", "command": "render", "input": "s.json", "output": "o4" },
  { "name": "ok", "command": "render", "input": "s.json", "output": "o4x" },
  { "name": "walk-sheet", "command": "sheet", "input": "s.json", "output": "o4/./walk/" } ] }
EOF2
run "$BONEBAKE" batch "$T/nest.json"
expect_rc 2
expect_err '^bonebake: nest.json: jobs\[2\]\.output: job "walk-sheet" writes .*/o4/\./walk/, inside job "frames"'"'"'s .*/o4$'
expect_absent "$T/o4"
expect_absent "$T/o4x"
for key in outp ou o progr dep he; do
	printf '{ "jobs": [ { "command": "render", "input": "s.json", "output": "x",
	  "options": { "%s": "elsewhere" } } ] }\n' "$key" >"$T/abbr.json"
	run "$BONEBAKE" batch "$T/abbr.json"
	expect_rc 2
	expect_err "jobs\\[0\\]\\.options\\.$key: the batch sets --[a-z]+ itself \\(an abbreviation"
	expect_absent "$T/x"
	expect_absent "$T/elsewhere"
done
# a value that looks like an option stays the option's value: --flip takes
# none, so "--flip=--output=..." is refused by the job, nothing is written
# elsewhere
printf '{ "jobs": [ { "name": "j", "command": "render", "input": "s.json", "output": "x",
  "options": { "flip": "--output=%s/elsewhere" } } ] }\n' "$T" >"$T/inject.json"
run "$BONEBAKE" batch "$T/inject.json"
expect_rc 2
expect_absent "$T/elsewhere"
# many animations: 256 (what render takes by name) run, the job naming
# the first it does not know; 2,500 are over the limit
python3 - "$T" <<'PY'
import json, sys
for n, name in ((255, "many"), (2500, "toomany")):
    json.dump({"jobs": [{"name": "j", "command": "render", "input": "s.json",
                         "output": "o-" + name,
                         "animations": ["blink"] + ["a%d" % i for i in range(n)]}]},
              open("%s/%s.json" % (sys.argv[1], name), "w"))
PY
run "$BONEBAKE" batch "$T/many.json" --list
expect_rc 0
expect_out '^j	0	stale$'
run "$BONEBAKE" batch "$T/many.json"
expect_rc 2
expect_err 'unknown animation "a0"'
run "$BONEBAKE" batch "$T/toomany.json"
expect_rc 3
expect_err '^bonebake: toomany.json: jobs\[0\]\.animations: 2501 animations exceed the limit of 256 for one job'
# a job that cannot even start (its temporary file cannot be made) says why
printf '{ "jobs": [ { "name": "one", "command": "render", "input": "s.json", "output": "o1" } ] }\n' >"$T/one.json"
run env TMPDIR="$T/nonexistent" "$BONEBAKE" batch "$T/one.json"
expect_rc 4
expect_err 'one: cannot start: .*nonexistent/bonebake-deps-[^:]+: No such file or directory'
pass
