#!/bin/sh
# Every file a model is built from is listed (info --json "files", what
# --deps writes and `bonebake batch` hashes), for every format.
# Files an input references are read only from inside the input's folder
# (or --assets, the --atlas/--model files' folders, Forge's assets
# folder): a reference through "..", an absolute path or a symbolic link
# that leads elsewhere is refused naming the reference and its field, exit
# 3, without a word of the target; --allow-outside-paths reads it.  One
# case per format and reference kind (issue 14 item 2).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || unavailable "python3 is needed to write the test files"
IN="$T/in"
OUT="$T/outside"
mkdir -p "$IN" "$OUT"
python3 - "$OUT" <<'PY'
import struct, sys, zlib
def png(path, w, h):
    raw = b"".join(b"\0" + b"\xff\x80\x40\xff" * w for _ in range(h))
    def chunk(t, c):
        return struct.pack(">I", len(c)) + t + c + struct.pack(">I", zlib.crc32(t + c) & 0xffffffff)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
png(sys.argv[1] + "/secret.png", 32, 32)
open(sys.argv[1] + "/secret.txt", "w").write("AKIAIOSFODNN7EXAMPLE is the secret\n")
PY
ABS="$OUT/secret.png"

# files FILE NAME...: info lists FILE and the NAMEs (last path components)
# in that order, and nothing else
files() {
	f=$1
	shift
	run "$BONEBAKE" info --json "$f"
	expect_rc 0
	got=$(printf '%s' "$out" | python3 -c 'import json, os, sys
print(" ".join(os.path.basename(p) for p in json.load(sys.stdin)["files"]))')
	[ "$got" = "$*" ] || fail "$f: files [$got], expected [$*]"
}
S="$SAMPLES"
files "$S/humanoid.json" humanoid.json
files "$S/dragonbones/rig_ske.json" rig_ske.json rig_tex.json rig_tex.png
files "$S/cocos/lamp.ExportJson" lamp.ExportJson lamp0.plist lamp0.png
files "$S/cocos/bird.xml" bird.xml bird.png
files "$S/ssajson/demo.json" demo.json demo.png
files "$S/spine/keeper.json" keeper.json keeper.atlas keeper.png
files "$S/spine/keeper.skel" keeper.skel keeper.atlas keeper.png
files "$S/forge/assets/bbsample/armatures/block/lidbox.json" lidbox.json lidbox.json \
	lidbox_base.json lidbox_top.png lidbox_side.png lidbox_latch.png gem.png

# refused FILE FIELD-AND-REFERENCE-REGEX [render options]: exit 3, the one
# line names the file, the field and the reference, nothing of the
# target; then --allow-outside-paths renders it
refused() {
	f=$1 re=$2
	shift 2
	rm -rf "$T/o"
	run "$BONEBAKE" render "$f" -o "$T/o" --quiet "$@"
	expect_rc 3
	expect_err "$re"
	expect_err ': refused: it leads outside the input.s folder.* \(--allow-outside-paths reads it\)$'
	[ "$(printf '%s\n' "$err" | grep -vc warning)" -eq 1 ] || fail "expected one error line: $err"
	printf '%s' "$err" | grep -q AKIA && fail "the target's content leaked: $err"
	expect_absent "$T/o"
	run "$BONEBAKE" render "$f" -o "$T/o" --quiet --allow-outside-paths "$@"
	expect_rc 0
	rm -rf "$T/o"
}

# ---- the bonebake skeleton format: an attachment's image ------------------
native() {  # FILE IMAGE
	printf '{"format":"bonebake-skeleton","version":1,"bones":[{"name":"a","attachments":{"front":{"width":8,"height":8,"image":"%s"}}}],"animations":[]}\n' "$2" >"$IN/$1"
}
native n1.json ../outside/secret.png
refused "$IN/n1.json" '^bonebake: n1\.json: bones\[0\]\.attachments\.front: image "\.\./outside/secret\.png": refused'
native n2.json "$ABS"
refused "$IN/n2.json" "n2\\.json: bones\\[0\\]\\.attachments\\.front: image \"$ABS\": refused"
ln -s ../outside/secret.png "$IN/link.png"
native n3.json link.png
refused "$IN/n3.json" 'n3\.json: bones\[0\]\.attachments\.front: image "link\.png": refused'
# not a PNG outside: refused before it is read, its content never shown
native n4.json ../outside/secret.txt
run "$BONEBAKE" render "$IN/n4.json" -o "$T/o" --quiet
expect_rc 3
expect_err 'image "\.\./outside/secret\.txt": refused'
printf '%s' "$err" | grep -q AKIA && fail "the target's content leaked: $err"

# ---- DragonBones: the atlas JSON beside the skeleton, its imagePath -------
SKE='{"frameRate":24,"version":"5.5","armature":[{"name":"x","bone":[{"name":"root"}],"slot":[{"name":"s","parent":"root"}],"skin":[{"slot":[{"name":"s","display":[{"name":"p"}]}]}]}]}'
tex() {  # FILE IMAGEPATH
	printf '{"name":"a","imagePath":"%s","SubTexture":[{"name":"p","x":0,"y":0,"width":16,"height":16}]}\n' "$2" >"$1"
}
printf '%s\n' "$SKE" >"$IN/d1_ske.json"
tex "$OUT/d1_tex.json" "$ABS"
ln -s ../outside/d1_tex.json "$IN/d1_tex.json"
refused "$IN/d1_ske.json" '^bonebake: d1_ske\.json: atlas "d1_tex\.json": refused'
for k in 2 3 4; do printf '%s\n' "$SKE" >"$IN/d${k}_ske.json"; done
tex "$IN/d2_tex.json" ../outside/secret.png
refused "$IN/d2_ske.json" '^bonebake: d2_tex\.json: imagePath: page "\.\./outside/secret\.png": refused'
tex "$IN/d3_tex.json" "$ABS"
refused "$IN/d3_ske.json" "d3_tex\\.json: imagePath: page \"$ABS\": refused"
tex "$IN/d4_tex.json" link.png
refused "$IN/d4_ske.json" 'd4_tex\.json: imagePath: page "link\.png": refused'

# ---- Cocos Studio: config_file_path plists, the plist's page --------------
plist() {  # FILE TEXTUREFILENAME
	printf '<?xml version="1.0"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict><key>frames</key><dict>\n<key>p.png</key><dict><key>frame</key><string>{{0,0},{16,16}}</string><key>offset</key><string>{0,0}</string><key>sourceSize</key><string>{16,16}</string></dict></dict>\n<key>metadata</key><dict><key>format</key><integer>2</integer>\n<key>textureFileName</key><string>%s</string></dict></dict></plist>\n' "$2" >"$1"
}
cocos() {  # FILE PLIST
	printf '{"armature_data":[{"name":"a","version":1.1,"bone_data":[{"name":"root","display_data":[{"name":"p.png","displayType":0}]}]}],"animation_data":[],"config_file_path":["%s"]}\n' "$2" >"$IN/$1"
}
plist "$OUT/p.plist" secret.png
cocos c1.ExportJson ../outside/p.plist
refused "$IN/c1.ExportJson" '^bonebake: c1\.ExportJson: config_file_path\[0\]: atlas "\.\./outside/p\.plist": refused'
cocos c2.ExportJson "$OUT/p.plist"
refused "$IN/c2.ExportJson" "c2\\.ExportJson: config_file_path\\[0\\]: atlas \"$OUT/p\\.plist\": refused"
ln -s ../outside/p.plist "$IN/plink.plist"
cocos c3.ExportJson plink.plist
refused "$IN/c3.ExportJson" 'c3\.ExportJson: config_file_path\[0\]: atlas "plink\.plist": refused'
plist "$IN/q.plist" ../outside/secret.png
cocos c4.ExportJson q.plist
refused "$IN/c4.ExportJson" '^bonebake: q\.plist:6: metadata\.textureFileName: page "\.\./outside/secret\.png": refused'
plist "$IN/r.plist" "$ABS"
cocos c5.ExportJson r.plist
refused "$IN/c5.ExportJson" "r\\.plist:6: metadata\\.textureFileName: page \"$ABS\": refused"
plist "$IN/v.plist" v.png
ln -s ../outside/secret.png "$IN/v.png"
cocos c6.ExportJson v.plist
refused "$IN/c6.ExportJson" 'v\.plist: page "v\.png": refused'

# ---- SpriteStudio SSAJSON: an animation's image ----------------------------
ssa() {  # FILE IMAGE
	printf '[{"images":["%s"],"name":"a","animation":{"fps":30,"parts":["p"],"ssa":[[[0,0,0,0,8,8,0,0,0,1,1]]]}}]\n' "$2" >"$IN/$1"
}
ssa s1.json ../outside/secret.png
refused "$IN/s1.json" '^bonebake: s1\.json: \[0\]\.images\[0\]: image "\.\./outside/secret\.png": refused'
ssa s2.json "$ABS"
refused "$IN/s2.json" "s2\\.json: \\[0\\]\\.images\\[0\\]: image \"$ABS\": refused"
ssa s3.json link.png
refused "$IN/s3.json" 's3\.json: \[0\]\.images\[0\]: image "link\.png": refused'
# --placeholder does not stand in for a refused image
run "$BONEBAKE" render "$IN/s1.json" -o "$T/o" --quiet --placeholder
expect_rc 3
expect_err 'image "\.\./outside/secret\.png": refused'

# ---- Spine: the .atlas beside the skeleton, its page -----------------------
SPJ='{"skeleton":{"spine":"4.2.0"},"bones":[{"name":"root"}],"slots":[{"name":"s","bone":"root","attachment":"p"}],"skins":[{"name":"default","attachments":{"s":{"p":{"width":16,"height":16}}}}],"animations":{}}'
spatlas() {  # FILE PAGE
	printf '%s\nsize: 32, 32\np\n  bounds: 0, 0, 16, 16\n' "$2" >"$1"
}
printf '%s\n' "$SPJ" >"$IN/p1.json"
spatlas "$OUT/p1.atlas" "$ABS"
ln -s ../outside/p1.atlas "$IN/p1.atlas"
refused "$IN/p1.json" '^bonebake: p1\.json: atlas "p1\.atlas": refused'
for k in 2 3 4; do printf '%s\n' "$SPJ" >"$IN/p$k.json"; done
spatlas "$IN/p2.atlas" ../outside/secret.png
refused "$IN/p2.json" '^bonebake: p2\.atlas:1: page "\.\./outside/secret\.png": refused'
spatlas "$IN/p3.atlas" "$ABS"
refused "$IN/p3.json" "p3\\.atlas:1: page \"$ABS\": refused"
spatlas "$IN/p4.atlas" link.png
refused "$IN/p4.json" 'p4\.atlas:1: page "link\.png": refused'
# a binary export (.skel) reads its atlas and pages by the same rules
cp "$SAMPLES/spine/keeper.skel" "$IN/p5.skel"
spatlas "$OUT/p5.atlas" "$ABS"
ln -s ../outside/p5.atlas "$IN/p5.atlas"
refused "$IN/p5.skel" '^bonebake: p5\.skel: atlas "p5\.atlas": refused'
cp "$SAMPLES/spine/keeper.skel" "$IN/p6.skel"
spatlas "$IN/p6.atlas" ../outside/secret.png
refused "$IN/p6.skel" '^bonebake: p6\.atlas:1: page "\.\./outside/secret\.png": refused'

# ---- Forge: parent models and textures, the namespace form too ------------
# in/assets/m/{armatures,models,textures}; outside: $T/x/{models,textures}
A="$IN/assets/m"
mkdir -p "$A/armatures/block" "$A/models/block" "$A/textures/blocks" "$T/x/models" "$T/x/textures"
printf '{ "elements": [] }\n' >"$T/x/models/secret.json"
cp "$OUT/secret.png" "$T/x/textures/secret.png"
cp "$OUT/secret.png" "$A/textures/blocks/ok.png"
forge() {  # NAME MODEL-JSON
	printf '{ "joints": {}, "clips": {} }\n' >"$A/armatures/block/$1.json"
	printf '%s\n' "$2" >"$A/models/block/$1.json"
}
CUBE='"elements": [ { "from": [0,0,0], "to": [16,16,16], "faces": { "up": { "texture": "#a" } } } ]'
forge f1 '{ "parent": "../../x:secret" }'
refused "$A/armatures/block/f1.json" '^bonebake: f1\.json: parent: model "\.\./\.\./x:secret": refused'
forge f2 '{ "parent": "m:../../../../x/models/secret" }'
refused "$A/armatures/block/f2.json" 'f2\.json: parent: model "m:\.\./\.\./\.\./\.\./x/models/secret": refused'
ln -s "$T/x/models/secret.json" "$A/models/block/linked.json"
forge f3 '{ "parent": "m:block/linked" }'
refused "$A/armatures/block/f3.json" 'f3\.json: parent: model "m:block/linked": refused'
forge f4 "{ \"textures\": { \"a\": \"../../x:secret\" }, $CUBE }"
refused "$A/armatures/block/f4.json" '^bonebake: f4\.json: elements\[0\]\.faces\.up: texture "\.\./\.\./x:secret": refused'
ln -s "$T/x/textures/secret.png" "$A/textures/blocks/linked.png"
forge f5 "{ \"textures\": { \"a\": \"m:blocks/linked\" }, $CUBE }"
refused "$A/armatures/block/f5.json" 'f5\.json: elements\[0\]\.faces\.up: texture "m:blocks/linked": refused'
# inside the assets folder all is read, and recorded
forge f6 "{ \"textures\": { \"a\": \"m:blocks/ok\" }, $CUBE }"
run "$BONEBAKE" info --json "$A/armatures/block/f6.json"
expect_rc 0
expect_out '"files": \[.*armatures/block/f6\.json", ".*models/block/f6\.json", ".*textures/blocks/ok\.png"\]'

# ---- what the options name is allowed; a reference inside through .. too --
mkdir -p "$T/atl"
cp "$OUT/secret.png" "$T/atl/page.png"
tex "$T/atl/given_tex.json" page.png
printf '%s\n' "$SKE" >"$IN/g_ske.json"
run "$BONEBAKE" render "$IN/g_ske.json" -o "$T/o" --quiet --atlas "$T/atl/given_tex.json"
expect_rc 0
rm -rf "$T/o"
mkdir -p "$IN/sub"
native sub/n5.json ../sub/../link2.png
cp "$OUT/secret.png" "$IN/link2.png"
run "$BONEBAKE" render "$IN/sub/n5.json" -o "$T/o" --quiet
expect_rc 3
expect_err 'image "\.\./sub/\.\./link2\.png": refused'
native n6.json sub/../link2.png
run "$BONEBAKE" render "$IN/n6.json" -o "$T/o" --quiet
expect_rc 0
files "$IN/n6.json" n6.json link2.png
pass
