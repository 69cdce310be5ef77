#!/usr/bin/env python3
"""Independent reference of `smashtag trend` (SPEC §14) on tweet JSON lines.

NOT part of the product: a stdlib-only Python re-implementation written from
SPEC.md §14 (and §5, §6, §12.1–12.2 through reference.py's reading of
tweets), without the Swift sources, for the differential test
`TrendReferenceTests`: the binary's CSV must equal this script's, byte for
byte, from dumps, from a store and through `extract | aggregate --trend`.

    python3 trend_reference.py -t TERM [-t TERM...] --current WINDOW
        [--baseline previous|weekago|mean:K|A..B] [--now T] [--tz ZONE]
        [--min-authors N] [--by-tweets] [--all] [--top N]
        [--retweets include|exclude|only] PATH...

WINDOW is A..B (bounds as --since takes them) or N followed by h, d or w.
Mentions are the hashtags and user mentions of the entities (the default
kinds). Decisions beyond SPEC.md are marked "DECISION".
"""

import argparse
import datetime
import sys
import zoneinfo
from fractions import Fraction

import reference as ref

UTC = datetime.timezone.utc
TYPE_ORDER = {"#": (0, "hashtag"), "@": (1, "user")}
COLUMNS = ("term,type,mention,display,current_tweets,current_authors,baseline_tweets,baseline_authors,"
           "expected,score,ratio,status,top_author_share,top_authors,example_ids")


def number(x):
    """SPEC §14: the exact value rounded half to even to 4 decimals, trailing zeros dropped."""
    r = round(Fraction(x), 4)  # Fraction rounds half to even
    sign = "-" if r < 0 else ""
    r = abs(r)
    whole = r.numerator // r.denominator
    frac = r - whole
    digits = "%04d" % int(frac * 10000)
    digits = digits.rstrip("0")
    return sign + str(whole) + ("." + digits if digits else "")


def bound(raw):
    t = ref.parse_bound(raw)
    if t is None:
        ref.usage("bad bound %r" % raw)
    return t


def local_midnight(day, zone):
    """The instant (seconds) of local midnight starting calendar date `day` in `zone`."""
    return int(datetime.datetime(day.year, day.month, day.day, tzinfo=zone).timestamp())


def windows(args):
    """(current, [baseline windows], scale): windows as (start, end) seconds, half-open."""
    zone = zoneinfo.ZoneInfo(args.tz) if args.tz != "UTC" else UTC
    spec = args.current
    unit = None
    if ".." in spec:
        a, b = spec.split("..", 1)
        current = (bound(a), bound(b))
    else:
        n, unit = int(spec[:-1]), spec[-1]
        now = bound(args.now)
        local = datetime.datetime.fromtimestamp(now, zone)
        if unit == "h":
            # DECISION: hours are whole hours of the local clock; N of them back in elapsed time.
            top = local.replace(minute=0, second=0, microsecond=0)
            end = int(top.timestamp())
            current = (end - n * 3600, end)
        else:
            today = local.date()
            if unit == "w":
                today -= datetime.timedelta(days=today.weekday())  # the ISO week's Monday
            days = n * (7 if unit == "w" else 1)
            current = (local_midnight(today - datetime.timedelta(days=days), zone), local_midnight(today, zone))

    def shifted(w, k):
        """Window w moved k of its own lengths back (calendar lengths for d and w)."""
        if unit in ("d", "w"):
            start = datetime.datetime.fromtimestamp(w[0], zone).date()
            end = datetime.datetime.fromtimestamp(w[1], zone).date()
            span = end - start
            return (local_midnight(start - k * span, zone), local_midnight(end - k * span, zone))
        length = w[1] - w[0]
        return (w[0] - k * length, w[1] - k * length)

    base = args.baseline
    scale = Fraction(1)
    if base == "previous":
        baseline = [shifted(current, 1)]
    elif base == "weekago":
        def back7(t):
            d = datetime.datetime.fromtimestamp(t, zone)
            naive = d.replace(tzinfo=None) - datetime.timedelta(days=7)
            return int(naive.replace(tzinfo=zone).timestamp())
        baseline = [(back7(current[0]), back7(current[1]))]
    elif base.startswith("mean:"):
        k = int(base[5:])
        baseline = [shifted(current, j) for j in range(1, k + 1)]
    else:
        a, b = base.split("..", 1)
        baseline = [(bound(a), bound(b))]
        scale = Fraction(current[1] - current[0], baseline[0][1] - baseline[0][0])
    return current, baseline, scale


def posts(terms, paths, retweets):
    """Per term, the counted posts as (id, time, keys, author, spellings): the first copy
    of each id that the filters keep (SPEC §6, §12.2), tweets of unknown time left out."""
    filt = ref.Filter(retweets=retweets, need_time=True)
    seen = {t: set() for t in terms}
    out = {t: [] for t in terms}

    def count(tid, tags, users, who, text, facts):
        if not filt.keeps(facts):
            return
        keys = ["#" + t for t in tags] + ["@" + u for u in users]
        for term in terms:
            if tid in seen[term] or not ref.matches(term, tags, users, who, text):
                continue
            seen[term].add(tid)
            out[term].append((tid, facts["time"], keys, who, facts["spellings"]))

    def on_plain(name, data):
        for line, value in ref.records(name, data, bad):
            for tweet, ctx in ref.tweets_of(value, ref.EMPTY_CTX, name, line, bad):
                count(ref.tweet_id(tweet), *ref.analyse(tweet, ctx))

    def sink(name, data, error=None):
        if data is not None:
            ref.unpack(name, data, on_plain, bad)

    bad = ref.Bad()
    for p in paths:
        ref.read_path(p, sink)
    return out


def tally(counted, window):
    """{key: (tweets, authors)} of the counted posts within window; a post is
    a tuple (id, time, keys, author, ...)."""
    per = {}
    for post in counted:
        time, keys, who = post[1], post[2], post[3]
        if not (window[0] <= time < window[1]):
            continue
        for k in keys:
            entry = per.setdefault(k, [0, set()])
            entry[0] += 1
            if who is not None:
                entry[1].add(who)
    return {k: (n, len(a)) for k, (n, a) in per.items()}


def scored(ct, ca, bt, ba, args):
    """(e, score, ratio, status) of a mention (SPEC §14): o and b its
    authors, or its tweets with --by-tweets."""
    o, b = (ct, bt) if args.by_tweets else (ca, ba)
    e = b if b >= 1 else Fraction(1)
    score = Fraction(0) if e > o or o < args.min_authors else (o - e) ** 2 / e
    ratio = Fraction(o + 1) / (b + 1)
    if b == 0 and o >= args.min_authors:
        status = "new"
    elif score > 0:
        status = "rising"
    elif o < b:
        status = "falling"
    else:
        status = "steady"
    return e, score, ratio, status


def kept_in_order(out, args):
    """Rows with a score above 0 (all with --all), by type, score descending,
    current authors descending, mention bytes; at most --top of a type."""
    if not args.all:
        out = [r for r in out if r["score"] > 0]
    out.sort(key=lambda r: (r["rank"], -r["score"], -r["ca"], r["key"].encode("utf-8")))
    if args.top is not None:
        kept, per = [], {}
        for r in out:
            per[r["rank"]] = per.get(r["rank"], 0) + 1
            if per[r["rank"]] <= args.top:
                kept.append(r)
        out = kept
    return out


def window_counts(counted, current, baseline, scale):
    """Per key carried in either window, (current tweets, current authors,
    baseline tweets, baseline authors) (the baseline's the mean of its
    windows, scaled); and per key the current window's posts carrying it,
    which the explaining columns are over."""
    now = tally(counted, current)
    before = [tally(counted, w) for w in baseline]
    keys = set(now)
    for b in before:
        keys |= set(b)
    carrying = {}
    for post in counted:
        if current[0] <= post[1] < current[1]:
            for k in post[2]:
                carrying.setdefault(k, []).append(post)
    counts = {}
    for k in keys:
        ct, ca = now.get(k, (0, 0))
        bt = sum(Fraction(b.get(k, (0, 0))[0]) for b in before) / len(before) * scale
        ba = sum(Fraction(b.get(k, (0, 0))[1]) for b in before) / len(before) * scale
        counts[k] = (ct, ca, bt, ba)
    return counts, carrying


def rows(term, counted, current, baseline, scale, args):
    counts, carrying = window_counts(counted, current, baseline, scale)
    out = []
    for k, (ct, ca, bt, ba) in counts.items():
        e, score, ratio, status = scored(ct, ca, bt, ba, args)
        mine = carrying.get(k, [])
        by_author = {}
        spellings = {}
        for tid, time, keys_, who, spelled in mine:
            if who is not None:
                by_author[who] = by_author.get(who, 0) + 1
            for sp in set(spelled):
                if sp[0] + ref.norm(sp[1:]) == k:
                    spellings[sp] = spellings.get(sp, 0) + 1
        ranked = sorted(by_author.items(), key=lambda kv: (-kv[1], kv[0].encode("utf-8")))
        share = Fraction(ranked[0][1], len(mine)) if ranked and mine else Fraction(0)
        top_authors = " ".join("@" + a for a, _ in ranked[:3])
        earliest = sorted(mine, key=lambda p: (p[1], p[0]))[:3]
        example_ids = " ".join(str(p[0]) for p in earliest)
        rank, kind = TYPE_ORDER[k[0]]
        out.append(dict(rank=rank, kind=kind, key=k, display=ref.display_of(spellings), ct=ct, ca=ca, bt=bt, ba=ba,
                        e=e, score=score, ratio=ratio, status=status, share=share, top=top_authors, ids=example_ids))
    out = kept_in_order(out, args)
    return [csv_row(term, r) for r in out]


def csv_row(term, r):
    """A row of the CSV, its numbers as SPEC §14 writes them."""
    return ",".join(ref.csv_field(x) for x in (
        term, r["kind"], r["key"], r["display"], str(r["ct"]), str(r["ca"]), number(r["bt"]), number(r["ba"]),
        number(r["e"]), number(r["score"]), number(r["ratio"]), r["status"], number(r["share"]), r["top"], r["ids"]))


def arguments():
    """The options of `smashtag trend` this reference takes (paths left to the caller)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("-t", "--term", action="append", required=True)
    ap.add_argument("--current", required=True)
    ap.add_argument("--baseline", default="previous")
    ap.add_argument("--now")
    ap.add_argument("--tz", default="UTC")
    ap.add_argument("--min-authors", type=int, default=5)
    ap.add_argument("--by-tweets", action="store_true")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--top", type=int)
    ap.add_argument("--retweets", default="exclude")
    return ap


def main(argv=None):
    ap = arguments()
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args(argv)
    terms = [t if t == "*" else ref.check_term(t) for t in args.term]
    current, baseline, scale = windows(args)
    counted = posts(terms, args.paths, args.retweets)
    lines = [COLUMNS]
    for term in terms:
        # The term as normalised (SPEC §5), as the report writes it.
        lines += rows(term, counted[term], current, baseline, scale, args)
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
