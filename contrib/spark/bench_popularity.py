"""What going through Spark costs: the popularity job in local mode against
`smashtag report` alone, on the same inputs and machine. Not a test: it
prints figures (and whether the answers were the same, and their size).

    python contrib/spark/bench_popularity.py --smashtag .build/release/smashtag \\
        --input .build/bench-data/stream.jsonl --input .build/bench-data/split [--runs 3]

For each input and term set:
  report      wall time of `smashtag report --jobs CORES` (best and median of runs);
  spark job   wall time of the job in a warm SparkContext (best and median), and
              the JVM's start once, apart;
  extract     bytes `smashtag extract` writes per MB of input read, and lines;
  shuffle     bytes Spark wrote to its shuffles (the dedup one, keyed by
              (term, tweet id), and the count one), per matching tweet copy,
              read from Spark's status API.
Run by `make bench-spark`.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import popularity  # noqa: E402


def wall(fn, runs):
    times, result = [], None
    for _ in range(runs):
        t = time.monotonic()
        result = fn()
        times.append(time.monotonic() - t)
    return min(times), statistics.median(times), result


def input_bytes(binary, path):
    files = subprocess.run([binary, "extract", "--list-inputs", path], capture_output=True, check=True).stdout
    return sum(os.stat(p).st_size for p in files.decode().splitlines() if p)


def stages(sc):
    """Shuffle bytes written per stage so far, from the status API of the driver's UI."""
    url = f"{sc.uiWebUrl}/api/v1/applications/{sc.applicationId}/stages?status=complete"
    with urllib.request.urlopen(url, timeout=30) as r:
        return {(s["stageId"], s["attemptId"]): (s["name"], s["shuffleWriteBytes"], s["shuffleWriteRecords"])
                for s in json.load(r)}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--smashtag", required=True)
    p.add_argument("--input", action="append", required=True)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--terms", action="append", help="comma-separated term set (repeat) [default: #stanford; *]")
    a = p.parse_args()
    binary = os.path.abspath(a.smashtag)
    cores = int(a.master[len("local["):-1]) if a.master.startswith("local[") and a.master[-2].isdigit() else os.cpu_count()
    term_sets = [t.split(",") for t in a.terms] if a.terms else [["#stanford"], ["*"]]

    t = time.monotonic()
    sc = popularity.spark_context(a.master)
    sc.parallelize([0], 1).count()
    jvm = time.monotonic() - t
    print(f"# {a.master} on {os.cpu_count()} cores; Spark {sc.version}; JVM and SparkContext start {jvm:.1f} s "
          f"(paid once per job, not in the times below); {a.runs} runs each, best / median")
    rows = []
    try:
        for path in a.input:
            size = input_bytes(binary, path)
            mb = size / 1e6
            files = len(subprocess.run([binary, "extract", "--list-inputs", path], capture_output=True).stdout.splitlines())
            for terms in term_sets:
                flags = popularity.term_flags(terms)
                common = ["--min-count", "1", "--format", "json"]
                rb, rm, want = wall(lambda: subprocess.run([binary, "report", *flags, path, "--jobs", str(cores), "-q", *common],
                                                           capture_output=True, check=True).stdout, a.runs)
                t = time.monotonic()
                ext = subprocess.run(f"'{binary}' extract {' '.join(repr(x) for x in flags)} '{path}' --jobs {cores} -q | wc -c -l",
                                     shell=True, capture_output=True, check=True, text=True).stdout.split()
                ext_time = time.monotonic() - t
                ext_lines, ext_bytes = int(ext[0]), int(ext[1])
                # One big file is one task: let its extract use every core instead.
                job_opts = ["--extract-jobs", str(cores)] if files == 1 else []
                before = stages(sc)

                def job():
                    args = popularity.parse_args([*flags, path, "--smashtag", binary, *common, *job_opts])
                    with tempfile.TemporaryFile() as out:
                        popularity.popularity(sc, args, out)
                        out.seek(0)
                        return out.read()

                sb, sm, got = wall(job, a.runs)
                # The first run's stages in order: the dedup shuffle's map side, then the count's.
                new = sorted(k for k in stages(sc) if k not in before)
                after = stages(sc)
                first_run = [after[k] for k in new[: len(new) // a.runs]]
                shuffles = [(b, n) for _, b, n in first_run if n]
                dedup_bytes = shuffles[0][0] if shuffles else 0
                count_bytes = sum(b for b, _ in shuffles[1:])
                tweets = sum(r["tweets"] for r in json.loads(want))
                same = got == want
                rows.append(same)
                print(f"{os.path.basename(path.rstrip('/')):<13} {files:>2} files {mb:6.0f} MB  {' '.join(terms):<9} "
                      f"report {rb:5.1f} / {rm:5.1f} s  spark {sb:5.1f} / {sm:5.1f} s (x{sm / rm:3.1f})  "
                      f"{'same' if same else 'DIFFERENT'} answer ({len(want)} B, {tweets} tweets)  "
                      f"extract {ext_bytes / mb / 1e3:6.1f} kB per MB read ({ext_lines} lines, {ext_time:.1f} s)  "
                      f"dedup shuffle {dedup_bytes / 1e6:6.2f} MB = {dedup_bytes / max(1, tweets):4.0f} B per matching tweet, "
                      f"count shuffle {count_bytes / 1e6:5.2f} MB", flush=True)
    finally:
        sc.stop()
    return 0 if all(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
