#!/bin/bash
# The panes of the console draw a view model and return actions; they never reach the
# console's state, each other, or a circle of calls (docs/design.md).  The checks are
# in ui_layers.py; here they also run on copies of src/ui with a pane calling back into
# the console and with a cycle put in on purpose, to show they can fail.
. "$(dirname "$0")/lib.sh"
needs "ui layers" python3
check_py="$IOSCOPE_TOP/tests/e2e/ui_layers.py"

out=$(python3 "$check_py" "$IOSCOPE_TOP/src/ui" "$IOSCOPE_TOP/include" "$IOSCOPE_TOP/docs/console.md")
echo "$out"

# a pane that posts a message through the console: every pane check must object
bad="$TMP/pane_calls_console"
cp -r "$IOSCOPE_TOP/src/ui" "$bad"
sed -i 's/^#include "pane.h"/#include "console_state.h"/' "$bad/marks.c"
printf 'void marks_poke(struct console *c);\nvoid marks_poke(struct console *c) { console_message(c, false, "x"); }\n' >>"$bad/marks.c"
got=$(python3 "$check_py" "$bad" "$IOSCOPE_TOP/include")
for n in pane-includes pane-calls no-cycle; do
	if grep -q "^not ok ui layers: $n" <<<"$got"; then
		ok "ui layers: $n fails for a pane calling the console"
	else
		fail "ui layers: $n fails for a pane calling the console" "$(tr '\n' ' ' <<<"$got")"
	fi
done

# a drawing helper that calls the console back: a circle without any pane in it
bad="$TMP/draw_cycle"
cp -r "$IOSCOPE_TOP/src/ui" "$bad"
sed -i 's/^#include "ui_draw.h"/#include "console_state.h"/' "$bad/draw.c"
printf 'double ui_now(void);\ndouble ui_now(void) { return console_now(); }\n' >>"$bad/draw.c"
got=$(python3 "$check_py" "$bad" "$IOSCOPE_TOP/include")
if grep -q "^not ok ui layers: no-cycle" <<<"$got"; then
	ok "ui layers: no-cycle fails for a cycle through draw.c"
else
	fail "ui layers: no-cycle fails for a cycle through draw.c" "$(tr '\n' ' ' <<<"$got")"
fi

# docs/console.md names the console layer's files: a doc that leaves one out, and a tree
# where one more file knows struct console, must both be caught
sed 's|`src/ui/term.c`,||' "$IOSCOPE_TOP/docs/console.md" >"$TMP/console.md"
bad="$TMP/layer_grows"
cp -r "$IOSCOPE_TOP/src/ui" "$bad"
printf 'struct console;\nvoid status_poke(struct console *c);\n' >>"$bad/status.c"
for case in "doc:$IOSCOPE_TOP/src/ui:$TMP/console.md" "tree:$bad:$IOSCOPE_TOP/docs/console.md"; do
	IFS=: read -r what tree doc <<<"$case"
	got=$(python3 "$check_py" "$tree" "$IOSCOPE_TOP/include" "$doc")
	if grep -q "^not ok ui layers: console-layer-documented" <<<"$got"; then
		ok "ui layers: console-layer-documented fails when the $what leaves the list behind"
	else
		fail "ui layers: console-layer-documented fails when the $what leaves the list behind" \
			"$(tr '\n' ' ' <<<"$got")"
	fi
done
