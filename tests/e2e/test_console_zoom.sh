#!/bin/bash
# Time zoom on the graphs (issue 41): z shows more time across (several samples a column,
# their mean), up to the whole history, Z goes back down to one sample a column; the
# title says the time the graphs span; the X axis is labelled at round times before the
# newest sample, one step apart (every 20 s, 1 min, 5 min...: "-1m -40s -20s now", never
# "-1m23s -1m03s -43s").  A replayed half hour (session_log_gen.py) whose intervals are
# not all a second (every seventh 1.3 s, as a loaded machine samples), seeked to minute 25.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "console zoom" "tmux not installed"; exit 0; }
needs "console zoom" python3
LOG="$TMP/long.log"
python3 "$(dirname "$0")/session_log_gen.py" 1800 2 "$TMP/even.log" || { fail "log"; exit 1; }
# every seventh interval 0.3 s longer: sample n's time is not n seconds after the first
python3 - "$TMP/even.log" "$LOG" <<'PY' || { fail "uneven log"; exit 1; }
import json, sys
lines = open(sys.argv[1]).read().splitlines()
first = {k: json.loads(lines[1])[k] for k in ("mono", "wall")}
with open(sys.argv[2], "w") as out:
    for l in lines:
        r = json.loads(l)
        for k in ("mono", "wall"):
            if k in r and r["type"] != "header":
                r[k] += (r[k] - first[k]) // 7_000_000_000 * 300_000_000
        out.write(json.dumps(r, separators=(",", ":")) + "\n")
PY

# The X axis (the line ending in "now"): its labels' ages, oldest first, when they are
# round and evenly spaced ("1200 900 600 300 0"); else a complaint, and exit 1.
axis() {
	screen | grep -E '^ +.*now$' | tail -1 | python3 -c '
import re, sys
line = sys.stdin.read().strip()
ages = []
for l in line.split():
    m = re.fullmatch(r"-(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?", l)
    if l == "now":
        ages.append(0)
    elif m and any(m.groups()):
        h, mi, s = (int(g or 0) for g in m.groups())
        ages.append(h * 3600 + mi * 60 + s)
    else:
        sys.exit("not a label: %r in %r" % (l, line))
steps = {a - b for a, b in zip(ages, ages[1:])}
rounds = {1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600}
if len(ages) < 3 or len(steps) != 1 or steps.pop() not in rounds or ages[-1] != 0:
    sys.exit("labels not at round times one step apart: %r" % line)
print(" ".join(map(str, ages)))'
}
# oldest: the age of the leftmost X label, once the axis is round (at most 5 s)
oldest() {
	local i out
	for ((i = 0; i < 25; i++)); do
		out=$(axis 2>/dev/null) && { echo "${out%% *}"; return 0; }
		sleep 0.2
	done
	return 1
}

console_shell 120 40
console_run --replay "$LOG"
screen_check "replay started" "REPLAY [0-9]+/1800 " 5
console_send G
wait_screen "seek to" 3
console_send -l "+1500"
console_send Enter
screen_check "seeked to minute 25" "seeked: sample 14[0-9]{2}/1800" 5
if a1=$(oldest); then ok "X labels at round times, one step apart ($(axis))"; else
	fail "X labels at round times, one step apart" "$(axis 2>&1)"; show_screen; fi
screen_check "the title says what the graphs span" "^─ MB/s .* [0-9]+m[0-9]+s across  z zoom " 3

console_send z
screen_check "z: two samples a column" "graphs: 2 samples a column, [0-9m]+s? across" 3
a2=$(oldest)
if [ -n "$a2" ] && [ -n "$a1" ] && [ "$a2" -ge $((a1 * 3 / 2)) ]; then
	ok "z: more time across (oldest label -${a1}s, then -${a2}s), labels round ($(axis))"
else
	fail "z: more time across" "oldest label -${a1:-?}s, then -${a2:-?}s: $(axis 2>&1)"; show_screen
fi
screen_check "z: the title says z/Z" "across  z/Z zoom " 3

# out until the whole history held (some 1450 samples, 25 minutes) is in view, no further
for i in 1 2 3 4 5 6; do console_send z; sleep 0.2; done
screen_check "z to the end: the whole history" "the graphs show the whole history" 3
a3=$(oldest)
if [ -n "$a3" ] && [ "$a3" -ge 1200 ]; then ok "z to the end: labels back to -${a3}s ($(axis))"; else
	fail "z to the end: labels back 20 minutes or more" "oldest -${a3:-?}s: $(axis 2>&1)"; show_screen; fi

for i in 1 2 3 4 5 6 7 8; do console_send Z; sleep 0.2; done
screen_check "Z back: one sample a column, no further" "the graphs show every sample" 3
a4=$(oldest)
check "Z back: the span it had (-${a4:-?}s)" test "${a4:-x}" = "$a1"

console_send '?'
screen_check "help: z and Z" "│ +z +zoom the graphs out" 3
console_send q
console_send q
ended_check "zoom"
