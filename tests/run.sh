#!/bin/bash
# Runs every test: the cmocka unit suites (built under ASan+UBSan), each libFuzzer
# target once over its corpus, and the end-to-end scripts in tests/e2e (real binary,
# real kernel, loop devices, tmux).  T=pattern keeps only the tests whose file name
# contains it.  Last line: N passed, N failed[, N skipped].
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
# The tools the tests run are Debian's, as tests/deps.sh installs them: a shim earlier in
# PATH (pyenv's python3 is a chain of shell scripts, 0.15 s of CPU a start against 0.02)
# made the suite a third slower.
export PATH="/usr/sbin:/usr/bin:/sbin:/bin${PATH:+:$PATH}"
export IOSCOPE="$PWD/$BUILD/san/ioscope"      # sanitized binary for tests
export IOSCOPE_OPT="$PWD/ioscope"             # optimised binary (valgrind, bench)
export IOSCOPE_TOP="$PWD"
export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1:exitcode=86"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
pattern=${T:-}
# each e2e line says when its script started and ended, in seconds since here: the
# critical path at the end of a run is read from them
RUN_T0=$EPOCHREALTIME
# what this kernel offers, first: a skip or a failure is read against it
bash tests/kernel_facts.sh
passed=0 failed=0 skipped=0
failures=()

run_unit() {
	local bin=$1 out
	out=$("$bin" 2>&1); local rc=$?
	local p f s
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -1)
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' <<<"$out" | tail -1)
	p=${p:-0} f=${f:-0} s=${s:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed or sanitizer report
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	if [ "$f" -ne 0 ]; then
		failures+=("${bin##*/}")
		# the failed checks first: a sanitizer's leak report after them can be 40 lines
		printf '%s\n' "$out" | grep -E '^\[ +(ERROR|LINE) +\]' | head -10
		printf '%s\n' "$out" | grep -v '^\[ \(RUN\|       OK\) ' | tail -40
	fi
	printf 'unit %-28s %3d passed %3d failed %3d skipped\n' "${bin##*/}" "$p" "$f" "$s"
}

# A fuzz target run once over each input of its corpus (tests/fuzz/corpus/NAME), seconds:
# what fuzzing once found stays fixed.  Searching for new inputs is `make fuzz`'s job; this
# pass runs the target through tests/fuzz/replay_main.c, linked like the unit suites.
run_fuzz() {
	local src=$1 name bin out rc inputs=() f
	name=${src##*/} name=${name%.c}
	bin=$BUILD/san/fuzz/$name
	for f in "tests/fuzz/corpus/${name#fuzz_}"/*; do [ -f "$f" ] && inputs+=("$f"); done
	if [ ! -x "$bin" ]; then
		out="$bin not built (make check-build builds it)" rc=1
	elif [ ${#inputs[@]} -eq 0 ]; then
		out="no input in tests/fuzz/corpus/${name#fuzz_}" rc=1
	else
		out=$(timeout 120 "$bin" "${inputs[@]}" 2>&1); rc=$?
	fi
	if [ "$rc" -ne 0 ]; then
		failed=$((failed + 1))
		failures+=("$name")
		printf '%s\n' "$out" | tail -40
	else
		passed=$((passed + 1))
	fi
	printf 'fuzz %-28s %3d passed %3d failed %3d skipped %3d inputs\n' "$name" \
		$((rc == 0)) $((rc != 0)) 0 ${#inputs[@]}
}

# The e2e scripts run JOBS at a time (default: one more than the CPUs; they mostly wait
# on intervals, tmux and the kernel, and each works in a temp dir, runtime dir and loop
# devices of its own).  A script holding something only one may hold at a time (zram
# device numbers, a timing a busy machine would blur) says `# run.sh: alone` and runs
# after the others, with nothing beside it.  A script that mostly waits on the kernel (a
# frozen filesystem, mkfs, requests held in flight: a fifth of a CPU over its minute) says
# `# run.sh: waits` and runs beside the JOBS others, not in one's place.  Scripts that must
# not run beside one another but may beside the rest (each hot-adds and hot-removes a zram
# device: its number is what the next hot_add returns) say `# run.sh: serial`: they run one
# after another, as one such job beside the others.
JOBS=${JOBS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
RESULTS=$(mktemp -d)
trap 'rm -rf "$RESULTS"' EXIT

e2e_job() {
	local script=$1 name t0=$EPOCHREALTIME rc
	name=${script##*/}
	timeout --kill-after=10 900 bash "$script" >"$RESULTS/$name.log" 2>&1; rc=$?
	# the CPU the script and what it waited for used, user + system ("0m1.230s 0m0.450s")
	local cpu u s
	times >"$RESULTS/$name.times"   # a builtin: in a pipe or $() it would time a subshell
	cpu=$(tail -1 "$RESULTS/$name.times")
	u=${cpu%% *} s=${cpu##* }
	cpu=$(awk -v u="$u" -v s="$s" 'function sec(t) { split(t, a, /[ms]/); return a[1] * 60 + a[2] }
		BEGIN { printf "%d", (sec(u) + sec(s)) * 10 }')
	echo "$rc $(( (${EPOCHREALTIME/./} - ${t0/./}) / 100000 )) $cpu $(( (${t0/./} - ${RUN_T0/./}) / 100000 ))" \
		>"$RESULTS/$name.rc"
}

# Counts and prints what one finished script said.
e2e_report() {
	local name log p f s rc tenths cpu start
	name=${1##*/}; log="$RESULTS/$name.log"
	read -r rc tenths cpu start <"$RESULTS/$name.rc" || { rc=1 tenths=0 cpu=0 start=0; }
	p=$(grep -c '^ok ' "$log") f=$(grep -c '^not ok ' "$log") s=$(grep -c '^skip ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok $name exited $rc" >>"$log"; fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then f=1; echo "not ok $name asserted nothing" >>"$log"; fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	# a failure's "not ok" lines first: its last 60 lines can be a screen dump that cut them
	if [ "$f" -ne 0 ]; then
		failures+=("$name")
		grep '^not ok ' "$log" | head -20 | sed 's/^/(failed) /'
		tail -60 "$log"
		# again at the end, where a CI page that keeps only the last lines has them
		grep -A3 '^not ok ' "$log" | head -12 | cut -c1-200 | sed "s|^|(failed) $name: |" >>"$RESULTS/@failed"
	else grep '^skip ' "$log"; fi
	printf 'e2e  %-28s %3d passed %3d failed %3d skipped %4d.%ds  cpu %d.%ds  at %d-%ds\n' "$name" \
		"$p" "$f" "$s" $((tenths / 10)) $((tenths % 10)) $((cpu / 10)) $((cpu % 10)) \
		$((start / 10)) $(((start + tenths) / 10))
}

declare -A running=()   # pid -> script
declare -A waiting=()   # pid -> 1: a script marked `waits`, beside the JOBS
declare -A marks=()     # script -> its `# run.sh:` lines, each after a newline
# marked SCRIPT WORDS: SCRIPT has a line "# run.sh: WORDS..." (read once: a grep a test a
# time was 500 processes, 5 s of CPU on this VM)
marked() { [[ ${marks[$1]} == *$'\n'"# run.sh: $2"* ]]; }
e2e_start() {
	e2e_job "$1" &
	running[$!]=$1
	if marked "$1" waits; then waiting[$!]=1; fi
}
e2e_reap() {
	local pid script
	wait -n -p pid "${!running[@]}"
	case "${running[$pid]}" in
	@compiled) compiled_report ;;
	@serial) for script in "${serial[@]}"; do e2e_report "$script"; done ;;
	*) e2e_report "${running[$pid]}" ;;
	esac
	unset "running[$pid]" "waiting[$pid]"
}

# The unit suites and fuzz targets, made up to date (`make check-build-compiled`: `make
# check` built them already; a run of this script alone after an edit builds them here)
# and run one after the other, as one job beside the e2e scripts: its counts in
# $RESULTS/@compiled.
compiled_job() {
	local bin src name
	passed=0 failed=0 skipped=0 failures=()
	if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s BUILD="$BUILD" check-build-compiled >"$RESULTS/@build.log" 2>&1; then
		tail -40 "$RESULTS/@build.log"
		echo "0 1 0 unit/fuzz-build" >"$RESULTS/@compiled.counts"
		return
	fi
	for bin in "$BUILD"/san/tests/test_*; do
		[ -x "$bin" ] || continue
		case "${bin##*/}" in *"$pattern"*) run_unit "$bin" ;; esac
	done
	for src in tests/fuzz/fuzz_*.c; do
		name=${src##*/}
		case "${name%.c}" in *"$pattern"*) run_fuzz "$src" ;; esac
	done
	times >"$RESULTS/@compiled.times"
	printf 'unit and fuzz: ended at %ds, cpu %s\n' $(( (${EPOCHREALTIME/./} - ${RUN_T0/./}) / 1000000 )) \
		"$(tail -1 "$RESULTS/@compiled.times")"
	echo "$passed $failed $skipped ${failures[*]}" >"$RESULTS/@compiled.counts"
}
compiled_report() {
	local p f s rest
	cat "$RESULTS/@compiled.log"
	read -r p f s rest <"$RESULTS/@compiled.counts" || { p=0 f=1 s=0 rest="unit/fuzz runner"; }
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ -z "$rest" ] || failures+=($rest)
	[ "$f" -eq 0 ] || grep -E '^\[ +(ERROR|LINE) +\]|^unit .* [1-9][0-9]* failed|runtime error' "$RESULTS/@compiled.log" |
		head -12 | cut -c1-200 | sed 's/^/(failed) unit: /' >>"$RESULTS/@failed"
	compiled_slot=0
}
compiled_job >"$RESULTS/@compiled.log" 2>&1 &
running[$!]=@compiled
compiled_slot=1   # it takes no e2e script's place while it runs

# The scripts marked `# run.sh: early` (the longest) start first, so that none of them is
# what the others wait for at the end, and those that wait on the kernel next: started in
# their place by name (most are test_why_*), they ran beside the last scripts and on
# after them.  One marked `# run.sh: waits, late` starts half way through the others (the
# tracer's fallback test: its BPF load and fio timings failed beside the early scripts;
# in its place by name, the last but one, it ended 9 s after all the rest).
alone=() early=() waits=() rest=() serial=() late=()
for script in tests/e2e/test_*.sh; do
	[ -f "$script" ] || continue
	case "${script##*/}" in *"$pattern"*) ;; *) continue ;; esac
	marks[$script]=$'\n'$(grep '^# run\.sh: ' "$script")
	if marked "$script" alone; then alone+=("$script")
	elif marked "$script" serial; then serial+=("$script")
	elif marked "$script" early; then early+=("$script")
	elif marked "$script" "waits, late"; then late+=("$script")
	elif marked "$script" waits; then waits+=("$script")
	else rest+=("$script"); fi
done
half=$((${#rest[@]} / 2))
rest=(${rest[@]+"${rest[@]:0:half}"} ${late[@]+"${late[@]}"} ${rest[@]+"${rest[@]:half}"})
if [ ${#serial[@]} -gt 0 ]; then
	# each in a subshell of its own: `times` there counts that script's CPU alone
	for script in "${serial[@]}"; do (e2e_job "$script"); done &
	running[$!]=@serial
	waiting[$!]=1
fi
for script in ${early[@]+"${early[@]}"} ${waits[@]+"${waits[@]}"} ${rest[@]+"${rest[@]}"}; do
	while [ $((${#running[@]} - ${#waiting[@]})) -ge $((JOBS + compiled_slot)) ]; do e2e_reap; done
	e2e_start "$script"
done
while [ ${#running[@]} -gt 0 ]; do e2e_reap; done
for script in ${alone[@]+"${alone[@]}"}; do
	e2e_start "$script"
	e2e_reap
done

echo "tests took $(( (${EPOCHREALTIME/./} - ${RUN_T0/./}) / 1000000 ))s"
[ -s "$RESULTS/@failed" ] && cat "$RESULTS/@failed"
[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
line="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
[ "$failed" -eq 0 ]
