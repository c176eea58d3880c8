#!/bin/sh
# A build configured --without-video: every video format is refused before
# anything is rendered, with exit 2 and a line naming --without-video, and
# nothing is written; the other previews still work.  scripts/test builds
# one in build-novideo/ and runs this with BONEBAKE set to its binary (not
# part of `make check`, whose build has video).
. "$(dirname "$0")/lib.sh"
H="$SAMPLES/humanoid.json"
mkdir "$T/out"
run "$BONEBAKE" preview "$H" --anim walk -o "$T/walk.webp" --quiet
expect_rc 0
for fmt in webm mp4 mov; do
	run "$BONEBAKE" preview "$H" --anim walk -o "$T/out/walk.$fmt"
	expect_rc 2
	expect_err "$fmt previews are not built in \\(configured --without-video\\)"
	run "$BONEBAKE" preview "$H" --anim walk -o "$T/out/walk" --format "$fmt"
	expect_rc 2
	expect_err "configured --without-video"
	run "$BONEBAKE" render "$H" --anim walk -o "$T/out/r" --preview "$fmt"
	expect_rc 2
	expect_err "configured --without-video"
done
checks=$((checks + 1))
[ -z "$(ls -A "$T/out")" ] || fail "left behind: $(ls -A "$T/out")"
pass
