#!/bin/bash
# Runs every test: the cmocka unit suites (built under ASan+UBSan) and the end-to-end
# scripts in tests/e2e (real binary, real kernel, loop devices, tmux).  T=pattern
# keeps only the tests whose file name contains it.  Last line: N passed, N failed.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export IOSCOPE="$PWD/$BUILD/san/ioscope"      # sanitized binary for tests
export IOSCOPE_OPT="$PWD/ioscope"             # optimised binary (valgrind, bench)
export IOSCOPE_TOP="$PWD"
export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1:exitcode=86"
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
pattern=${T:-}
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
		failures+=("$(basename "$bin")")
		printf '%s\n' "$out" | grep -v '^\[ \(RUN\|       OK\) ' | tail -40
	fi
	printf 'unit %-28s %3d passed %3d failed %3d skipped\n' "$(basename "$bin")" "$p" "$f" "$s"
}

run_e2e() {
	local script=$1 log p f s rc
	log=$(mktemp)
	timeout --kill-after=10 900 bash "$script" >"$log" 2>&1; rc=$?
	p=$(grep -c '^ok ' "$log") f=$(grep -c '^not ok ' "$log") s=$(grep -c '^skip ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "not ok $(basename "$script") exited $rc" >>"$log"; fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then f=1; echo "not ok $(basename "$script") asserted nothing" >>"$log"; fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	if [ "$f" -ne 0 ]; then failures+=("$(basename "$script")"); tail -60 "$log"; else grep '^skip ' "$log"; fi
	printf 'e2e  %-28s %3d passed %3d failed %3d skipped\n' "$(basename "$script")" "$p" "$f" "$s"
	rm -f "$log"
}

for bin in "$BUILD"/san/tests/test_*; do
	[ -x "$bin" ] || continue
	case "$(basename "$bin")" in *"$pattern"*) run_unit "$bin" ;; esac
done
for script in tests/e2e/test_*.sh; do
	[ -f "$script" ] || continue
	case "$(basename "$script")" in *"$pattern"*) run_e2e "$script" ;; esac
done

[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
line="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
[ "$failed" -eq 0 ]
