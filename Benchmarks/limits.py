#!/usr/bin/env python3
"""What bounds the bench figures not reached, against the best libraries Debian ships.

    limits.py --data DIR --smashtag BIN --tools DIR --duckdb-python PY [--runs N]

For `make bench-limits` (not part of the product). Alternating rounds on the
bench's data (DIR/stream.jsonl, DIR/stream.jsonl.zst, DIR/split/*.gz), medians of N runs, the CPU
time (user + sys) and wall time of each command with the answer's size beside
it:

- plain JSON lines: smashtag's report (`--jobs 1` for its CPU cost, `--jobs 2`
  and DuckDB for the bench's ratio), simdjson's validating DOM parser and its
  On-Demand front end (Benchmarks/Limits/validating_parser.cpp);
- 8 x .gz: smashtag's report and DuckDB on the folder, and the inflate alone
  with zlib, libdeflate (Benchmarks/Limits/inflate.c) and ISA-L's `igzip -dc`.
- one .zst: smashtag's report and DuckDB, and the inflate alone (`zstd -dc`):
  the stream is one zstd frame, which inflates on one core only.

Then what each figure would read if smashtag's parse cost only what simdjson's
DOM costs, or its inflate only what libdeflate's, ISA-L's or zstd's costs: bounds
worked out from the CPU seconds measured in the same rounds.
"""

import argparse
import glob
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv, stdout=subprocess.DEVNULL):
    """Runs argv; returns (wall s, CPU s of the child, its stdout or '')."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)} exited {p.returncode}: {p.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p.stdout or ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--smashtag", required=True)
    ap.add_argument("--tools", required=True, help="folder with validating_parser and inflate")
    ap.add_argument("--duckdb-python", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--term", default="#stanford")
    o = ap.parse_args()

    plain = os.path.join(o.data, "stream.jsonl")
    zst = os.path.join(o.data, "stream.jsonl.zst")
    split = os.path.join(o.data, "split")
    parts = sorted(glob.glob(os.path.join(split, "*.gz")))
    if not os.path.exists(plain) or not os.path.exists(zst) or not parts:
        sys.exit(f"no bench data in {o.data}: make bench generates it")
    peer = os.path.join(os.path.dirname(os.path.abspath(__file__)), "duckdb_report.py")
    tmp = tempfile.TemporaryDirectory(prefix="smashtag-limits-")  # removed when the script ends
    stats = os.path.join(tmp.name, "stats.json")

    def smashtag(path, jobs):
        return [o.smashtag, "report", o.term, path, "--format", "csv", "--quiet", "--jobs", str(jobs), "--stats", stats]

    def matched(_out):
        with open(stats) as f:
            return f"{json.load(f)['matched'][o.term]} matching tweets"

    def rows(out):
        return f"{max(len(out.splitlines()) - 1, 0)} rows"

    def first_line(out):
        return out.strip().splitlines()[0].split(": ", 1)[-1]

    # (name, argv, how to read the answer's size from stdout)
    commands = [
        ("plain: smashtag --jobs 1", smashtag(plain, 1), matched),
        ("plain: smashtag --jobs 2", smashtag(plain, 2), matched),
        ("plain: DuckDB (2 threads)", [o.duckdb_python, peer, "-t", o.term, plain], rows),
        ("plain: simdjson DOM (validates)", [os.path.join(o.tools, "validating_parser"), "dom", plain], first_line),
        ("plain: simdjson On-Demand (does not)", [os.path.join(o.tools, "validating_parser"), "ondemand", plain], first_line),
        (".zst: smashtag --jobs 2", smashtag(zst, 2), matched),
        (".zst: DuckDB (2 threads)", [o.duckdb_python, peer, "-t", o.term, zst], rows),
        (".zst: inflate, zstd -dc", ["sh", "-c", 'zstd -qdc "$1" >/dev/null && echo "checksum checked"', "zstd", zst],
         first_line),
        ("8 x .gz: smashtag --jobs 1", smashtag(split, 1), matched),
        ("8 x .gz: smashtag --jobs 2", smashtag(split, 2), matched),
        ("8 x .gz: DuckDB (2 threads)", [o.duckdb_python, peer, "-t", o.term, split], rows),
        ("8 x .gz: inflate, zlib", [os.path.join(o.tools, "inflate"), "zlib"] + parts, first_line),
        ("8 x .gz: inflate, libdeflate", [os.path.join(o.tools, "inflate"), "libdeflate"] + parts, first_line),
        ("8 x .gz: inflate, ISA-L igzip", ["sh", "-c", 'igzip -dc "$@" >/dev/null && echo "CRC-32 checked"', "igzip"] + parts,
         first_line),
    ]
    walls = {c[0]: [] for c in commands}
    cpus = {c[0]: [] for c in commands}
    answers = {}
    for r in range(o.runs + 1):  # the first round warms the page cache and is not counted
        for name, argv, answer in commands:
            wall, cpu, out = run(argv, stdout=subprocess.PIPE)
            answers[name] = answer(out)
            # The peers written for this print the CPU time of their work alone
            # (without loading their input), which is what is compared.
            work = [line for line in out.splitlines() if line.startswith("cpu ")]
            if work:
                cpu = float(work[0].split()[1])
            if r > 0:
                walls[name].append(wall)
                cpus[name].append(cpu)
        print(f"round {r}/{o.runs} done", file=sys.stderr)

    med = {k: statistics.median(v) for k, v in walls.items()}
    cpu = {k: statistics.median(v) for k, v in cpus.items()}
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"Term `{o.term}`, {o.runs} alternating rounds after one warm-up, medians; load average {' '.join(load)}.\n")
    print("CPU s: the process's user + sys time; for simdjson and the libdeflate and zlib runs, the time of")
    print("the parse or the inflate alone, without loading the input (igzip's includes its reads).\n")
    print("| command | wall s | CPU s | answer |")
    print("|---|---:|---:|---|")
    for name, _, _ in commands:
        print(f"| {name} | {med[name]:.3f} | {cpu[name]:.3f} | {answers[name]} |")

    ratio = med["plain: DuckDB (2 threads)"] / med["plain: smashtag --jobs 2"]
    share = cpu["plain: simdjson DOM (validates)"] / cpu["plain: smashtag --jobs 1"]
    print(f"\nplain: DuckDB / smashtag = {ratio:.2f} (goal >= 3.0). smashtag's whole report costs {1 / share:.2f} x"
          f" simdjson's DOM validating and finding the fields alone, in CPU (goal <= 1.15); a smashtag that cost no"
          f" more than that, everything else free, would read at most {ratio / share:.2f}.")
    # One zstd frame inflates on one core only (each block may refer to the ones before it), so a
    # report on 2 cores takes at least the inflate's wall time, and at least half the CPU of
    # the inflate plus the parse, however the two are overlapped.
    z = med[".zst: DuckDB (2 threads)"] / med[".zst: smashtag --jobs 2"]
    zwall, zcpu = med[".zst: inflate, zstd -dc"], cpu[".zst: inflate, zstd -dc"]
    scan = cpu["plain: simdjson DOM (validates)"]

    def zbound(parse):
        return med[".zst: DuckDB (2 threads)"] / max(zwall, (zcpu + parse) / 2)

    zparse = cpu[".zst: smashtag --jobs 2"] - zcpu
    print(f".zst: DuckDB / smashtag = {z:.2f} (goal >= 2.5). The stream is one zstd frame: its inflate alone"
          f" (zstd -dc) takes {zwall:.3f} s, {zcpu:.3f} CPU s, on one core; smashtag's report of it {cpu['.zst: smashtag --jobs 2']:.3f}"
          f" CPU s, so {zparse:.3f} beside the inflate ({zparse / scan:.2f} x simdjson's DOM). On 2 cores no report takes less"
          f" than the inflate's wall time, nor less than half the CPU of the inflate and the parse: with a parse as cheap as"
          f" simdjson's validating DOM ({scan:.3f} CPU s), everything else free, at most {zbound(scan):.2f}; at the goal of"
          f" 1.15 x simdjson's DOM, at most {zbound(1.15 * scan):.2f}.")
    gz = med["8 x .gz: DuckDB (2 threads)"] / med["8 x .gz: smashtag --jobs 2"]
    zlib = cpu["8 x .gz: inflate, zlib"]
    isal = cpu["8 x .gz: inflate, ISA-L igzip"]
    whole = cpu["8 x .gz: smashtag --jobs 1"]
    print(f"8 x .gz: DuckDB / smashtag = {gz:.2f} (goal >= 3.0); smashtag inflates with ISA-L, whose inflate alone"
          f" (igzip) is {isal:.2f} of its {whole:.2f} CPU s (zlib's: {zlib:.2f}).")
    print(f"  with a parse as cheap as simdjson's DOM ({scan:.2f} s) and ISA-L's inflate: at most"
          f" {gz * whole / (isal + scan):.2f}")


if __name__ == "__main__":
    main()
