#!/usr/bin/env python3
"""Prints the closing line of a parallel `swift test` run from its xUnit file.

    xunit_summary.py LABEL FILE

`swift test --parallel` prints one line a test as it starts and the output of
those that fail, but no count at its end; this reads the xUnit report it
wrote (`--xunit-output FILE`) and prints `LABEL: N passed, M failed` alone on
a line, then the name of every test that failed. Exits 1 when a test failed
or the file holds no test (a run that tested nothing has not passed), else 0.
"""

import sys
import xml.etree.ElementTree as ET


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: xunit_summary.py LABEL FILE")
    label, path = sys.argv[1], sys.argv[2]
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        sys.exit(f"xunit_summary.py: cannot read {path}: {e}")
    cases = list(root.iter("testcase"))
    failed = [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
    print(f"{label}: {len(cases) - len(failed)} passed, {len(failed)} failed")
    for c in failed:
        print(f"  failed: {c.get('classname')}.{c.get('name')}")
    sys.exit(1 if failed or not cases else 0)


if __name__ == "__main__":
    main()
