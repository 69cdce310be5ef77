#!/usr/bin/env python3
"""Writes text_cases.json and expected/text/*: the cases of mentions from
text and CSV input that the Swift tests replay (PipelineTests/TextAndCSVTests).

Every expectation comes from reference.py:

- corpus_text_*      every corpus file under --mentions-from text, against
                     reference.py's text mode on the same file;
- csv_entities_*     the corpus's v2 tweets rendered as twarc-csv exports
                     (Tests/Fixtures/csv/corpus/NAME.csv, entity columns),
                     against reference.py's report ON THE JSON they come from:
                     a CSV export reports what its JSON reports;
- csv_text_*         the same renders without entity columns, against
                     reference.py on that CSV (mentions from the text);
- the dozen as a bare id,text data set, custom column names, bad rows.

Run after Tests/Fixtures/generate_csv.py; reads the corpus in place:

    python3 Tests/Reference/make_text_cases.py [CORPUS_ROOT]
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import make_cases  # noqa: E402  (the corpus files and their terms)

CSV = "Tests/Fixtures/csv/"


def cases():
    out = []
    for key, path in make_cases.FILES.items():
        out.append({"name": "corpus_text_" + key, "paths": ["corpus/" + path],
                    "terms": ["*"] + make_cases.TERMS[key], "mentions_from": "text"})
    for name in ("brexit", "flat", "kpop", "streaming_output_with_error"):
        terms = ["*"] + make_cases.TERMS["twarc-csv_" + name]
        out.append({"name": "csv_entities_" + name, "paths": [CSV + "corpus/%s.csv" % name], "terms": terms,
                    "reference_paths": ["corpus/twarc-csv/%s.jsonl" % name]})
        out.append({"name": "csv_text_" + name, "paths": [CSV + "corpus/%s-text.csv" % name], "terms": terms})
        out.append({"name": "csv_forced_text_" + name, "paths": [CSV + "corpus/%s.csv" % name], "terms": terms,
                    "mentions_from": "text"})
    out.append({"name": "csv_dozen_id_text", "paths": [CSV + "dozen-id-text.csv"],
                "terms": ["*", "#stanford", "@nasa", "@gostanford", "r&d"]})
    out.append({"name": "csv_custom_columns", "paths": [CSV + "custom-columns.csv"],
                "terms": ["*", "#stanford", "from:nasa"],
                "options": ["--id-column", "Tweet Number", "--text-column", "body", "--author-column", "HANDLE"]})
    out.append({"name": "csv_bad_rows", "paths": [CSV + "bad_rows.csv"], "terms": ["*", "#stanford"]})
    for c in out:
        c["min_count"] = 1
        c["expected"] = "expected/text/%s.csv" % c["name"]
        c["expected_json"] = "expected/text/%s.json" % c["name"]
    return out


def resolve(path, corpus):
    return os.path.join(corpus, path[len("corpus/"):]) if path.startswith("corpus/") else os.path.join(ROOT, path)


def reference(case, paths, corpus, fmt):
    args = [sys.executable, os.path.join(HERE, "reference.py"), "--min-count", str(case["min_count"]),
            "--format", fmt, "--mentions-from", case.get("mentions_from", "entities")] + case.get("options", [])
    for t in case["terms"]:
        args += ["-t", t]
    r = subprocess.run(args + ["--"] + [resolve(p, corpus) for p in paths], capture_output=True, check=True)
    return r.stdout, int(r.stderr.decode().strip().splitlines()[-1].split("=")[1])


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SMASHTAG_CORPUS", os.path.join(ROOT, "..", "shared", "corpus"))
    os.makedirs(os.path.join(HERE, "expected", "text"), exist_ok=True)
    result = []
    for case in cases():
        source = case.get("reference_paths", case["paths"])
        for fmt, key in (("csv", "expected"), ("json", "expected_json")):
            out, bad = reference(case, source, corpus, fmt)
            with open(os.path.join(HERE, case[key]), "wb") as f:
                f.write(out)
        # Bad records are those of the files smashtag reads.
        case["bad_records"] = reference(case, case["paths"], corpus, "csv")[1]
        if "reference_paths" in case:
            # The CSV itself, read by the reference, must say what the JSON says.
            own, _ = reference(case, case["paths"], corpus, "csv")
            if own != reference(case, source, corpus, "csv")[0]:
                print("%s: the CSV's report differs from its JSON's" % case["name"], file=sys.stderr)
        result.append(case)
        print("%-45s bad=%d" % (case["name"], case["bad_records"]))
    with open(os.path.join(HERE, "text_cases.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
