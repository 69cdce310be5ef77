#!/usr/bin/env python3
"""Builds the fuzzer's seed folder from real dumps, read in place.

Usage: make_seeds.py OUT SOURCE...   (files or folders; `make fuzz` passes
../shared/corpus and Tests/Fixtures). Each file gives its first 16 KiB and
up to 50 of its lines (each at most 16 KiB), so seeds stay within the
fuzzer's -max_len and every encoding the corpus holds is among them.
"""
import hashlib
import os
import sys

LIMIT = 16 << 10


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                for n in sorted(names):
                    yield os.path.join(root, n)
        elif os.path.isfile(p):
            yield p


def main():
    out, sources = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    written = 0
    for path in files(sources):
        with open(path, "rb") as f:
            data = f.read()
        pieces = [data[:LIMIT]] + [line for line in data.split(b"\n")[:50] if 0 < len(line) <= LIMIT]
        for piece in pieces:
            name = hashlib.sha1(piece).hexdigest()
            target = os.path.join(out, name)
            if not os.path.exists(target):
                with open(target, "wb") as f:
                    f.write(piece)
                written += 1
    print(f"{written} seeds in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
