#!/bin/bash
# Batch mode's command line: help, version, and usage errors (exit 2 with the range).
. "$(dirname "$0")/lib.sh"

out=$("$IOSCOPE" --help 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q -- '--batch' <<<"$out" && grep -q -- '--interval' <<<"$out" \
	&& ok "--help lists the options" || fail "--help lists the options" "rc=$rc"
# Every --help fits 80 columns: ioscope's and that of each subcommand its usage names.
subs=$("$IOSCOPE" --help | sed -nE 's/^(usage:)? +ioscope ([a-z]+) .*/\2/p' | sort -u)
[ "$(wc -w <<<"$subs")" -ge 8 ] && ok "--help names the subcommands" \
	|| fail "--help names the subcommands" "$subs"
for sub in "" $subs; do
	out=$("$IOSCOPE" $sub --help 2>&1); rc=$?
	wide=$(LC_ALL=C.UTF-8 awk 'length($0) > 80' <<<"$out")
	[ $rc -eq 0 ] && [ -n "$out" ] && [ -z "$wide" ] && ok "ioscope ${sub:+$sub }--help fits 80 columns" \
		|| fail "ioscope ${sub:+$sub }--help fits 80 columns" "rc=$rc: $wide"
done
out=$("$IOSCOPE" --version 2>&1)
grep -qE '^ioscope [0-9]+\.[0-9]+' <<<"$out" && ok "--version" || fail "--version" "$out"

expect_usage_error() {   # NAME PATTERN ARGS...
	local name=$1 pat=$2; shift 2
	local err rc
	err=$("$IOSCOPE" "$@" 2>&1 >/dev/null); rc=$?
	if [ $rc -eq 2 ] && grep -qE -- "$pat" <<<"$err"; then ok "$name"; else fail "$name" "rc=$rc: $err"; fi
}
expect_usage_error "interval too small" "from 0.01 to 3600" --batch --interval 0.001
expect_usage_error "interval too large" "from 0.01 to 3600" --batch --interval 4000
expect_usage_error "interval junk" "from 0.01 to 3600" --batch -i abc
expect_usage_error "count zero" "from 1 to" --batch --count 0
expect_usage_error "count junk" "from 1 to" --batch -c 3x
expect_usage_error "unknown format" "text, json, csv or prometheus" --batch -f xml
expect_usage_error "unknown option" "unknown option" --bogus
expect_usage_error "unknown device lists the devices" "unknown device 'nosuchdisk'; devices: .*$(system_disk)" \
	--batch -c 1 -i 0.05 nosuchdisk
expect_usage_error "a path that does not exist says so" \
	"^ioscope: /nonexistent/ioscope-path: No such file or directory$" \
	--batch -c 1 -i 0.05 /nonexistent/ioscope-path
expect_usage_error "set: a path that does not exist says so" \
	"/nonexistent/ioscope-path: No such file or directory" set /nonexistent/ioscope-path nr_requests=4

# A device given as /dev/NAME or as a path on its filesystem is accepted.
dev=$(awk '$3 !~ /^(loop|ram|zram)/ && $3 !~ /[0-9]$/ {print $3; exit}' /proc/diskstats)
out=$("$IOSCOPE" --batch -c 1 -i 0.05 -f json "/dev/$dev" 2>&1)
grep -q "\"$dev\"" <<<"$out" && ok "/dev/NAME argument" || fail "/dev/NAME argument" "$out"
out=$("$IOSCOPE" --batch -c 1 -i 0.05 -f json / 2>&1)
grep -q '"devices": *{ *"' <<<"$out" && ok "path argument selects its disk" || fail "path argument selects its disk" "$out"
