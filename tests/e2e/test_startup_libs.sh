#!/bin/bash
# Start-up costs only what the mode needs (docs/performance.md, start-up).  ioscope is
# linked with ncursesw and json-c only: cairo (and pixman, fontconfig, freetype, png,
# xcb, X11...) is opened when a plot is made, libproc2 (libsystemd) and libudev are not
# used at run time.  --version, --help, report and --replay read no device: no
# /sys/block, no udev database, no uevent socket; a live one-sample batch does.
. "$(dirname "$0")/lib.sh"
needs "start-up libraries" python3

not_linked='cairo|pixman|fontconfig|freetype|png|xcb|X11|Xrender|expat|brotli|udev|systemd|proc2|gcrypt|lzma|zstd|lz4|bpf|elf|microhttpd|gnutls'
for bin in "$IOSCOPE_OPT" "$IOSCOPE"; do
	if ! libs=$(ldd "$bin" 2>&1); then
		fail "ldd $(basename "$(dirname "$bin")")/$(basename "$bin")" "$libs"
		continue
	fi
	bad=$(grep -E "lib($not_linked)" <<<"$libs" | awk '{print $1}' | tr '\n' ' ')
	[ -z "$bad" ] && ok "ldd $bin: no plotting, udev or systemd libraries" ||
		fail "ldd $bin: no plotting, udev or systemd libraries" "linked: $bad"
done

# What each mode loads, as the dynamic loader reports it (dlopen included).
# Exit status 0 is checked too: prints "exit N" when the command failed.
loaded() {
	LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" "$@" >/dev/null 2>"$TMP/err" || echo "exit $?: $(cat "$TMP/err")"
	sed -n 's/.*file=\([^ ]*\) \[0\];  \(needed\|dynamically loaded\).*/\1/p' "$TMP"/ld.* | sort -u | tr '\n' ' '
	rm -f "$TMP"/ld.*
}
"$IOSCOPE_OPT" --batch -i 0.05 -c 3 -f json --record "$TMP/s.log" >/dev/null 2>"$TMP/err" ||
	{ fail "recorded" "$(cat "$TMP/err")"; exit 1; }
v=$(loaded "$IOSCOPE_OPT" --version)
grep -qE "lib($not_linked)|^exit" <<<"$v" && fail "--version loads only what it links" "$v" || ok "--version loads only what it links"
b=$(loaded "$IOSCOPE_OPT" --batch -i 0.01 -c 1 -f json)
grep -qE "lib($not_linked)|^exit" <<<"$b" && fail "a one-sample batch loads no plotting or systemd library" "$b" ||
	ok "a one-sample batch loads no plotting or systemd library"
b=$(loaded "$IOSCOPE_OPT" --batch -i 0.01 -c 1 -f prometheus)
grep -qE "lib($not_linked)|^exit" <<<"$b" && fail "a Prometheus batch loads no HTTP library" "$b" ||
	ok "a Prometheus batch loads no HTTP library"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
l=$(loaded "$IOSCOPE_OPT" --listen "$port" -i 0.01 -c 1)
grep -q "libmicrohttpd.so.12" <<<"$l" && ! grep -q "^exit" <<<"$l" && ok "--listen loads libmicrohttpd" ||
	fail "--listen loads libmicrohttpd" "$l"
p=$(loaded "$IOSCOPE_OPT" report "$TMP/s.log" --format png -o "$TMP/r.png")
grep -q "libcairo.so.2" <<<"$p" && ok "report --format png loads cairo" || fail "report --format png loads cairo" "$p"
# libbpf (and libelf) come with ioscope-trace.so, opened by --trace only.  The tracer is
# loaded through the descriptor it was checked on (docs/security.md), so the loader calls
# it /proc/self/fd/N: libbpf must be needed by that library.
if "$IOSCOPE_OPT" --version | grep -q "tracing (--trace): built in" && [ "$(id -u)" = 0 ]; then
	LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" "$IOSCOPE_OPT" --batch --trace -i 0.01 -c 1 \
		-f json >/dev/null 2>"$TMP/err"
	t=$(sed -n 's/.*file=\([^ ]*\) \[0\];  \(needed\|dynamically loaded\) by \([^ ]*\).*/\1 \2 \3/p' \
		"$TMP"/ld.* | sort -u)
	rm -f "$TMP"/ld.*
	tracer=$(awk '$2 == "dynamically" && $1 ~ "^/proc/self/fd/" { print $1 }' <<<"$t")
	[ -n "$tracer" ] && grep -q "^libbpf.so[^ ]* needed $tracer\$" <<<"$t" &&
		ok "--batch --trace loads libbpf through ioscope-trace.so" ||
		fail "--batch --trace loads libbpf through ioscope-trace.so" "$(tr '\n' ' ' <<<"$t")"
else
	skip "--trace loads libbpf" "tracing compiled out, or not root"
fi

if ! command -v strace >/dev/null; then
	skip "start-up reads no devices" "strace not installed"
	exit 0
fi
# Files under /sys/block, /sys/class/block, the udev database; netlink sockets.
# Prints how many; "exit N" when the command failed.
device_reads() {
	strace -f -qq -e trace=openat,socket -o "$TMP/trace" "$@" >/dev/null 2>&1 || { echo "exit $?"; return; }
	grep -cE '"/sys/(block|class/block)|"/run/udev|AF_NETLINK' "$TMP/trace"
}
for args in "--version" "--help" "report $TMP/s.log" "report $TMP/s.log --format json" \
	"--replay $TMP/s.log --batch -f json"; do
	n=$(device_reads "$IOSCOPE_OPT" $args)
	[ "$n" = 0 ] && ok "ioscope $args reads no device" || fail "ioscope $args reads no device" \
		"$(grep -E '/sys/(block|class/block)|/run/udev|AF_NETLINK' "$TMP/trace" | head -3)"
done
# The probe works: a live batch does read them.
n=$(device_reads "$IOSCOPE_OPT" --batch -i 0.01 -c 1 -f json)
[ "${n%% *}" != exit ] && [ "$n" -gt 0 ] && ok "a live batch reads the devices" ||
	fail "a live batch reads the devices" "$n"
