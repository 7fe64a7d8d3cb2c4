#!/bin/sh
# runtime.sh: whether clang can build the libFuzzer targets here.  Exit 0 when it can;
# otherwise exit 1 and print why, for the regression pass to skip with.
# runtime.sh --deb: the Debian package with the installed clang's fuzzer and sanitizer
# runtime (libclang-rt-N-dev, N clang's major version; it is not a dependency of clang),
# nothing when clang is not installed.
if ! command -v clang >/dev/null 2>&1; then
	[ "${1:-}" = --deb ] && exit 0
	echo "clang not installed"
	exit 1
fi
deb="libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev"
if [ "${1:-}" = --deb ]; then
	echo "$deb"
	exit 0
fi
# Linking a target is the only test that holds whatever the runtime's file is called.
dir=$(mktemp -d /tmp/ioscope-fuzz-runtime.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' >"$dir/t.c"
if ! clang -fsanitize=fuzzer,address,undefined -o "$dir/t" "$dir/t.c" >"$dir/log" 2>&1; then
	echo "clang $(clang -dumpversion) cannot link a libFuzzer target ($deb not installed?)"
	exit 1
fi
