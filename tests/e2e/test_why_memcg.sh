#!/bin/bash
# Memory cgroups of blocked writers (issue 24, item 7): a writer in a memory cgroup with a
# small limit, held in reclaim, is shown with its cgroup: path, limit, usage, dirty,
# writeback, reclaim counts, in batch text, JSON, a dip's reasons and the replay.
# The planted cause, deterministic: a memory cgroup of ours limited to 32 MB (v1 or v2,
# whichever hierarchy has the memory controller here), a writer in it on ext4 on a loop
# device whose backing file is on a second filesystem that we freeze: the writeback of
# the writer's pages cannot end, so once its cgroup is full of them the writer waits in
# the cgroup's reclaim (for a page under writeback) until the thaw.
# run.sh: waits (on the kernel, most of its time: beside the other jobs)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/freeze_lib.sh"
is_root || { skip why_memcg "needs root (loop devices, mounts, cgroups, fsfreeze)"; exit 0; }
needs why_memcg fsfreeze mkfs.ext4 python3

# the memory controller: cgroup v1's own mount, else cgroup2 with memory enabled below
if v1=$(findmnt -no TARGET -t cgroup -O memory | head -1) && [ -n "$v1" ]; then
	cg="$v1/ioscope-test-$$"
	mkdir "$cg" && at_exit "rmdir '$cg'" || { fail "memory cgroup" "mkdir $cg"; exit 0; }
	echo $((32 << 20)) >"$cg/memory.limit_in_bytes"
elif v2=$(findmnt -no TARGET -t cgroup2 | head -1) && [ -n "$v2" ] &&
     grep -qw memory "$v2/cgroup.controllers"; then
	grep -qw memory "$v2/cgroup.subtree_control" || echo +memory >"$v2/cgroup.subtree_control"
	cg="$v2/ioscope-test-$$"
	mkdir "$cg" && at_exit "rmdir '$cg'" || { fail "memory cgroup" "mkdir $cg"; exit 0; }
	echo $((32 << 20)) >"$cg/memory.max"
else
	skip why_memcg "no memory cgroup controller mounted"; exit 0
fi
path=/${cg##*/}

nested_loops 200

# the writer joins the cgroup, then rewrites 64 MB (twice its limit) over and over
bg timeout 30 bash -c "echo \$\$ >'$cg/cgroup.procs' && while :; do
	dd if=/dev/zero of='$mi/f' bs=1M count=64 conv=notrunc status=none; done"
freeze_and_sample memcg 0.5 16 5 1.5

grep -qE "^memory cgroup $path \(v[12]\): [0-9.]+ of 32 MB used, dirty [0-9.]+ MB, writeback [0-9.]+ MB.*; [0-9]+ blocked \([^)]*dd" \
	"$TMP/memcg.txt" && [ "$text_rc" = 0 ] \
	&& ok "memcg: batch text names the writer's memory cgroup with its limit and usage" \
	|| fail "memcg: batch text names the writer's memory cgroup with its limit and usage" \
		"rc=$text_rc $(grep -E '^memory cgroup|^blocked' "$TMP/memcg.txt" | tail -4)"

out=$(python3 - "$TMP/memcg.json" "$inner" "$path" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
dev, path = sys.argv[2], sys.argv[3]
groups = [d["memory_cgroups"].get(path) for d in lines if d["memory_cgroups"].get(path)]
good = groups and all(g["limit_kB"] == 32768 and g["usage_kB"] > 0 and g["blocked"] >= 1
                      and g["dirty_kB"] is not None for g in groups)
dips = [e for d in lines for e in d["events"] if e["kind"] == "dip" and e["object"] == dev]
named = [r for e in dips for r in e["reasons"] if r.startswith("memory cgroup %s " % path)]
print("ok" if good and named else "groups %r, dips %r" % (groups[-1:], dips))
PY
)
[ "$rc" = 0 ] && [ "$out" = ok ] \
	&& ok "memcg: JSON gives the cgroup's limit, usage, dirty; the dip names it" \
	|| fail "memcg: JSON gives the cgroup's limit, usage, dirty; the dip names it" "rc=$rc $out"

# its counter's rate in every sample that lists it but the first: the cgroup is read in
# the samples between, when the writer is not blocked (was null in most samples)
out=$(python3 - "$TMP/memcg.json" "$path" <<'PY'
import json, sys
key = None
rates = []
for l in open(sys.argv[1]):
    g = json.loads(l)["memory_cgroups"].get(sys.argv[2])
    if g:
        key = key or ("failcnt/s" if g["version"] == 1 else "max/s")
        rates.append(g[key])
print("ok" if len(rates) >= 3 and None not in rates[1:] else "%s %r" % (key, rates))
PY
)
[ "$out" = ok ] && ok "memcg: the counter's rate in every sample that lists the cgroup but the first" \
	|| fail "memcg: the counter's rate in every sample that lists the cgroup but the first" "$out"

replay_gives_json memcg && grep -q "memory cgroup $path" "$TMP/memcg.replay.cmp" \
	&& ok "memcg: the replay gives the cgroup's figures and the dip's reasons byte for byte" \
	|| fail "memcg: the replay gives the cgroup's figures and the dip's reasons byte for byte" \
		"$(json_lines_diff "$TMP/memcg.cmp" "$TMP/memcg.replay.cmp"; head -5 "$TMP/memcg.replay.err")"
