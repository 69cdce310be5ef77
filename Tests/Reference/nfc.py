#!/usr/bin/env python3
"""Unicode NFC by Python's unicodedata, the tests' independent normaliser.

    nfc.py --version          the Unicode version of Python's tables
    nfc.py FILE               each line of FILE (code points in hex, space
                              separated) in NFC, written the same way
"""

import sys
import unicodedata

if sys.argv[1] == "--version":
    print(unicodedata.unidata_version)
    sys.exit(0)
out = []
with open(sys.argv[1], encoding="ascii") as f:
    for line in f:
        s = "".join(chr(int(h, 16)) for h in line.split())
        out.append(" ".join("%x" % ord(c) for c in unicodedata.normalize("NFC", s)))
sys.stdout.write("\n".join(out) + "\n")
