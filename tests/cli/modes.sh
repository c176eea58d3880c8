#!/bin/sh
# Output modes follow the umask, as mkdir(2) and open(2) give them: every
# folder and file render, sheet, pack, preview, gallery and diff --html
# write is 0777/0666 less the umask (sheet and pack staged their folder
# with mkdtemp and left it 0700), under umask 022 and 077.
. "$(dirname "$0")/lib.sh"
S="$SAMPLES/slime.json"
for m in 022 077; do
	d="$T/u$m"
	mkdir "$d"
	(
		umask $m
		"$BONEBAKE" render "$S" -o "$d/render" --quiet --preview webp \
			--contact-sheet "$d/contact.png" &&
		"$BONEBAKE" sheet "$S" -o "$d/sheet" --quiet --format json,libgdx &&
		"$BONEBAKE" pack "$d/render" -o "$d/pack" --quiet &&
		"$BONEBAKE" preview "$S" --anim bounce -o "$d/bounce.gif" --quiet &&
		"$BONEBAKE" gallery "$d/render" -o "$d/site" &&
		"$BONEBAKE" diff "$d/render" "$d/render" --html "$d/report" --quiet
	) >"$T/log" 2>&1 || fail "umask $m: a command failed: $(tail -n 3 "$T/log")"
	dmode=$(printf '%o' $((0777 & ~0$m)))
	fmode=$(printf '%o' $((0666 & ~0$m)))
	n=0
	for p in $(find "$d" -mindepth 1); do
		mode=$(stat -c %a "$p")
		if [ -d "$p" ]; then want=$dmode; else want=$fmode; fi
		[ "$mode" = "$want" ] || fail "umask $m: ${p#$d/} has mode $mode, expected $want"
		n=$((n + 1))
	done
	# every kind of output is there
	for p in render/bounce/frames.json render/bounce/bounce.webp contact-bounce.png \
		sheet/sheet.png pack/sheet.json bounce.gif site/index.html report; do
		ls -d "$d/"$p* >/dev/null 2>&1 || fail "umask $m: no $p written"
	done
	[ "$n" -gt 40 ] || fail "umask $m: only $n paths checked"
	checks=$((checks + n))
done
pass
