#!/bin/bash
# A day of heavy hot-plug churn (8640 samples, 380k events, hostile_log_gen.py): the
# replay index keeps events compactly, so a report and a replay stay far below the
# 200 MB the issue allows (a struct event per event took 1.5 GB here).  Measured on the
# optimised binary: the sanitizers' shadow memory would measure themselves.
. "$(dirname "$0")/lib.sh"
needs "hostile churn" python3
here=$(dirname "$0")
limit_kb=$((100 * 1024))
python3 "$here/hostile_log_gen.py" "$TMP" 380000 || { fail "generate the churn log"; exit 1; }
n=$(grep -c '"type":"event"' "$TMP/churn.log")
[ "$n" -eq 380000 ] && ok "the log has 380000 events" || fail "the log has 380000 events" "$n"

# max_rss NAME CMD... : CMD exits 0 and its peak RSS stays under limit_kb
max_rss() {
	local name=$1; shift
	/usr/bin/time -o "$TMP/rss" -f %M "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$? kb
	kb=$(tail -1 "$TMP/rss")
	if [ "$rc" -ne 0 ]; then fail "$name" "exit $rc: $(tail -3 "$TMP/err")"
	elif [ "$kb" -ge "$limit_kb" ]; then fail "$name" "peak RSS $kb kB, limit $limit_kb kB"
	else ok "$name (peak RSS $((kb / 1024)) MB)"; fi
}
max_rss "report of 380k events under 100 MB" "$IOSCOPE_OPT" report "$TMP/churn.log" -f text
grep -q "^---- [0-9:]* \[[0-9]*\] mark: " "$TMP/out" && ok "the report has the marks inline" \
	|| fail "the report has the marks inline"
max_rss "replay --batch of 380k events under 100 MB" "$IOSCOPE_OPT" --replay "$TMP/churn.log" \
	--batch -f json
lines=$(wc -l <"$TMP/out")
[ "$lines" -eq 8639 ] && ok "every interval replayed" || fail "every interval replayed" "$lines lines"
