"""smashtag on Spark: the popularity report of `smashtag report`, computed by
a Spark job that runs the unchanged `smashtag` binary on its executors.

usage:
    spark-submit contrib/spark/popularity.py -t TERM [-t TERM...] PATH... [options]
    spark-submit contrib/spark/popularity.py --pairs -t TERM [-t TERM...] PATH... [options]
    spark-submit contrib/spark/popularity.py --trend -t TERM... PATH... --current WINDOW [options]
    spark-submit contrib/spark/popularity.py --posts -t TERM [-t TERM...] PATH... [options]
    python contrib/spark/popularity.py --master 'local[2]' TERM PATH... [options]

    -t, --term TERM     a term, as `smashtag report` takes it (repeat for more);
                        without -t the first positional argument is the term
    --format FORMAT     csv, json, ndjson, table, xlsx or html (SPEC 12.6: xlsx
                        needs -o); with --pairs csv, json, ndjson, table, gexf
                        or xlsx [default: as `smashtag report`: from -o's file
                        name, else table on a terminal, csv otherwise]
    --min-count N       leave out mentions counted (pairs weighing) fewer than
                        N times [default: 2]
    --top N             keep the first N hashtags and N users of each term
    --by UNIT           a series per hour, day, week, month or year, as
                        `smashtag report --by` (SPEC 12.4)
    --tz ZONE           the zone --by names buckets in [default: UTC]
                        (with --pairs: the N heaviest pairs)
    --trend             what is rising, as `smashtag trend` (SPEC 14), with
                        its --current, --baseline, --now, --tz, --min-authors,
                        --by-tweets, --all and --top: the executors extract
                        with --trend, the first copy of each (term, tweet) is
                        kept, and the driver's `aggregate --trend` scores them
    --pairs             co-occurrence, as `smashtag pairs` (SPEC 12.5): the
                        pairs of mentions the matching tweets carry together
    --posts             the posts the matching tweets retweet, quote and reply
                        to, as `smashtag posts` (SPEC 15): --columns names its
                        columns (term, id, author, created_at, retweets,
                        quotes, replies, text), --min-count is on retweets +
                        quotes + replies; formats csv, json, ndjson, table,
                        xlsx, html
    --without-term      with --pairs: leave out pairs holding the term's own
                        mention, as `smashtag pairs --without-term`
    --max-pair-mentions N
                        with --pairs: a tweet carrying more than N distinct
                        mentions adds no pairs, as for `smashtag pairs`
                        [default: 200]
    -o, --output FILE   write the report to FILE on the driver, as `smashtag
                        report -o` does (the final aggregate writes it)
                        [default: stdout]
    --smashtag PATH     the binary [default: $SMASHTAG, else one shipped with
                        --files, else `smashtag` on PATH, else this checkout's
                        .build/release or .build/debug]; shipped to the
                        executors with SparkContext.addFile
    --installed         the binary is already at that path on every node (a
                        container image): do not ship it
    --partitions N      extract tasks [default: 4 x spark.default.parallelism,
                        at most one per input file]
    --shuffle-partitions N
                        partitions of the dedup and count shuffles
                        [default: spark.default.parallelism]
    --extract-jobs N    threads of each extract (match spark.task.cpus) [default: 1]
    --strict            stop at the first bad input, as `smashtag report --strict`
    --since T, --until T, --retweets MODE, --lang CODES
                        filters, as `smashtag report` takes them: passed to
                        every extract, which applies them before matching
    --columns LIST      the report's columns, as `smashtag report` takes them;
                        with display, originals, retweets or authors the
                        extracts write format version 2 (each tweet's kind,
                        author and spellings) and the job counts those too
                        (with --by, per bucket)
    --kinds LIST        the kinds of mention counted, as `smashtag report` takes
                        them (SPEC 13): hashtag, user, symbol, url, host,
                        domain, poster [default: hashtag,user]; the extracts
                        write those kinds and aggregate reports them
    --master URL        only when run with plain python (spark-submit sets it)

PATHs are files or folders that every executor sees at the same path (a
shared file system). The job, in order:

 1. driver: `smashtag extract --list-inputs PATH...` lists the files a report
    would read, in the order it reads them (folders walked, sorted, hidden and
    non-dump files left out); they are cut into contiguous groups of about
    equal bytes, group g holding files before those of group g+1;
 2. executors: each group's paths are piped into `smashtag extract -t TERM...
    --paths-from-stdin` (what RDD.pipe does, with the binary found through
    SparkFiles on the executor and its exit status checked); each copy of a
    matching tweet becomes ((term, tweet id), ((g, n), mentions)), n counting
    the copies in the group's output, so (g, n) is the copy's place in the
    input order of a report (packed in one number, g * 2^40 + n);
 3. shuffle on (term, tweet id) and keep the copy with the smallest (g, n):
    the first copy in input order, exactly as `smashtag report` dedups, however
    the copies were spread over executors;
 4. count per (term, mention) and tweets per term (a second, smaller shuffle),
    leave out counts below --min-count;
 5. driver: write the counts as `smashtag-counts` lines and let
    `smashtag aggregate` sort and format them, so the report is byte for byte
    what `smashtag report` prints on the same inputs.

With --pairs, step 4 also counts each pair of a kept copy's mentions per
term, and leaves out pairs under --min-count (and mentions under it: no pair
weighs more than either of its mentions); step 5 writes `smashtag-pairs`
lines for `smashtag aggregate --pairs`, so the output is byte for byte what
`smashtag pairs` prints.

With --posts, the extracts write `smashtag-posts` lines (`extract --posts`):
a P line per copy of a matching tweet with what it retweets, quotes and
replies to, and an S line per copy of a post read (every tweet's own record,
and each copy it embeds) with what it says of the post. Step 3 keeps the
first copy of each (term, tweet) and, per post, its first own record and,
field by field, the first embedded copy that says the author, the time and
the text, in input order (the same (g, n) ranks); step 4 counts per (term,
post) the retweets, quotes and replies, and leaves out the posts under
--min-count; step 5 writes them as counts (N and C lines) with the S lines
of those posts for `smashtag aggregate --posts`, so the output is byte for
byte what `smashtag posts` prints.

With --by, extract carries each copy's creation time (and leaves out tweets
of unknown time), the copy keeps it through the dedup, and step 4 counts per
(term, creation second, mention) instead, with no --min-count cut (a series
chooses its mentions by their totals, and shows them in every bucket):
`smashtag aggregate --by UNIT --tz ZONE` (with --since and --until, the
series' span) buckets the seconds, chooses and zero-fills, so the series too
is byte for byte `smashtag report --by`'s.

With --columns needing them, step 4 also counts, over the same first copies,
the retweets per term and mention, the distinct authors (a distinct pass
over (term, mention, author)), and each spelling's tweets per mention, whose
most frequent (ties by UTF-8 bytes) is the display; the counts are written as
version 2 (N and C lines with retweets, authors and display).

With --by and such --columns, distinct authors and the display do not add up
over seconds: the job names each first copy's bucket itself (its wall-clock
time in --tz, from the same tz database), and step 4 counts all of the above
per (term, bucket[, mention]); each bucket is written as the creation second
of its first tweet (`carries=retweets,authors,display,time`), which
`smashtag aggregate --by --tz` puts back in the same bucket, then chooses over
the totals and zero-fills as for any series.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from operator import add

EXIT_INPUT, EXIT_USAGE = 1, 2  # as smashtag's


class UsageError(Exception):
    pass


class InputError(Exception):
    """Nothing at all could be read (smashtag exits 1 then too)."""


# ---------------------------------------------------------------- driver side


def parse_args(argv):
    # The module's docstring is the usage text (as smashtag's own --help).
    p = argparse.ArgumentParser(prog="popularity.py", add_help=False,
                                usage="popularity.py -t TERM [-t TERM...] PATH... [options] (--help for more)")
    p.add_argument("-h", "--help", action="store_true")
    p.add_argument("-t", "--term", action="append", default=[])
    p.add_argument("paths", nargs="*")
    p.add_argument("--format", choices=["csv", "json", "ndjson", "table", "xlsx", "html", "gexf"])
    p.add_argument("--pairs", action="store_true")
    p.add_argument("--posts", action="store_true")
    p.add_argument("--without-term", action="store_true")
    p.add_argument("--max-pair-mentions", type=int)
    p.add_argument("--min-count", type=int, default=2)
    p.add_argument("--top", type=int)
    p.add_argument("-o", "--output")
    p.add_argument("--smashtag")
    p.add_argument("--installed", action="store_true")
    p.add_argument("--partitions", type=int)
    p.add_argument("--shuffle-partitions", type=int)
    p.add_argument("--extract-jobs", type=int, default=1)
    p.add_argument("--strict", action="store_true")
    p.add_argument("--since")
    p.add_argument("--until")
    p.add_argument("--retweets")
    p.add_argument("--lang")
    p.add_argument("--columns")
    p.add_argument("--kinds")
    p.add_argument("--by")
    p.add_argument("--tz")
    p.add_argument("--master")
    # SPEC 14: `smashtag trend`, the windows and score being aggregate --trend's.
    p.add_argument("--trend", action="store_true")
    p.add_argument("--current")
    p.add_argument("--baseline")
    p.add_argument("--now")
    p.add_argument("--min-authors", type=int)
    p.add_argument("--by-tweets", action="store_true")
    p.add_argument("--all", action="store_true")
    a = p.parse_args(argv)
    if a.help:
        try:
            print(__doc__.strip())
        except BrokenPipeError:  # `| head`: a reader that went away is no error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    if not a.term:
        if not a.paths:
            p.error("give a term to search for, as in: popularity.py '#stanford' dumps/")
        a.term = [a.paths.pop(0)]
    if not a.paths:
        p.error("give the paths to read: a Spark job cannot read standard input")
    if a.posts and (a.pairs or a.trend or a.by or a.tz or a.kinds or a.without_term or a.max_pair_mentions is not None):
        p.error("--posts takes neither --pairs, --by, --tz, --kinds, --without-term nor --max-pair-mentions (SPEC 15)")
    if a.posts and a.format == "gexf":
        p.error("--format gexf is a graph of pairs: posts are csv, json, ndjson, table, xlsx or html")
    if a.format == "gexf" and not a.pairs:
        p.error("--format gexf is a graph of pairs: give --pairs")
    if a.format == "html" and a.pairs:
        p.error("--format html is a report's: pairs are csv, json, ndjson, table, gexf or xlsx")
    if a.format == "xlsx" and not a.output:
        p.error("--format xlsx writes a workbook to a file: give -o FILE")
    if a.without_term and not a.pairs:
        p.error("--without-term leaves out pairs: give --pairs")
    if a.max_pair_mentions is not None and not a.pairs:
        p.error("--max-pair-mentions bounds pairs: give --pairs")
    if a.max_pair_mentions is not None and a.max_pair_mentions < 2:
        p.error(f"--max-pair-mentions takes a whole number of at least 2, not {a.max_pair_mentions}")
    if a.max_pair_mentions is None:
        a.max_pair_mentions = DEFAULT_MAX_PAIR_MENTIONS
    if a.posts:
        return a
    if a.pairs and a.columns:
        p.error("--columns does not apply to pairs (SPEC 12.5)")
    if a.pairs and a.by:
        p.error("--by does not apply to pairs (SPEC 12.5)")
    trend_only = [n for n in ("current", "baseline", "now", "min_authors") if getattr(a, n) is not None] \
        + [n for n in ("by_tweets", "all") if getattr(a, n)]
    if trend_only and not a.trend:
        p.error(f"--{trend_only[0].replace('_', '-')} goes with --trend (SPEC 14)")
    if a.trend and (a.pairs or a.by or a.columns):
        p.error("--trend has windows and columns of its own: --pairs, --by and --columns do not apply (SPEC 14)")
    if a.trend and not a.current:
        p.error("--trend needs --current WINDOW: 1d, 7d, 6h, 2w or A..B")
    if a.tz and not a.by and not a.trend:
        p.error("--tz names the buckets of --by: give --by")
    if a.pairs and a.format == "gexf" and len(a.term) > 1:
        p.error("--format gexf writes one graph, for one term: run once per term")
    if "-" in a.paths:
        p.error("'-' (standard input) cannot be spread over executors; give files or folders")
    for name in ("min_count", "top", "partitions", "shuffle_partitions", "extract_jobs"):
        v = getattr(a, name)
        if v is not None and v < 1:
            p.error(f"--{name.replace('_', '-')} takes a whole number of at least 1, not {v}")
    return a


def find_binary(given, installed):
    """The smashtag binary on the driver, and whether it still needs shipping."""
    if given:
        path = given
    elif os.environ.get("SMASHTAG"):
        path = os.environ["SMASHTAG"]
    else:
        # spark-submit --files smashtag: already on its way to every executor.
        try:
            from pyspark import SparkFiles
            shipped = SparkFiles.get("smashtag")
            if os.path.isfile(shipped):
                return shipped, False
        except Exception:
            pass
        path = shutil.which("smashtag") or next((p for p in built_binaries() if os.path.isfile(p)), "")
    if not path or not os.path.isfile(path):
        raise UsageError(f"no smashtag binary at '{path or 'smashtag'}': give --smashtag PATH")
    return os.path.abspath(path), not installed


def built_binaries():
    """The binaries `swift build` leaves in this checkout, release first."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return [os.path.join(root, ".build", config, "smashtag") for config in ("release", "debug")]


FACTS_CARRIED = b"carries=kind,author,spellings"
TIME_CARRIED = b"carries=time"
FACTS_AND_TIME_CARRIED = b"carries=kind,author,spellings,time"


def series_flags(by, tz):
    """`--by UNIT` and `--tz ZONE` as smashtag takes them, when given."""
    return [*(["--by", by] if by else []), *(["--tz", tz] if tz else [])]


def smashtag_header(binary, terms, options=()):
    """The extract header for these terms and options (filters, --columns):
    validates and normalises them as smashtag does."""
    r = subprocess.run([binary, "extract", *term_flags(terms), *options, "--paths-from-stdin", "--quiet"],
                       stdin=subprocess.DEVNULL, capture_output=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr.decode("utf-8", "replace"))
        raise UsageError(f"smashtag extract refused the terms or options (exit status {r.returncode})")
    header = r.stdout.rstrip(b"\n")
    fields = header.split(b"\t")
    if fields[:3] != [b"H", b"smashtag-extract", b"1"] and fields[:4] not in [
            [b"H", b"smashtag-extract", b"2", c] for c in (FACTS_CARRIED, TIME_CARRIED, FACTS_AND_TIME_CARRIED)]:
        raise RuntimeError(f"unexpected extract header {header!r}: this job reads format versions 1 and 2")
    return header


def header_terms(header):
    """The terms of an extract header (after the version, and what version 2 carries)."""
    fields = header.split(b"\t")
    return fields[4:] if fields[2] == b"2" else fields[3:]


def report_options(a):
    """The filters and --columns, as smashtag's options (for extract; --columns for aggregate too)."""
    out = []
    for name in ("since", "until", "retweets", "lang", "columns", "kinds"):
        v = getattr(a, name)
        if v is not None:
            out += [f"--{name}", v]
    return out


def list_inputs(binary, paths, strict):
    """The files a report on `paths` would read, in its order."""
    r = subprocess.run([binary, "extract", "--list-inputs", *(["--strict"] if strict else []), "--", *paths],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    if r.returncode != 0 and (strict or not r.stdout):
        raise InputError(f"no input could be listed (exit status {r.returncode}; smashtag said why above)")
    return [line for line in r.stdout.decode("utf-8", "surrogateescape").split("\n") if line]


def group_inputs(paths, partitions):
    """Cuts the ordered paths into at most `partitions` contiguous groups of about equal bytes."""
    sizes = []
    for p in paths:
        try:
            sizes.append(max(1, os.stat(p).st_size))
        except OSError:
            sizes.append(1)  # extract reports it
    total = sum(sizes)
    n = max(1, min(partitions, len(paths)))
    groups, before = [[] for _ in range(n)], 0
    for p, s in zip(paths, sizes):
        # The group of a file is where its first byte falls: groups stay in input order.
        groups[min(n - 1, before * n // total)].append(p)
        before += s
    return [g for g in groups if g]


def term_flags(terms):
    return [f for t in terms for f in ("-t", t)]


# -------------------------------------------------------------- executor side


def resolve_on_executor(binary, shipped):
    """The binary's path on this executor: its SparkFiles copy, or the installed one."""
    if not shipped:
        return binary
    from pyspark import SparkFiles
    name = os.path.basename(binary)
    for candidate in (SparkFiles.get(name), os.path.join(os.getcwd(), name)):
        if os.path.isfile(candidate):
            if not os.access(candidate, os.X_OK):
                os.chmod(candidate, 0o755)
            return candidate
    raise RuntimeError(f"smashtag was not shipped to this executor (looked for {name} in SparkFiles)")


def extract_groups(binary, shipped, header, args, strict):
    """mapPartitions function: pipes each group's paths through one extract
    (RDD.pipe, with the binary resolved on the executor and its exit status
    checked); yields one record per copy of a matching tweet (`_copies`)."""
    index = {t: i for i, t in enumerate(header_terms(header))}

    def run(groups):
        exe = resolve_on_executor(binary, shipped)
        for g, paths in groups:
            proc = subprocess.Popen([exe, "extract", *args, "--paths-from-stdin"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            feed = threading.Thread(target=_feed, args=(proc.stdin, paths), daemon=True)
            feed.start()
            yield from _copies(proc.stdout, g, header, index)
            feed.join()
            status = proc.wait()
            # 1: bad input under --strict, or nothing in this group could be read
            # (already said on the executor's stderr); a report goes on then too.
            if status != 0 and (status != 1 or strict):
                raise RuntimeError(f"smashtag extract exited with status {status} on {len(paths)} inputs "
                                   f"starting with {paths[0]} (its message is in the executor's stderr)")

    return run


def _feed(pipe, paths):
    try:
        pipe.write("".join(p + "\n" for p in paths).encode("utf-8", "surrogateescape"))
        pipe.close()
    except BrokenPipeError:
        pass


# SPEC 16: after its tweets, an extract names the Bluesky handles it met
# (`A DID HANDLE TIME`, `S DID HANDLE COUNT [POST]`); they ride the shuffle under a
# key of their own, one per extract group and line, and the driver hands
# them to the final aggregate, which shows accounts by handle as a report does.
HANDLE_LINES = (b"A", b"S")


def HANDLE_KEY(f, rank):
    return (-1, (rank >> 40, b"\t".join(f)))


def split_handles(tweets):
    """The handle lines of `tweets` (cached, so the extracts run once) and the
    tweets without them (nor the join lines: `split_joins`)."""
    tweets = tweets.cache()
    lines = sorted(set(k[1][1] for k in tweets.filter(lambda kv: kv[0][0] == -1).keys().collect()))
    return lines, tweets.filter(lambda kv: kv[0][0] >= 0)


# SPEC 16: a Bluesky repost carries its subject's mentions, and its subject
# may be in another group. So extract matches no repost: it writes what every
# Bluesky post carries (`J POST MENTION SPELLING...`, `X POST TEXT`, one block
# of consecutive lines a post) and every repost its filters keep (`R ...`).
# They ride the shuffle under keys of their own (a post's block, a repost's
# line: the first copy by rank wins, as for tweets), and the driver hands
# them to the final aggregate, which matches the reposts once it has them all.
JOIN_LINES = (b"J", b"X", b"R")


class JoinBlocks:
    """Collects an extract's join lines: ((-2, (b"J", post)), ((rank, n), block)) per
    post's block, ((-2, (b"R", repost)), ((rank, n), line)) per repost line."""

    def __init__(self):
        self.post, self.lines, self.n = None, [], 0

    def take(self, f, rank):
        if f[0] == b"R":
            yield from self.close(rank)
            self.n += 1
            yield (-2, (b"R", f[1])), ((rank, self.n), b"\t".join(f))
            return
        if self.post is not None and f[1] != self.post:
            yield from self.close(rank)
        self.post = f[1]
        self.lines.append(b"\t".join(f))

    def close(self, rank):
        if self.post is not None:
            self.n += 1
            yield (-2, (b"J", self.post)), ((rank, self.n), b"\n".join(self.lines))
        self.post, self.lines = None, []


def split_joins(copies):
    """The join lines of `copies` (cached), in the order read (first copies only),
    and the copies without them."""
    copies = copies.cache()
    blocks = sorted(v for _, v in copies.filter(lambda kv: kv[0][0] == -2).collect())
    return [b for _, b in blocks], copies.filter(lambda kv: kv[0][0] != -2)


def write_joins(f, blocks):
    for block in blocks:
        f.write(block + b"\n")


def has_reposts(blocks):
    return any(b.startswith(b"R\t") for b in blocks)


def write_handles(f, lines):
    for line in lines:
        f.write(line + b"\n")


def _copies(stream, group, header, index):
    """Groups consecutive extract lines of one (term, tweet id): one copy each
    (extract never writes two copies of a tweet next to each other).

    A copy is ((term index, tweet id), (rank, mentions)): rank is the group
    times 2^40 plus the copy's number in the group's output, mentions the
    escaped mentions joined by tabs (one bytes object pickles smaller and
    faster than a tuple)."""
    first = stream.readline().rstrip(b"\n")
    if first != header:
        if not first:
            return  # exit status tells
        raise RuntimeError(f"extract wrote {first[:200]!r} where its header {header!r} belongs")
    key, mentions, rank = None, [], group << 40
    joins = JoinBlocks()
    if header.split(b"\t")[2:4] == [b"2", TIME_CARRIED]:
        yield from _copies_with_times(stream, rank, index)
        return
    if header.split(b"\t")[2] == b"2":
        yield from _copies_with_facts(stream, rank, index, timed=header.split(b"\t")[3] == FACTS_AND_TIME_CARRIED)
        return
    for line in stream:
        f = line.rstrip(b"\n").split(b"\t")
        if f[0] in HANDLE_LINES:
            yield HANDLE_KEY(f, rank), (rank,)
            continue
        if f[0] in JOIN_LINES:
            yield from joins.take(f, rank)
            continue
        yield from joins.close(rank)
        k = (index[f[1]], f[2])
        if k != key:
            if key is not None:
                yield key, (rank, b"\t".join(mentions))
                rank += 1
            key, mentions = k, []
        if f[0] == b"M":
            mentions.append(f[3])
    if key is not None:
        yield key, (rank, b"\t".join(mentions))
    yield from joins.close(rank)


def _copies_with_times(stream, rank, index):
    """Format version 2 with `carries=time`: a T line with the creation time
    (seconds UTC) opens every copy. A copy is ((term, id), (rank, mentions, time))."""
    key, mentions, time = None, [], None
    joins = JoinBlocks()
    for line in stream:
        f = line.rstrip(b"\n").split(b"\t")
        if f[0] in HANDLE_LINES:
            yield HANDLE_KEY(f, rank), (rank,)
            continue
        if f[0] in JOIN_LINES:
            yield from joins.take(f, rank)
            continue
        yield from joins.close(rank)
        k = (index[f[1]], f[2])
        if k != key:
            if key is not None:
                yield key, (rank, b"\t".join(mentions), time)
                rank += 1
            key, mentions = k, []
        if f[0] == b"M":
            mentions.append(f[3])
        else:
            time = int(f[3])
    if key is not None:
        yield key, (rank, b"\t".join(mentions), time)
    yield from joins.close(rank)


def count_partition_by_time(copies):
    """count_partition with times: (term, second, None) for each tweet and
    (term, second, mention) for each of its mentions."""
    counts = Counter()
    for (term, _), (_, mentions, time) in copies:
        counts[(term, time, None)] += 1
        if mentions:
            counts.update((term, time, m) for m in mentions.split(b"\t"))
    return iter(counts.items())


def _copies_with_facts(stream, rank, index, timed=False):
    """Format version 2: a T line (kind, author) opens every copy, M lines carry
    the tweet's spellings of their mention. A copy is ((term, id), (rank,
    mentions, (retweet, author, spellings))), spellings as (mention, spelling)
    pairs; with `timed` (`carries=kind,author,spellings,time`, the T line
    ending with the creation time), ((term, id), (rank, mentions, facts, time))."""
    key, time = None, None
    joins = JoinBlocks()

    def copy():
        facts = (retweet, author, tuple(spellings))
        return key, ((rank, b"\t".join(mentions), facts, time) if timed else (rank, b"\t".join(mentions), facts))
    for line in stream:
        f = line.rstrip(b"\n").split(b"\t")
        if f[0] in HANDLE_LINES:
            yield HANDLE_KEY(f, rank), (rank,)
            continue
        if f[0] in JOIN_LINES:
            yield from joins.take(f, rank)
            continue
        yield from joins.close(rank)
        if f[0] == b"T":
            if key is not None:
                yield copy()
                rank += 1
            key, mentions, spellings = (index[f[1]], f[2]), [], []
            retweet, author = f[3] == b"r", (None if f[4] == b"-" else f[4])
            if timed:
                time = int(f[5])
        else:
            mentions.append(f[3])
            spellings.extend((f[3], sp) for sp in f[4:])
    if key is not None:
        yield copy()
    yield from joins.close(rank)


def first_copy(a, b):
    """Of two copies of a (term, tweet), the one read first by a report."""
    return a if a[0] <= b[0] else b


def count_partition(copies):
    """mapPartitions function: counts (term, None) for each tweet and
    (term, mention) for each of its mentions, in a dict (much faster than
    Spark's combiner in Python).

    - Complexity: memory O(distinct (term, mention) pairs in the partition).
    """
    counts = Counter()
    for (term, _), (_, mentions, *_) in copies:
        counts[(term, None)] += 1
        if mentions:
            counts.update((term, m) for m in mentions.split(b"\t"))
    return iter(counts.items())


# A tweet carrying more distinct mentions adds no pairs (SPEC 12.5), as in smashtag.
DEFAULT_MAX_PAIR_MENTIONS = 200


def count_pairs_partition(copies, max_mentions=DEFAULT_MAX_PAIR_MENTIONS):
    """mapPartitions function for --pairs: as `count_partition`, plus
    (term, (a, b)) for each unordered pair of a copy's mentions (a < b in
    bytes; extract writes each of a tweet's mentions once). A copy of more
    than `max_mentions` mentions adds its mentions and no pairs.

    - Complexity: memory O(distinct (term, mention) and (term, pair) keys in
      the partition); time O(min(mentions, max_mentions)^2) per tweet.
    """
    counts = Counter()
    for (term, _), (_, mentions, *_) in copies:
        counts[(term, None)] += 1
        if not mentions:
            continue
        ms = sorted(mentions.split(b"\t"))
        counts.update((term, m) for m in ms)
        if len(ms) <= max_mentions:
            counts.update((term, (ms[i], ms[j])) for i in range(len(ms)) for j in range(i + 1, len(ms)))
    return iter(counts.items())



def count_facts_partition(copies):
    """mapPartitions function for --columns: per (term, mention or None),
    the retweets among the counted tweets; per (term, mention, spelling), the
    tweets writing it so (keyed with a leading 0 and 1 to share one shuffle)."""
    counts = Counter()
    for (term, _), (_, mentions, (retweet, _, spellings)) in copies:
        ms = mentions.split(b"\t") if mentions else []
        if retweet:
            counts[(0, term, None)] += 1
            counts.update((0, term, m) for m in ms)
        counts.update((1, term, m, sp) for m, sp in set(spellings))
    return iter(counts.items())


def author_pairs(copy):
    """flatMap function: the (term, mention or None, author) pairs of a counted tweet, for distinct authors."""
    (term, _), (_, mentions, (_, author, _)) = copy
    if author is None:
        return []
    return [(term, None, author)] + [(term, m, author) for m in (mentions.split(b"\t") if mentions else [])]


def better_spelling(a, b):
    """Of two (tweets, spelling), the display: most tweets, ties by UTF-8 bytes."""
    return a if (a[0] > b[0] or (a[0] == b[0] and a[1] <= b[1])) else b


# ----------------------------------------------------------------------- job


def popularity(sc, a, out):
    """Runs the job for parsed arguments `a`, writing the report to the binary
    stream `out`, or with -o to that file.

    Returns the exit status of the final `smashtag aggregate`.
    """
    if a.posts:
        return posts(sc, a, out)
    binary, ship = find_binary(a.smashtag, a.installed)
    options = report_options(a) + (["--by", a.by] if a.by else []) + (["--trend"] if a.trend else [])
    header = smashtag_header(binary, a.term, options + ([] if a.trend else series_flags(None, a.tz)))
    carried = header.split(b"\t")[3] if header.split(b"\t")[2] == b"2" else None
    facts = carried in (FACTS_CARRIED, FACTS_AND_TIME_CARRIED)
    paths = list_inputs(binary, a.paths, a.strict)
    if ship:
        sc.addFile(binary)
    if __name__ != "__main__":
        # Imported (by a test, a notebook): the executors' Python needs this module too.
        sc.addPyFile(os.path.abspath(__file__))
    partitions = a.partitions or 4 * sc.defaultParallelism
    groups = group_inputs(paths, partitions)
    extract_args = [*term_flags(a.term), *options, "--quiet", "--jobs", str(a.extract_jobs), *(["--strict"] if a.strict else [])]

    copies = (sc.parallelize(list(enumerate(groups)), max(1, len(groups)))
              .mapPartitions(extract_groups(binary, ship, header, extract_args, a.strict)))
    # As many shuffle partitions as cores: the final counts are read a partition at a time.
    shuffle = a.shuffle_partitions or sc.defaultParallelism
    joins, reduced = split_joins(copies.reduceByKey(first_copy, shuffle))
    handles, tweets = split_handles(reduced)
    terms = header_terms(header)
    reposts = has_reposts(joins)
    if a.trend:
        # SPEC 14: the kept copies go back as extract lines; aggregate --trend windows and scores them.
        with tempfile.NamedTemporaryFile(prefix="smashtag-trend-", suffix=".tsv") as f:
            write_trend_lines(f, header, terms, tweets.toLocalIterator())
            write_handles(f, handles)
            write_joins(f, joins)
            f.flush()
            return run_aggregate([binary, "aggregate", f.name, "--quiet", "--trend", *trend_flags(a)], a, out)
    if facts and reposts:
        # SPEC 16: reposts are matched by the final aggregate; their distinct
        # authors and spellings do not add to counts made here, so the kept
        # copies go back as extract lines (as for --trend) with the join lines.
        with tempfile.NamedTemporaryFile(prefix="smashtag-copies-", suffix=".tsv") as f:
            write_copy_lines(f, header, terms, tweets.toLocalIterator(), timed=carried == FACTS_AND_TIME_CARRIED)
            write_handles(f, handles)
            write_joins(f, joins)
            f.flush()
            cmd = [binary, "aggregate", f.name, "--quiet", "--min-count", str(a.min_count),
                   *(series_flags(a.by, a.tz) if a.by else [])]
            for name in ("since", "until", "columns", "kinds"):
                if getattr(a, name) is not None and (a.by or name not in ("since", "until")):
                    cmd += [f"--{name}", getattr(a, name)]
            if a.format:
                cmd += ["--format", a.format]
            if a.top:
                cmd += ["--top", str(a.top)]
            return run_aggregate(cmd, a, out)
    if a.by:
        # A series, with no --min-count cut (a series chooses its mentions by their
        # totals); aggregate --by buckets the counts, chooses and zero-fills.
        with tempfile.NamedTemporaryFile(prefix="smashtag-counts-", suffix=".tsv") as f:
            if facts:
                write_bucketed_facts(f, tweets, terms, a.by, a.tz, shuffle)
            else:
                # Counts per (term, creation second, mention): they add up over any bucket.
                timed = tweets.mapPartitions(count_partition_by_time).reduceByKey(add, shuffle)
                f.write(b"\t".join([b"H", b"smashtag-counts", b"2", TIME_CARRIED, *terms]) + b"\n")
                for (term, time, mention), count in timed.toLocalIterator():
                    if mention is None:
                        f.write(b"N\t%s\t%d\t%d\n" % (terms[term], time, count))
                    else:
                        f.write(b"C\t%s\t%d\t%s\t%d\n" % (terms[term], time, mention, count))
            write_handles(f, handles)
            write_joins(f, joins)
            f.flush()
            cmd = [binary, "aggregate", f.name, "--quiet", "--min-count", str(a.min_count), *series_flags(a.by, a.tz)]
            for name in ("since", "until", "columns", "kinds"):
                if getattr(a, name) is not None:
                    cmd += [f"--{name}", getattr(a, name)]
            if a.format:
                cmd += ["--format", a.format]
            if a.top:
                cmd += ["--top", str(a.top)]
            return run_aggregate(cmd, a, out)
    if facts:
        tweets = tweets.cache()
    # Reposts matched by the final aggregate may lift a count: then every count goes to it.
    min_count = 0 if reposts else a.min_count
    limit = a.max_pair_mentions
    counts = (tweets.mapPartitions((lambda copies: count_pairs_partition(copies, limit)) if a.pairs else count_partition)
              .reduceByKey(add, shuffle)
              .filter(lambda kc: kc[0][1] is None or kc[1] >= min_count))

    tweet_counts = [0] * len(terms)
    with tempfile.NamedTemporaryFile(prefix="smashtag-counts-", suffix=".tsv") as f:
        rows = []
        for (term, key), count in counts.toLocalIterator():
            if key is None:
                tweet_counts[term] = count
            else:
                rows.append((term, key, count))
        if facts:
            write_facts(f, tweets, terms, rows, tweet_counts, shuffle)
            tweets.unpersist()
        else:
            magic = b"smashtag-pairs" if a.pairs else b"smashtag-counts"
            f.write(b"\t".join([b"H", magic, b"1", *terms]) + b"\n")
            for term, key, count in rows:
                if isinstance(key, tuple):
                    f.write(b"P\t%s\t%s\t%s\t%d\n" % (terms[term], key[0], key[1], count))
                else:
                    f.write(b"C\t%s\t%s\t%d\n" % (terms[term], key, count))
            for term, count in enumerate(tweet_counts):
                f.write(b"N\t%s\t%d\n" % (terms[term], count))
        write_handles(f, handles)
        write_joins(f, joins)
        f.flush()
        cmd = [binary, "aggregate", f.name, "--quiet", "--min-count", str(a.min_count)]
        if a.pairs:
            cmd.append("--pairs")
        if a.without_term:
            cmd.append("--without-term")
        if a.columns:
            cmd += ["--columns", a.columns]
        if a.kinds:
            cmd += ["--kinds", a.kinds]
        if a.format:
            cmd += ["--format", a.format]
        if a.top:
            cmd += ["--top", str(a.top)]
        return run_aggregate(cmd, a, out)


def trend_flags(a):
    """What `aggregate --trend` takes of the job's options."""
    out = []
    for name in ("current", "baseline", "now", "tz", "min_authors", "kinds", "format", "top"):
        v = getattr(a, name)
        if v is not None:
            out += [f"--{name.replace('_', '-')}", str(v)]
    return out + (["--by-tweets"] if a.by_tweets else []) + (["--all"] if a.all else [])


def write_trend_lines(f, header, terms, tweets):
    """Writes the first copies of `extract --trend` (carries=kind,author,spellings,time)
    back as extract lines: a T line with kind, author and time, an M line per
    mention with the tweet's spellings of it."""
    f.write(header + b"\n")
    for (t, tweet), (_, mentions, (retweet, author, spellings), time) in tweets:
        term = terms[t]
        f.write(b"T\t%s\t%s\t%s\t%s\t%d\n" % (term, tweet, b"r" if retweet else b"o", author or b"-", time))
        written = {}
        for m, sp in spellings:
            written.setdefault(m, []).append(sp)
        for m in (mentions.split(b"\t") if mentions else []):
            f.write(b"M\t%s\t%s\t%s%s\n" % (term, tweet, m, b"".join(b"\t" + sp for sp in written.get(m, []))))


def write_copy_lines(f, header, terms, tweets, timed):
    """Writes the first copies of a version 2 extract with facts (and, with
    `timed`, times) back as extract lines: a T line with kind and author (and
    time), an M line per mention with the tweet's spellings of it."""
    f.write(header + b"\n")
    for (t, tweet), value in tweets:
        mentions, (retweet, author, spellings) = value[1], value[2]
        term = terms[t]
        opening = b"T\t%s\t%s\t%s\t%s" % (term, tweet, b"r" if retweet else b"o", author or b"-")
        f.write(opening + (b"\t%d\n" % value[3] if timed else b"\n"))
        written = {}
        for m, sp in spellings:
            written.setdefault(m, []).append(sp)
        for m in (mentions.split(b"\t") if mentions else []):
            f.write(b"M\t%s\t%s\t%s%s\n" % (term, tweet, m, b"".join(b"\t" + sp for sp in written.get(m, []))))


def run_aggregate(cmd, a, out):
    """Runs the final `smashtag aggregate`: with -o it writes the file itself
    (as `smashtag report -o` would: the format from the name when --format is
    not given, a workbook only to a file, the file replaced whole), else the
    report goes to `out`. Returns its exit status."""
    if a.output:
        cmd = [*cmd, "-o", a.output]
    out.flush()
    return subprocess.run(cmd, stdout=out, stdin=subprocess.DEVNULL).returncode


def write_facts(f, tweets, terms, rows, tweet_counts, shuffle):
    """Counts format version 2: the rows kept (count at least --min-count) and
    every term, with their retweets, distinct authors and display spelling."""
    kept = {(t, m) for t, m, _ in rows}
    retweets, best = Counter(), {}
    for k, n in tweets.mapPartitions(count_facts_partition).reduceByKey(add, shuffle).toLocalIterator():
        if k[0] == 0:
            if k[2] is None or (k[1], k[2]) in kept:
                retweets[(k[1], k[2])] = n
        elif (k[1], k[2]) in kept:
            best[(k[1], k[2])] = better_spelling(best.get((k[1], k[2]), (n, k[3])), (n, k[3]))
    authors = Counter()
    for (t, m), n in (tweets.flatMap(author_pairs).distinct(shuffle)
                      .map(lambda tma: ((tma[0], tma[1]), 1)).reduceByKey(add, shuffle).toLocalIterator()):
        if m is None or (t, m) in kept:
            authors[(t, m)] = n
    f.write(b"\t".join([b"H", b"smashtag-counts", b"2", b"carries=retweets,authors,display", *terms]) + b"\n")
    for t, m, count in rows:
        display = best[(t, m)][1] if (t, m) in best else b""
        f.write(b"C\t%s\t%s\t%d\t%d\t%d\t%s\n" % (terms[t], m, count, retweets[(t, m)], authors[(t, m)], display))
    for t, count in enumerate(tweet_counts):
        f.write(b"N\t%s\t%d\t%d\t%d\n" % (terms[t], count, retweets[(t, None)], authors[(t, None)]))


def bucket_namer(unit, tz):
    """A function from a creation second (UTC) to the name of its bucket,
    as SPEC 12.4 names them: the local wall-clock time in the zone `tz` (an
    IANA name, read from the tz database smashtag reads: $TZDIR, else the
    system's), so the hour repeated when clocks go back is one bucket and the
    skipped one none; weeks are ISO 8601 (Monday first, the ISO week-year).
    A second Python's datetime cannot place (outside years 1 to 9999) is a
    bucket of its own."""
    import datetime
    import zoneinfo
    if (tz or "UTC") == "UTC":
        zone = datetime.timezone.utc
    else:
        if os.path.isabs(os.environ.get("TZDIR", "")):
            zoneinfo.reset_tzpath([os.environ["TZDIR"]])
        zone = zoneinfo.ZoneInfo(tz)
    width = {"year": 4, "month": 7, "day": 10, "hour": 13}.get(unit)  # None: week (smashtag checked the unit)

    def name(second):
        try:
            local = datetime.datetime.fromtimestamp(second, zone)
        except (OverflowError, OSError, ValueError):
            return "@%d" % second
        if width is None:
            year, week, _ = local.isocalendar()
            return "%04d-W%02d" % (year, week)
        return ("%04d-%02d-%02dT%02d" % (local.year, local.month, local.day, local.hour))[:width]
    return name


def bucket_partition(unit, tz):
    """mapPartitions function for --by with --columns: each counted copy with
    its bucket, as (term, bucket, time, mentions, retweet, author, spellings)."""
    def run(copies):
        name = bucket_namer(unit, tz)
        names = {}
        for (term, _), (_, mentions, (retweet, author, spellings), time) in copies:
            bucket = names.get(time)
            if bucket is None:
                if len(names) > 100_000:
                    names.clear()
                bucket = names[time] = name(time)
            yield term, bucket, time, (mentions.split(b"\t") if mentions else []), retweet, author, spellings
    return run


def count_bucket_partition(tweets):
    """mapPartitions function for --by with --columns: per (term, bucket) and
    per (term, bucket, mention), the tweets (key 0) and the retweets among
    them (key 1); per (term, bucket, mention, spelling), the tweets writing it
    so (key 2). One shuffle for all three."""
    counts = Counter()
    for term, bucket, _, mentions, retweet, _, spellings in tweets:
        counts[(0, term, bucket, None)] += 1
        counts.update((0, term, bucket, m) for m in mentions)
        if retweet:
            counts[(1, term, bucket, None)] += 1
            counts.update((1, term, bucket, m) for m in mentions)
        counts.update((2, term, bucket, m, sp) for m, sp in set(spellings))
    return iter(counts.items())


def bucket_author_pairs(tweet):
    """flatMap function: the (term, bucket, mention or None, author) of a counted tweet, for distinct authors."""
    term, bucket, _, mentions, _, author, _ = tweet
    if author is None:
        return []
    return [(term, bucket, None, author)] + [(term, bucket, m, author) for m in mentions]


def write_bucketed_facts(f, tweets, terms, unit, tz, shuffle):
    """--by with --columns: the columns of SPEC 12.3 per bucket (SPEC 12.4),
    counted over each bucket's own tweets, as `smashtag-counts` version 2 with
    `carries=retweets,authors,display,time`. Distinct authors and the display
    do not add up over seconds, so the buckets are made here (`bucket_namer`)
    and each is written as the creation second of its first tweet, which
    `aggregate --by` with the same unit and zone puts back in that bucket."""
    bucketed = tweets.mapPartitions(bucket_partition(unit, tz)).cache()
    first = dict(bucketed.map(lambda tw: ((tw[0], tw[1]), tw[2])).reduceByKey(min, shuffle).toLocalIterator())
    counts, retweets, best = {}, Counter(), {}
    for k, n in bucketed.mapPartitions(count_bucket_partition).reduceByKey(add, shuffle).toLocalIterator():
        if k[0] == 0:
            counts[k[1:]] = n
        elif k[0] == 1:
            retweets[k[1:]] = n
        else:
            row = k[1:4]
            best[row] = better_spelling(best.get(row, (n, k[4])), (n, k[4]))
    authors = Counter()
    for row, n in (bucketed.flatMap(bucket_author_pairs).distinct(shuffle)
                   .map(lambda tbma: (tbma[:3], 1)).reduceByKey(add, shuffle).toLocalIterator()):
        authors[row] = n
    bucketed.unpersist()
    f.write(b"\t".join([b"H", b"smashtag-counts", b"2", b"carries=retweets,authors,display,time", *terms]) + b"\n")
    for (t, bucket, m), count in counts.items():
        time = first[(t, bucket)]
        if m is None:
            f.write(b"N\t%s\t%d\t%d\t%d\t%d\n" % (terms[t], time, count, retweets[(t, bucket, m)], authors[(t, bucket, m)]))
        else:
            display = best[(t, bucket, m)][1] if (t, bucket, m) in best else b""
            f.write(b"C\t%s\t%d\t%s\t%d\t%d\t%d\t%s\n" % (terms[t], time, m, count, retweets[(t, bucket, m)],
                                                         authors[(t, bucket, m)], display))


# ------------------------------------------------------------------ --posts


POSTS_MAGIC = b"smashtag-posts"
NO_RANK = 1 << 62


def posts_extract_options(a):
    """The filters, and --columns text when a text is asked for, as `extract --posts` takes them."""
    out = ["--posts"]
    for name in ("since", "until", "retweets", "lang"):
        v = getattr(a, name)
        if v is not None:
            out += [f"--{name}", v]
    if a.columns and "text" in a.columns.split(","):
        out += ["--columns", "text"]
    return out


def posts_header(binary, terms, options):
    """The `extract --posts` header for these terms and options (validated by smashtag)."""
    r = subprocess.run([binary, "extract", *term_flags(terms), *options, "--paths-from-stdin", "--quiet"],
                       stdin=subprocess.DEVNULL, capture_output=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr.decode("utf-8", "replace"))
        raise UsageError(f"smashtag extract refused the terms or options (exit status {r.returncode})")
    header = r.stdout.rstrip(b"\n")
    if header.split(b"\t")[:3] != [b"H", POSTS_MAGIC, b"1"]:
        raise RuntimeError(f"unexpected posts header {header!r}: this job reads smashtag-posts version 1")
    return header


def posts_header_terms(header):
    fields = header.split(b"\t")
    return fields[4:] if len(fields) > 3 and fields[3] == b"carries=text" else fields[3:]


def extract_posts_groups(binary, shipped, header, args, strict):
    """mapPartitions function: each group's paths through one `extract --posts`;
    yields (("P", term, tweet), (0, rank, retweet, quote, reply)) per copy of a
    matching tweet and (("S", post), state) per copy of a post (`_post_state`)."""
    index = {t: i for i, t in enumerate(posts_header_terms(header))}
    texts = b"\tcarries=text\t" in header + b"\t"

    def run(groups):
        exe = resolve_on_executor(binary, shipped)
        for g, paths in groups:
            proc = subprocess.Popen([exe, "extract", *args, "--paths-from-stdin"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            feed = threading.Thread(target=_feed, args=(proc.stdin, paths), daemon=True)
            feed.start()
            first = proc.stdout.readline().rstrip(b"\n")
            if first and first != header:
                raise RuntimeError(f"extract wrote {first[:200]!r} where its header {header!r} belongs")
            rank = g << 40
            joins = JoinBlocks()
            for line in proc.stdout:
                f = line.rstrip(b"\n").split(b"\t")
                rank += 1
                if f[0] in JOIN_LINES:
                    for (_, key), (r, block) in joins.take(f, rank):
                        yield ("J", key), (2, r, block)
                    continue
                for (_, key), (r, block) in joins.close(rank):
                    yield ("J", key), (2, r, block)
                if f[0] in (b"A", b"B"):
                    # A Bluesky handle (SPEC 16): to the final aggregate, as the report's handle lines go.
                    yield ("H", b"\t".join(f)), (2, (rank, 0), b"\t".join(f))
                elif f[0] == b"P":
                    yield ("P", index[f[1]], f[2]), (0, rank, f[3], f[4], f[5])
                elif f[0] == b"S":
                    yield ("S", f[1]), _post_state(rank, f[2] == b"o", f[3], f[4], f[5] if texts else b"-")
            for (_, key), (r, block) in joins.close(rank):
                yield ("J", key), (2, r, block)
            feed.join()
            status = proc.wait()
            if status != 0 and (status != 1 or strict):
                raise RuntimeError(f"smashtag extract --posts exited with status {status} on {len(paths)} inputs "
                                   f"starting with {paths[0]} (its message is in the executor's stderr)")

    return run


def _post_state(rank, own, author, time, text):
    """What one S line says of a post, as a mergeable state: (1, own rank,
    own author, own time, own text, then for each of author, time, text the
    rank of the first copy that says it and what it says)."""
    if own:
        return (1, rank, author, time, text, NO_RANK, b"-", NO_RANK, b"-", NO_RANK, b"-")
    return (1, NO_RANK, b"-", b"-", b"-",
            rank if author != b"-" else NO_RANK, author,
            rank if time != b"-" else NO_RANK, time,
            rank if text != b"-" else NO_RANK, text)


def merge_posts(a, b):
    """reduceByKey function: the first copy of a (term, tweet) (tag 0), or the
    merged states of a post's copies (tag 1): its first own record whole, then
    field by field the first embedded copy that says it."""
    if a[0] in (0, 2):
        # The first copy of a (term, tweet), or of a post's or repost's join lines.
        return a if a[1] <= b[1] else b
    own = a[1:5] if a[1] <= b[1] else b[1:5]
    fields = []
    for k in (5, 7, 9):
        fields += a[k:k + 2] if a[k] <= b[k] else b[k:k + 2]
    return (1, *own, *fields)


def count_posts_partition(records):
    """mapPartitions function over the first copies: per (term, post) its
    retweets, quotes and replies, and per term its tweets ((term, None))."""
    counts = {}
    for key, value in records:
        if key[0] != "P":
            continue
        term = key[1]
        counts[(term, None)] = counts.get((term, None), 0) + 1
        for k, post in enumerate(value[2:5]):
            if post != b"-":
                c = counts.get((term, post), (0, 0, 0))
                counts[(term, post)] = tuple(n + (1 if i == k else 0) for i, n in enumerate(c))
    return iter(counts.items())


def add_counts(a, b):
    return a + b if isinstance(a, int) else tuple(x + y for x, y in zip(a, b))


def posts(sc, a, out):
    """`--posts`: the posts the matching tweets retweet, quote and reply to, as `smashtag posts`."""
    binary, ship = find_binary(a.smashtag, a.installed)
    options = posts_extract_options(a)
    header = posts_header(binary, a.term, options)
    paths = list_inputs(binary, a.paths, a.strict)
    if ship:
        sc.addFile(binary)
    if __name__ != "__main__":
        sc.addPyFile(os.path.abspath(__file__))
    groups = group_inputs(paths, a.partitions or 4 * sc.defaultParallelism)
    extract_args = [*term_flags(a.term), *options, "--quiet", "--jobs", str(a.extract_jobs), *(["--strict"] if a.strict else [])]
    shuffle = a.shuffle_partitions or sc.defaultParallelism
    merged = (sc.parallelize(list(enumerate(groups)), max(1, len(groups)))
              .mapPartitions(extract_posts_groups(binary, ship, header, extract_args, a.strict))
              .reduceByKey(merge_posts, shuffle)
              .cache())
    # SPEC 16: the join lines, for the final aggregate, which matches the reposts.
    joins = [block for _, block in sorted(v[1:] for v in merged.filter(lambda kv: kv[0][0] == "J").values().collect())]
    handles = sorted(k[1] for k in merged.filter(lambda kv: kv[0][0] == "H").keys().collect())
    reposts = [b.split(b"\t") for b in joins if b.startswith(b"R\t")]
    # Reposts matched by the final aggregate may lift a count: then every count goes to it.
    min_count = 0 if reposts else a.min_count
    counts = (merged.mapPartitions(count_posts_partition)
              .reduceByKey(add_counts, shuffle)
              .filter(lambda kc: kc[0][1] is None or sum(kc[1]) >= min_count)
              .collect())
    terms = posts_header_terms(header)
    wanted = {key[1] for key, _ in counts if key[1] is not None} | {r[2] for r in reposts}
    chosen = sc.broadcast(wanted)
    said = merged.filter(lambda kv: kv[0][0] == "S" and kv[0][1] in chosen.value).collect()
    merged.unpersist()
    tweet_counts = [0] * len(terms)
    with tempfile.NamedTemporaryFile(prefix="smashtag-posts-", suffix=".tsv") as f:
        f.write(header + b"\n")
        texts = b"\tcarries=text\t" in header + b"\t"
        for (term, post), c in counts:
            if post is None:
                tweet_counts[term] = c
            else:
                f.write(b"C\t%s\t%s\t%d\t%d\t%d\n" % (terms[term], post, c[0], c[1], c[2]))
        for term, n in enumerate(tweet_counts):
            f.write(b"N\t%s\t%d\n" % (terms[term], n))
        for (_, post), s in said:
            rows = []
            if s[1] != NO_RANK:
                rows.append((b"o", s[2], s[3], s[4]))
            if s[5] != NO_RANK or s[7] != NO_RANK or s[9] != NO_RANK:
                rows.append((b"c", s[6], s[8], s[10]))
            for kind, author, time, text in rows:
                f.write(b"\t".join([b"S", post, kind, author, time, *([text] if texts else [])]) + b"\n")
        write_handles(f, handles)
        write_joins(f, joins)
        f.flush()
        cmd = [binary, "aggregate", "--posts", f.name, "--quiet", "--min-count", str(a.min_count)]
        if a.columns:
            cmd += ["--columns", a.columns]
        if a.format:
            cmd += ["--format", a.format]
        if a.top:
            cmd += ["--top", str(a.top)]
        return run_aggregate(cmd, a, out)


def spark_context(master):
    """A SparkContext: spark-submit's, or a new one (with `master`) under plain python."""
    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        # Plain python starts the JVM itself: quiet from its first line.
        log4j = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2.properties")
        os.environ.setdefault("PYSPARK_SUBMIT_ARGS",
                              f"--driver-java-options -Dlog4j2.configurationFile=file:{log4j} pyspark-shell")
        # Local executors run the driver's Python (another python3 on PATH may lack a match).
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark import SparkConf, SparkContext
    conf = SparkConf().setAppName("smashtag-popularity")
    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        conf.set("spark.ui.showConsoleProgress", "false")
    if master:
        conf.setMaster(master)
    elif not conf.contains("spark.master"):
        conf.setMaster("local[*]")
    sc = SparkContext.getOrCreate(conf)
    sc.setLogLevel(os.environ.get("SMASHTAG_SPARK_LOG_LEVEL", "ERROR"))
    return sc


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        early = a.smashtag or os.environ.get("SMASHTAG") or shutil.which("smashtag") \
            or next((p for p in built_binaries() if os.path.isfile(p)), None)
        if early and os.path.isfile(early):
            # A bad term, option, unit or zone stops the job before Spark starts.
            if a.posts:
                posts_header(early, a.term, posts_extract_options(a))
            else:
                smashtag_header(early, a.term, report_options(a) + (["--trend"] if a.trend else series_flags(a.by, a.tz)))
        sc = spark_context(a.master)
        try:
            return popularity(sc, a, sys.stdout.buffer)
        finally:
            sc.stop()
    except UsageError as e:
        print(f"popularity.py: {e}", file=sys.stderr)
        return EXIT_USAGE
    except InputError as e:
        print(f"popularity.py: {e}", file=sys.stderr)
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
