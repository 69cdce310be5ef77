#!/usr/bin/env python3
"""Writes pair_cases.json and expected/pairs/*: the co-occurrence cases
(SPEC 12.5, `smashtag pairs`) the Swift tests replay, with their expected
outputs from the independent reference (reference.py --pairs), reading the
corpus in place.

    python3 make_pair_cases.py [CORPUS_ROOT]
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import make_cases  # noqa: E402


def cases():
    out = []
    for key, path in make_cases.FILES.items():
        out.append({"name": key, "paths": [path], "terms": ["*"] + make_cases.TERMS[key],
                    "min_count": 1, "top": None, "without_term": False})
    everything = list(make_cases.FILES.values())
    out.append({"name": "corpus_all_terms", "paths": everything, "terms": make_cases.ALL_TERMS,
                "min_count": 1, "top": None, "without_term": False})
    out.append({"name": "corpus_without_term", "paths": everything, "terms": make_cases.ALL_TERMS,
                "min_count": 1, "top": None, "without_term": True})
    out.append({"name": "corpus_default_top5", "paths": everything,
                "terms": ["*", "#kpop", "@twitter", "pizza", "#Brexit"], "min_count": 2, "top": 5, "without_term": False})
    out.append({"name": "corpus_min3_without_term_top4", "paths": everything,
                "terms": ["*", "#Brexit", "@BTS_twt"], "min_count": 3, "top": 4, "without_term": True})
    for case in out:
        case["expected"] = "expected/pairs/%s.csv" % case["name"]
        case["expected_json"] = "expected/pairs/%s.json" % case["name"]
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SMASHTAG_CORPUS", os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    os.makedirs(os.path.join(HERE, "expected", "pairs"), exist_ok=True)
    result = cases()
    for case in result:
        args = [sys.executable, os.path.join(HERE, "reference.py"), "--pairs", "--min-count", str(case["min_count"])]
        if case["top"] is not None:
            args += ["--top", str(case["top"])]
        if case["without_term"]:
            args.append("--without-term")
        for term in case["terms"]:
            args += ["-t", term]
        for fmt, key in (("csv", "expected"), ("json", "expected_json")):
            out = subprocess.run(args + ["--format", fmt, "--"] + case["paths"], cwd=root, capture_output=True, check=True)
            with open(os.path.join(HERE, case[key]), "wb") as f:
                f.write(out.stdout)
        print("%-40s %d pairs" % (case["name"], out.stdout.count(b'"source"')))
    with open(os.path.join(HERE, "pair_cases.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
