#!/usr/bin/env python3
"""Writes by_cases.json and expected/by/: SPEC 12.4 (--by, --tz) on the
corpus and on Tests/Fixtures/by (the DST changes of Europe/Berlin and
America/New_York, ISO week 2020-W53 across the new year), with the expected
reports of the independent reference (reference.py, buckets through Python's
zoneinfo), which the Swift tests replay from dumps, through
`extract | aggregate` over halves in either order, and from a store.

Paths as in make_filter_cases.py; inputs in two halves.

    python3 make_by_cases.py
"""

import json
import os
import subprocess
import sys

from make_filter_cases import ALL, FIRST, SECOND, TERMS, resolve

HERE = os.path.dirname(os.path.abspath(__file__))

SECOND_BY = SECOND + ["fixtures/by/newyear.jsonl"]
FIRST_BY = ["fixtures/by/dst.jsonl"] + FIRST
TERMS_BY = TERMS + ["#nye", "#dst", "#fall"]
# Terms that span a few years at most (the zero-filled series of `*` over 2009-2023 by day would be long).
NARROW = ["#Brexit", "#kpop", "#stanford", "from:jack", "#nye", "#fall"]

CASES = [
    # name, terms, min count, options
    ("day_utc", NARROW, 2, ["--by", "day", "--top", "2"]),
    ("week_new_york", NARROW, 1, ["--by", "week", "--tz", "America/New_York", "--top", "3"]),
    ("year_wider_than_data", TERMS_BY, 1, ["--by", "year", "--since", "2005-01-01", "--until", "2025-06-01",
                                          "--columns", ALL, "--top", "2"]),
    ("month_kolkata_columns", TERMS_BY, 1, ["--by", "month", "--tz", "Asia/Kolkata", "--since", "2020-06-01",
                                           "--until", "2021-09-01", "--columns", "authors,mention,display,count", "--top", "3"]),
    ("week_new_year_berlin", TERMS_BY, 1, ["--by", "week", "--tz", "Europe/Berlin", "--since", "2020-12-20",
                                          "--until", "2021-01-11", "--columns", ALL]),
    ("day_berlin_spring", TERMS_BY, 1, ["--by", "day", "--tz", "Europe/Berlin", "--since", "2021-03-26",
                                       "--until", "2021-04-02T00:00:00+02:00", "--columns", ALL]),
    ("day_berlin_autumn", TERMS_BY, 1, ["--by", "day", "--tz", "Europe/Berlin", "--since", "2021-10-29T22:00:00Z",
                                       "--until", "2021-11-02T00:00:00+01:00", "--columns", ALL]),
    ("hour_berlin_autumn", TERMS_BY, 1, ["--by", "hour", "--tz", "Europe/Berlin", "--since", "2021-10-30T20:00:00Z",
                                        "--until", "2021-11-01", "--columns", "term,mention,display,count,retweets"]),
    # Every column per hour across the repeated hour (02:xx twice, one bucket: its tweets' own authors and kinds).
    ("hour_berlin_autumn_every_column", TERMS_BY, 1, ["--by", "hour", "--tz", "Europe/Berlin", "--since", "2021-10-30T21:00:00Z",
                                                     "--until", "2021-10-31T03:00:00Z", "--columns", ALL, "--top", "2"]),
    ("hour_berlin_spring", TERMS_BY, 1, ["--by", "hour", "--tz", "Europe/Berlin", "--since", "2021-03-27T20:00:00Z",
                                        "--until", "2021-03-29"]),
    ("hour_new_york_changes", ["*", "#ny", "@dave"], 1, ["--by", "hour", "--tz", "America/New_York", "--since", "2021-03-14T04:00:00Z",
                                                         "--until", "2021-03-14T09:00:00Z", "--top", "2"]),
    ("day_new_york_autumn_retweets", TERMS_BY, 1, ["--by", "day", "--tz", "America/New_York", "--since", "2021-11-06",
                                                  "--until", "2021-11-09", "--retweets", "exclude"]),
]


def main():
    os.makedirs(os.path.join(HERE, "expected", "by"), exist_ok=True)
    out = []
    for name, terms, min_count, options in CASES:
        case = {"name": name, "halves": [FIRST_BY, SECOND_BY], "terms": terms, "min_count": min_count, "options": options}
        args = [sys.executable, os.path.join(HERE, "reference.py"), "--min-count", str(min_count)] + options
        for t in terms:
            args += ["-t", t]
        for fmt in ("csv", "json"):
            r = subprocess.run(args + ["--format", fmt, "--"] + [resolve(p) for p in FIRST_BY + SECOND_BY],
                               capture_output=True, check=True)
            path = "expected/by/%s.%s" % (name, fmt)
            with open(os.path.join(HERE, path), "wb") as f:
                f.write(r.stdout)
            case["expected" if fmt == "csv" else "expected_json"] = path
            for line in r.stderr.decode().splitlines():
                if line.startswith("left_out="):
                    left, unknown = line.split()
                    case["left_out"] = int(left.split("=")[1])
                    case["unknown_time"] = int(unknown.split("=")[1])
        out.append(case)
    with open(os.path.join(HERE, "by_cases.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
