#!/bin/bash
# Issue 41 items 2 and 3: the marks of ioscope's own changes say what happened.
# A refused change is a mark of what was tried, that it was refused and the kernel's words
# (xfs refuses nobarrier: "remount +nobarrier: refused: xfs: Unknown parameter
# 'nobarrier'", was "remount (same options)"); a change to the value already there
# (`scheduler=` the one in use, `nr_requests=` its value) is no event at all (was
# "scheduler kyber → kyber").  From `ioscope set`/`remount` beside a batch run, and from the
# console's dialogs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"
is_root || { skip "control marks" "needs root for a loop device and a mount"; exit 0; }
needs "control marks" python3 mkfs.xfs

dev=$(make_loop 320) || { fail "control marks: loop device"; exit 1; }
mnt=$(make_fs "$dev" xfs) || { skip "control marks" "no xfs on a loop device here"; exit 0; }
Q=/sys/block/$dev/queue
run() { OUT=$("$IOSCOPE" "$@" 2>&1 </dev/null); RC=$?; }
# a value of nr_requests and read_ahead_kb other than the one there
other_of() { [ "$1" = 64 ] && echo 32 || echo 64; }

# ---- beside a batch run: `ioscope set` and `remount` from a shell ----
"$IOSCOPE" --batch -i 0.2 -f json "$dev" >"$TMP/b.json" 2>"$TMP/b.err" &
bpid=$!
at_exit "kill $bpid"
wait_socket $bpid && wait_output "$TMP/b.json" $bpid || { fail "control marks: batch started" "$(cat "$TMP/b.err")"; exit 1; }
cur=$(elevator_now "$dev") nr=$(cat "$Q/nr_requests")
run set --events "$dev" "scheduler=$cur" "nr_requests=$nr"
[ "$RC" = 0 ] && grep -q "nr_requests: $nr -> $nr: ok (unchanged: already $nr)" <<<"$OUT" \
	&& ok "set to the values there: unchanged, said" || fail "set to the values there: unchanged, said" "exit $RC: $OUT"
grep -q '"type":"event"' <<<"$OUT" && fail "set to the values there: no event" "$OUT" \
	|| ok "set to the values there: no event"
run remount --events -y "$mnt" nobarrier
[ "$RC" = 1 ] && grep -qF "\"result\":\"refused: +nobarrier: xfs: Unknown parameter 'nobarrier'" <<<"$OUT" \
	&& ok "remount refused: its event says what was tried, and the kernel's words" \
	|| fail "remount refused: its event says what was tried, and the kernel's words" "exit $RC: $OUT"
# a change made after both: once the batch has it, it has had what came before
ra=$(cat "$Q/read_ahead_kb") ra2=$(other_of "$(cat "$Q/read_ahead_kb")")
run set "$dev" "read_ahead_kb=$ra2"
wait_until 10 $bpid grep -q "\"label\":\"read_ahead_kb $ra→$ra2\"" "$TMP/b.json"
kill -TERM $bpid
wait $bpid && clean_stderr "$TMP/b.err" && ok "batch beside the changes" \
	|| fail "batch beside the changes" "$(cat "$TMP/b.err")"
python3 - "$TMP/b.json" "$dev" "$mnt" "$ra→$ra2" <<'PY'
import json, sys
path, dev, mnt, ra = sys.argv[1:]
evs = [e for l in open(path) for e in json.loads(l)["events"] if e["object"] in (dev, mnt)]
labels = [e["label"] for e in evs]
def check(name, cond):
    print(("ok " if cond else "not ok ") + name + ("" if cond else f": {labels}"))
check("batch: the change after them is there", f"read_ahead_kb {ra}" in labels)
check("batch: no event of the scheduler or nr_requests set to what they were",
      not [e for e in evs if e["key"] in ("scheduler", "nr_requests")])
refused = [e for e in evs if e["kind"] == "mount_options"]
check("batch: the refused remount is one event",
      len(refused) == 1 and refused[0]["by"] == "ioscope")
check("batch: its label says what was tried, refused, in the kernel's words",
      len(refused) == 1 and refused[0]["label"].startswith(
          "remount +nobarrier: refused: xfs: Unknown parameter 'nobarrier'"))
PY

# ---- the console's dialogs ----
command -v tmux >/dev/null || { skip "control marks: console" "tmux not installed"; exit 0; }
keys() { console_send "$@"; nap 0.3; }
console_shell 200 50
console_run -i 0.5 "$dev"
wait_for "$dev" 15 || { fail "control marks: console started" "$(screen | head -5)"; exit 0; }
cur=$(elevator_now "$dev") nr=$(cat "$Q/nr_requests")
# the scheduler picker on the one in use: Enter
keys S
check "console: scheduler picker" wait_for "Scheduler of $dev"
keys Enter
check "console: the scheduler unchanged, said" wait_for "scheduler: $cur -> $cur: ok (unchanged: already $cur)"
keys Escape
# the tunables editor: nr_requests (its second row) to its value
keys T
check "console: tunables editor" wait_for "Tunables of $dev"
keys Down Enter
check "console: nr_requests line" wait_for "nr_requests ="
keys C-u "$nr" Enter
check "console: nr_requests unchanged, said" wait_for "nr_requests: $nr -> $nr: ok (unchanged: already $nr)"
keys Escape
# the mount options editor: nobarrier, which xfs refuses (a risk: asked, y)
keys o
check "console: remount editor" wait_for "Remount $mnt (xfs)"
keys C-u nobarrier Enter
wait_for "nobarrier" >/dev/null
screen | grep -qF "Risky change" && keys y
check "console: the refusal in the dialog" wait_for "refused: +nobarrier: xfs: Unknown parameter 'nobarrier'"
keys Escape
# the panel (its line may be cut: its end is the footer's once selected)
check "console: the refused remount's mark says what was tried, refused" \
	wait_for "  remount +nobarrier: refused: xfs: "
keys "("
check "console: the refused remount's mark, whole: the kernel's words" \
	wait_for "remount +nobarrier: refused: xfs: Unknown parameter 'nobarrier'"
keys l
# a change made after them: once it is marked, the panel has had the rest
nr2=$(other_of "$nr")
keys T
wait_for "Tunables of $dev" >/dev/null
keys Down Enter
wait_for "nr_requests =" >/dev/null
keys C-u "$nr2" Enter
check "console: a change after them" wait_for "$dev  nr_requests  $nr → $nr2  (by ioscope)"
keys Escape
if screen | grep -qE "scheduler  $cur → $cur|nr_requests  $nr → $nr( |$)"; then
	fail "console: no mark of a change to the value there" "$(show_screen)"
else
	ok "console: no mark of a change to the value there"
fi
console_send q
ended_check "console"
