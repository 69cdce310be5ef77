"""The Spark job's report is `smashtag report`'s, byte for byte (and with
--pairs, `smashtag pairs`'s).

Runs contrib/spark/popularity.py with pyspark in local mode (`local[2]`) on
samples/ and on the real corpus (../shared/corpus, read in place), for several
terms at once, every format (the workbook and the page with -o, read back
with openpyxl), --min-count and --top, inputs spread over one
task or one task per file, tweets read twice from different tasks, and the
multi-file cases of the independent reference (Tests/Reference), and the
filters and columns of SPEC 12.2-12.3 (against `smashtag report` and the
reference's filter cases). Then the same job on a standalone Spark cluster: a
master and two workers started on 127.0.0.1 with pyspark's own launcher
(bin/spark-class; the PyPI package has no sbin/start-master.sh) and stopped
at the end, for a few cases. Prints one line per case and a closing
`N passed, N failed`; exits 1 on any failure.

    SMASHTAG=.build/debug/smashtag python contrib/spark/test_popularity.py

SMASHTAG_SPARK_ONLY=TEXT runs only the cases whose name holds TEXT (the
standalone cluster only when TEXT names "standalone"), while developing.

Run by `make test` (the Makefile makes the virtual environment with pyspark).
"""

import difflib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import popularity  # noqa: E402

BINARY = os.path.abspath(os.environ.get("SMASHTAG", os.path.join(ROOT, ".build/debug/smashtag")))
SAMPLES = os.path.join(ROOT, "samples")
CORPUS = os.path.abspath(os.environ.get("SMASHTAG_CORPUS", os.path.join(ROOT, "../shared/corpus")))
REFERENCE = os.path.join(ROOT, "Tests/Reference")
MASTER = os.environ.get("SMASHTAG_SPARK_MASTER", "local[2]")
ONLY = os.environ.get("SMASHTAG_SPARK_ONLY", "")

passed, failed = 0, 0


def report(terms, paths, options):
    # With --pairs the job answers what `smashtag pairs` answers, with --posts what `smashtag posts` does.
    command = ["pairs", *[o for o in options if o != "--pairs"]] if "--pairs" in options \
        else ["posts", *[o for o in options if o != "--posts"]] if "--posts" in options else ["report", *options]
    r = subprocess.run([BINARY, command[0], *popularity.term_flags(terms), *paths, "--quiet", *command[1:]],
                       capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(f"smashtag report exited {r.returncode}: {r.stderr.decode()}")
    return r.stdout


def spark(sc, terms, paths, options):
    """The job's report, through its own argument parser and a file."""
    argv = [*popularity.term_flags(terms), *paths, "--smashtag", BINARY, *options]
    a = popularity.parse_args(argv)
    with tempfile.TemporaryFile() as out:
        status = popularity.popularity(sc, a, out)
        if status != 0:
            raise RuntimeError(f"the job's aggregate exited {status}")
        out.seek(0)
        return out.read()


def check(name, got, want):
    global passed, failed
    if got == want:
        passed += 1
        print(f"ok    {name}", flush=True)
        return
    failed += 1
    print(f"FAIL  {name}", flush=True)
    diff = difflib.unified_diff(want.decode(errors="replace").splitlines(), got.decode(errors="replace").splitlines(),
                                "expected", "spark job", lineterm="", n=1)
    for line in list(diff)[:40]:
        print("      " + line)


def case(sc, name, terms, paths, options, job_options=(), want=None):
    if ONLY not in name:
        return
    try:
        t = time.monotonic()
        got = spark(sc, terms, paths, [*options, *job_options])
        name += f" ({time.monotonic() - t:.1f} s)"
        check(name, got, report(terms, paths, options) if want is None else want)
    except Exception as e:  # a failure of one case is reported, the others still run
        global failed
        failed += 1
        print(f"FAIL  {name}: {type(e).__name__}: {e}", flush=True)


def files_under(folder):
    return subprocess.run([BINARY, "extract", "--list-inputs", folder], capture_output=True, check=True).stdout.count(b"\n")


def main():
    if not os.path.isfile(BINARY):
        sys.exit(f"no smashtag binary at {BINARY}: build it first (swift build)")
    if not os.path.isdir(CORPUS):
        sys.exit(f"no corpus at {CORPUS}: the tests read ../shared/corpus in place")
    started = time.monotonic()
    sc = popularity.spark_context(MASTER)
    try:
        run_cases(sc)
    finally:
        sc.stop()
    if not ONLY:
        run_command_line()
    if os.environ.get("SMASHTAG_SPARK_STANDALONE", "1") != "0" and ONLY in "standalone":
        run_standalone()
    print(f"spark job tests: {time.monotonic() - started:.0f} s with {MASTER}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def run_cases(sc):
    sample_terms = ["#stanford", "stanford", "from:stanford", "@stanford", "*", "#nowhere"]
    corpus_terms = ["*", "#Brexit", "obama", "from:jack", "@BTS_twt", "#kpop", "pizza"]
    every_file = ["--partitions", str(files_under(CORPUS) + files_under(SAMPLES))]
    for options in (["--format", "csv", "--min-count", "1"], ["--format", "json"], ["--format", "ndjson", "--top", "3"],
                    ["--format", "table", "--top", "5"]):
        case(sc, f"samples {' '.join(options)}", sample_terms, [SAMPLES], options)
    for options in (["--format", "csv", "--min-count", "1"], ["--format", "json", "--min-count", "3"],
                    ["--format", "ndjson", "--top", "2"]):
        case(sc, f"corpus {' '.join(options)}", corpus_terms, [CORPUS], options)
    both = [CORPUS, SAMPLES]
    case(sc, "corpus and samples, one task", corpus_terms + sample_terms, both,
         ["--format", "csv", "--min-count", "1"], ["--partitions", "1"])
    case(sc, "corpus and samples, a task per file", corpus_terms + sample_terms, both,
         ["--format", "csv", "--min-count", "1"], every_file)
    # Every tweet read twice, by different tasks: each counts once.
    case(sc, "samples and corpus twice over, a task per file", ["*", "#stanford", "#brexit"], both + both,
         ["--format", "json", "--min-count", "1"], every_file)
    case(sc, "a single file", ["*"], [os.path.join(CORPUS, "twarc-csv/kpop.jsonl")], ["--format", "csv"])
    case(sc, "a file with bad input (skipped and counted as report does)", ["*", "#brexit"],
         [os.path.join(CORPUS, "twarc-csv/streaming_output_with_error.jsonl")], ["--format", "csv", "--min-count", "1"])
    first_copy_wins(sc)
    reference_cases(sc)
    pair_cases(sc)
    filter_cases(sc)
    series_cases(sc)
    people_cases(sc)
    kinds_cases(sc)
    trend_cases(sc)
    posts_cases(sc)
    repost_cases(sc)


def repost_cases(sc):
    """SPEC 16: a Bluesky repost carries its subject's mentions, the subject in
    another task (Tests/Fixtures/reposts: a.jsonl's reposts name posts of
    b.jsonl and of a.jsonl; a task per file, each file read twice), as
    `smashtag report`, `pairs` and `posts` say; the social fixtures too."""
    folder = os.path.join(ROOT, "Tests/Fixtures/reposts")
    paths = [os.path.join(folder, "b.jsonl"), os.path.join(folder, "a.jsonl"), folder]
    terms = ["#hike", "hill", "*", "@sam"]
    kinds = ["--kinds", "hashtag,user,url,domain,poster"]
    for options in ([*kinds, "--min-count", "1"], [*kinds, "--columns", ALL_COLUMNS, "--format", "json"],
                    [*kinds, "--columns", ALL_COLUMNS, "--by", "hour", "--min-count", "1"],
                    ["--by", "day", "--min-count", "1"], ["--retweets", "only", "--min-count", "1"],
                    [*kinds, "--pairs", "--min-count", "1"], ["--posts", "--min-count", "1"]):
        case(sc, f"reposts {' '.join(options)}", terms, paths, options, ["--partitions", "4"])
    social = [os.path.join(ROOT, "Tests/Fixtures/social"), folder]
    case(sc, "reposts and social fixtures", ["*", "#rust", "#hike"], social, [*kinds, "--min-count", "1"], ["--partitions", "3"])
    spelled_once(sc)


def spelled_once(sc):
    """SPEC 6 and 16: a post's text spells a mentioned handle once however
    many tasks read a copy of it. p1 and p2 spell did:plc:zzz `@zed.one`; p3
    spells it `@zed.two` and three tasks read it. By hand, over the distinct
    posts: zed.one 2, zed.two 1, so the account is `@zed.one` (counting the
    copies it would be `@zed.two`, 3 to 2); three posts mention it."""
    def post(rkey, spelled, micros):
        text = "hi " + spelled
        record = {"$type": "app.bsky.feed.post", "createdAt": "2024-05-01T11:00:00.000Z", "text": text,
                  "facets": [{"index": {"byteStart": 3, "byteEnd": len(text.encode())},
                              "features": [{"$type": "app.bsky.richtext.facet#mention", "did": "did:plc:zzz"}]}]}
        return json.dumps({"did": "did:plc:x1", "time_us": micros, "kind": "commit",
                           "commit": {"rev": "r", "operation": "create", "collection": "app.bsky.feed.post",
                                      "rkey": rkey, "record": record, "cid": "c"}})
    p1, p2, p3 = post("q1", "@zed.one", 1714561200000000), post("q2", "@zed.one", 1714561200000001), \
        post("q3", "@zed.two", 1714561200000002)
    with tempfile.TemporaryDirectory() as d:
        for name, lines in (("a.jsonl", [p1, p3]), ("b.jsonl", [p3]), ("c.jsonl", [p2, p3])):
            with open(os.path.join(d, name), "w") as f:
                f.write("\n".join(lines) + "\n")
        case(sc, "a post's handle spellings count once across tasks", ["*"], [d],
             ["--kinds", "user", "--min-count", "1", "--format", "csv"], ["--partitions", "3"],
             b"term,type,mention,count\n*,user,@zed.one,3\n")


def posts_cases(sc):
    """--posts: `smashtag posts`'s bytes (SPEC 15) on the hand-worked fixtures
    and the corpus, with every column, filters, over one task and a task per
    file, and tweets read twice by different tasks (the first copy of a
    matching tweet counts; a post's first own record and first copies say
    who wrote it)."""
    fixtures = os.path.join(ROOT, "Tests/Fixtures/posts")
    every = "term,id,author,created_at,retweets,quotes,replies,text"
    for options in (["--posts", "--format", "csv", "--min-count", "1", "--columns", every],
                    ["--posts", "--format", "json", "--since", "2020-03-02T11:00:00Z"],
                    ["--posts", "--format", "table", "--top", "3"]):
        case(sc, f"posts: fixtures {' '.join(options[1:])}", ["#a", "*"], [fixtures], options)
    both = [CORPUS, fixtures]
    every_file = ["--partitions", str(files_under(CORPUS) + files_under(fixtures))]
    case(sc, "posts: corpus and fixtures, one task", ["*", "#kpop", "#Brexit"], both,
         ["--posts", "--format", "csv", "--min-count", "1", "--columns", every], ["--partitions", "1"])
    case(sc, "posts: corpus and fixtures twice over, a task per file", ["*", "#kpop", "#a"], both + both,
         ["--posts", "--format", "csv", "--min-count", "1", "--columns", every], every_file)
    case(sc, "posts: corpus --retweets only --top 5", ["*"], [CORPUS], ["--posts", "--retweets", "only", "--top", "5"])


def pair_cases(sc):
    """--pairs: `smashtag pairs`'s bytes, in every format, over one task and a
    task per file, tweets read twice by different tasks, and the independent
    reference's pair cases that read several files."""
    sample_terms = ["#stanford", "stanford", "from:stanford", "@stanford", "*", "#nowhere"]
    corpus_terms = ["*", "#Brexit", "obama", "from:jack", "@BTS_twt", "#kpop"]
    both = [CORPUS, SAMPLES]
    every_file = ["--partitions", str(files_under(CORPUS) + files_under(SAMPLES))]
    for options in (["--pairs", "--format", "csv", "--min-count", "1"], ["--pairs", "--format", "json", "--top", "5"],
                    ["--pairs", "--format", "ndjson", "--without-term"], ["--pairs", "--format", "table", "--top", "4"]):
        case(sc, f"pairs: samples {' '.join(options[1:])}", sample_terms, [SAMPLES], options)
    case(sc, "pairs: corpus and samples, a task per file", corpus_terms + sample_terms, both,
         ["--pairs", "--format", "csv", "--min-count", "1"], every_file)
    case(sc, "pairs: samples and corpus twice over, a task per file", ["*", "#stanford", "#brexit"], both + both,
         ["--pairs", "--format", "json", "--min-count", "1"], every_file)
    case(sc, "pairs: gexf of one term", ["#stanford"], [SAMPLES], ["--pairs", "--format", "gexf", "--without-term"])
    with tempfile.TemporaryDirectory() as d:
        short = '{"id_str":"5","text":"a","entities":{"hashtags":[{"text":"x"},{"text":"y"}]}}\n'
        long = '{"id_str":"5","text":"a","entities":{"hashtags":[{"text":"x"},{"text":"y"}],' \
               '"user_mentions":[{"screen_name":"z"}]}}\n{"id_str":"6","text":"b"}\n'
        for first, second in ((short, long), (long, short)):
            for name, text in (("a.jsonl", first), ("b.jsonl", second)):
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            case(sc, f"pairs: first copy wins across tasks ({'short' if first is short else 'long'} first)", ["*", "#x"],
                 [d], ["--pairs", "--format", "csv", "--min-count", "1"], ["--partitions", "2"])
    bomb_cases(sc)
    with open(os.path.join(REFERENCE, "pair_cases.json")) as f:
        cases = [c for c in json.load(f) if len(c["paths"]) > 1]
    for c in cases:
        paths = [os.path.join(CORPUS, p) for p in c["paths"]]
        options = ["--pairs", "--min-count", str(c["min_count"])] + (["--top", str(c["top"])] if c.get("top") else []) \
            + (["--without-term"] if c["without_term"] else [])
        for fmt, key in (("csv", "expected"), ("json", "expected_json")):
            with open(os.path.join(REFERENCE, c[key]), "rb") as f:
                want = f.read()
            case(sc, f"pairs: reference {c['name']} as {fmt}", c["terms"], paths,
                 options + ["--format", fmt], ["--partitions", str(len(paths))], want)



def bomb_cases(sc):
    """SPEC 12.5's bound: a tweet of 20,000 distinct hashtags (and eight
    gzip copies of it, a task each) adds no pairs; its mentions still count.
    Expected pairs worked out by hand: only the small tweet's three
    hashtags pair up."""
    import gzip
    tags = [{"text": f"t{i}"} for i in range(20000)]
    bomb = {"id_str": "1234567890", "text": "bomb", "user": {"screen_name": "bomber"}, "entities": {"hashtags": tags}}
    small = {"id_str": "2", "text": "#a #b #t0", "user": {"screen_name": "fine"},
             "entities": {"hashtags": [{"text": "a"}, {"text": "b"}, {"text": "t0"}]}}
    lines = (json.dumps(bomb) + "\n" + json.dumps(small) + "\n").encode()
    with tempfile.TemporaryDirectory() as d:
        for i in range(8):
            with gzip.open(os.path.join(d, f"b{i}.jsonl.gz"), "wb") as f:
                f.write(lines)
        want = b"term,source,target,weight\n*,#a,#b,1\n*,#a,#t0,1\n*,#b,#t0,1\n"
        case(sc, "pairs: a tweet of 20,000 hashtags, eight copies, adds no pairs", ["*"], [d],
             ["--pairs", "--format", "csv", "--min-count", "1"], ["--partitions", "8"], want)
        case(sc, "pairs: --max-pair-mentions 2 leaves the three-hashtag tweet out too", ["*"], [d],
             ["--pairs", "--format", "csv", "--min-count", "1", "--max-pair-mentions", "2"], ["--partitions", "8"],
             b"term,source,target,weight\n")
        case(sc, "pairs: the 20,000-hashtag tweet's mentions still count", ["*"], [d],
             ["--pairs", "--format", "json", "--min-count", "1", "--max-pair-mentions", "2"], ["--partitions", "2"],
             b'[{"term":"*","tweets":2,"pairs":[]}]\n')


ALL_COLUMNS = "term,type,mention,display,count,originals,retweets,authors"


def kinds_cases(sc):
    """SPEC 13's kinds through the job: as `smashtag report` and `smashtag
    pairs` with the same --kinds and terms, on the kinds fixture and the corpus."""
    terms = ["*", "$aapl", "domain:bbc.co.uk", "url:www.example.com/a?id=3", "#Brexit"]
    paths = [os.path.join(ROOT, "Tests/Fixtures/kinds"), CORPUS]
    every = "hashtag,user,symbol,url,host,domain,poster"
    for options in (["--kinds", every, "--min-count", "1"],
                    ["--kinds", "domain,poster,symbol", "--columns", ALL_COLUMNS, "--format", "json"],
                    ["--kinds", "url,host", "--by", "day", "--min-count", "1"],
                    ["--kinds", "symbol,url,poster", "--pairs", "--min-count", "1"]):
        case(sc, f"kinds {' '.join(options)}", terms, paths, options, ["--partitions", "3"])


def trend_cases(sc):
    """SPEC 14 through the job: as `smashtag trend` with the same options, on
    the hand-made trend fixtures and the corpus, every tweet read twice."""
    paths = [os.path.join(ROOT, "Tests/Fixtures/trend"), CORPUS]
    terms = ["*", "#fresh", "#Brexit"]
    for options in (["--current", "1d", "--now", "2020-03-08T10:00:00Z", "--all"],
                    ["--current", "1d", "--now", "2020-03-08T10:00:00Z", "--baseline", "mean:2", "--format", "json"],
                    ["--current", "1d", "--now", "2021-03-29T10:00:00+02:00", "--tz", "Europe/Berlin", "--by-tweets", "--all"],
                    ["--current", "2010-01-01..2030-01-01", "--baseline", "2000-01-01..2010-01-01", "--all", "--top", "5",
                     "--kinds", "hashtag,poster"]):
        name = f"trend {' '.join(options)}"
        if ONLY not in name:
            continue
        try:
            want = subprocess.run([BINARY, "trend", *popularity.term_flags(terms), *paths, "--quiet", *options],
                                  capture_output=True, check=True).stdout
            got = spark(sc, terms, paths + paths, ["--trend", *options, "--partitions", "3"])
            check(name, got, want)
        except Exception as e:
            global failed
            failed += 1
            print(f"FAIL  {name}: {type(e).__name__}: {e}", flush=True)


def filter_cases(sc):
    """SPEC 12.2-12.3 through the job: as `smashtag report` with the same
    options, and as the reference's filter cases (Tests/Reference/filter_cases.json)."""
    terms = ["*", "#Brexit", "from:jack", "@BTS_twt", "#stanford"]
    fixtures = os.path.join(ROOT, "Tests/Fixtures/filters")
    for options in (["--columns", ALL_COLUMNS, "--min-count", "1"],
                    ["--since", "2016-01-01", "--until", "2019-06-01T00:00:00+02:00", "--retweets", "exclude", "--format", "json"],
                    ["--lang", "en,und", "--columns", "mention,display,authors,count", "--format", "ndjson", "--top", "3"]):
        case(sc, f"corpus and fixtures {' '.join(options)}", terms, [CORPUS, fixtures], options, ["--partitions", "6"])
    with open(os.path.join(REFERENCE, "filter_cases.json")) as f:
        cases = json.load(f)
    for c in cases:
        paths = [os.path.join(ROOT, "Tests/Fixtures", p[len("fixtures/"):]) if p.startswith("fixtures/") else os.path.join(CORPUS, p)
                 for half in c["halves"] for p in half]
        with open(os.path.join(REFERENCE, c["expected"]), "rb") as f:
            want = f.read()
        case(sc, f"reference {c['name']}", c["terms"], paths, ["--min-count", str(c["min_count"]), *c["options"], "--format", "csv"],
             ["--partitions", str(len(paths))], want)


def series_cases(sc):
    """--by and --tz (SPEC 12.4): the job's series is `smashtag report --by`'s,
    with the filters and with every column counted per bucket (a hand-worked
    case among them), and the independent reference's for each of its cases."""
    fixtures = os.path.join(ROOT, "Tests/Fixtures/by")
    case(sc, "series: samples --by day --top 3", ["#stanford", "*"], [SAMPLES], ["--format", "csv", "--by", "day", "--top", "3"])
    case(sc, "series: samples and DST fixtures --by week --tz Europe/Berlin, a task per file", ["*", "#dst", "#nye"],
         [SAMPLES, fixtures], ["--format", "json", "--by", "week", "--tz", "Europe/Berlin", "--min-count", "1"],
         ["--partitions", str(files_under(SAMPLES) + files_under(fixtures))])
    case(sc, "series: the autumn change --by hour --tz Europe/Berlin", ["#fall", "#dst"], [os.path.join(fixtures, "dst.jsonl")],
         ["--format", "ndjson", "--by", "hour", "--tz", "Europe/Berlin", "--min-count", "1"])
    case(sc, "series: the fixtures twice over --by day --tz America/New_York, a span wider than the data", ["*"],
         [fixtures, fixtures], ["--format", "csv", "--by", "day", "--tz", "America/New_York", "--top", "2",
                                "--since", "2020-12-20", "--until", "2021-01-10"], ["--partitions", "4"])
    # SPEC 12.3's columns per bucket: the hand-worked tide.jsonl (see ByTests), whose
    # buckets' display, retweets and authors differ from the whole period's.
    tide = os.path.join(fixtures, "tide.jsonl")
    tide_days = b"""term,bucket,type,mention,display,count,originals,retweets,authors
#tide,2022-06-01,hashtag,#tide,#Tide,2,1,1,1
#tide,2022-06-01,user,@sea,@sea,2,1,1,1
#tide,2022-06-01,user,@moon,,0,0,0,0
#tide,2022-06-02,hashtag,#tide,#tide,4,3,1,2
#tide,2022-06-02,user,@sea,@SEA,3,3,0,2
#tide,2022-06-02,user,@moon,@moon,1,0,1,1
#tide,2022-06-03,hashtag,#tide,,0,0,0,0
#tide,2022-06-03,user,@moon,,0,0,0,0
#tide,2022-06-03,user,@sea,,0,0,0,0
#tide,2022-06-04,hashtag,#tide,#tide,1,1,0,1
#tide,2022-06-04,user,@moon,,0,0,0,0
#tide,2022-06-04,user,@sea,,0,0,0,0
"""
    tide_options = ["--by", "day", "--tz", "Asia/Tokyo", "--columns", ALL_COLUMNS, "--min-count", "1"]
    case(sc, "series: every column per day in Tokyo, worked by hand", ["#tide"], [tide],
         [*tide_options, "--format", "csv"], want=tide_days)
    for fmt in ("json", "ndjson", "table"):
        case(sc, f"series: every column per day in Tokyo as {fmt}", ["#tide", "*"], [tide], [*tide_options, "--format", fmt])
    case(sc, "series: every column per hour across the autumn change, a task per file", ["*", "#fall", "#dst", "@alice"],
         [fixtures], ["--format", "csv", "--by", "hour", "--tz", "Europe/Berlin", "--columns", ALL_COLUMNS, "--min-count", "1",
                      "--since", "2021-10-30T20:00:00Z", "--until", "2021-11-01"], ["--partitions", str(files_under(fixtures))])
    case(sc, "series: columns without facts (reordered) --by month", ["*", "#stanford"], [SAMPLES, fixtures],
         ["--format", "csv", "--by", "month", "--columns", "mention,term,count", "--top", "3"])
    with open(os.path.join(REFERENCE, "by_cases.json")) as f:
        cases = json.load(f)
    if not any("--columns" in c["options"] for c in cases):
        raise RuntimeError("no reference case of the job's series with --columns")
    for c in cases:
        paths = [os.path.join(REFERENCE, "..", "Fixtures", p[len("fixtures/"):]) if p.startswith("fixtures/")
                 else os.path.join(CORPUS, p) for half in c["halves"] for p in half]
        # Every case as CSV; as JSON too those with --columns (the JSON of a term's columns).
        for fmt, key in (("csv", "expected"), ("json", "expected_json"))[:2 if "--columns" in c["options"] else 1]:
            with open(os.path.join(REFERENCE, c[key]), "rb") as f:
                want = f.read()
            case(sc, f"reference {c['name']} as {fmt}", c["terms"], paths,
                 ["--min-count", str(c["min_count"]), *c["options"], "--format", fmt], ["--partitions", "3"], want)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_standalone():
    """A standalone cluster on this machine: a master and two one-core
    workers, each its own process (pyspark's bin/spark-class, as
    sbin/start-master.sh and start-worker.sh run them), stopped at the end."""
    import pyspark
    spark_class = os.path.join(os.path.dirname(pyspark.__file__), "bin", "spark-class")
    port = free_port()
    url = f"spark://127.0.0.1:{port}"
    logs = tempfile.TemporaryDirectory(prefix="smashtag-standalone-")
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", SPARK_WORKER_DIR=logs.name, SPARK_LOG_DIR=logs.name)
    procs = []

    def start(name, *args):
        log = open(os.path.join(logs.name, name + ".log"), "wb")
        procs.append(subprocess.Popen([spark_class, *args], stdout=log, stderr=subprocess.STDOUT, env=env,
                                      start_new_session=True))
    try:
        start("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
              "--webui-port", str(free_port()))
        for w in range(2):
            start(f"worker{w}", "org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1", "--cores", "1",
                  "--memory", "1g", "--webui-port", str(free_port()), "--work-dir", logs.name)
        started = time.monotonic()
        sc = popularity.spark_context(url)
        try:
            # Both workers registered: two executors of one core each.
            executors = lambda: sc._jsc.sc().getExecutorMemoryStatus().size() - 1  # noqa: E731 (the driver is one)
            while executors() < 2 and time.monotonic() - started < 90:
                time.sleep(0.5)
            check("standalone: two workers serve the job",
                  str(executors()).encode(), b"2")
            both = [CORPUS, SAMPLES]
            case(sc, "standalone: corpus and samples, a task per file", ["*", "#stanford", "#brexit", "from:jack"], both,
                 ["--format", "csv", "--min-count", "1"], ["--partitions", "8"])
            case(sc, "standalone: filters and every column", ["*", "#brexit", "#stanford"],
                 [CORPUS, os.path.join(ROOT, "Tests/Fixtures/filters")],
                 ["--columns", ALL_COLUMNS, "--retweets", "exclude", "--since", "2010-01-01", "--min-count", "1"],
                 ["--partitions", "4"])
            case(sc, "standalone: a series with every column", ["*", "#tide", "#fall"], [os.path.join(ROOT, "Tests/Fixtures/by")],
                 ["--by", "day", "--tz", "Asia/Tokyo", "--columns", ALL_COLUMNS, "--min-count", "1", "--top", "3",
                  "--since", "2021-10-29", "--until", "2022-06-06"], ["--partitions", "3"])
        finally:
            sc.stop()
    finally:
        for p in reversed(procs):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        logs.cleanup()


def first_copy_wins(sc):
    """The same tweet in two files with different mentions, read by two tasks:
    the copy in the first file counts, as in a report."""
    with tempfile.TemporaryDirectory() as d:
        short = '{"id_str":"5","text":"a","entities":{"hashtags":[{"text":"x"}]}}\n'
        long = '{"id_str":"5","text":"a","entities":{"hashtags":[{"text":"x"},{"text":"y"}],' \
               '"user_mentions":[{"screen_name":"z"}]}}\n{"id_str":"6","text":"b"}\n'
        for first, second in ((short, long), (long, short)):
            for name, text in (("a.jsonl", first), ("b.jsonl", second)):
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            case(sc, f"first copy wins across tasks ({'short' if first is short else 'long'} first)", ["*", "#x"], [d],
                 ["--format", "csv", "--min-count", "1"], ["--partitions", "2"])


def reference_cases(sc):
    """The independent reference's expectations (Tests/Reference) for the cases that read several files."""
    with open(os.path.join(REFERENCE, "corpus_cases.json")) as f:
        cases = [c for c in json.load(f) if len(c["paths"]) > 1]
    for c in cases:
        paths = [os.path.join(CORPUS, p) for p in c["paths"]]
        options = ["--min-count", str(c["min_count"])] + (["--top", str(c["top"])] if c.get("top") else [])
        for fmt, key in (("csv", "expected"), ("json", "expected_json")):
            with open(os.path.join(REFERENCE, c[key]), "rb") as f:
                want = f.read()
            case(sc, f"reference {c['name']} as {fmt}", c["terms"], paths,
                 options + ["--format", fmt], ["--partitions", str(len(paths))], want)


def without_summary(page):
    """A page of `--format html` without its summary section, which describes
    the run (the inputs or extracts read, the options, the time)."""
    start = page.index(b'<section class="summary">')
    return page[:start] + page[page.index(b"</section>", start) + len(b"</section>"):]


def workbook_terms(path):
    """What a workbook shows of its terms, read with openpyxl: per sheet but the
    summary (the run's), its title, every cell's value and type, and its charts
    with their kind and series (the cells each series reads)."""
    import openpyxl
    book = openpyxl.load_workbook(path)
    shown = []
    for sheet in book.worksheets[1:]:
        cells = [[(type(c.value).__name__, c.value) for c in row] for row in sheet.iter_rows()]
        charts = [(type(ch).__name__, [(ser.val.numRef.f if ser.val and ser.val.numRef else None) for ser in ch.series])
                  for ch in sheet._charts]
        shown.append((sheet.title, cells, charts))
    return repr(shown).encode()


def people_cases(sc):
    """SPEC 12.6 through the job: `-o FILE.html` and `-o FILE.xlsx` (the format
    from the file's name, and given with --format) as `smashtag report -o`
    writes them, the series' with --by too; all but the summary, which
    describes the run, is the same (the page byte for byte, the workbook's
    term sheets cell for cell and chart for chart, read with openpyxl)."""
    terms = ["#kpop", "*", "#Brexit"]
    for options in (["--min-count", "1", "--top", "10"], ["--by", "day", "--tz", "Asia/Tokyo", "--top", "3"]):
        for name, fmt, read in (("page.html", [], without_summary), ("book.xlsx", ["--format", "xlsx"], None)):
            label = f"people: corpus {' '.join(options)} -o {name} {' '.join(fmt)}".rstrip()
            if ONLY not in label:
                continue
            try:
                with tempfile.TemporaryDirectory() as d:
                    job, want = os.path.join(d, "job-" + name), os.path.join(d, "report-" + name)
                    t = time.monotonic()
                    printed = spark(sc, terms, [CORPUS], [*options, *fmt, "-o", job])
                    label += f" ({time.monotonic() - t:.1f} s)"
                    report(terms, [CORPUS], [*options, *fmt, "-o", want])
                    if read is None:
                        got, expected = workbook_terms(job), workbook_terms(want)
                    else:
                        with open(job, "rb") as f, open(want, "rb") as g:
                            got, expected = read(f.read()), read(g.read())
                    check(label, printed + got, expected)
            except Exception as e:
                global failed
                failed += 1
                print(f"FAIL  {label}: {type(e).__name__}: {e}", flush=True)


def run_command_line():
    """The script as a user runs it: its own Spark, an output file, a quiet stderr, usage errors."""
    global passed, failed
    script = os.path.join(HERE, "popularity.py")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "report.json")
        args = ["-t", "#stanford", "-t", "from:stanford", SAMPLES, "--format", "json", "--top", "4"]
        r = subprocess.run([sys.executable, script, "--master", MASTER, "--smashtag", BINARY, "-o", out, *args],
                           capture_output=True)
        with open(out, "rb") as f:
            check("command line: --output", f.read(), report(["#stanford", "from:stanford"], [SAMPLES], args[4:]))
        noise = [line for line in r.stderr.decode(errors="replace").splitlines() if line.strip()]
        check("command line: exit 0, nothing from Spark on stderr",
              f"{r.returncode} {noise}".encode(), b"0 []")
    r = subprocess.run([sys.executable, script, "--help"], capture_output=True)
    check("command line: --help prints the usage, exit 0",
          f"{r.returncode} {b'--paths-from-stdin' in r.stdout and b'--min-count' in r.stdout}".encode(), b"0 True")
    r = subprocess.run([sys.executable, script, "--master", MASTER, "--smashtag", BINARY, "-t", "#", SAMPLES],
                       capture_output=True)
    check("command line: a bad term is a usage error naming it",
          f"{r.returncode} {b'#' in r.stderr}".encode(), b"2 True")
    r = subprocess.run([sys.executable, script, "--master", MASTER, "--smashtag", BINARY, "-t", "#a", SAMPLES,
                        "--by", "day", "--tz", "Mars/Olympus"], capture_output=True)
    check("command line: an unknown --tz is a usage error naming it",
          f"{r.returncode} {b'Mars/Olympus' in r.stderr}".encode(), b"2 True")
    r = subprocess.run([sys.executable, script, "--master", MASTER, "--smashtag", BINARY, "-t", "*", SAMPLES,
                        "--format", "xlsx"], capture_output=True)
    check("command line: --format xlsx without -o is a usage error before any Spark work",
          f"{r.returncode} {b'-o FILE' in r.stderr} {b'Spark' in r.stderr}".encode(), b"2 True False")
    r = subprocess.run([sys.executable, script, "--master", MASTER, "--smashtag", BINARY, "-t", "*", SAMPLES,
                        "--retweets", "maybe"], capture_output=True)
    check("command line: a bad option value is a usage error naming it",
          f"{r.returncode} {b'maybe' in r.stderr}".encode(), b"2 True")


if __name__ == "__main__":
    sys.exit(main())
