#!/usr/bin/env python3
"""File operations of the workloads, in one process instead of a fork per file.

fileops.py patch TREE        rewrite a tenth of the files a tenth longer (a patch)
fileops.py compile TREE      an object file beside each .c, half its size
fileops.py read TREE         read every file back
fileops.py smallfiles DIR CLIENTS SECONDS   dbench-like writers (prints the ops done)"""
import os, random, sys, time
from multiprocessing import Process, Queue

def files(tree):
    for d, _, names in os.walk(tree):
        for n in sorted(names):
            yield os.path.join(d, n)

def patch(tree):
    for i, f in enumerate(sorted(files(tree))):
        if i % 10 == 0:
            data = open(f, "rb").read()
            with open(f + ".new", "wb") as out:
                out.write(data + data[: len(data) // 10 + 1])
            os.rename(f + ".new", f)

def compile_(tree):
    for f in list(files(tree)):
        if f.endswith(".c"):
            data = open(f, "rb").read()
            with open(f[:-2] + ".o", "wb") as out:
                out.write(data[: len(data) // 2])

def read(tree):
    for f in files(tree):
        with open(f, "rb") as src:
            while src.read(1 << 20):
                pass

def client(d, seconds, q):
    os.makedirs(d, exist_ok=True)
    rng, n, end = random.Random(d), 0, time.monotonic() + seconds
    while time.monotonic() < end:
        f = os.path.join(d, "file%d" % (n % 64))
        with open(f + ".tmp", "wb") as out:
            out.write(b"x" * (1024 * rng.randint(4, 64)))
            if n % 4 == 0:
                os.fsync(out.fileno())
        os.rename(f + ".tmp", f)
        with open(f, "rb") as src:
            src.read()
        if n % 8 == 7:
            os.unlink(f)
        n += 1
    q.put(n)

def smallfiles(d, clients, seconds):
    q = Queue()
    ps = [Process(target=client, args=(os.path.join(d, "client%d" % c), seconds, q))
          for c in range(clients)]
    for p in ps:
        p.start()
    ops = sum(q.get() for _ in ps)
    for p in ps:
        p.join()
    print(ops)

if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd, arg = sys.argv[1], sys.argv[2]
    if cmd == "smallfiles":
        smallfiles(arg, int(sys.argv[3]), float(sys.argv[4]))
    else:
        {"patch": patch, "compile": compile_, "read": read}[cmd](arg)
