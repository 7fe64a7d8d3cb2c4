#!/bin/bash
# Hostile compressed logs (docs/security.md, "Compressed logs"): a decompression bomb behind
# a real header line is refused at the limits, named in the message (small limits through
# the environment keep the files small); data whose first line is not a session-log header
# stop at once, measured by what was written to the temporary file; a full TMPDIR gives a
# clear error and no fallback to memory; memory is bounded by the same limits; a zstd
# --long=31 log says how to decompress it by hand.
. "$(dirname "$0")/lib.sh"

python3 "$IOSCOPE_TOP/tests/e2e/session_log_gen.py" 3600 3 "$TMP/s.log" \
	|| { fail "generate a log"; exit 1; }
zstd -q -c "$TMP/s.log" >"$TMP/s.log.zst"
"$IOSCOPE" report -f csv "$TMP/s.log" >"$TMP/plain.csv" 2>"$TMP/err" \
	|| { fail "plain report" "$(cat "$TMP/err")"; exit 1; }

# refused NAME FILE PATTERN... : report FILE exits 1, its stderr matches every PATTERN (-F)
refused() {
	local name=$1 file=$2; shift 2
	"$IOSCOPE" report -f csv "$file" >"$TMP/out" 2>"$TMP/err"
	local rc=$? p
	for p in "$@"; do grep -qF -- "$p" "$TMP/err" || rc="$rc, no '$p'"; done
	[ "$rc" = 1 ] && [ ! -s "$TMP/out" ] && clean_stderr "$TMP/err" && ok "$name" \
		|| fail "$name" "rc=$rc $(head -c 600 "$TMP/err")"
}

# written FILE...: the bytes ioscope wrote to its temporary file (O_TMPFILE or memfd), from
# strace's log of the run (LeakSanitizer does not work under ptrace)
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -qq -o "$TMP/strace" \
		-e trace=openat,memfd_create,write "$IOSCOPE" "$@"
}
written() {
	awk '/O_TMPFILE|memfd_create/ && match($0, /= [0-9]+$/) { fd[substr($0, RSTART + 2)] = 1 }
	     match($0, /write\([0-9]+,/) { n = substr($0, RSTART + 6, RLENGTH - 7)
		if ((n in fd) && match($0, /= [0-9]+$/)) sum += substr($0, RSTART + 2) }
	     END { print sum + 0 }' "$TMP/strace"
}

# ---- a bomb behind the start of a real log: 20 MiB of zeros after its first records ----
for z in gzip xz zstd; do
	{ head -20 "$TMP/s.log"; head -c 20M /dev/zero; } | $z -c >"$TMP/bomb.$z"
	IOSCOPE_DECOMPRESS_MAX=1M refused "$z bomb: refused at IOSCOPE_DECOMPRESS_MAX=1M" \
		"$TMP/bomb.$z" "bomb.$z: $z: it expands past 1 MiB" "IOSCOPE_DECOMPRESS_MAX=1 MiB" \
		"IOSCOPE_DECOMPRESS_RATIO=1000 times the"
	IOSCOPE_DECOMPRESS_RATIO=100 refused "$z bomb: refused at IOSCOPE_DECOMPRESS_RATIO=100" \
		"$TMP/bomb.$z" "bomb.$z: $z: it expands past" "IOSCOPE_DECOMPRESS_MAX=16 GiB" \
		"IOSCOPE_DECOMPRESS_RATIO=100 times the"
done
# the defaults (a ratio of 1000) stop the zstd one, 20 MiB from ~10 KB
refused "zstd bomb: refused by the default ratio" "$TMP/bomb.zstd" "IOSCOPE_DECOMPRESS_RATIO=1000"
# raised, the limits let it through: a genuine log can always be read
IOSCOPE_DECOMPRESS_MAX=64M IOSCOPE_DECOMPRESS_RATIO=100000 \
	"$IOSCOPE" report -f csv "$TMP/bomb.zstd" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && clean_stderr "$TMP/err" && ok "raised limits let the same file through" \
	|| fail "raised limits let the same file through" "rc=$rc $(head -c 300 "$TMP/err")"
# a real log is far inside them: the same rows as the plain log
IOSCOPE_DECOMPRESS_RATIO=100 "$IOSCOPE" report -f csv "$TMP/s.log.zst" >"$TMP/z.csv" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$TMP/plain.csv" "$TMP/z.csv" && [ ! -s "$TMP/err" ] \
	&& ok "a genuine log reads as before under a ratio of 100" \
	|| fail "a genuine log under a ratio of 100" "rc=$rc $(head -c 300 "$TMP/err")"
IOSCOPE_DECOMPRESS_MAX=12Q "$IOSCOPE" report "$TMP/s.log.zst" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q "IOSCOPE_DECOMPRESS_MAX=12Q: give a size" "$TMP/err" \
	&& ok "a limit that is not a size is refused, naming the variable" \
	|| fail "a limit that is not a size" "rc=$rc $(cat "$TMP/err")"

# ---- not a session log: stopped as soon as line 1 shows it, not 30 MiB later ----
head -c 30M /dev/zero | zstd -q -c >"$TMP/zeros.zst"
{ echo "hello world"; head -c 30M /dev/zero; } | xz -c >"$TMP/text.xz"
{ echo '{"a":1}'; head -c 30M /dev/zero; } | gzip -c >"$TMP/json.gz"
{ printf '{'; head -c 30M /dev/zero | tr '\0' a; } | zstd -q -c >"$TMP/longline.zst"
if ! command -v strace >/dev/null; then
	skip "not a log: stopped at once" "no strace to measure what was written"
else
	for f in zeros.zst text.xz json.gz longline.zst; do
		# (no ratio to stop them first: the first line alone does)
		IOSCOPE_DECOMPRESS_RATIO=1000000 traced report -f csv "$TMP/$f" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		n=$(written)
		[ $rc -eq 1 ] && [ "$n" -le $((2 << 20)) ] \
			&& grep -q "$f: [a-z]*: line 1.*not an ioscope session log" "$TMP/err" \
			&& grep -q "decompression stopped" "$TMP/err" && clean_stderr "$TMP/err" \
			&& ok "$f, not a log: stopped after $n bytes of 30 MiB" \
			|| fail "$f, not a log: stopped at once" "rc=$rc wrote $n $(head -c 300 "$TMP/err")"
	done
fi

# ---- where it goes: a full TMPDIR, and memory only within the limits ----
if ! is_root; then
	skip "full TMPDIR" "needs root to mount a small tmpfs"
elif ! command -v strace >/dev/null; then
	skip "full TMPDIR" "no strace to see that no memfd is made"
else
	# no_room NAME DIR PATTERN: with TMPDIR=DIR the report is refused with PATTERN (grep)
	# in its message, and no memfd is made instead
	no_room() {
		TMPDIR=$2 traced report -f csv "$TMP/s.log.zst" >/dev/null 2>"$TMP/err"
		local rc=$?
		[ $rc -eq 1 ] && grep -q "$3" "$TMP/err" && ! grep -q memfd_create "$TMP/strace" \
			&& clean_stderr "$TMP/err" && ok "$1" || fail "$1" "rc=$rc $(head -c 400 "$TMP/err")"
	}
	mkdir "$TMP/small" "$TMP/noinodes"
	mount -t tmpfs -o size=1M tmpfs "$TMP/small" || { fail "mount a 1 MiB tmpfs"; exit 1; }
	at_exit "umount -l '$TMP/small'"
	no_room "a small TMPDIR: refused as it fills, naming it; no memfd" "$TMP/small" \
		"no room for the decompressed log in $TMP/small after [0-9.]* KiB"
	head -c 2M /dev/zero >"$TMP/small/fill" 2>/dev/null
	no_room "a full TMPDIR: a clear error before anything is written; no memfd" "$TMP/small" \
		"in $TMP/small after 0 bytes .*set TMPDIR to a directory with room"
	# no inode left: not even the temporary file can be made, and memory is no way out
	mount -t tmpfs -o size=1M,nr_inodes=2 tmpfs "$TMP/noinodes" \
		|| { fail "mount a tmpfs of 2 inodes"; exit 1; }
	at_exit "umount -l '$TMP/noinodes'"
	: >"$TMP/noinodes/fill"
	no_room "a TMPDIR without inodes: a clear error; no memfd" "$TMP/noinodes" \
		"no room for the decompressed log in $TMP/noinodes: No space"
fi
if command -v strace >/dev/null; then
	# no file can be made there: memory, bounded by the same limits
	TMPDIR=$TMP/none IOSCOPE_DECOMPRESS_MAX=1M traced report -f csv "$TMP/s.log.zst" \
		>/dev/null 2>"$TMP/err"
	rc=$?
	n=$(written)
	[ $rc -eq 1 ] && grep -q memfd_create "$TMP/strace" && [ "$n" -le $((1 << 20)) ] \
		&& grep -q "it expands past 1 MiB" "$TMP/err" && clean_stderr "$TMP/err" \
		&& ok "in memory (no TMPDIR): refused at the limit after $n bytes" \
		|| fail "in memory: refused at the limit" "rc=$rc wrote $n $(head -c 300 "$TMP/err")"
fi

# ---- zstd --long=31: the library's window limit, and how to get past it ----
zstd -q --long=31 -c <"$TMP/s.log" >"$TMP/long.zst"
refused "zstd --long=31: refused with the command that decompresses it" "$TMP/long.zst" \
	"long.zst: zstd: " "decompress it by hand, zstd -d --long=31 $TMP/long.zst"
zstd -q -d --long=31 -c "$TMP/long.zst" >"$TMP/long.log"
"$IOSCOPE" report -f csv "$TMP/long.log" >"$TMP/long.csv" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$TMP/plain.csv" "$TMP/long.csv" && ok "the hint's command works" \
	|| fail "the hint's command works" "rc=$rc $(head -c 300 "$TMP/err")"
