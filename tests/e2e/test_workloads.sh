#!/bin/bash
# The workloads shipped in workloads/: each does its job on a loop ext4, prints one
# summary line, cleans up what it made (rmtree.sh: only trees a workload made;
# untar-rmtree.sh: its own tree, with a mark before each half, each half with its sync so
# that the tree is on the disk before the next mark; --no-sync without), and changes no setting
# (the recording of `ioscope run` holds no scheduler, tunable or mount-option event).
# Tiny scales: this checks the scripts, it times nothing.
. "$(dirname "$0")/lib.sh"
is_root || { skip "workloads" "needs root for a loop device"; exit 0; }
W="$IOSCOPE_TOP/workloads"
export IOSCOPE_TREE_SCALE=0.002 XDG_CACHE_HOME="$TMP/cache"
unset IOSCOPE_TARBALL

dev=$(make_loop 128) || { fail "loop device"; exit 1; }
mnt=$(make_fs "$dev" ext4) || { fail "ext4 on $dev"; exit 1; }
mkdir "$mnt/keep" && echo precious >"$mnt/keep/file"

# the README example: ioscope run workloads/untar.sh DIR
"$IOSCOPE" run --batch -i 0.5 --linger 0 --record "$TMP/untar.log" --output "$TMP/untar.out" \
	-- "$W/untar.sh" "$mnt" >/dev/null 2>"$TMP/untar.err"
rc=$?
grep -qE '^untar: source=.*kernel-like-0.002.tar into=.* files=[1-9][0-9]* bytes=[1-9][0-9]* elapsed_s=' "$TMP/untar.out" \
	&& [ $rc = 0 ] && ok "untar.sh under ioscope run" || fail "untar.sh under ioscope run" \
	"rc=$rc $(cat "$TMP/untar.out" "$TMP/untar.err")"
out=$("$W/rmtree.sh" "$mnt" 2>&1); rc=$?
[ $rc = 0 ] && grep -qE '^rmtree: .* trees=1 files=[1-9]' <<<"$out" && [ -z "$(ls "$mnt" | grep untar)" ] \
	&& [ "$(cat "$mnt/keep/file")" = precious ] && ok "rmtree.sh removes the tree, nothing else" \
	|| fail "rmtree.sh removes the tree, nothing else" "rc=$rc $out $(ls -la "$mnt")"
out=$("$W/rmtree.sh" "$mnt" 2>&1); rc=$?
[ $rc = 1 ] && ok "rmtree.sh with no workload tree says so" || fail "rmtree.sh with no workload tree says so" "$out"
# the pair on one tree, a mark before each: the recording has both as phases; each half
# ends with the sync of the filesystem, in its phase, so the tree reaches the disk
"$IOSCOPE" run --batch -i 0.5 --linger 0 --record "$TMP/pair.log" --output "$TMP/pair.out" \
	"$dev" -- env IOSCOPE_BIN="$IOSCOPE" "$W/untar-rmtree.sh" "$mnt" >/dev/null 2>"$TMP/pair.err"
rc=$?
marks=$(python3 -c 'import json, sys
print(" ".join(r["new"] for r in map(json.loads, open(sys.argv[1])) if r["type"] == "event" and r["kind"] == "mark"))' "$TMP/pair.log")
[ $rc = 0 ] && [ "$marks" = "untar rmtree" ] && grep -q '^untar: ' "$TMP/pair.out" \
	&& grep -qE '^rmtree: .* trees=1 files=[1-9]' "$TMP/pair.out" && [ -z "$(ls "$mnt" | grep untar)" ] \
	&& [ "$(cat "$mnt/keep/file")" = precious ] \
	&& ok "untar-rmtree.sh: untar then rm -rf of that tree, a mark before each" \
	|| fail "untar-rmtree.sh: untar then rm -rf of that tree, a mark before each" \
		"rc=$rc marks='$marks' $(cat "$TMP/pair.out" "$TMP/pair.err")"
grep -qE '^untar: .* bytes=[1-9][0-9]* elapsed_s=[0-9.]+ sync_s=[0-9.]+$' "$TMP/pair.out" \
	&& grep -qE '^rmtree: .* elapsed_s=[0-9.]+ sync_s=[0-9.]+$' "$TMP/pair.out" \
	&& ok "untar-rmtree.sh: each half timed with its sync" \
	|| fail "untar-rmtree.sh: each half timed with its sync" "$(cat "$TMP/pair.out")"
# what the device wrote from the sample before a mark to the one that came with the next
# mark (or the exit): the whole tree in the untar's phase (its sync came before the next
# mark), something in the rm -rf's (the removal's metadata, its journal)
written_in_phases() {
	python3 - "$1" "$dev" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
samples = {r["seq"]: r for r in recs if r["type"] == "sample"}
seq = lambda kind, key: next(r["seq"] for r in recs if r["type"] == "event" and r["kind"] == kind
                             and (r["new"] if kind == "mark" else r["key"]) == key)
def written(a, b):
    c = [next(d["c"] for d in samples[s]["devices"] if d["name"] == sys.argv[2]) for s in (a, b)]
    return (c[1][6] - c[0][6]) * 512
u, r, x = seq("mark", "untar"), seq("mark", "rmtree"), seq("run", "exit")
print(written(u - 1, r), written(r - 1, x))
PY
}
tree_bytes() { sed -n 's/^untar: .* bytes=\([0-9]*\) .*/\1/p' "$1"; }
read -r untar_w rm_w < <(written_in_phases "$TMP/pair.log")
bytes=$(tree_bytes "$TMP/pair.out")
[ -n "$bytes" ] && [ "${untar_w:-0}" -ge "$bytes" ] && [ "${rm_w:-0}" -gt 0 ] \
	&& ok "untar-rmtree.sh: the tree is on $dev before the rm -rf's mark, the removal before the exit" \
	|| fail "untar-rmtree.sh: the tree is on $dev before the rm -rf's mark, the removal before the exit" \
		"tree $bytes bytes, written in the untar's phase ${untar_w:-?}, in the rm -rf's ${rm_w:-?}"
# the cache's view: the same marks, no sync, so the halves are timed as the page cache
# takes them
"$IOSCOPE" run --batch -i 0.5 --linger 0 --record "$TMP/nosync.log" --output "$TMP/nosync.out" \
	"$dev" -- env IOSCOPE_BIN="$IOSCOPE" "$W/untar-rmtree.sh" --no-sync "$mnt" >/dev/null 2>"$TMP/nosync.err"
rc=$?
[ $rc = 0 ] && grep -qE '^untar: .* elapsed_s=[0-9.]+$' "$TMP/nosync.out" \
	&& grep -qE '^rmtree: .* trees=1 files=[1-9][0-9]* bytes=[0-9]+ elapsed_s=[0-9.]+$' "$TMP/nosync.out" \
	&& [ -z "$(ls "$mnt" | grep untar)" ] \
	&& ok "untar-rmtree.sh --no-sync: both halves, no sync" \
	|| fail "untar-rmtree.sh --no-sync: both halves, no sync" "rc=$rc $(cat "$TMP/nosync.out" "$TMP/nosync.err")"
out=$("$W/compilebench.sh" "$mnt" 1 2>&1); rc=$?
[ $rc = 0 ] && grep -qE '^compilebench: round=1 files=[1-9][0-9]* .*create_s=.* patch_s=.* compile_s=.* read_s=.* delete_s=' <<<"$out" \
	&& ok "compilebench.sh" || fail "compilebench.sh" "rc=$rc $out"
out=$("$W/smallfiles.sh" "$mnt" 2 1 2>&1); rc=$?
[ $rc = 0 ] && grep -qE '^smallfiles: .* clients=2 ops=[1-9][0-9]* ' <<<"$out" \
	&& ok "smallfiles.sh" || fail "smallfiles.sh" "rc=$rc $out"
[ "$(ls -A "$mnt" | grep -v -e lost+found -e keep)" = "" ] && ok "workloads leave nothing behind" \
	|| fail "workloads leave nothing behind" "$(ls -la "$mnt")"
# its own device's and mount's settings: `ioscope run` records every device, and other
# tests switch their loop devices' schedulers meanwhile
python3 - "$TMP/untar.log" "$dev" "$mnt" <<'PY'
import json, sys
evs = [r for r in map(json.loads, open(sys.argv[1], errors="surrogateescape")) if r["type"] == "event"]
bad = [e for e in evs if e["kind"] in ("scheduler", "tunable", "write_cache", "mount_options")
       and e["object"] in sys.argv[2:]]
ok = not bad and [e["key"] for e in evs if e["kind"] == "run"] == ["start", "exit"]
print(("ok " if ok else "not ok ") + "the workload changes no setting" + ("" if ok else f": {evs}"))
PY
