#!/bin/bash
# --record-append adds a session only to a file that is a session log: onto a compressed
# log, a text file, a PNG or a torn header it is refused before the first sample, saying
# why, and the file is left as it was; onto a real log (and an empty file) it still works
# (docs/session-log.md, "Where a recording goes").
. "$(dirname "$0")/lib.sh"

# append FILE: a short batch run appending to FILE; its stdout to $TMP/out, stderr $TMP/err
append() { "$IOSCOPE" --batch -i 0.01 -c 2 --record-append "$1" >"$TMP/out" 2>"$TMP/err"; }

"$IOSCOPE" --batch -i 0.01 -c 2 --record "$TMP/real.log" >/dev/null 2>"$TMP/err" \
	|| { fail "record a log" "$(cat "$TMP/err")"; exit 1; }
zstd -q -k "$TMP/real.log"
gzip -k "$TMP/real.log"
printf 'a text file\nof two lines\n' >"$TMP/notes.txt"
python3 - "$TMP/image.png" <<'PY'
import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"\0\0")) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PY
head -c 60 "$TMP/real.log" >"$TMP/torn.log"   # the recording stopped inside its header

# refused NAME FILE PATTERN: exit 1, no sample printed, the message, the file unchanged
refused() {
	local name=$1 file=$2 pattern=$3
	cp "$file" "$TMP/before"
	append "$file"
	local rc=$?
	[ $rc -eq 1 ] && [ ! -s "$TMP/out" ] && grep -q -- "$pattern" "$TMP/err" \
		&& cmp -s "$file" "$TMP/before" && clean_stderr "$TMP/err" \
		&& ok "--record-append onto $name: refused before the first sample, file unchanged" \
		|| fail "--record-append onto $name" "rc=$rc $(head -c 400 "$TMP/err"; cmp "$file" "$TMP/before")"
}
refused "a .zst log" "$TMP/real.log.zst" \
	"real.log.zst is zstd-compressed: a session appended to it could never be read back"
refused "a .gz log" "$TMP/real.log.gz" "real.log.gz is gzip-compressed: .*decompress it first"
refused "a text file" "$TMP/notes.txt" \
	"notes.txt: line 1 (offset 0): not an ioscope session log: .*could never be read back"
refused "a PNG" "$TMP/image.png" "image.png: line 1 (offset 0): not an ioscope session log"
refused "a torn header" "$TMP/torn.log" "torn.log: line 1: the header is incomplete"

# a real log: a second session after the first, and both replay
append "$TMP/real.log"
rc=$?
headers=$(grep -c '^{"type":"header"' "$TMP/real.log")
[ $rc -eq 0 ] && [ "$headers" = 2 ] && [ -s "$TMP/out" ] && clean_stderr "$TMP/err" \
	&& ok "--record-append onto a real log adds a session" \
	|| fail "--record-append onto a real log" "rc=$rc headers=$headers $(head -c 300 "$TMP/err")"
"$IOSCOPE" --replay "$TMP/real.log" --batch -f csv >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && grep -q "another header" "$TMP/err" && ok "the appended log replays" \
	|| fail "the appended log replays" "rc=$rc $(head -c 300 "$TMP/err")"
# an empty file is a log with no session yet
: >"$TMP/empty.log"
append "$TMP/empty.log"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^{"type":"header"' "$TMP/empty.log")" = 1 ] \
	&& ok "--record-append onto an empty file starts a log" \
	|| fail "--record-append onto an empty file" "rc=$rc $(head -c 300 "$TMP/err")"
