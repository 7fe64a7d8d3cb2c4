#!/bin/bash
# Session logs compressed with xz, gzip or zstd open in `report` and `--replay` as they
# are: the same output as the plain log; the library is loaded only for such a file; a
# log cut short keeps what came out, with a warning, said first, and what it cut is put
# down to the damage; one cut in its header, or damaged from the start, is refused by name.
# Long work shows its progress on a terminal's stderr, and only there.
. "$(dirname "$0")/lib.sh"
needs "compressed logs" python3 xz gzip zstd

python3 "$IOSCOPE_TOP/tests/e2e/session_log_gen.py" 600 3 "$TMP/s.log"
"$IOSCOPE" report -f csv "$TMP/s.log" >"$TMP/plain.csv" 2>"$TMP/err" \
	|| { fail "plain report" "$(cat "$TMP/err")"; exit 1; }
"$IOSCOPE" --replay "$TMP/s.log" --batch -f json >"$TMP/plain.json" 2>"$TMP/err" \
	|| { fail "plain replay" "$(cat "$TMP/err")"; exit 1; }

declare -A lib=([xz]=liblzma [gz]=libz [zst]=libzstd)
xz -k "$TMP/s.log"; gzip -k "$TMP/s.log"; zstd -q -k "$TMP/s.log"
for ext in xz gz zst; do
	f="$TMP/s.log.$ext"
	"$IOSCOPE" report -f csv "$f" >"$TMP/out.csv" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 0 ] && cmp -s "$TMP/plain.csv" "$TMP/out.csv" && [ ! -s "$TMP/err" ] \
		&& ok "report of a .$ext log: the plain log's output" \
		|| fail "report of a .$ext log" "rc=$rc $(head -3 "$TMP/err")"
	"$IOSCOPE" --replay "$f" --batch -f json >"$TMP/out.json" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 0 ] && cmp -s "$TMP/plain.json" "$TMP/out.json" && clean_stderr "$TMP/err" \
		&& ok "--replay of a .$ext log: the plain log's samples" \
		|| fail "--replay of a .$ext log" "rc=$rc $(head -3 "$TMP/err")"
	# the library comes with the compressed file only
	LD_DEBUG=files "$IOSCOPE_OPT" report -f csv "$f" 2>"$TMP/ld" >/dev/null
	grep -q "${lib[$ext]}\.so" "$TMP/ld" && ok "${lib[$ext]} loaded for a .$ext log" \
		|| fail "${lib[$ext]} loaded for a .$ext log"
	LD_DEBUG=files "$IOSCOPE_OPT" report -f csv "$TMP/s.log" 2>"$TMP/ld" >/dev/null
	! grep -q "${lib[$ext]}\.so" "$TMP/ld" && ok "${lib[$ext]} not loaded for a plain log" \
		|| fail "${lib[$ext]} not loaded for a plain log"

	# cut short: what came out is reported, with a warning that says why
	head -c $(($(stat -c %s "$f") / 2)) "$f" >"$TMP/cut.$ext"
	"$IOSCOPE" report -f csv "$TMP/cut.$ext" >"$TMP/cut.csv" 2>"$TMP/err"
	rc=$?
	rows=$(grep -c '^sample,' "$TMP/cut.csv")
	all=$(grep -c '^sample,' "$TMP/plain.csv")
	[ $rc -eq 0 ] && [ "$rows" -gt 0 ] && [ "$rows" -lt "$all" ] \
		&& grep -q "end early: the [0-9]* bytes of the log before it are read" "$TMP/err" \
		&& clean_stderr "$TMP/err" \
		&& ok "a .$ext log cut short: $rows of $all rows, and a warning" \
		|| fail "a .$ext log cut short" "rc=$rc rows=$rows/$all $(head -3 "$TMP/err")"
	# ... said first, and what it cut is put down to the damage, not to a recording that
	# stopped (issue 40: "the recorder was interrupted", "the recording stopped")
	"$IOSCOPE" --replay "$TMP/cut.$ext" --batch -f json >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -eq 0 ] && head -1 "$TMP/err" | grep -q "cut.$ext: [a-z]*: .*before it are read" \
		&& grep -q "the last record is cut where the compressed data are damaged" "$TMP/err" \
		&& ! grep -q "interrupted\|stopped" "$TMP/err" && clean_stderr "$TMP/err" \
		&& ok "--replay of a .$ext log cut short: said damaged, first" \
		|| fail "--replay of a .$ext log cut short: said damaged, first" "rc=$rc $(head -3 "$TMP/err")"
	head -c 120 "$f" >"$TMP/head.$ext"
	"$IOSCOPE" report "$TMP/head.$ext" >/dev/null 2>"$TMP/err"
	rc=$?
	# (zstd gives nothing of 120 bytes: refused as damaged from the start, below)
	[ $rc -eq 1 ] && grep -qE "head.$ext: [a-z]+: (.*not even the header is whole in them: the compressed file is damaged|the compressed data end early$)" "$TMP/err" \
		&& ! grep -q "stopped" "$TMP/err" && clean_stderr "$TMP/err" \
		&& ok "a .$ext log cut in its header: refused as damaged" \
		|| fail "a .$ext log cut in its header: refused as damaged" "rc=$rc $(head -3 "$TMP/err")"
done

# damaged from the start: refused, naming the file
printf '\x1f\x8bthis is not deflate data' >"$TMP/bad.gz"
"$IOSCOPE" report "$TMP/bad.gz" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q "bad.gz: gzip: " "$TMP/err" && clean_stderr "$TMP/err" \
	&& ok "a damaged .gz is refused, naming the file" || fail "a damaged .gz" "rc=$rc $(cat "$TMP/err")"

# progress: on a terminal's stderr (script(1) gives one), never in a file
IOSCOPE_PROGRESS_AFTER=0 script -qec "'$IOSCOPE' report '$TMP/s.log.xz' -o '$TMP/p.txt'" \
	/dev/null >"$TMP/tty" 2>&1
grep -qa "s.log.xz: *[0-9]*%" "$TMP/tty" && ok "progress shown on a terminal" \
	|| fail "progress shown on a terminal" "$(tr '\r' '\n' <"$TMP/tty" | head -3)"
IOSCOPE_PROGRESS_AFTER=0 "$IOSCOPE" report "$TMP/s.log.xz" -o "$TMP/p.txt" 2>"$TMP/err"
[ $? -eq 0 ] && [ ! -s "$TMP/err" ] && ok "no progress when stderr is a file" \
	|| fail "no progress when stderr is a file" "$(head -c 200 "$TMP/err")"
