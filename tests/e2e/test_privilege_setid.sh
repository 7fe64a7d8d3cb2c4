#!/bin/bash
# A setuid or setgid ioscope would act as its owner for every user (settings, files):
# it refuses to run, and says how to grant the rights instead (issue 9, item 11).
. "$(dirname "$0")/lib.sh"
is_root || { skip "setuid" "needs root to make a setuid-root copy"; exit 0; }
command -v setpriv >/dev/null || { skip "setuid" "no setpriv"; exit 0; }
# the copy must sit where nobody can run it and the setuid bit counts (no nosuid mount)
chmod 755 "$TMP"
if findmnt -no OPTIONS -T "$TMP" | tr ',' '\n' | grep -qx nosuid; then
	skip "setuid" "$TMP is on a nosuid mount"; exit 0
fi
cp "$IOSCOPE" "$TMP/ioscope"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

check_refused() {
	local name=$1
	as_nobody "$TMP/ioscope" --batch -c 1 -i 0.01 >"$TMP/out" 2>"$TMP/err"; local rc=$?
	if [ $rc -eq 1 ] && grep -q "refusing to run setuid or setgid" "$TMP/err" \
		&& grep -q "sudo or capabilities" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		ok "$name: refused with a pointer to sudo or capabilities"
	else
		fail "$name: refused" "rc=$rc $(head -3 "$TMP/err")"
	fi
}

# the test is meaningful only if an unprivileged plain copy runs
chmod 755 "$TMP/ioscope"
as_nobody "$TMP/ioscope" --version >/dev/null 2>"$TMP/err" \
	|| { skip "setuid" "nobody cannot run the copy: $(head -1 "$TMP/err")"; exit 0; }
chown root:root "$TMP/ioscope"
chmod 4755 "$TMP/ioscope"
check_refused "setuid root"
chmod 2755 "$TMP/ioscope"
check_refused "setgid root"
exit 0
