#!/bin/bash
# The console's control keys driven through tmux on a loop device with an ext4 fs
# (mounted nosuid,nodev) under a writer: the scheduler picker switches the scheduler
# and a mark appears; the tunables editor refuses junk and sets a value, and asks before
# a loop device's direct I/O; the write cache choice asks before "write through"; the
# mount-options editor completes an option and remounts without dropping nosuid,nodev.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/console_lib.sh"


if ! is_root; then
	skip control_console "needs root for loop devices"
	exit 0
fi
if ! command -v tmux >/dev/null; then
	skip control_console "tmux not installed"
	exit 0
fi

make_loop 64 >"$TMP/loop" || { fail control_console_setup "no loop device"; exit 0; }
L=$(cat "$TMP/loop")
Q=/sys/block/$L/queue
MNT=$TMP/mnt
mkdir -p "$MNT"
mkfs_ext4 "/dev/$L" >/dev/null 2>&1 && mount -o nosuid,nodev "/dev/$L" "$MNT" \
	|| { fail control_console_setup "no ext4 on $L"; exit 0; }
at_exit "umount -l '$MNT'"
region_writer "$MNT/load" 120 64 64 100

console_shell 200 45
console_run "$L"
keys() { console_send "$@"; nap 0.3; }

wait_for "$L" 15 || { fail console_started "no console: $(screen | head -5)"; exit 0; }
ok console_started

# --- scheduler picker: the kernel's list, the current one marked ---
keys S
if wait_for "Scheduler of $L"; then ok scheduler_picker_opens; else fail scheduler_picker_opens "$(screen)"; fi
cur=$(elevator_now "$L")
check scheduler_picker_marks_current wait_for "* $cur"
# the picker lists the kernel's elevators in its order: the target is one with tunables that
# the kernel offers (a switch resets them), never bfq by name
names=($(elevators "$L"))
target=$(elevator_other "$L") || { fail scheduler_target "$L offers $(cat "$Q/scheduler")"; exit 0; }
for i in "${!names[@]}"; do [ "${names[$i]}" = "$cur" ] && ci=$i; [ "${names[$i]}" = "$target" ] && ti=$i; done
for ((i = ci; i < ti; i++)); do keys Down; done
for ((i = ci; i > ti; i--)); do keys Up; done
keys Enter
check scheduler_applied_dialog wait_for "scheduler: $cur -> $target: ok"
check scheduler_reset_listed wait_for "reset iosched."
if grep -q "\[$target\]" "$Q/scheduler"; then ok scheduler_readback; else fail scheduler_readback "$(cat $Q/scheduler)"; fi
keys Escape
check scheduler_mark_in_marks_panel wait_for "$L  scheduler  $cur → $target  (by ioscope)"
# the next samples see the same switch: it stays one mark, not an "observed" second one
sleep 2.5
n=$(screen | grep -c "$L  scheduler  $cur → $target")
if [ "$n" -eq 1 ]; then ok own_change_marked_once; else fail own_change_marked_once "$n marks: $(screen)"; fi

# --- tunables editor: junk is refused in place, a good value is applied ---
keys T
check tunables_editor_opens wait_for "Tunables of $L"
# rows: max_sectors_kb, nr_requests, read_ahead_kb, ... : nr_requests is the second
keys Down Enter
check tunables_edit_line wait_for "nr_requests ="
# 3 is junk the kernel would take (raising it to 4): only ioscope's check keeps it out
before=$(cat $Q/nr_requests)
keys C-u 3 Enter
check tunables_junk_refused wait_for "out of range; allowed: 4..2048"
check tunables_junk_changed_nothing test "$(cat $Q/nr_requests)" = "$before"
keys C-u 64 Enter
check tunables_applied wait_for "nr_requests: "
check tunables_readback test "$(cat $Q/nr_requests)" = 64
keys Escape

# --- write cache: "write through" needs a yes ---
keys w
check write_cache_dialog wait_for "Write cache of $L"
keys Down Enter
check write_cache_confirm_shows_reason wait_for "stops sending cache"
keys n
check write_cache_declined_unchanged test "$(cat $Q/write_cache)" = "write back"
keys w
keys Down Enter
wait_for "stops sending cache" >/dev/null
keys y
check write_cache_applied wait_for "write back -> write through: ok"
check write_cache_readback test "$(cat $Q/write_cache)" = "write through"
keys Escape
keys w
keys Up Enter
wait_for "write through -> write back: ok" >/dev/null
check write_cache_back test "$(cat $Q/write_cache)" = "write back"
keys Escape

# --- loop.dio (issue 25): the tunables editor's last row, a risk of its own (the device is
# mounted): it asks, "n" changes nothing, "y" applies it through LOOP_SET_DIRECT_IO ---
at_exit "losetup --direct-io=off /dev/$L"
keys T
wait_for "Tunables of $L" >/dev/null
keys End Enter
check dio_edit_line wait_for "loop.dio ="
keys C-u 1 Enter
check dio_confirm_shows_reason wait_for "loop.dio=1 changes how"
keys n
check dio_declined_unchanged test "$(cat /sys/block/$L/loop/dio)" = 0
keys T
wait_for "Tunables of $L" >/dev/null
keys End Enter
wait_for "loop.dio =" >/dev/null
keys C-u 1 Enter
wait_for "loop.dio=1 changes how" >/dev/null
keys y
check dio_applied wait_for "loop.dio: 0 -> 1: ok"
check dio_readback test "$(cat /sys/block/$L/loop/dio)" = 1
keys Escape

# --- mount options editor: completion, remount, nothing else dropped ---
keys o
check mount_editor_opens wait_for "Remount $MNT (ext4)"
check mount_editor_shows_options wait_for "rw,nosuid,nodev"
keys "commit=30,+noati"
keys Tab
check mount_editor_completes wait_for "commit=30,+noatime"
keys Enter
check mount_editor_applied wait_for "+noatime: ok"
mi=$(awk -v m="$MNT" '$5 == m' /proc/self/mountinfo | tail -1)
case "$mi" in *nosuid,nodev,noatime*) ok mount_editor_noatime_keeps_nosuid_nodev ;; *) fail mount_editor_noatime_keeps_nosuid_nodev "$mi" ;; esac
case "$mi" in *commit=30*) ok mount_editor_commit ;; *) fail mount_editor_commit "$mi" ;; esac
keys Escape
keys o
keys "nosuchoption" Enter
check mount_editor_kernel_refusal wait_for "Unknown parameter 'nosuchoption'"
keys Escape

# --- a change made with `ioscope set` from another shell is ioscope's, marked once ---
cur=$(elevator_now "$L")
other=$(elevator_other "$L") || { fail shell_set "$L offers $(cat "$Q/scheduler")"; exit 0; }
"$IOSCOPE" set "$L" scheduler=$other >"$TMP/set.out" 2>&1 || fail shell_set "$(cat "$TMP/set.out")"
check shell_set_marked_by_ioscope wait_for "$L  scheduler  $cur → $other  (by ioscope)"
sleep 2.5
n=$(screen | grep -c "$L  scheduler  $cur → $other")
if [ "$n" -eq 1 ]; then ok shell_set_marked_once; else fail shell_set_marked_once "$n marks: $(screen)"; fi

keys q
if wait_screen '^EXIT=' 10; then
	screen | grep -qx 'EXIT=0' && ok console_exit_status || fail console_exit_status "$(screen | grep EXIT=)"
else
	fail console_exit_status "the console did not end: $(screen | tail -5)"
fi
stderr_clean && ok console_stderr_clean || fail console_stderr_clean "$(head -30 "$CONSOLE_STDERR")"

# --- -y: the dialogs do not ask; the reason is shown in the footer instead ---
console_send -l clear; console_send Enter
wait_gone '^EXIT=' 5
console_run -y "$L"
wait_for "$L" 15 || fail console_yes_started "$(screen | head -5)"
keys w
check yes_write_cache_dialog wait_for "Write cache of $L"
keys Down Enter
check yes_write_through_applied_unasked wait_for "write back -> write through: ok"
if screen | grep -q "Risky change" || ! console_up; then fail yes_no_confirmation "$(screen)"; else ok yes_no_confirmation; fi
check yes_reason_in_footer wait_for "(risky, not asked: -y)"
check yes_write_through_readback test "$(cat $Q/write_cache)" = "write through"
keys Escape
keys w
keys Up Enter
wait_for "write through -> write back: ok" >/dev/null
check yes_write_back test "$(cat $Q/write_cache)" = "write back"
keys Escape
keys q
if wait_screen '^EXIT=' 10; then
	screen | grep -qx 'EXIT=0' && ok yes_console_exit_status || fail yes_console_exit_status "$(screen | grep EXIT=)"
else
	fail yes_console_exit_status "the console did not end: $(screen | tail -5)"
fi
stderr_clean && ok yes_console_stderr_clean || fail yes_console_stderr_clean "$(head -30 "$CONSOLE_STDERR")"
