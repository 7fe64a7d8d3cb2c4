#!/bin/bash
# --textfile PATH with files planted at the temporary name the exporter used to take,
# PATH.tmp.PID, before it starts and while it runs (docs/security.md): a FIFO hung
# open(), with every signal blocked once sampling had begun, so SIGTERM could not end
# the run; a hard link had the exposition written through it into the linked file.
# Now the expositions go on, the linked file is left as it was, and SIGTERM ends the
# run at once.  An empty --textfile is bad usage.
. "$(dirname "$0")/lib.sh"

DIR="$TMP/textfile"
mkdir "$DIR"
echo "not yours" >"$TMP/victim"

# plant KIND PID: a KIND (fifo, link) at $DIR/io.prom.tmp.PID.
plant() {
	case $1 in
	fifo) mkfifo "$DIR/io.prom.tmp.$2" ;;
	link) ln "$TMP/victim" "$DIR/io.prom.tmp.$2" ;;
	esac
}

# start_planted KIND: ioscope --textfile $DIR/io.prom, with a KIND planted at
# $DIR/io.prom.tmp.PID before it starts: the shell's PID is ioscope's after exec.
start_planted() {
	rm -f "$DIR"/*
	bash -c 'case $1 in fifo) mkfifo "$2.tmp.$$" ;; link) ln "$3" "$2.tmp.$$" ;; esac
		exec "$4" --textfile "$2" -i 0.1' _ "$1" "$DIR/io.prom" "$TMP/victim" "$IOSCOPE" \
		>"$TMP/out" 2>"$TMP/err" &
	PID=$!
	at_exit "kill -KILL $PID"
}

# start_running: the same, nothing planted.
start_running() {
	rm -f "$DIR"/*
	"$IOSCOPE" --textfile "$DIR/io.prom" -i 0.1 >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	at_exit "kill -KILL $PID"
}

# ends_on_sigterm NAME: SIGTERM ends $PID within 3 s, exit 0, nothing on stderr.
ends_on_sigterm() {
	local i rc
	kill -TERM "$PID"
	for i in $(seq 30); do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$PID" 2>/dev/null; then
		kill -KILL "$PID"
		wait "$PID"
		fail "$1" "still running 3 s after SIGTERM"
		return
	fi
	wait "$PID"
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$TMP/err" ] && [ ! -s "$TMP/out" ] && ok "$1" ||
		fail "$1" "exit $rc: $(head -c 500 "$TMP/err")"
}

# sample_time: the sample time in $DIR/io.prom (empty when there is none).
sample_time() {
	sed -n 's/^ioscope_sample_timestamp_seconds //p' "$DIR/io.prom" 2>/dev/null
}

# written [AFTER]: within 5 s, $DIR/io.prom has an exposition (of a sample after AFTER).
written() {
	local i t
	for i in $(seq 50); do
		t=$(sample_time)
		[ -n "$t" ] && awk -v t="$t" -v after="${1:-0}" 'BEGIN { exit !(t > after) }' && return 0
		sleep 0.1
	done
	return 1
}

for kind in fifo link; do
	label=FIFO
	[ "$kind" = link ] && label="hard link"
	what="a $label planted at PATH.tmp.PID before the start"
	start_planted "$kind"
	written && ok "$what: the exposition is written" ||
		fail "$what: the exposition is written" "$(ls -l "$DIR"; head -c 300 "$TMP/err")"
	written "$(sample_time)" || true     # and the next one
	ends_on_sigterm "$what: SIGTERM ends the run"

	what="a $label planted at PATH.tmp.PID while it runs"
	start_running
	written && plant "$kind" "$PID" && t=$(sample_time) && written "$t" &&
		ok "$what: the expositions go on" || fail "$what: the expositions go on" "$(ls -l "$DIR")"
	ends_on_sigterm "$what: SIGTERM ends the run"

	if [ "$kind" = link ]; then
		[ "$(cat "$TMP/victim")" = "not yours" ] && ok "nothing is written through the hard link" ||
			fail "nothing is written through the hard link" "$(head -c 100 "$TMP/victim")"
	fi
	left=$(ls "$DIR" | grep -v -x -e io.prom -e "io.prom.tmp.$PID")
	[ -z "$left" ] && ok "$label: no temporary file is left" || fail "$label: no temporary file is left" "$left"
done

# An empty name: bad usage before anything is made (it used to create .tmp.PID in the
# working directory and fail at the first write).
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$IOSCOPE" --textfile "" -c 1 >"$TMP/out" 2>"$TMP/err")
rc=$?
[ "$rc" = 2 ] && grep -q -- "--textfile needs a file name" "$TMP/err" && [ -z "$(ls -A "$TMP/cwd")" ] &&
	ok "--textfile '' is bad usage" || fail "--textfile '' is bad usage" "exit $rc: $(head -c 300 "$TMP/err"; ls -A "$TMP/cwd")"
