#!/bin/sh
# Bad input: one line naming the file and the field, the documented exit
# code, and no output left behind.
. "$(dirname "$0")/lib.sh"
H="$SAMPLES/humanoid.json"
HEAD='"format": "bonebake-skeleton", "version": 1'

# bad FILE-CONTENT RC STDERR-REGEX
bad() {
	printf '%s\n' "$1" >"$T/bad.json"
	rm -rf "$T/out"
	run "$BONEBAKE" render "$T/bad.json" -o "$T/out" --quiet
	expect_rc "$2"
	expect_err "$3"
	expect_absent "$T/out"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "expected one line: $err"
}

bad "{ $HEAD, \"bones\": [{\"name\": \"root\"}, {\"name\": \"chest\", \"parent\": \"root\"},
  {\"name\": \"a\", \"parent\": \"chest\"}, {\"name\": \"b\", \"parent\": \"chset\"}], \"animations\": [] }" \
	3 '^bonebake: bad\.json: bones\[3\]\.parent: unknown bone "chset"$'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\", \"parent\": \"b\"}, {\"name\": \"b\"}], \"animations\": [] }" \
	3 '^bonebake: bad\.json: bones\[0\]\.parent: bone "b" is defined after its child'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\", \"parent\": \"b\"}, {\"name\": \"b\", \"parent\": \"a\"}], \"animations\": [] }" \
	3 'bad\.json: bones\[0\]\.parent: bone hierarchy has a cycle'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\"}, {\"name\": \"a\"}], \"animations\": [] }" \
	3 'bad\.json: bones\[1\]\.name: duplicate bone name "a"'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\"}], \"animations\": [{\"name\": \"x\", \"duration\": 1},
  {\"name\": \"x\", \"duration\": 1}] }" \
	3 'bad\.json: animations\[1\]\.name: duplicate animation name "x"'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\", \"rotation\": \"0.5\"}], \"animations\": [] }" \
	3 'bad\.json: bones\[0\]\.rotation: expected a number, found a string'
bad "{ $HEAD, \"bones\": {\"name\": \"a\"}, \"animations\": [] }" \
	3 'bad\.json: bones: expected an array, found an object'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\", \"attachments\": {\"front\": {\"width\": 10, \"height\": -5}}}], \"animations\": [] }" \
	3 'bad\.json: bones\[0\]\.attachments\.front\.height: -5 is outside'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\"}], \"animations\": [{\"name\": \"x\", \"duration\": -1}] }" \
	3 'bad\.json: animations\[0\]\.duration: -1 is outside'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\",
  \"x\": 1e400}], \"animations\": [] }" \
	3 '^bonebake: bad\.json:2: invalid JSON'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\"}], \"animations\": [{\"name\": \"x\", \"duration\": 1,
  \"bones\": {\"a\": [{\"time\": 0, \"y\": \"NaN\"}]}}] }" \
	3 'bad\.json: animations\[0\]\.bones\.a\[0\]\.y: expected a number'
bad "{ $HEAD, \"bones\": [{\"name\": \"a\", \"attachments\": {\"front\": {\"width\": 4, \"height\": 4,
  \"image\": \"missing.png\"}}}], \"animations\": [] }" \
	3 'bad\.json: bones\[0\]\.attachments\.front: image "missing\.png"'
bad '{ "format": "bonebake-skeleton", "version": 1, "bones": [' \
	3 'bad\.json:[0-9]+: invalid JSON'
bad '[1, 2, 3]' 3 'bad\.json: not a format bonebake reads'

# unknown animation / variant / direction on the command line: usage (2)
rm -rf "$T/out"
run "$BONEBAKE" render "$H" -o "$T/out" --anim wlak
expect_rc 2
expect_err 'humanoid\.json: unknown animation "wlak" \(the file has: idle, walk'
expect_absent "$T/out"
run "$BONEBAKE" render "$H" -o "$T/out" --set hand_L=claw
expect_rc 2
expect_err 'no variant "claw"'
expect_absent "$T/out"
run "$BONEBAKE" render "$H" -o "$T/out" --direction side
expect_rc 2
run "$BONEBAKE" render "$H" -o "$T/out" --fps 0
expect_rc 2
run "$BONEBAKE" render "$H"
expect_rc 2
expect_err 'missing -o DIR'
# an empty -o is a missing one, for every command (render and sheet said
# "bad folder name", exit 4, after loading)
for cmd in render sheet preview; do
	run "$BONEBAKE" $cmd "$H" --anim walk -o ''
	expect_rc 2
	expect_err "^bonebake $cmd: missing -o"
done
run "$BONEBAKE" pack "$T" -o ''
expect_rc 2
run "$BONEBAKE" diff "$T" "$T" --html ''
expect_rc 2
expect_err "^bonebake diff: --html wants a folder"
# --all with --anim: one of them would be ignored (--anim was)
run "$BONEBAKE" render "$H" --all --anim idle -o "$T/out"
expect_rc 2
expect_err "^bonebake render: --all takes every animation"
expect_absent "$T/out"
run "$BONEBAKE" frobnicate
expect_rc 2

# unreadable input: I/O (4)
run "$BONEBAKE" render "$T/nope.json" -o "$T/out"
expect_rc 4
expect_err 'nope\.json: cannot open'
expect_absent "$T/out"

# a folder for a file: said so (not "read error"), for the input and for a
# file it references
mkdir -p "$T/folder.json" "$T/sub"
run "$BONEBAKE" render "$T/folder.json" -o "$T/out"
expect_rc 4
expect_err '^bonebake: .*folder\.json: is a folder$'
expect_absent "$T/out"
bad "{ $HEAD, \"bones\": [{\"name\": \"a\", \"attachments\": {\"front\": {\"width\": 4, \"height\": 4,
  \"image\": \"sub\"}}}], \"animations\": [] }" \
	3 '^bonebake: bad\.json: bones\[0\]\.attachments\.front: image "sub": is a folder$'

# a truncated document is a syntax error at its line, whatever format it
# was (a DragonBones file cut before "version" was "not a format")
printf '{"armature": [{"name": "x",\n "bone": [' >"$T/cut_ske.json"
run "$BONEBAKE" render "$T/cut_ske.json" -o "$T/out"
expect_rc 3
expect_err '^bonebake: cut_ske\.json:2: invalid JSON: '

# an existing output folder is left as it was when the input is bad
mkdir -p "$T/keep/walk" && echo old >"$T/keep/walk/walk_0000.png"
printf '{ %s, "bones": [] }' "$HEAD" >"$T/bad.json"
run "$BONEBAKE" render "$T/bad.json" -o "$T/keep"
expect_rc 3
[ "$(cat "$T/keep/walk/walk_0000.png")" = old ] || fail "existing output was touched"
[ "$(ls -A "$T/keep")" = walk ] || fail "leftovers in the output folder: $(ls -A "$T/keep")"
pass
