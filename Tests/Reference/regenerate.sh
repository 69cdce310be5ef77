#!/bin/sh
# Regenerates expected/NAME.csv and expected/NAME.json for every case of
# corpus_cases.json with the independent reference (reference.py), reading the
# corpus in place: $SMASHTAG_CORPUS, else ../shared/corpus relative to the repo
# root.  Fails if a case's bad-record count differs from the manifest's.
# (To change the cases themselves, edit make_cases.py and run it first.)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
corpus=${SMASHTAG_CORPUS:-$repo/../shared/corpus}
[ -d "$corpus" ] || { echo "regenerate.sh: no corpus at $corpus" >&2; exit 1; }
corpus=$(cd "$corpus" && pwd)
mkdir -p "$here/expected"
cd "$corpus"
exec python3 - "$here" <<'PY'
import json, os, subprocess, sys
here = sys.argv[1]
ref = os.path.join(here, "reference.py")
with open(os.path.join(here, "corpus_cases.json"), encoding="utf-8") as f:
    cases = json.load(f)
failed = 0
for case in cases:
    args = [sys.executable, ref, "--min-count", str(case["min_count"])]
    if case.get("top") is not None:
        args += ["--top", str(case["top"])]
    for term in case["terms"]:
        args += ["-t", term]
    for fmt, key in (("csv", "expected"), ("json", "expected_json")):
        out = subprocess.run(args + ["--format", fmt, "--"] + case["paths"],
                             capture_output=True, check=True)
        with open(os.path.join(here, case[key]), "wb") as f:
            f.write(out.stdout)
    bad = int(out.stderr.decode().strip().splitlines()[-1].split("=")[1])
    if bad != case["bad_records"]:
        print("%s: bad_records %d, manifest says %d" % (case["name"], bad, case["bad_records"]), file=sys.stderr)
        failed = 1
    print("%-60s bad=%d" % (case["name"], bad))
sys.exit(failed)
PY
