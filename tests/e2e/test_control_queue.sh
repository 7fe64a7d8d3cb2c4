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
# and each one's tunables as queue/iosched lists them once it is active ("NAME=VALUE ...");
# the one in use already is no change, and no event (issue 41 item 3)
declare -A TUNABLES
for s in $(elevators "$L"); do
	was=$(current_sched)
	run set --events "$L" scheduler="$s"
	expect_rc "set_scheduler_$s" 0
	if [ "$(current_sched)" = "$s" ]; then ok "readback_scheduler_$s"; else fail "readback_scheduler_$s" "kernel shows $(current_sched)"; fi
	if [ "$was" = "$s" ]; then
		has "unchanged_scheduler_$s" "ok (unchanged: already $s)"
		grep -qF '"type":"event"' <<<"$OUT" && fail "no_event_scheduler_$s" "$OUT" \
			|| ok "no_event_scheduler_$s"
	else
		has "event_scheduler_$s" "\"kind\":\"scheduler\",\"object\":\"$L\",\"key\":\"scheduler\""
		has "event_by_ioscope_$s" "\"new\":\"$s\""
	fi
	TUNABLES[$s]=$(cd "$Q/iosched" 2>/dev/null && for t in *; do [ -f "$t" ] && echo "$t=$(cat "$t")"; done | tr '\n' ' ')
done

# tunable_only_in A B: "NAME VALUE", a tunable elevator A has and B has not, with an integer
# value of 4 or more (halved and quartered below, still in range and different); the known
# elevators' that read back as written first (fifo_batch: a count; kyber's and bfq's: no
# unit conversion); 1 when there is none
tunable_only_in() {
	local a=${TUNABLES[$1]-} b=" ${TUNABLES[$2]-}" t v pref
	for pref in fifo_batch read_lat_nsec back_seek_max ""; do
		for t in $a; do
			v=${t#*=}
			t=${t%%=*}
			[ -z "$pref" ] || [ "$t" = "$pref" ] || continue
			[[ "$v" =~ ^[0-9]+$ ]] && [ "$v" -ge 4 ] || continue
			[[ "$b" == *" $t="* ]] && continue
			echo "$t $v"
			return 0
		done
	done
	return 1
}

# --- a switch resets nr_requests and the iosched tunables: the event says so ---
# E1 and E2: two elevators with tunables this kernel offers, never by name; T1 one of E1's
# that E2 has not (D1 its default), T2 one of E2's that E1 has not (V2 a value it takes)
read -r E1 E2 < <(pick_elevators "$L" 2)
if [ -n "${E2:-}" ] && [ "$E2" != none ] && read -r T1 D1 < <(tunable_only_in "$E1" "$E2") &&
	read -r T2 V2 < <(tunable_only_in "$E2" "$E1"); then
	run set "$L" scheduler="$E1"
	run set "$L" nr_requests=64 iosched.$T1=$((D1 / 2))
	expect_rc "set_tunables_$E1" 0
	check readback_nr_requests test "$(cat $Q/nr_requests)" = 64
	check "readback_$T1" test "$(cat $Q/iosched/$T1)" = $((D1 / 2))
	run set --events "$L" scheduler="$E2"
	expect_rc "switch_to_$E2" 0
	has switch_lists_reset "reset nr_requests: 64 -> "
	has switch_lists_iosched_gone "reset iosched.$T1: $((D1 / 2)) -> (gone)"
	# the event's verdict is "ok": what the switch reset is its "resets", not said twice
	has switch_event_result_ok '"result":"ok","by":"ioscope"'
	has switch_event_resets_nr_requests '"nr_requests":["64",'
	has "switch_event_resets_$T1" "\"iosched.$T1\":[\"$((D1 / 2))\",null]"

	# same command: scheduler first, then its tunables (checked against E1's names, not
	# those of E2, the one in use)
	run set "$L" iosched.$T2=$V2 scheduler="$E1"
	expect_rc iosched_of_other_scheduler_refused 2
	has iosched_refused_names_scheduler "iosched.$T2: $E1 has no such tunable"
	check iosched_refused_nothing_changed test "$(current_sched)" = "$E2"
	run set "$L" scheduler="$E1" iosched.$T1=$((D1 / 4)) nr_requests=100
	expect_rc switch_and_tune 0
	check switch_and_tune_readback test "$(cat $Q/iosched/$T1)/$(cat $Q/nr_requests)" = $((D1 / 4))/100
else
	skip "switch resets tunables" "$L offers $(elevators "$L" | tr '\n' ' ')- no two elevators with tunables of their own"
	[ -n "${E1:-}" ] && run set "$L" scheduler="$E1"   # the ranges below are with a scheduler
fi

# bfq's tunables checked against its own names, both ways, where the kernel has it
other=$(elevators "$L" | grep -vxE 'none|bfq' | head -n 1)
if has_elevator "$L" bfq && [ -n "$other" ]; then
	run set "$L" scheduler="$other"
	run set "$L" iosched.slice_idle=0 scheduler=bfq
	expect_rc bfq_tunable_with_switch_to_bfq 0
	check bfq_tunable_readback test "$(current_sched)/$(cat $Q/iosched/slice_idle)" = bfq/0
	run set "$L" iosched.slice_idle=8 scheduler="$other"
	expect_rc bfq_tunable_refused_for_"$other" 2
	has bfq_refusal_names_"$other" "iosched.slice_idle: $other has no such tunable"
	check bfq_refused_nothing_changed test "$(current_sched)/$(cat $Q/iosched/slice_idle)" = bfq/0
	run set "$L" scheduler="${E1:-$other}"
else
	skip "bfq's tunables checked against its names" "$L offers $(elevators "$L" | tr '\n' ' ')- it needs bfq and another elevator with tunables (the --root fixture tests cover bfq's names)"
fi

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
nobody set "$L" scheduler="$(elevator_other "$L")"
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
