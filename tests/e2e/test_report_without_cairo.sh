#!/bin/bash
# Plots where cairo cannot be loaded: ioscope is not linked with cairo but opens it
# for `report --format svg|png` (docs/design.md).  A bogus libcairo.so.2 first in
# LD_LIBRARY_PATH makes the dynamic loader fail exactly as on a machine without
# cairo: the plot formats must say so and exit 1 without leaving an output file,
# and every other command, the text, CSV and JSON reports included, must still run.
. "$(dirname "$0")/lib.sh"
needs "report without cairo" python3

"$IOSCOPE" --batch -i 0.05 -c 4 -f json --record "$TMP/s.log" >/dev/null 2>"$TMP/err"
check "recorded" test $? -eq 0

mkdir "$TMP/nocairo"
echo "not a shared library" >"$TMP/nocairo/libcairo.so.2"
nocairo() { LD_LIBRARY_PATH="$TMP/nocairo${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"; }
clean_stderr() { ! grep -qE 'Sanitizer|runtime error|error while loading shared libraries' "$1"; }

# The environment is the cause: with it the plot fails, without it the same plot works.
"$IOSCOPE" report "$TMP/s.log" --format png -o "$TMP/ok.png" 2>"$TMP/err"
[ $? -eq 0 ] && [ "$(head -c 4 "$TMP/ok.png" | tail -c 3)" = PNG ] && ok "png with cairo" ||
	fail "png with cairo" "$(cat "$TMP/err")"

for fmt in png svg; do
	nocairo "$IOSCOPE" report "$TMP/s.log" --format "$fmt" -o "$TMP/r.$fmt" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && ok "$fmt without cairo: exit status 1" || fail "$fmt without cairo: exit status 1" "got $rc: $(cat "$TMP/err")"
	grep -q "plots need the cairo library, which could not be loaded (.*libcairo.so.2" "$TMP/err" &&
		grep -q "give --format text, csv or json" "$TMP/err" && clean_stderr "$TMP/err" &&
		ok "$fmt without cairo: says why and what works" || fail "$fmt without cairo: message" "$(cat "$TMP/err")"
	[ ! -e "$TMP/r.$fmt" ] && [ ! -s "$TMP/out" ] && ok "$fmt without cairo: no output file" ||
		fail "$fmt without cairo: no output file"
done
nocairo "$IOSCOPE" report "$TMP/s.log" --format svg >"$TMP/out" 2>"$TMP/err"
[ $? -eq 1 ] && [ ! -s "$TMP/out" ] && ok "svg to standard output without cairo: nothing written" ||
	fail "svg to standard output without cairo" "$(cat "$TMP/err")"

nocairo "$IOSCOPE" report "$TMP/s.log" >"$TMP/r.txt" 2>"$TMP/err"
[ $? -eq 0 ] && grep -q "^  host " "$TMP/r.txt" && clean_stderr "$TMP/err" && ok "text report without cairo" ||
	fail "text report without cairo" "$(cat "$TMP/err")"
nocairo "$IOSCOPE" report "$TMP/s.log" --format csv >"$TMP/r.csv" 2>"$TMP/err"
[ $? -eq 0 ] && head -1 "$TMP/r.csv" | grep -q "^record,time," && [ "$(wc -l <"$TMP/r.csv")" -gt 3 ] &&
	clean_stderr "$TMP/err" && ok "csv report without cairo" || fail "csv report without cairo" "$(cat "$TMP/err")"
nocairo "$IOSCOPE" report "$TMP/s.log" --format json >"$TMP/r.json" 2>"$TMP/err"
[ $? -eq 0 ] && python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/r.json" &&
	clean_stderr "$TMP/err" && ok "json report without cairo" || fail "json report without cairo" "$(cat "$TMP/err")"
nocairo "$IOSCOPE" --batch -i 0.05 -c 1 -f json >"$TMP/b.json" 2>"$TMP/err"
[ $? -eq 0 ] && [ -s "$TMP/b.json" ] && clean_stderr "$TMP/err" && ok "batch without cairo" ||
	fail "batch without cairo" "$(cat "$TMP/err")"
