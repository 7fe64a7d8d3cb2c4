#!/bin/bash
# `ioscope set` on a loop device under a steady writer: every scheduler with read-back
# and events, tunables (good, out of range, junk: refused, nothing changed, exit
# codes), write cache both ways, the confirmation rule, and refusals without privilege.
. "$(dirname "$0")/lib.sh"


if ! is_root; then
	skip control_queue "needs root for loop devices"
	exit 0
fi

make_loop 64 >"$TMP/loop" || { fail control_queue_setup "no loop device"; exit 0; }
L=$(cat "$TMP/loop")
Q=/sys/block/$L/queue
busy_writer "$L" 120

# set_ok NAME ARGS... : exit 0 expected; output in $OUT
run() { OUT=$("$IOSCOPE" "$@" 2>&1 </dev/null); RC=$?; }
expect_rc() {   # NAME WANT
	if [ "$RC" = "$2" ]; then ok "$1"; else fail "$1" "exit $RC, want $2: $OUT"; fi
}
has() { grep -qF -- "$2" <<<"$OUT" && ok "$1" || fail "$1" "no '$2' in: $OUT"; }
current_sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$Q/scheduler"; }

# --- every scheduler the queue lists, with read-back and one event each ---
for s in $(tr -d '[]' <"$Q/scheduler"); do
	run set --events "$L" scheduler="$s"
	expect_rc "set_scheduler_$s" 0
	if [ "$(current_sched)" = "$s" ]; then ok "readback_scheduler_$s"; else fail "readback_scheduler_$s" "kernel shows $(current_sched)"; fi
	has "event_scheduler_$s" "\"kind\":\"scheduler\",\"object\":\"$L\",\"key\":\"scheduler\""
	has "event_by_ioscope_$s" "\"new\":\"$s\""
done

# a switch resets nr_requests and the iosched tunables: the event says so
run set "$L" scheduler=mq-deadline
run set "$L" nr_requests=64 iosched.fifo_batch=8
expect_rc set_tunables_mq_deadline 0
check readback_nr_requests test "$(cat $Q/nr_requests)" = 64
check readback_fifo_batch test "$(cat $Q/iosched/fifo_batch)" = 8
run set --events "$L" scheduler=bfq
expect_rc switch_to_bfq 0
has switch_lists_reset "reset nr_requests: 64 -> "
has switch_lists_iosched_gone "reset iosched.fifo_batch: 8 -> (gone)"
# the event's verdict is "ok": what the switch reset is its "resets", not said twice
has switch_event_result_ok '"result":"ok","by":"ioscope"'
has switch_event_resets_nr_requests '"nr_requests":["64",'
has switch_event_resets_fifo_batch '"iosched.fifo_batch":["8",null]'

# same command: scheduler first, then its tunables (checked against bfq's names)
run set "$L" iosched.slice_idle=0 scheduler=mq-deadline
expect_rc iosched_of_other_scheduler_refused 2
check iosched_refused_nothing_changed test "$(current_sched)" = bfq
run set "$L" scheduler=mq-deadline iosched.fifo_batch=4 nr_requests=100
expect_rc switch_and_tune 0
check switch_and_tune_readback test "$(cat $Q/iosched/fifo_batch)/$(cat $Q/nr_requests)" = 4/100

# --- ranges: this kernel allows 4..2048 with a scheduler, 4..queue depth with none ---
before="$(cat $Q/nr_requests) $(cat $Q/read_ahead_kb) $(cat $Q/max_sectors_kb)"
run set "$L" nr_requests=4096
expect_rc nr_requests_over_max 2
has nr_requests_names_range "4..2048"
run set "$L" read_ahead_kb=256 nr_requests=abc
expect_rc junk_value 2
run set "$L" nr_requests=-5
expect_rc negative_value 2
run set "$L" max_sectors_kb=$(( $(cat $Q/max_hw_sectors_kb) + 1 ))
expect_rc max_sectors_over_hw 2
has max_sectors_names_range "max_hw_sectors_kb"
run set "$L" nosuchkey=1
expect_rc unknown_key 2
run set "$L" iosched.nosuch=1
expect_rc unknown_iosched 2
run set "$L" 'iosched.../../x=1'
expect_rc iosched_path_refused 2
run set "$L" scheduler=cfq
expect_rc unlisted_scheduler 2
run set ../"$L" nr_requests=64
expect_rc bad_device_name 2
run set "$L"
expect_rc no_assignment 2
after="$(cat $Q/nr_requests) $(cat $Q/read_ahead_kb) $(cat $Q/max_sectors_kb)"
check invalid_changes_nothing test "$before" = "$after"

run set "$L" scheduler=none
depth=$(cat /sys/block/$L/mq/0/nr_tags)
run set "$L" nr_requests=$((depth + 1))
expect_rc nr_requests_over_depth_with_none 2
has nr_requests_depth_range "4..$depth with scheduler none"
run set "$L" nr_requests=$depth read_ahead_kb=512 max_sectors_kb=512
expect_rc tunables_in_range 0
check readback_tunables test "$(cat $Q/nr_requests)/$(cat $Q/read_ahead_kb)/$(cat $Q/max_sectors_kb)" = "$depth/512/512"
run set "$L" read_ahead_kb=1
expect_rc read_ahead_rounded 0
has read_ahead_rounding_reported "accepted, applied as 0"
run set "$L" max_sectors_kb=0 read_ahead_kb=128
expect_rc max_sectors_default 0
has max_sectors_default_reported "back to the default"
run set /dev/"$L" read_ahead_kb=128
expect_rc dev_path_accepted 0

# --- write cache: "write through" is the risky direction (the kernel stops flushing) ---
orig_wc=$(cat $Q/write_cache)
run set "$L" write_cache="write through"
expect_rc write_through_needs_yes 1
has write_through_says_use_yes "--yes"
check write_through_unconfirmed_unchanged test "$(cat $Q/write_cache)" = "$orig_wc"
run set --yes --events "$L" write_cache=write-through
expect_rc write_through_with_yes 0
check readback_write_through test "$(cat $Q/write_cache)" = "write through"
has write_cache_event '"kind":"write_cache"'
run set "$L" write_cache="write back"
expect_rc write_back 0
check readback_write_back test "$(cat $Q/write_cache)" = "write back"
run set "$L" write_cache=on
expect_rc write_cache_junk 2

# --- show ---
run show "$L"
expect_rc show_device 0
has show_scheduler_line "$(sed "s/ *$//" $Q/scheduler)"
has show_nr_requests "nr_requests"
has show_write_cache "write back"

# --- without privilege: watching works, every change is refused with what is needed ---
chmod 755 "$TMP"
nobody() { OUT=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$IOSCOPE" "$@" 2>&1 </dev/null); RC=$?; }
before="$(cat $Q/scheduler) $(cat $Q/nr_requests) $(cat $Q/write_cache)"
nobody set "$L" scheduler=bfq
expect_rc unprivileged_scheduler_refused 1
has unprivileged_says_root "needs root"
nobody set "$L" nr_requests=64 read_ahead_kb=64
expect_rc unprivileged_tunables_refused 1
nobody set --yes "$L" write_cache="write through"
expect_rc unprivileged_write_cache_refused 1
nobody set "$L" nr_requests=junk
expect_rc unprivileged_junk_is_usage 2
nobody show "$L"
expect_rc unprivileged_show_works 0
after="$(cat $Q/scheduler) $(cat $Q/nr_requests) $(cat $Q/write_cache)"
check unprivileged_changed_nothing test "$before" = "$after"
