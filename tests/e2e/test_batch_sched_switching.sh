#!/bin/bash
# Samples taken while the scheduler is being switched invent nothing: a loop device of our
# own gets a new scheduler every 10-80 ms under a writer while batch mode samples it every
# 0.2 s; no sample may carry an iosched tunable change of that device without a scheduler
# event of it in the same sample (a torn read is read again or dropped, docs/sources.md).
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip batch_sched_switching "needs root for loop devices"
	exit 0
fi

DEV=$(make_loop 64) || { fail "loop device"; exit 1; }
Q=/sys/block/$DEV/queue
read -r -a SCHEDS <<<"$(tr -d '[]' <"$Q/scheduler")"
if [ "${#SCHEDS[@]}" -lt 3 ]; then
	skip batch_sched_switching "fewer than three schedulers here: ${SCHEDS[*]}"
	exit 0
fi
steady_writer "$DEV" 30

"$IOSCOPE" --batch -f json -i 0.2 "$DEV" >"$TMP/out.json" 2>"$TMP/err" &
PID=$!
at_exit "kill $PID"
# Switch for ~5 s: every scheduler in turn, 10-80 ms apart.
end=$((SECONDS + 5)) i=0 switches=0
while [ "$SECONDS" -lt "$end" ]; do
	echo "${SCHEDS[$((i % ${#SCHEDS[@]}))]}" >"$Q/scheduler" 2>/dev/null && switches=$((switches + 1))
	i=$((i + 1))
	sleep "0.0$((RANDOM % 8 + 1))"
done
nap 0.5
kill -INT "$PID"
wait "$PID"
RC=$?
if [ "$RC" = 0 ] && [ ! -s "$TMP/err" ]; then ok batch_exit
else fail batch_exit "exit $RC: $(head -c 2000 "$TMP/err")"; fi

python3 - "$TMP/out.json" "$DEV" "$switches" <<'EOF'
import json, sys
path, dev, switches = sys.argv[1], sys.argv[2], int(sys.argv[3])
samples = [json.loads(l) for l in open(path)]
sched = invented = 0
bad = []
for s in samples:
    evs = [e for e in s["events"] if e["object"] == dev]
    has_sched = any(e["kind"] == "scheduler" for e in evs)
    sched += has_sched
    for e in evs:
        if e["key"].startswith("iosched.") and not has_sched:
            invented += 1
            bad.append(e["label"])
def check(name, cond, detail=""):
    print(("ok " if cond else "not ok ") + name + ("" if cond else ": " + str(detail)))
check("samples_taken", len(samples) >= 15, len(samples))
check("switches_seen", switches > 20 and sched >= 10, f"{switches} switches, {sched} samples with a scheduler event")
check("no_iosched_change_without_scheduler_event", invented == 0, f"{invented}: {bad[:5]}")
EOF
