#!/usr/bin/env python3
"""An independent reference of `smashtag posts` (SPEC 15) on JSON dumps,
written from the SPEC and the README's choices, not from the Swift code; it
reads inputs with reference.py's readers (files, folders, archives, every
JSON shape) and prints what `smashtag posts` prints as CSV:

    posts_reference.py -t TERM [-t TERM...] [--min-count N] [--top N]
                       [--since T] [--until T] [--retweets MODE] [--lang CODES]
                       [--columns LIST] PATH...

The rules (README, "The posts the data amplified"):
- a matching tweet (after the filters, each once per term, its first copy)
  that is a retweet names only what it retweets; any other names what it
  quotes and what it replies to;
- what is said of a post X: X's first own record (X read as a tweet, any
  tweet, filtered or not) says its author, time (created_at, else the
  snowflake's) and full text; what it leaves unsaid, field by field, the
  first embedded copy read that says it (retweeted_status, quoted_status,
  a v2 referenced tweet in includes or inline, a reply's
  in_reply_to_screen_name / in_reply_to_user_id); a time nobody says is
  X's snowflake time;
- order: retweets, quotes, replies descending, then id ascending.
CSV inputs are not read here (the corpus holds none).
"""

import argparse
import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as R  # noqa: E402

COLUMNS = ["term", "id", "author", "created_at", "retweets", "quotes", "replies", "text"]


def valid_id(value):
    return R.tweet_id({"id": value}) if value is not None else None


def refs_of(tweet):
    refs = tweet.get("referenced_tweets")
    return [r for r in refs if isinstance(r, dict)] if isinstance(refs, list) else []


def referenced_copy(entry, ctx):
    """The object a v2 reference entry names: its includes.tweets entry, else the entry when written inline."""
    rid = valid_id(entry.get("id"))
    if rid is not None and str(rid) in ctx["tweets"]:
        return ctx["tweets"][str(rid)]
    if any(k in entry for k in ("text", "entities", "author")):
        return entry
    return None


def said_by(copy, ctx):
    """(author key, created_at seconds, text) an embedded copy says (each None when it does not)."""
    who = R.author(copy, ctx)
    return (R.norm(who) if who else None, R.parse_created_at(copy.get("created_at")), R.full_text(copy))


def references(tweet, ctx):
    """(retweet of, quote of, reply to) ids and the embedded copies [(id, author, time, text)] of a top-level tweet."""
    copies = []
    rt_id, rt_obj = None, None
    if isinstance(tweet.get("retweeted_status"), dict):
        rt_obj = tweet["retweeted_status"]
        rt_id = R.tweet_id(rt_obj)
    else:
        for r in refs_of(tweet):
            if r.get("type") == "retweeted":
                rt_id = valid_id(r.get("id"))
                rt_obj = referenced_copy(r, ctx) if rt_id is not None else None
                break
    if rt_id is not None and rt_obj is not None:
        copies.append((rt_id, *said_by(rt_obj, ctx)))
    quote_id, quote_obj = None, None
    for key in ("quoted_status_id_str", "quoted_status_id"):
        if quote_id is None:
            quote_id = valid_id(tweet.get(key)) if not isinstance(tweet.get(key), bool) else None
    qs = tweet.get("quoted_status")
    for r in refs_of(tweet):
        if r.get("type") == "quoted" and valid_id(r.get("id")) is not None:
            quote_id = valid_id(r.get("id"))
            quote_obj = referenced_copy(r, ctx)
    if quote_obj is None and isinstance(qs, dict) and quote_id is not None and R.tweet_id(qs) == quote_id:
        quote_obj = qs
    if quote_id is not None and quote_obj is not None:
        copies.append((quote_id, *said_by(quote_obj, ctx)))
    reply_id, reply_obj = None, None
    for r in refs_of(tweet):
        if r.get("type") == "replied_to" and valid_id(r.get("id")) is not None:
            reply_id = valid_id(r.get("id"))
            reply_obj = referenced_copy(r, ctx)
    if reply_id is None:
        for key in ("in_reply_to_status_id_str", "in_reply_to_status_id"):
            if reply_id is None and not isinstance(tweet.get(key), bool):
                reply_id = valid_id(tweet.get(key))
    if reply_id is not None:
        who, time, text = said_by(reply_obj, ctx) if reply_obj is not None else (None, None, None)
        names_one = reply_obj is not None and (R.obj(reply_obj.get("user")).get("screen_name") is not None
                                               or R.obj(reply_obj.get("author")).get("username") is not None
                                               or reply_obj.get("author_id") is not None)
        if not names_one:
            # The copy names no author: the reply's own in_reply_to_screen_name (v2: in_reply_to_user_id) does.
            name = tweet.get("in_reply_to_screen_name")
            if not (isinstance(name, str) and name):
                uid = tweet.get("in_reply_to_user_id")
                name = ctx["users"].get(str(uid)) if uid is not None else None
            who = R.norm(name) if isinstance(name, str) and name else None
        copies.append((reply_id, who, time, text))
    retweet = rt_id is not None or R.is_marked_retweet(tweet)
    if retweet:
        return (rt_id, None, None), copies
    return (None, quote_id, reply_id), copies


def posts(terms, paths, min_count, top, filt):
    seen = {t: set() for t in terms}
    counts = {t: {} for t in terms}
    own, copied = {}, {}
    bad = R.Bad()

    def on_plain(name, data):
        if R.csv_header(data, {"id": R.CSV_ID, "text": R.CSV_TEXT, "author": R.CSV_AUTHOR}) is not None:
            raise SystemExit(f"posts_reference.py: {name}: CSV is not read here")
        for line, value in R.records(name, data, bad):
            for tweet, ctx in R.tweets_of(value, R.EMPTY_CTX, name, line, bad):
                tid = R.tweet_id(tweet)
                tags, users, who, text, facts = R.analyse(tweet, ctx)
                if tid not in own:
                    own[tid] = (who, R.tweet_time(tweet.get("created_at"), tid), text)
                (rt, q, rp), copies = references(tweet, ctx)
                for pid, a, t, x in copies:
                    have = copied.setdefault(pid, [None, None, None])
                    for k, v in enumerate((a, t, x)):
                        if have[k] is None and v is not None:
                            have[k] = v
                if filt is not None and not filt.keeps(facts):
                    continue
                for term in terms:
                    if tid in seen[term] or not R.matches(term, tags, users, who, text):
                        continue
                    seen[term].add(tid)
                    for k, pid in enumerate((rt, q, rp)):
                        if pid is not None:
                            c = counts[term].setdefault(pid, [0, 0, 0])
                            c[k] += 1

    def sink(name, data, error=None):
        if data is not None:
            R.unpack(name, data, on_plain, bad)

    for path in paths:
        R.read_path(path, sink)
    out = {}
    for term in terms:
        rows = [(pid, c) for pid, c in counts[term].items() if sum(c) >= min_count]
        rows.sort(key=lambda r: (-r[1][0], -r[1][1], -r[1][2], r[0]))
        if top is not None:
            rows = rows[:top]
        out[term] = (len(seen[term]), rows)
    return out, own, copied


def facts_of(pid, own, copied):
    a, t, x = own.get(pid, (None, None, None))
    ca, ct, cx = copied.get(pid, (None, None, None))
    a = a if a is not None else ca
    t = t if t is not None else ct
    x = x if x is not None else cx
    if t is None and pid >= R.FIRST_SNOWFLAKE:
        t = ((pid >> 22) + R.TWITTER_EPOCH_MS) // 1000
    return a, t, x


def iso(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main(argv=None):
    p = argparse.ArgumentParser(description="smashtag posts reference")
    p.add_argument("-t", "--term", action="append", required=True)
    p.add_argument("--min-count", type=int, default=2)
    p.add_argument("--top", type=int)
    p.add_argument("--since")
    p.add_argument("--until")
    p.add_argument("--retweets", default="include")
    p.add_argument("--lang")
    p.add_argument("--columns", default=",".join(COLUMNS[:7]))
    p.add_argument("paths", nargs="+")
    a = p.parse_args(argv)
    terms = []
    for raw in a.term:
        t = R.check_term(raw)
        if t not in terms:
            terms.append(t)
    filt = None
    if a.since or a.until or a.retweets != "include" or a.lang:
        langs = [c.lower() for c in a.lang.split(",")] if a.lang else None
        filt = R.Filter(R.parse_bound(a.since) if a.since else None, R.parse_bound(a.until) if a.until else None,
                        a.retweets, langs)
    columns = a.columns.split(",")
    result, own, copied = posts(terms, a.paths, a.min_count, a.top, filt)
    lines = [",".join(columns)]
    for term in terms:
        for pid, c in result[term][1]:
            who, t, x = facts_of(pid, own, copied)
            value = {"term": term, "id": str(pid), "author": "@" + who if who else "",
                     "created_at": iso(t) if t is not None else "", "retweets": str(c[0]), "quotes": str(c[1]),
                     "replies": str(c[2]), "text": x if x is not None else ""}
            lines.append(",".join(R.csv_field(value[k]) for k in columns))
    sys.stdout.buffer.write(("\n".join(lines) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
