#!/usr/bin/env python3
"""Write a kernel-like source tree: the mix of directory and file counts and of file
sizes of a Linux source tree (about 4,800 directories, 75,000 files, most of them
2-20 KB, a long tail to ~1 MB, 1.3 GB in all at scale 1), with text-like contents.
Deterministic for a given scale, so every run writes the same tree.

usage: gentree.py DIR [SCALE]    (SCALE 0.01..1, default 1)"""
import math, os, random, sys

def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root, scale = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    rng = random.Random(42)
    ndirs, nfiles = max(4, int(4800 * scale)), max(20, int(75000 * scale))
    words = [b"static", b"int", b"struct", b"return", b"if", b"unsigned", b"long", b"void",
             b"const", b"char", b"spin_lock", b"mutex", b"kfree", b"(", b")", b"{", b"}", b";",
             b"->", b"=", b"0", b"1", b"NULL", b"err", b"dev", b"page", b"inode", b"bio"]
    chunk = b" ".join(rng.choice(words) for _ in range(20000)) + b"\n"
    dirs = [root]
    for i in range(ndirs - 1):
        parent = dirs[rng.randrange(len(dirs))] if len(dirs) > 8 else root
        d = os.path.join(parent, "d%04d" % i)
        dirs.append(d)
    for d in dirs:
        os.makedirs(d, exist_ok=True)
    total = 0
    for i in range(nfiles):
        size = int(min(1 << 20, max(64, rng.lognormvariate(math.log(7000), 1.1))))
        path = os.path.join(dirs[rng.randrange(len(dirs))], "f%05d.%s" % (i, rng.choice("cchS")))
        with open(path, "wb") as f:
            left = size
            while left > 0:
                f.write(chunk[:left])
                left -= len(chunk)
        total += size
    print("generated: dirs=%d files=%d bytes=%d" % (ndirs, nfiles, total))

main()
