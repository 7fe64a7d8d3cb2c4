#!/bin/bash
# Files that never end or never open: a FIFO or /dev/zero as a --root file, a FIFO as
# the config file.  ioscope refuses them at once, naming the path, instead of hanging
# in open() (with its signals blocked, where neither Ctrl-C nor timeout ended it).
. "$(dirname "$0")/lib.sh"
F="$IOSCOPE_TOP/tests/fixtures/layout20/1"

# tree NAME: a copy of a fixture tree to spoil
tree() { cp -r "$F" "$TMP/$1" && echo "$TMP/$1"; }
# quick NAME WANT_RC PATTERN CMD... : CMD ends by itself within 20 s with WANT_RC and
# says PATTERN on stderr (timeout would give 124, or 137 after its KILL)
quick() {
	local name=$1 want=$2 pattern=$3; shift 3
	timeout -k 5 20 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	local rc=$?
	if [ "$rc" -ne "$want" ]; then fail "$name" "exit $rc, want $want: $(head -3 "$TMP/err")"
	elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$TMP/err"; then fail "$name" "no '$pattern' in: $(head -3 "$TMP/err")"
	else ok "$name"; fi
}

r=$(tree fifo-diskstats)
rm "$r/proc/diskstats" && mkfifo "$r/proc/diskstats"
quick "--root with a FIFO as proc/diskstats: refused, path named" 1 \
	"$r/proc/diskstats: a FIFO, not a regular file: refused" "$IOSCOPE" --batch -c 1 --root "$r"

r=$(tree zero-diskstats)
ln -sf /dev/zero "$r/proc/diskstats"
quick "--root with /dev/zero as proc/diskstats: refused" 1 \
	"proc/diskstats: a character device, not a regular file" "$IOSCOPE" --batch -c 1 --root "$r"

r=$(tree urandom-mountinfo)
ln -sf /dev/urandom "$r/proc/diskstats"
quick "--root with /dev/urandom as proc/diskstats: refused" 1 \
	"proc/diskstats: a character device, not a regular file" "$IOSCOPE" --batch -c 1 --root "$r"

r=$(tree fifo-sysfs)
rm "$r/sys/block/vdb/queue/scheduler" && mkfifo "$r/sys/block/vdb/queue/scheduler"
quick "--root with a FIFO as a sysfs attribute: read as absent, the run ends" 0 "" \
	"$IOSCOPE" --batch -c 2 -i 0.1 -f json --root "$r"

mkdir -p "$TMP/cfg/ioscope" && mkfifo "$TMP/cfg/ioscope/config"
XDG_CONFIG_HOME="$TMP/cfg" timeout -k 5 20 "$IOSCOPE" --root "$F" </dev/null >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && ok "a FIFO as the config file does not hang the console (exit $rc)" \
	|| fail "a FIFO as the config file hangs the console"

# TERM=dumb cannot place the cursor: the console refuses with a message instead of
# drawing every frame onto one line (script(1) gives it a terminal).
TERM=dumb timeout -k 5 20 script -qec "'$IOSCOPE' --root '$F'" /dev/null </dev/null >"$TMP/dumb" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -q "the terminal 'dumb' cannot move the cursor" "$TMP/dumb"; then
	ok "TERM=dumb: refused with a message, exit 2"
else
	fail "TERM=dumb: refused with a message" "exit $rc: $(head -c 300 "$TMP/dumb")"
fi
