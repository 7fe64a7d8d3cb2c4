#!/bin/bash
# One per-sample pipeline (docs/design.md): events_diff() and rates_compute() are each
# called from exactly one place in src/ (src/core/session.c), so the console, batch,
# replay and reports cannot drift apart again.  Definitions and comments do not count.
. "$(dirname "$0")/lib.sh"
for fn in events_diff rates_compute; do
	# a call: the name, "(", not at the start of a line (definitions start there in our
	# style), outside comments
	calls=$(grep -rnE "[^_a-z]$fn\(" "$IOSCOPE_TOP/src" --include='*.c' \
		| grep -vE ":[0-9]+:(int|static|const|void) " \
		| grep -vE ":[0-9]+:[[:space:]]*(/?\*|//)" )
	where=$(cut -d: -f1 <<<"$calls" | sort -u | sed "s|$IOSCOPE_TOP/||")
	n=$(grep -c . <<<"$calls")
	if [ "$n" = 1 ] && [ "$where" = src/core/session.c ]; then
		ok "$fn called from one place (src/core/session.c)"
	else
		fail "$fn called from one place" "$n call(s): $(tr '\n' ' ' <<<"$calls")"
	fi
done
