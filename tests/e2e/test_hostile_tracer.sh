#!/bin/bash
# The tracer, ioscope-trace.so, runs with ioscope's privileges (issue 23; docs/security.md,
# "What ioscope runs or loads"): it is opened once, checked on that descriptor and loaded
# through it, so a library renamed over its name after the check is never loaded
# (race_swap.c makes the rename land right before the load); one that another user owns or
# may write is refused, and the refusal says why.
. "$(dirname "$0")/lib.sh"
is_root || { skip "hostile tracer" "needs root (BPF)"; exit 0; }
"$IOSCOPE" --version | grep -q "tracing (--trace): built in" ||
	{ skip "hostile tracer" "this build has no tracing (libbpf-dev, bpftool, clang)"; exit 0; }
[ -r /sys/kernel/btf/vmlinux ] || { skip "hostile tracer" "the kernel has no BTF"; exit 0; }

# ioscope and its tracer in a directory of our own: the tracer beside the binary is taken
bin="$TMP/bin"
mkdir -m 755 "$bin"
cp "$IOSCOPE" "$bin/ioscope" && cp "$(dirname "$IOSCOPE")/ioscope-trace.so" "$bin/genuine.so" ||
	{ fail "a copy of ioscope and its tracer"; exit 1; }
# the library planted over the tracer leaves a mark when it is loaded
cat >"$TMP/planted.c" <<'EOF'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void planted(void)
{
	close(open(getenv("PLANTED_MARK"), O_WRONLY | O_CREAT, 0644));
}
EOF
cc -shared -fPIC -o "$TMP/race_swap.so" "$(dirname "$0")/race_swap.c" -ldl &&
	cc -shared -fPIC -o "$bin/.planted.so" "$TMP/planted.c" ||
	{ fail "the test libraries build"; exit 1; }
tracer() { install -m "$1" "$bin/genuine.so" "$bin/ioscope-trace.so"; }

name="a library renamed over the tracer after its check is not loaded; the checked one traces"
tracer 644
LD_PRELOAD="$TMP/race_swap.so" RACE_MATCH="$bin/ioscope-trace.so" RACE_FROM="$bin/.planted.so" \
	PLANTED_MARK="$TMP/planted-loaded" \
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
	timeout 60 "$bin/ioscope" --batch --trace -i 0.5 -c 2 -f json >"$TMP/swap.json" \
	2>"$TMP/swap.err"
rc=$?
traced=$(jq -s '[.[-1].devices[] | .trace | select(. != null)] | length' "$TMP/swap.json" \
	2>/dev/null)
grep -qxF "race_swap: $bin/.planted.so renamed over $bin/ioscope-trace.so" "$TMP/swap.err" &&
	[ "$rc" = 0 ] && clean_stderr "$TMP/swap.err" && [ ! -e "$TMP/planted-loaded" ] &&
	[ "${traced:-0}" -ge 1 ] && ok "$name" ||
	fail "$name" "rc=$rc traced=$traced loaded=$(ls "$TMP/planted-loaded" 2>/dev/null) \
$(head -3 "$TMP/swap.err")"

# Refused, with the reason (unless an installed tracer is there to fall back on).
if [ -e /usr/local/lib/ioscope/ioscope-trace.so ]; then
	skip "an untrusted tracer is refused with the reason" "an installed tracer is there"
	exit 0
fi
refused() {
	local name=$1 why=$2 rc
	"$bin/ioscope" --batch --trace -c 1 >/dev/null 2>"$TMP/$name.err"
	rc=$?
	[ "$rc" = 1 ] && clean_stderr "$TMP/$name.err" &&
		grep -qF "$bin/ioscope-trace.so: $why" "$TMP/$name.err" &&
		ok "a tracer $3 is refused, and why" ||
		fail "a tracer $3 is refused, and why" "rc=$rc $(head -3 "$TMP/$name.err")"
}
tracer 664
refused group "writable by its group or others (mode 0664)" "its group may write"
tracer 644 && chown nobody "$bin/ioscope-trace.so"
refused nobody "owned by uid $(id -u nobody), not by root or ioscope's user (uid 0)" \
	"another user owns"
