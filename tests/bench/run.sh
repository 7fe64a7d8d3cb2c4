#!/bin/sh
# make bench: build the floor program and run the benchmark (see bench.py).
set -e
cd "$(dirname "$0")/../.."
mkdir -p "${BUILD:-build}/bench"
cc -O2 -Wall -Wextra -o "${BUILD:-build}/bench/floor" tests/bench/floor.c
cc -O2 -Wall -Wextra -o "${BUILD:-build}/bench/qd1" tests/bench/qd1.c
python3 tests/bench/bench.py "${BUILD:-build}/bench/floor"
exec python3 tests/bench/trace.py
