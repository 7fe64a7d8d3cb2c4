#!/bin/bash
# No folder of src/ uses a function or table of a layer above it (docs/design.md, "Layers
# and folders"), checked on the objects' symbols rather than on includes: a call through a
# declaration written by hand is caught too.  The uses still there are listed, each with
# its reason, in symbol_layers.allow.  Here the check also runs on a copy of the objects
# with an upward call put in on purpose, and with an allow-list entry that no longer
# happens, to show it can fail.
. "$(dirname "$0")/lib.sh"
needs "symbol layers" python3 nm cc
check_py="$IOSCOPE_TOP/tests/e2e/symbol_layers.py"
allow="$IOSCOPE_TOP/tests/e2e/symbol_layers.allow"
objs="$IOSCOPE_TOP/${BUILD:-build}/opt/src"
if ! ls "$objs"/core/*.o >/dev/null 2>&1; then
	skip "symbol layers" "no objects in build/opt/src (make all first)"
	exit 0
fi

out=$(python3 "$check_py" "$objs" "$allow" "$IOSCOPE_TOP/src")
echo "$out"

# core calling the console: a new upward use must fail the check
bad="$TMP/objs"
cp -r "$objs" "$bad"
printf 'void console_run(void);\nvoid core_poke(void);\nvoid core_poke(void) { console_run(); }\n' \
	>"$TMP/poke.c"
cc -c -o "$bad/core/poke.o" "$TMP/poke.c"
got=$(python3 "$check_py" "$bad" "$allow")
if grep -q "^not ok symbol layers: no new upward use" <<<"$got" &&
   grep -q "^# upward: core/poke.o uses console_run of ui" <<<"$got"; then
	ok "symbol layers: an upward call from core to the console fails the check"
else
	fail "symbol layers: an upward call from core to the console fails the check" \
		"$(tr '\n' ' ' <<<"$got")"
fi

# an allow-list entry for a use that is gone must be removed
printf 'core/session.o console_run  # planted\n' | cat "$allow" - >"$TMP/allow"
got=$(python3 "$check_py" "$objs" "$TMP/allow")
if grep -q "^not ok symbol layers: the allow-list is current" <<<"$got"; then
	ok "symbol layers: a stale allow-list entry fails the check"
else
	fail "symbol layers: a stale allow-list entry fails the check" "$(tr '\n' ' ' <<<"$got")"
fi
