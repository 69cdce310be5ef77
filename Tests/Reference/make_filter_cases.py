#!/usr/bin/env python3
"""Writes filter_cases.json and expected/filters/: SPEC 12.1-12.3 (filters
and columns) on the corpus and on Tests/Fixtures/filters, with the expected
reports of the independent reference (reference.py), which the Swift tests
replay from dumps, through `extract | aggregate` and from a store.

Paths starting with `fixtures/` are under Tests/Fixtures; the others are
relative to the corpus root ($SMASHTAG_CORPUS, else ../shared/corpus).
Each case's inputs are given as two halves (the tests extract and ingest
them apart); a report reads the first half, then the second.

    python3 make_filter_cases.py
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
CORPUS = os.environ.get("SMASHTAG_CORPUS", os.path.join(REPO, "..", "shared", "corpus"))

FIRST = ["twarc-csv/brexit.jsonl", "twarc-csv/flat.jsonl", "python-twitter/streaming/lines.json",
         "python-twitter/get_search_raw.json"]
SECOND = ["twarc-csv/kpop.jsonl", "sferik-twitter/premium_search_next.json", "darkliquid-twoo/tweets.js",
          "python-twitter/get_user_timeline_count.json", "twitter4j/streamingapi-testcase.json",
          "fixtures/filters", "fixtures/csv/corpus"]
TERMS = ["*", "#Brexit", "@BTS_twt", "from:jack", "#kpop", "#stanford", "@alice"]
ALL = "term,type,mention,display,count,originals,retweets,authors"

CASES = [
    ("columns_all", ["--columns", ALL]),
    ("columns_reordered", ["--columns", "authors,mention,display,retweets,type,count"]),
    ("since_until", ["--since", "2016-01-01", "--until", "2019-06-01T00:00:00+02:00"]),
    ("until_second", ["--since", "2020-03-01T00:00:00Z", "--until", "2020-03-03T00:00:00Z", "--columns", ALL]),
    ("originals_en_ja", ["--retweets", "exclude", "--lang", "en,JA", "--columns", ALL]),
    ("retweets_only", ["--retweets", "only", "--columns", "term,type,mention,count,retweets,originals"]),
    ("lang_und_es", ["--lang", "und,es,en", "--columns", "term,mention,display,count"]),
    ("everything", ["--since", "2012-01-01", "--retweets", "only", "--lang", "en", "--columns", ALL, "--top", "5"]),
]


def resolve(p):
    return os.path.join(REPO, "Tests", "Fixtures", p[len("fixtures/"):]) if p.startswith("fixtures/") else os.path.join(CORPUS, p)


def main():
    os.makedirs(os.path.join(HERE, "expected", "filters"), exist_ok=True)
    out = []
    for name, options in CASES:
        case = {"name": name, "halves": [FIRST, SECOND], "terms": TERMS, "min_count": 1, "options": options}
        args = [sys.executable, os.path.join(HERE, "reference.py"), "--min-count", "1"] + options
        for t in TERMS:
            args += ["-t", t]
        for fmt in ("csv", "json"):
            r = subprocess.run(args + ["--format", fmt, "--"] + [resolve(p) for p in FIRST + SECOND],
                               capture_output=True, check=True)
            path = "expected/filters/%s.%s" % (name, fmt)
            with open(os.path.join(HERE, path), "wb") as f:
                f.write(r.stdout)
            case["expected" if fmt == "csv" else "expected_json"] = path
            for line in r.stderr.decode().splitlines():
                if line.startswith("left_out="):
                    left, unknown = line.split()
                    case["left_out"] = int(left.split("=")[1])
                    case["unknown_time"] = int(unknown.split("=")[1])
        out.append(case)
    with open(os.path.join(HERE, "filter_cases.json"), "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
