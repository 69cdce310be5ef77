#!/usr/bin/env python3
"""Writes posts_cases.json and expected/posts/*.csv: the cases of `smashtag
posts` (SPEC 15) the Swift tests replay, with their expected outputs from the
independent reference (posts_reference.py), reading the corpus in place.

    python3 make_posts_cases.py [CORPUS_ROOT]
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import make_cases  # noqa: E402

EVERY = "term,id,author,created_at,retweets,quotes,replies,text"


def cases():
    out = []
    for key, path in make_cases.FILES.items():
        out.append({"name": key, "paths": [path], "terms": ["*"] + make_cases.TERMS[key],
                    "options": ["--min-count", "1", "--columns", EVERY]})
    everything = list(make_cases.FILES.values())
    out.append({"name": "corpus_all_terms", "paths": everything, "terms": make_cases.ALL_TERMS,
                "options": ["--min-count", "1", "--columns", EVERY]})
    out.append({"name": "corpus_default_top5", "paths": everything, "terms": ["*", "#kpop", "@BTS_twt"],
                "options": ["--top", "5"]})
    out.append({"name": "corpus_retweets_only", "paths": everything, "terms": ["*", "@BTS_twt"],
                "options": ["--retweets", "only", "--min-count", "1"]})
    out.append({"name": "corpus_originals_with_text", "paths": everything, "terms": ["*"],
                "options": ["--retweets", "exclude", "--min-count", "1", "--columns", EVERY]})
    out.append({"name": "corpus_window_lang", "paths": everything, "terms": ["*", "#Brexit"],
                "options": ["--since", "2021-01-01", "--until", "2021-09-22T15:00:00Z", "--lang", "en,ja", "--min-count", "1"]})
    for case in out:
        case["expected"] = "expected/posts/%s.csv" % case["name"]
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SMASHTAG_CORPUS", os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    os.makedirs(os.path.join(HERE, "expected", "posts"), exist_ok=True)
    result = cases()
    for case in result:
        args = [sys.executable, os.path.join(HERE, "posts_reference.py"), *case["options"]]
        for term in case["terms"]:
            args += ["-t", term]
        out = subprocess.run(args + ["--"] + case["paths"], cwd=root, capture_output=True, check=True)
        with open(os.path.join(HERE, case["expected"]), "wb") as f:
            f.write(out.stdout)
        print("%-48s %d rows" % (case["name"], out.stdout.count(b"\n") - 1))
    with open(os.path.join(HERE, "posts_cases.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
