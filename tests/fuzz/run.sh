#!/bin/bash
# run.sh SECONDS FUZZER... - run each libFuzzer target for SECONDS on its seed
# corpus tests/fuzz/corpus/NAME (fuzz_NAME): new inputs go to a scratch dir, the
# committed seeds are only read.  Fails when any target crashes, leaks or times
# out; the input that did it is kept as BUILD/fuzz/artifacts/NAME/crash-* (turn
# it into a unit test).
set -u
cd "$(dirname "$0")/../.."
seconds=${1:?usage: run.sh SECONDS FUZZER...}
shift
failed=()
for bin in "$@"; do
	name=$(basename "$bin")
	name=${name#fuzz_}
	seeds=tests/fuzz/corpus/$name
	artifacts=$(dirname "$bin")/artifacts/$name
	work=$(mktemp -d "/tmp/ioscope-fuzz-$name.XXXXXX")
	log=$work.log
	mkdir -p "$artifacts"
	corpora=("$work")
	[ -d "$seeds" ] && corpora+=("$seeds")
	"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$artifacts/" "${corpora[@]}" >"$log" 2>&1
	rc=$?
	stats=$(grep -E '^#[0-9]+.*(DONE|pulse)' "$log" | tail -1)
	if [ "$rc" -ne 0 ]; then
		failed+=("$name")
		tail -40 "$log"
		echo "fuzz $name: FAILED (exit $rc), artifacts in $artifacts"
	else
		echo "fuzz $name: ok for ${seconds}s ${stats}"
	fi
	rm -rf "$work" "$log"
done
[ ${#failed[@]} -eq 0 ] || { echo "fuzz failures: ${failed[*]}"; exit 1; }
