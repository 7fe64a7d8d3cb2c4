#!/bin/bash
# What ioscope refuses so that no recording or report is lost (issue 9, items 5-8 and
# 10): --record never truncates, a failed start leaves no file, --record-append adds a
# session, FIFOs and pipes stream, a second recorder is refused (lock), a report never
# writes over its input nor leaves a partial file, every write error is told with its
# cause, and no output is opened through a symlink.
# run.sh: early (among the longest: started first)
. "$(dirname "$0")/lib.sh"

# A short batch run of a fixture tree re-read every interval: recordings of a few kB
# whatever devices the machine has (of the live machine's, beside the other scripts' loop
# devices, the reports below read megabytes: a minute of CPU).
FIXTURE=$IOSCOPE_TOP/tests/fixtures/no-sys-no-psi
batch() { "$IOSCOPE" --root "$FIXTURE" --batch -i 0.01 -c 2 "$@"; }
sanitizer_clean() { ! grep -qE 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$1"; }
same() { cmp -s "$1" "$2"; }

printf 'precious data\n' >"$TMP/keep.orig"

# ---- 5: --record never truncates, and nothing is created before the arguments are good ----
cp "$TMP/keep.orig" "$TMP/keep.log"
batch --record "$TMP/keep.log" nosuchdev >/dev/null 2>"$TMP/err"; rc=$?
{ [ $rc -eq 1 ] || [ $rc -eq 2 ]; } && same "$TMP/keep.log" "$TMP/keep.orig" \
	&& sanitizer_clean "$TMP/err" && ok "bad device: refused, the existing file untouched" \
	|| fail "bad device: refused, the existing file untouched" "rc=$rc $(cat "$TMP/err")"
batch --record "$TMP/keep.log" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -ne 0 ] && same "$TMP/keep.log" "$TMP/keep.orig" && grep -q "keep.log exists" "$TMP/err" \
	&& grep -q -- "--record-append" "$TMP/err" \
	&& ok "an existing file is refused with a message naming --record-append" \
	|| fail "an existing file is refused" "rc=$rc $(cat "$TMP/err")"
"$IOSCOPE" --record "$TMP/keep.log" </dev/null >/dev/null 2>"$TMP/err"; rc=$?
{ [ $rc -eq 1 ] || [ $rc -eq 2 ]; } && same "$TMP/keep.log" "$TMP/keep.orig" \
	&& sanitizer_clean "$TMP/err" && ok "console without a terminal: refused before the file is touched" \
	|| fail "console without a terminal" "rc=$rc $(cat "$TMP/err")"
batch --record "$TMP/new.log" nosuchdev >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$TMP/new.log" ] && ok "bad device: no new file left behind" \
	|| fail "bad device: no new file left behind" "rc=$rc $(ls -l "$TMP/new.log" 2>&1)"
"$IOSCOPE" --record "$TMP/new.log" </dev/null >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && [ ! -e "$TMP/new.log" ] && ok "no terminal: no new file left behind" \
	|| fail "no terminal: no new file left behind" "rc=$rc"

# --record-append: a second header; readers take it as a new session
batch -c 3 --record "$TMP/a.log" >/dev/null 2>"$TMP/err" || fail "record a.log" "$(cat "$TMP/err")"
batch -c 3 --record-append "$TMP/a.log" >/dev/null 2>"$TMP/err"; rc=$?
headers=$(grep -c '^{"type":"header"' "$TMP/a.log")
samples=$(grep -c '^{"type":"sample"' "$TMP/a.log")
[ $rc -eq 0 ] && [ "$headers" = 2 ] && [ "$samples" = 8 ] && sanitizer_clean "$TMP/err" \
	&& ok "--record-append adds a session (second header)" \
	|| fail "--record-append adds a session" "rc=$rc headers=$headers samples=$samples"
"$IOSCOPE" --replay "$TMP/a.log" --batch -f csv >"$TMP/a.csv" 2>"$TMP/err"; rc=$?
[ $rc -eq 0 ] && grep -q "another header" "$TMP/err" && ! grep -q "follows sample" "$TMP/err" \
	&& ok "replay reads an appended log, the second header starts a new session" \
	|| fail "replay reads an appended log" "rc=$rc $(cat "$TMP/err")"
# appending after a torn last line (a crash) starts on a line of its own
cp "$TMP/a.log" "$TMP/torn.log"
printf '{"type":"sample","seq":9' >>"$TMP/torn.log"
batch --record-append "$TMP/torn.log" >/dev/null 2>"$TMP/err" || fail "append to torn.log" "$(cat "$TMP/err")"
"$IOSCOPE" report "$TMP/torn.log" -f csv >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^{"type":"header"' "$TMP/torn.log")" = 3 ] \
	&& ok "append after a torn line keeps the new header whole" \
	|| fail "append after a torn line" "rc=$rc $(cat "$TMP/err")"

# streams: a FIFO, a pipe behind /dev/fd; --batch with --record - is refused
mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/from-fifo" &
reader=$!
batch -c 3 --record "$TMP/fifo" >/dev/null 2>"$TMP/err"; rc=$?
wait $reader
[ $rc -eq 0 ] && [ "$(grep -c '"type":"sample"' "$TMP/from-fifo")" = 4 ] \
	&& ok "a FIFO streams the log" || fail "a FIFO streams the log" "rc=$rc $(cat "$TMP/err")"
batch -c 3 --record >(cat >"$TMP/from-pipe") >/dev/null 2>"$TMP/err"; rc=$?
nap 0.3
[ $rc -eq 0 ] && [ "$(grep -c '"type":"sample"' "$TMP/from-pipe")" = 4 ] \
	&& ok "a pipe (/dev/fd link) streams the log" \
	|| fail "a pipe streams the log" "rc=$rc $(cat "$TMP/err")"
batch --record - >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "standard output" "$TMP/err" && ok "--batch --record - refused" \
	|| fail "--batch --record - refused" "rc=$rc"

# ---- 7: one recorder per file ----
"$IOSCOPE" --root "$FIXTURE" --batch -i 0.05 -c 60 --record "$TMP/locked.log" >/dev/null 2>"$TMP/err1" &
first=$!
for _ in $(seq 50); do [ -s "$TMP/locked.log" ] && break; sleep 0.1; done
"$IOSCOPE" --batch -i 0.05 -c 3 --record-append "$TMP/locked.log" >/dev/null 2>"$TMP/err"; rc=$?
wait $first; rc1=$?
[ $rc -eq 1 ] && grep -q "another ioscope is recording to it" "$TMP/err" && [ $rc1 -eq 0 ] \
	&& [ "$(grep -c '^{"type":"header"' "$TMP/locked.log")" = 1 ] \
	&& ok "a second recorder on the same file is refused (lock)" \
	|| fail "a second recorder is refused" "rc=$rc rc1=$rc1 $(cat "$TMP/err")"
# a reader warns where sample numbers go back (logs interleaved) and goes on
{ cat "$TMP/a.log"; grep '"type":"sample"' "$TMP/a.log" | tail -2; } >"$TMP/interleaved.log"
"$IOSCOPE" report "$TMP/interleaved.log" -f csv >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 0 ] && grep -qE "sample [0-9]+ follows sample [0-9]+ .*new session starts here" "$TMP/err" \
	&& ok "report warns on a repeated sample number" \
	|| fail "report warns on a repeated sample number" "rc=$rc $(cat "$TMP/err")"

# ---- 6: a report never writes over its input, nor leaves a partial file ----
cp "$TMP/a.log" "$TMP/in.log"
cp "$TMP/in.log" "$TMP/in.orig"
"$IOSCOPE" report "$TMP/in.log" -o "$TMP/in.log" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -ne 0 ] && same "$TMP/in.log" "$TMP/in.orig" && grep -q "is the input" "$TMP/err" \
	&& ok "report -o INPUT refused, input intact" \
	|| fail "report -o INPUT refused" "rc=$rc $(cat "$TMP/err")"
ln "$TMP/in.log" "$TMP/hardlink.log"
"$IOSCOPE" report "$TMP/in.log" -f csv -o "$TMP/hardlink.log" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -ne 0 ] && same "$TMP/in.log" "$TMP/in.orig" && ok "report -o a hard link of the input refused" \
	|| fail "report -o a hard link of the input refused" "rc=$rc"
mkdir "$TMP/outdir"
"$IOSCOPE" report "$TMP/in.log" -o "$TMP/outdir/r.txt" 2>"$TMP/err"; rc=$?
[ $rc -eq 0 ] && [ -s "$TMP/outdir/r.txt" ] && [ "$(ls -A "$TMP/outdir")" = r.txt ] \
	&& ok "report -o writes the file, no temporary left" \
	|| fail "report -o writes the file" "rc=$rc $(ls -A "$TMP/outdir")"

# ---- 8: every write error is told, with its cause ----
batch >/dev/full 2>"$TMP/err"; rc=$?
[ $rc -eq 1 ] && grep -q "standard output: No space left on device" "$TMP/err" \
	&& ok "--batch > /dev/full: exit 1 with the cause" \
	|| fail "--batch > /dev/full" "rc=$rc $(cat "$TMP/err")"
"$IOSCOPE" report "$TMP/a.log" >/dev/full 2>"$TMP/err"; rc=$?
[ $rc -eq 1 ] && grep -q "standard output: No space left on device" "$TMP/err" \
	&& ok "report > /dev/full: exit 1 with the cause" \
	|| fail "report > /dev/full" "rc=$rc $(cat "$TMP/err")"
disk=$(system_disk)
for cmd in "show $disk" "--version"; do
	# shellcheck disable=SC2086
	"$IOSCOPE" $cmd >/dev/full 2>"$TMP/err"; rc=$?
	[ $rc -eq 1 ] && grep -q "standard output: No space left on device" "$TMP/err" \
		&& ok "$cmd > /dev/full: exit 1 with the cause" \
		|| fail "$cmd > /dev/full" "rc=$rc $(cat "$TMP/err")"
done
if is_root; then
	mkdir "$TMP/full"
	if mount -t tmpfs -o size=64k tmpfs "$TMP/full"; then
		at_exit "umount -l '$TMP/full'"
		# a report longer than what is left
		for _ in $(seq 30); do cat "$TMP/a.log"; done >"$TMP/big.log.tmp"
		grep -v '^{"type":"header"' "$TMP/big.log.tmp" | cat <(head -1 "$TMP/a.log") - >"$TMP/big.log"
		dd if=/dev/zero of="$TMP/full/filler" bs=1k count=56 status=none
		for f in text csv json svg; do
			"$IOSCOPE" report "$TMP/big.log" -f $f -o "$TMP/full/r.$f" >/dev/null 2>"$TMP/err"; rc=$?
			left=$(ls -A "$TMP/full" | tr '\n' ' ')
			[ $rc -eq 1 ] && grep -q "r.$f: No space left on device" "$TMP/err" \
				&& [ "$left" = "filler " ] \
				&& ok "report -f $f on a full disk: exit 1, the cause, no partial file" \
				|| fail "report -f $f on a full disk" "rc=$rc $(grep -v 'warning:' "$TMP/err") in the directory: $left"
			find "$TMP/full" -mindepth 1 ! -name filler -delete   # one failure, one line
		done
		# an older report stays as it was
		rm "$TMP/full/filler"
		printf 'old report\n' >"$TMP/full/r.txt"
		dd if=/dev/zero of="$TMP/full/filler" bs=1k count=56 status=none 2>/dev/null
		"$IOSCOPE" report "$TMP/big.log" -o "$TMP/full/r.txt" >/dev/null 2>"$TMP/err"; rc=$?
		[ $rc -eq 1 ] && [ "$(cat "$TMP/full/r.txt")" = "old report" ] \
			&& ok "a failed report leaves the old file as it was" \
			|| fail "a failed report leaves the old file" "rc=$rc"
	else
		skip "full filesystem" "cannot mount a tmpfs"
	fi
else
	skip "full filesystem" "needs root to mount a small tmpfs"
fi

# a report killed while it writes (here by SIGXFSZ, past its file size limit) leaves nothing: the
# output is an unnamed file until it is whole
mkdir "$TMP/killed"
for _ in $(seq 20); do cat "$TMP/a.log"; done >"$TMP/long.log"
# (standard error through a pipe: the log's warnings in a file would pass the limit first)
prlimit --fsize=2048 "$IOSCOPE" report "$TMP/long.log" -o "$TMP/killed/r.txt" 2>&1 >/dev/null \
	| cat >"$TMP/err"; rc=${PIPESTATUS[0]}
left=$(ls -A "$TMP/killed" | tr '\n' ' ')
[ $rc -eq $((128 + 25)) ] && [ -z "$left" ] \
	&& ok "a report killed while writing leaves no file behind" \
	|| fail "a report killed while writing leaves no file behind" "rc=$rc in the directory: $left"

# ---- 10: no output through a symlink (a planted one, or a dangling one) ----
printf 'root only\n' >"$TMP/target"
cp "$TMP/target" "$TMP/target.orig"
ln -s "$TMP/target" "$TMP/planted.log"
ln -s "$TMP/not-there" "$TMP/dangling.log"
batch --record "$TMP/planted.log" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -ne 0 ] && same "$TMP/target" "$TMP/target.orig" && grep -q "symbolic link" "$TMP/err" \
	&& ok "--record through a planted symlink refused" \
	|| fail "--record through a planted symlink" "rc=$rc $(cat "$TMP/err")"
batch --record-append "$TMP/planted.log" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -ne 0 ] && same "$TMP/target" "$TMP/target.orig" && ok "--record-append through a symlink refused" \
	|| fail "--record-append through a symlink" "rc=$rc"
batch --record "$TMP/dangling.log" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$TMP/not-there" ] && ok "--record through a dangling symlink creates nothing" \
	|| fail "--record through a dangling symlink" "rc=$rc"
"$IOSCOPE" report "$TMP/in.log" -o "$TMP/planted.log" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -ne 0 ] && same "$TMP/target" "$TMP/target.orig" && grep -q "symbolic link" "$TMP/err" \
	&& ok "report -o through a symlink refused" || fail "report -o through a symlink" "rc=$rc"
"$IOSCOPE" report "$TMP/in.log" -o "$TMP/dangling.log" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -ne 0 ] && [ ! -e "$TMP/not-there" ] && ok "report -o through a dangling symlink creates nothing" \
	|| fail "report -o through a dangling symlink" "rc=$rc"
exit 0
