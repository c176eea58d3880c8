#!/bin/sh
# Cocos Studio bad input: the one-line file+field error, exit 3, no output;
# a missing sprite frame and a particle display are warnings, printed once.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to write the test page"

python3 - "$T" <<'PY'
import struct, sys, zlib
def png(path, w, h):
    raw = b"".join(b"\0" + b"\xff\x80\x40\xff" * w for _ in range(h))
    def chunk(t, c):
        return struct.pack(">I", len(c)) + t + c + struct.pack(">I", zlib.crc32(t + c) & 0xffffffff)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
png(sys.argv[1] + "/p.png", 32, 32)
PY
# bad FILE RC STDERR-REGEX
bad() {
	rm -rf "$T/out"
	run "$BONEBAKE" render "$T/$1" -o "$T/out" --quiet
	expect_rc "$2"
	expect_err "$3"
	expect_absent "$T/out"
	[ "$(printf '%s\n' "$err" | grep -vc warning)" -eq 1 ] || fail "expected one error line: $err"
}
bone() {  # NAME PARENT
	printf '{"name":"%s","parent":"%s","x":0,"y":0,"kX":0,"kY":0,"cX":1,"cY":1,"display_data":[%s]}' "$1" "$2" "${3:-}"
}
json() {  # FILE BONES MOVEMENT-BONES [EXTRA-TOP]
	printf '{"armature_data":[{"name":"a","version":1.1,"bone_data":[%s]}],"animation_data":[{"name":"a","mov_data":[{"name":"m","dr":20,"lp":true,"mov_bone_data":[%s]}]}]%s}\n' \
		"$2" "$3" "${4:-}" >"$T/$1"
}

# unknown parent (ExportJson and XML, the XML one with its line)
json up.ExportJson "$(bone root ""),$(bone arm nope)" ''
bad up.ExportJson 3 'up\.ExportJson: armature_data\[0\]\.bone_data\[1\]\.parent: unknown bone "nope"'
printf '<?xml version="1.0"?>\n<skeleton version="2.0">\n<armatures><armature name="a">\n<b name="root"/>\n<b name="arm" parent="nope"/>\n</armature></armatures></skeleton>\n' >"$T/up.xml"
bad up.xml 3 'up\.xml:5: armatures\.armature\[0\]\.b\[1\]\.parent: unknown bone "nope"'

# malformed XML: the line of the problem
printf '<skeleton version="2.0">\n<armatures>\n<armature name="a">\n<b name="root">\n</armature>\n</armatures>\n</skeleton>\n' >"$T/broken.xml"
bad broken.xml 3 'broken\.xml:5: invalid XML: mismatched tag'
# a number that is not one
printf '<skeleton version="2.0"><armatures><armature name="a"><b name="r"/></armature></armatures>\n<animations><animation name="a"><mov name="m" dr="2"><b name="r">\n<f x="1" kX="ten"/></b></mov></animation></animations></skeleton>\n' >"$T/num.xml"
bad num.xml 3 'num\.xml:3: .*mov\.b\.f\.kX: expected a number, found "ten"'

# frame index out of range (fi past the movement's dr, or negative)
# a DOCTYPE: refused at its line (with declarations, by the XML reader;
# naming a DTD, by the armature reader: armature XML has none)
printf '<?xml version="1.0"?>\n<!DOCTYPE skeleton [ <!ENTITY x "y"> ]>\n<skeleton version="2.0"><armatures><armature name="a"><b name="r"/></armature></armatures></skeleton>\n' >"$T/ent.xml"
bad ent.xml 3 '^bonebake: ent\.xml:2: XML: a DOCTYPE with declarations is refused$'
printf '<?xml version="1.0"?>\n<!DOCTYPE skeleton SYSTEM "skeleton.dtd">\n<skeleton version="2.0"><armatures><armature name="a"><b name="r"/></armature></armatures></skeleton>\n' >"$T/dtd.xml"
bad dtd.xml 3 '^bonebake: dtd\.xml:2: refused: the file declares a DOCTYPE'

# a movement name used twice is bad input (exit 3, not a usage error),
# named where the second one is
printf '{"armature_data":[{"name":"a","version":1.1,"bone_data":[%s]}],"animation_data":[{"name":"a","mov_data":[{"name":"m","dr":2},{"name":"m","dr":3}]}]}\n' \
	"$(bone root "")" >"$T/twice.ExportJson"
bad twice.ExportJson 3 '^bonebake: twice\.ExportJson: animation_data\[0\]\.mov_data\[1\]\.name: duplicate animation name "m"$'
printf '<skeleton version="2.0"><armatures><armature name="a"><b name="r"/></armature></armatures>\n<animations><animation name="a"><mov name="m" dr="2"/>\n<mov name="m" dr="3"/></animation></animations></skeleton>\n' >"$T/twice.xml"
bad twice.xml 3 '^bonebake: twice\.xml:3: skeleton\.animations\.animation\.mov\[1\]\.name: duplicate animation name "m"$'

json fi.ExportJson "$(bone root "")" '{"name":"root","frame_data":[{"fi":0},{"fi":50}]}'
bad fi.ExportJson 3 'fi\.ExportJson: animation_data\[0\]\.mov_data\[0\]\.mov_bone_data\[0\]\.frame_data\[1\]\.fi: frame index 50 is outside the movement.s 0\.\.20'
json neg.ExportJson "$(bone root "")" '{"name":"root","frame_data":[{"fi":-1}]}'
bad neg.ExportJson 3 'frame_data\[0\]\.fi: frame index -1 is outside'

# a plist frame without its rectangle
printf '<?xml version="1.0"?><plist version="1.0"><dict><key>frames</key><dict>\n<key>p.png</key><dict><key>offset</key><string>{0,0}</string>\n<key>sourceSize</key><string>{32,32}</string></dict>\n</dict><key>metadata</key><dict><key>format</key><integer>2</integer></dict></dict></plist>\n' >"$T/p.plist"
json pl.ExportJson "$(bone root "" '{"name":"p.png","displayType":0}')" '{"name":"root","frame_data":[{"fi":0}]}' ',"config_file_path":["p.plist"]'
bad pl.ExportJson 3 'p\.plist:2: frames\["p\.png"\]\.frame: missing'
# a rectangle that is not one
sed 's|<key>offset</key>|<key>frame</key><string>{{0,0},{32}}</string><key>offset</key>|' "$T/p.plist" >"$T/q.plist"
json pq.ExportJson "$(bone root "" '{"name":"p.png","displayType":0}')" '{"name":"root","frame_data":[{"fi":0}]}' ',"config_file_path":["q.plist"]'
bad pq.ExportJson 3 'q\.plist:2: frames\["p\.png"\]\.frame: expected "\{\{x,y\},\{w,h\}\}"'

# warnings: a display with no frame anywhere, a particle display; both once
json w.ExportJson "$(bone root "" '{"name":"gone.png","displayType":0},{"name":"fx","displayType":2,"plist":"fx.plist"}'),$(bone b root '{"name":"fx2","displayType":2}')" \
	'{"name":"root","frame_data":[{"fi":0},{"fi":10,"dI":1}]}' ',"config_file_path":["p2.plist"]'
sed 's|<key>offset</key>|<key>frame</key><string>{{0,0},{32,32}}</string><key>offset</key>|' "$T/p.plist" >"$T/p2.plist"
cp "$T/p.png" "$T/p2.png"
rm -rf "$T/out"
run "$BONEBAKE" render "$T/w.ExportJson" -o "$T/out" --quiet
expect_rc 0
expect_err 'warning: w\.ExportJson: no sprite frame or image for "gone\.png"'
expect_err 'warning: w\.ExportJson: particle displays are not drawn'
[ "$(printf '%s\n' "$err" | grep -c particle)" -eq 1 ] || fail "the particle warning must be printed once: $err"
[ -f "$T/out/m/m_0000.png" ] || fail "no frame rendered"
checks=$((checks + 1))
pass
