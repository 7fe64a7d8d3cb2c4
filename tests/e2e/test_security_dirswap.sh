#!/bin/bash
# An output's directory swapped for a symlink under a writing root (issue 40): with
# --textfile U/m/x.prom and U another user's, that user renamed m away and linked m to a
# directory only root may write in; --textfile looked the path up again every interval,
# so root's ioscope made and replaced x.prom there (report -o likewise between opening
# its output and naming it).  Now each output's directory is opened once, through no
# symlink but root's or the user's own, and every write is made in that descriptor:
#   - --textfile goes on writing into the directory it opened, says once that the path
#     leads elsewhere now, and writes nothing where the link leads;
#   - a recording goes on in its file; report -o, delayed between opening and naming its
#     output while the swap is made, names it in the directory it opened;
#   - a symlink of another user already in place (--textfile, --record, report -o, run
#     --output, matrix --out) is refused at the start, naming it, and nothing is made;
#   - nit: the directory's owner putting a directory at --textfile's path no longer ends
#     the exporter: said once on stderr, tried again each interval, written again after.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "output directories swapped by another user" "needs root (directories of another user)"
	exit 0
fi
NOBODY=65534
chmod 755 "$TMP"   # nobody reaches U
as_nobody() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"; }
R="$TMP/rootonly"      # where the attacker's link leads: only root may write there
mkdir -m 700 "$R"
U="$TMP/theirs"        # the other user's directory, as /var/lib/prometheus is prometheus's
mkdir -m 755 "$U"
chown "$NOBODY:$NOBODY" "$U"
FIXTURE=$IOSCOPE_TOP/tests/fixtures/no-sys-no-psi

# fresh NAME: U/NAME, a directory of nobody's
fresh() { as_nobody mkdir "$U/$1"; }
# swap NAME: nobody renames U/NAME to U/NAME.old and links U/NAME to R
swap() { as_nobody sh -c 'mv "$1/$2" "$1/$2.old" && ln -s "$3" "$1/$2"' _ "$U" "$1" "$R"; }
# plant NAME: U/NAME is nobody's symlink to R from the start
plant() { as_nobody ln -s "$R" "$U/$1"; }
r_empty() { [ -z "$(ls -A "$R")" ]; }
r_listing() { ls -la "$R" | tail -n +2 | head -5; }
# stamp FILE: the sample time of the exposition in FILE ("" when none)
stamp() { sed -n 's/^ioscope_sample_timestamp_seconds //p' "$1" 2>/dev/null; }
# newer FILE T: FILE holds an exposition of a sample after T
newer() {
	local t
	t=$(stamp "$1")
	[ -n "$t" ] && awk -v t="$t" -v after="$2" 'BEGIN { exit !(t > after) }'
}
# ends PID NAME ERRFILE: SIGTERM ends PID with status 0 and a clean stderr
ends() {
	local rc
	kill -TERM "$1" 2>/dev/null
	wait "$1"
	rc=$?
	[ "$rc" = 0 ] && clean_stderr "$3" && ok "$2" || fail "$2" "exit $rc: $(head -c 400 "$3")"
}

# ---- --textfile: the directory swapped while it runs ----
fresh tf
"$IOSCOPE" --textfile "$U/tf/x.prom" -i 0.1 >"$TMP/tf.out" 2>"$TMP/tf.err" &
PID=$!
at_exit "kill -KILL $PID"
name="--textfile, its directory swapped for a symlink"
if wait_until 30 "$PID" newer "$U/tf/x.prom" 0; then
	swap tf
	t=$(stamp "$U/tf.old/x.prom")
	# two intervals after the swap, both in the directory opened at the start
	wait_until 10 "$PID" newer "$U/tf.old/x.prom" "$t" && t=$(stamp "$U/tf.old/x.prom") &&
		wait_until 10 "$PID" newer "$U/tf.old/x.prom" "$t" &&
		ok "$name: written on in the directory opened" ||
		fail "$name: written on in the directory opened" "$(ls -la "$U/tf.old"; head -c 300 "$TMP/tf.err")"
	r_empty && ok "$name: nothing made where the link leads" ||
		fail "$name: nothing made where the link leads" "$(r_listing)"
	said="x.prom: its directory is no longer the one opened at the start"
	wait_until 10 "$PID" grep -q "$said" "$TMP/tf.err" && [ "$(grep -c "$said" "$TMP/tf.err")" = 1 ] &&
		grep -q "now $U/tf.old" "$TMP/tf.err" && ok "$name: said once on stderr, with where it writes" ||
		fail "$name: said once on stderr, with where it writes" "$(head -c 500 "$TMP/tf.err")"
else
	fail "$name: the first exposition" "$(head -c 300 "$TMP/tf.err")"
fi
ends "$PID" "$name: SIGTERM ends it, exit 0" "$TMP/tf.err"
[ ! -s "$TMP/tf.out" ] || fail "$name: nothing on stdout" "$(head -c 200 "$TMP/tf.out")"
rm -rf "${R:?}"/* "$R"/.[!.]* 2>/dev/null

# ---- --textfile: a directory put at its path by the directory's owner (nit) ----
fresh way
"$IOSCOPE" --textfile "$U/way/x.prom" -i 0.1 >"$TMP/way.out" 2>"$TMP/way.err" &
PID=$!
at_exit "kill -KILL $PID"
name="--textfile, a directory put at its path"
if wait_until 30 "$PID" newer "$U/way/x.prom" 0; then
	t=$(stamp "$U/way/x.prom")
	# (until it holds: an interval may rename a new file in between the rm and the mkdir)
	as_nobody sh -c 'for i in $(seq 50); do rm -f "$1"; mkdir "$1" 2>/dev/null && exit 0; done
		exit 1' _ "$U/way/x.prom"
	blocked="x.prom: a directory is in its place"
	wait_until 10 "$PID" grep -q "$blocked" "$TMP/way.err" &&
		ok "$name: said on stderr, the run goes on" ||
		fail "$name: said on stderr, the run goes on" "$(kill -0 "$PID" 2>/dev/null || echo ended:) $(head -c 300 "$TMP/way.err")"
	# tried again each interval: written once the directory is gone, and said so
	as_nobody rmdir "$U/way/x.prom"
	wait_until 10 "$PID" newer "$U/way/x.prom" "$t" && [ "$(grep -c "$blocked" "$TMP/way.err")" = 1 ] &&
		grep -q "x.prom: written again" "$TMP/way.err" &&
		ok "$name: said once, written again when it is gone" ||
		fail "$name: said once, written again when it is gone" "$(ls -la "$U/way"; head -c 500 "$TMP/way.err")"
else
	fail "$name: the first exposition" "$(head -c 300 "$TMP/way.err")"
fi
ends "$PID" "$name: SIGTERM ends it, exit 0" "$TMP/way.err"
left=$(ls -A "$U/way" | grep -v -x x.prom)
[ -z "$left" ] && ok "$name: no temporary file left" || fail "$name: no temporary file left" "$left"

# ---- --record: the directory swapped while it records ----
fresh rec
"$IOSCOPE" --record "$U/rec/s.log" --batch -i 0.1 >/dev/null 2>"$TMP/rec.err" &
PID=$!
at_exit "kill -KILL $PID"
name="--record, its directory swapped for a symlink"
if wait_samples "$U/rec/s.log" 2 "$PID"; then
	swap rec
	n=$(grep -c '^{"type":"sample"' "$U/rec.old/s.log")
	wait_samples "$U/rec.old/s.log" $((n + 2)) "$PID" && ok "$name: the recording goes on in its file" ||
		fail "$name: the recording goes on in its file" "$(ls -la "$U/rec.old"; head -c 300 "$TMP/rec.err")"
	r_empty && ok "$name: nothing made where the link leads" ||
		fail "$name: nothing made where the link leads" "$(r_listing)"
else
	fail "$name: the first samples" "$(head -c 300 "$TMP/rec.err")"
fi
ends "$PID" "$name: SIGTERM ends it, exit 0" "$TMP/rec.err"

# ---- report -o: the directory swapped between opening its output and naming it ----
# strace holds the report at its fsync (after the output is opened, before it is named)
# for 3 s; the swap is made once the output is open (a descriptor in U/rep).
"$IOSCOPE" --root "$FIXTURE" --batch -i 0.01 -c 5 --record "$TMP/in.log" >/dev/null 2>"$TMP/in.err" ||
	fail "a log to report on" "$(head -c 300 "$TMP/in.err")"
# report_open_fd: the report process (strace's child, of $SPID) has a descriptor in U/rep
report_open_fd() {
	local p
	for p in $(pgrep -P "$SPID"); do
		ls -l "/proc/$p/fd" 2>/dev/null | grep -q -- "-> $U/rep/" && return 0
	done
	return 1
}
# report_swapped: the report held at its fsync, the swap made meanwhile
report_swapped() {
	# (LeakSanitizer does not work under ptrace: leaks are not looked for in this run)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=3000000 \
		"$IOSCOPE" report "$TMP/in.log" -o "$U/rep/out.txt" >/dev/null 2>"$TMP/rep.err" &
	SPID=$!
	at_exit "kill -KILL $SPID"
	if wait_until 20 "$SPID" report_open_fd; then
		swap rep
		wait "$SPID"
		rc=$?
		[ "$rc" = 0 ] && [ -s "$U/rep.old/out.txt" ] && clean_stderr "$TMP/rep.err" &&
			ok "$name: written in the directory opened" ||
			fail "$name: written in the directory opened" "exit $rc: $(ls -la "$U/rep.old"; head -c 300 "$TMP/rep.err")"
		r_empty && ok "$name: nothing made where the link leads" ||
			fail "$name: nothing made where the link leads" "$(r_listing)"
	else
		fail "$name: the output opened" "$(head -c 300 "$TMP/rep.err")"
	fi
}
name="report -o, its directory swapped before the output is named"
if command -v strace >/dev/null; then
	fresh rep
	report_swapped
else
	skip "$name" "strace not installed"
fi
rm -rf "${R:?}"/* "$R"/.[!.]* 2>/dev/null

# ---- another user's symlink already in place: refused at the start, nothing made ----
# refused NAME WANT-STATUS CMD...: CMD exits WANT-STATUS saying the link is passed
# through and whose it is; nothing is made where it leads
refused() {
	local what=$1 want=$2 rc
	shift 2
	"$@" >"$TMP/ref.out" 2>"$TMP/ref.err" </dev/null
	rc=$?
	[ "$rc" = "$want" ] && grep -q "passes through $U/[a-z]*, a symlink owned by uid $NOBODY, not root" "$TMP/ref.err" &&
		clean_stderr "$TMP/ref.err" && r_empty && ok "$what: refused at the start, nothing made" ||
		fail "$what: refused at the start, nothing made" "exit $rc: $(head -c 300 "$TMP/ref.err") | $(r_listing)"
	rm -rf "${R:?}"/* "$R"/.[!.]* 2>/dev/null
}
plant ptf
refused "--textfile through another user's symlink" 1 "$IOSCOPE" --textfile "$U/ptf/x.prom" -i 0.1 -c 2
plant prec
refused "--record through another user's symlink" 1 \
	"$IOSCOPE" --root "$FIXTURE" --batch -i 0.01 -c 2 --record "$U/prec/s.log"
plant prep
refused "report -o through another user's symlink" 1 "$IOSCOPE" report "$TMP/in.log" -o "$U/prep/out.txt"
plant prun
refused "run --output through another user's symlink" 1 \
	"$IOSCOPE" run --batch -i 0.1 --output "$U/prun/cmd.out" -- true
plant pmx
mkdir "$TMP/mnt"
dev=$(make_loop 16)
if [ -n "$dev" ]; then
	refused "matrix --out through another user's symlink" 2 \
		"$IOSCOPE" matrix --device "$dev" --mount "$TMP/mnt" --out "$U/pmx/res" -- true
else
	skip "matrix --out through another user's symlink" "no loop device"
fi

# ---- the user's own symlink is followed: nobody records through a link of nobody's ----
as_nobody mkdir "$U/mine"
as_nobody ln -s "$U/mine" "$U/mylink"
as_nobody "$IOSCOPE" --root "$FIXTURE" --batch -i 0.01 -c 2 --record "$U/mylink/s.log" >/dev/null 2>"$TMP/own.err"
rc=$?
[ "$rc" = 0 ] && [ -s "$U/mine/s.log" ] && clean_stderr "$TMP/own.err" &&
	ok "--record through one's own symlink: followed" ||
	fail "--record through one's own symlink: followed" "exit $rc: $(head -c 300 "$TMP/own.err")"
