#!/bin/sh
# Cocos atlas metadata that disagrees with the PNG (as real exports do:
# cyborg.plist names "Cyborg.png" for cyborg.png, HeroAnimation0.plist
# declares 1024x1024 for a 1024x256 page, weapon.xml's TextureAtlas swaps
# its sides): cocos2d-x draws the PNG it loads, so do we, with one warning
# each, and the frames are those of the untouched sample.
. "$(dirname "$0")/lib.sh"
S="$SAMPLES/cocos"

# CASE FILE: renders with exactly the warnings WARN-REGEX... (one line each),
# frames identical to the sample's
ref() {
	run "$BONEBAKE" render "$S/$1" -o "$T/ref-$1" --quiet --jobs 1 --fps 10
	expect_rc 0
	[ -z "$err" ] || fail "sample $1: unexpected stderr: $err"
}
same() {
	case_dir="$T/$1"
	file="$2"
	shift 2
	run "$BONEBAKE" render "$case_dir/$file" -o "$case_dir/out" --quiet --jobs 1 --fps 10
	expect_rc 0
	for re in "$@"; do
		[ "$(printf '%s\n' "$err" | grep -Ec -- "$re")" -eq 1 ] ||
			fail "$case_dir: expected one warning /$re/: $err"
		checks=$((checks + 1))
	done
	[ "$(printf '%s\n' "$err" | grep -c .)" -eq $# ] ||
		fail "$case_dir: expected $# warning lines: $err"
	for f in $(cd "$T/ref-$file" && find . -name '*.png'); do
		cmp -s "$T/ref-$file/$f" "$case_dir/out/$f" || fail "$case_dir: $f differs from the sample's"
	done
	checks=$((checks + 2))
}
ref lamp.ExportJson
ref bird.xml

# a plist whose size is not its PNG's, and one naming its page in another case
mkdir -p "$T/size" "$T/name" "$T/both"
for d in size name both; do cp "$S/lamp.ExportJson" "$S/lamp0.png" "$T/$d/"; done
sed 's|<string>{256,128}</string>|<string>{1024,1024}</string>|' "$S/lamp0.plist" >"$T/size/lamp0.plist"
sed 's|<key>textureFileName</key><string>lamp0.png</string>|<key>textureFileName</key><string>Lamp0.png</string>|' \
	"$S/lamp0.plist" >"$T/name/lamp0.plist"
sed 's|<string>{256,128}</string>|<string>{1024,1024}</string>|' "$T/name/lamp0.plist" >"$T/both/lamp0.plist"
cmp -s "$S/lamp0.plist" "$T/size/lamp0.plist" && fail "the size was not changed"
cmp -s "$S/lamp0.plist" "$T/name/lamp0.plist" && fail "the name was not changed"
SIZE_WARN='^bonebake: warning: lamp0\.plist: metadata\.size \{1024,1024\} is not the size of "lamp0\.png" \(256x128\); the PNG.s size is used \(as cocos2d-x does\)$'
NAME_WARN='^bonebake: warning: lamp0\.plist: metadata\.textureFileName "Lamp0\.png" is not the page loaded, "lamp0\.png"; the page is used \(as cocos2d-x does\)$'
same size lamp.ExportJson "$SIZE_WARN"
same name lamp.ExportJson "$NAME_WARN"
same both lamp.ExportJson "$SIZE_WARN" "$NAME_WARN"

# an XML <TextureAtlas> (used without a plist) declaring another size
mkdir -p "$T/xml"
cp "$S/bird.png" "$T/xml/"
sed 's|<TextureAtlas name="Bird" width="128" height="128"|<TextureAtlas name="Bird" width="256" height="64"|' \
	"$S/bird.xml" >"$T/xml/bird.xml"
cmp -s "$S/bird.xml" "$T/xml/bird.xml" && fail "the TextureAtlas size was not changed"
same xml bird.xml \
	'^bonebake: warning: bird\.xml: TextureAtlas declares 256x64 for "bird\.png" \(128x128\); the PNG.s size is used \(as cocos2d-x does\)$'
pass
