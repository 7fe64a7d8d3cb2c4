#!/bin/bash
# One Prometheus series per label set (docs/fleet.md, "Conventions"): a filesystem
# stacked on one path (`mount --bind d d`, twice) and two mount points whose names escape
# alike (a newline and a tab are both "?") gave ioscope_mount_info and the journal
# families the same series more than once, and node_exporter's textfile collector
# failed at every scrape.  Now the visible mount of each path has the one series.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom_lib.sh"

if ! is_root; then
	skip prometheus_mount_series "needs root for a loop device and bind mounts"
	exit 0
fi
DEV=$(make_loop 32) || { fail "loop device"; exit 1; }
MNT=$(make_fs "$DEV" ext4) || { skip prometheus_mount_series "cannot make an ext4 filesystem"; exit 0; }
mkdir "$MNT/d" "$MNT/e"$'\n' "$MNT/e"$'\t'
E1="$MNT/e"$'\n'
E2="$MNT/e"$'\t'
for target in "$MNT/d" "$MNT/d" "$E1" "$E2"; do
	mount --bind "$MNT/d" "$target" || { fail "mount --bind" "$target"; exit 1; }
done
# the names have a newline and a tab: expanded when the cleanup runs
at_exit 'umount -l "$MNT/d"; umount -l "$MNT/d"; umount -l "$E1"; umount -l "$E2"'

"$IOSCOPE" --batch -f prometheus -i 0.2 -c 1 "$DEV" >"$TMP/out.prom" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && quiet "$TMP/err" && ok "batch prometheus runs" || fail "batch prometheus runs" "exit $rc: $(head -c 500 "$TMP/err")"
python3 - "$TMP/out.prom" "$MNT" <<'PY'
import collections, sys
text, mnt = open(sys.argv[1]).read(), sys.argv[2]
series = collections.Counter(line.rsplit(" ", 1)[0] for line in text.splitlines()
                             if line and not line.startswith("#"))
twice = [s for s, n in series.items() if n > 1]
print(("ok" if not twice else "not ok") + " one series per label set" + (f": {twice[:3]}" if twice else ""))
def count(family, mountpoint):
    return sum(n for s, n in series.items()
               if s.startswith(family + "{") and f'mountpoint="{mountpoint}"' in s)
for family in ("ioscope_mount_info", "ioscope_journal_commits_total"):
    got = [count(family, mnt + "/d"), count(family, mnt + "/e?")]
    print(("ok" if got == [1, 1] else "not ok") + f" {family}: one series for each path" +
          ("" if got == [1, 1] else f": {got}"))
PY
if command -v promtool >/dev/null; then
	out=$(promtool check metrics <"$TMP/out.prom" 2>&1) && ok "promtool check metrics" || fail "promtool check metrics" "$out"
else
	skip "promtool check metrics" "promtool not installed (make test-deps)"
fi

# node_exporter's textfile collector reads it without an error.
if command -v prometheus-node-exporter >/dev/null && command -v curl >/dev/null; then
	mkdir "$TMP/textfile"
	"$IOSCOPE" --textfile "$TMP/textfile/ioscope.prom" -i 0.2 -c 1 "$DEV" 2>"$TMP/err"
	rc=$?
	[ "$rc" = 0 ] && quiet "$TMP/err" || fail "--textfile runs" "exit $rc: $(head -c 500 "$TMP/err")"
	NP=$(textfile_exporter "$TMP/textfile" "$TMP/ne.log")
	if wait_http "http://127.0.0.1:$NP/metrics"; then
		code=$(curl -s -o "$TMP/ne.out" -w '%{http_code}' "http://127.0.0.1:$NP/metrics")
		[ "$code" = 200 ] && grep -q "^node_textfile_scrape_error 0$" "$TMP/ne.out" && ! grep -q "level=error" "$TMP/ne.log" &&
			ok "node_exporter reads the textfile without an error" ||
			fail "node_exporter reads the textfile without an error" "HTTP $code: $(grep "level=error" "$TMP/ne.log" | head -c 600)"
	else
		fail "node_exporter started" "$(tail -5 "$TMP/ne.log")"
	fi
else
	skip "node_exporter reads the textfile without an error" "prometheus-node-exporter or curl not installed"
fi
