#!/bin/bash
# A replay of a long recording (2 hours at 1 s: twice what the history holds) in
# tmux: a seek to the end lists every mark of the log in the marks panel, and Left
# scrolls back past what the seek re-read, reading the log again through its index,
# down to its first sample, where the first mark is listed.  No root needed: the log is
# generated (tests/e2e/session_log_gen.py, the generator of the replay index's benchmark).
. "$(dirname "$0")/lib.sh"
needs "long replay" python3
. "$(dirname "$0")/console_lib.sh"
command -v tmux >/dev/null || { skip "long replay" "tmux not installed"; exit 0; }

n=7200
log="$TMP/long.log"
python3 "$(dirname "$0")/session_log_gen.py" "$n" 2 "$TMP/gen.log" || { fail "generated a log"; exit 1; }
# user marks near the start and the end, written after their sample as the recorder does
python3 - "$TMP/gen.log" "$log" <<'PY' || { fail "marked the log"; exit 1; }
import json, sys
marks = {5: "first mark", 7100: "late mark"}
with open(sys.argv[2], "w") as out:
    for line in open(sys.argv[1]):
        out.write(line)
        if not line.startswith('{"type":"sample"'):
            continue
        s = json.loads(line)
        if s["seq"] in marks:
            out.write(json.dumps({"type": "event", "seq": s["seq"], "mono": s["mono"], "wall": s["wall"],
                                  "kind": "mark", "object": "", "key": "mark", "old": "",
                                  "new": marks[s["seq"]], "result": "", "by": "user"},
                                 separators=(",", ":")) + "\n")
PY
nmarks=$(grep -c '"type":"event"' "$log")
[ "$nmarks" -eq 3 ] && ok "the log: a scheduler switch and two user marks" \
	|| { fail "the log: a scheduler switch and two user marks" "$nmarks events"; exit 1; }

pos_index() { screen | grep -oE "REPLAY [0-9]+/$n " | head -n 1 | sed -E 's|REPLAY ([0-9]+)/.*|\1|'; }

console_shell 200 50
console_run --replay "$log"
screen_check "replay: playing" "REPLAY [0-9]+/$n .*PLAYING" 10
console_send P
console_send G
screen_check "G: seek prompt" "^seek to" 3
console_send -l "+2h"; console_send Enter
screen_check "G: at the last sample" "REPLAY $n/$n .*PAUSED" 10
# the seek re-read the last minutes only: the marks before them come from the log
screen_check "after the seek: every mark of the log listed" "Marks \\($nmarks\\)" 3
screen_check "after the seek: the first mark among them" "mark +first mark" 3

# Left: about 120 presses take the graphs' right edge (a quarter of their width a press)
# from the end to the start; 300 are sent, the extra ones must leave it there
for ((i = 0; i < 6; i++)); do
	console_send $(printf 'Left %.0s' {1..50})
done
first_msg="the graphs show the first sample of the log"
if wait_screen "$first_msg" 30 && wait_gone "REPLAY $n/" 1; then
	ok "Left: back to the log's first sample"
else
	fail "Left: back to the log's first sample"; show_screen
fi
at=$(pos_index)
# the position follows the graphs' right edge: within a screen of the start
if [ -n "$at" ] && [ "$at" -le 402 ]; then ok "Left: the position shows the start ($at/$n)"; else
	fail "Left: the position shows the start" "'$at'"; show_screen; fi
screen_check "at the start: the first mark listed" "mark +first mark" 3
gone_check "at the start: the late mark is not yet" "late mark"
console_send Left
screen_check "Left at the first sample: stays, says so" "$first_msg" 3
if [ "$(pos_index)" = "$at" ]; then ok "Left at the first sample: the position stays"; else
	fail "Left at the first sample: the position stays" "'$at' then '$(pos_index)'"; fi
# and forward again: l is live (the replay's newest sample read), P plays on
console_send l
gone_check "l: no longer scrolled" "SCROLLED"
console_send q
ended_check "long replay"
