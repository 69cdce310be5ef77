#!/usr/bin/env python3
"""The DuckDB peer of `smashtag report` for `make bench` (not part of the product).

    duckdb_report.py [--min-count N] [--threads N] [--explain] -t TERM [-t TERM...] PATH...

Computes the popularity report of SPEC.md for API v1.1 JSON lines (plain, .gz
or .zst; a folder stands for the files in it) the way an analyst would write
it in DuckDB: read_json with an explicit schema, one list of mention keys per
tweet, unnest, count(DISTINCT id), GROUP BY. It writes the same CSV as
`smashtag report ... --format csv` (header term,type,mention,count).

Scope: the v1.1 stream lines that Benchmarks/Bench generates. Terms `#tag`,
`@name`, `from:name` and `*`; word terms are not supported. Keys are
normalised with lower() (the generated data is NFC already; the terms are
NFC-normalised here). Delete/limit notices have no id_str and are dropped.
"""

import argparse
import csv
import os
import sys
import unicodedata

import duckdb

ENTITIES = ("STRUCT(hashtags STRUCT(text VARCHAR)[], "
            "user_mentions STRUCT(screen_name VARCHAR)[])")
USER = "STRUCT(screen_name VARCHAR)"
TWEET = {
    "id_str": "VARCHAR",
    "user": USER,
    "entities": ENTITIES,
    "extended_tweet": f"STRUCT(entities {ENTITIES})",
    "retweeted_status": (f"STRUCT(user {USER}, entities {ENTITIES}, "
                         f"extended_tweet STRUCT(entities {ENTITIES}))"),
}

QUERY = """
WITH tweets AS (
    SELECT id_str AS id,
           lower("user".screen_name) AS author,
           coalesce(extended_tweet.entities, entities) AS e,
           coalesce(retweeted_status.extended_tweet.entities,
                    retweeted_status.entities) AS rt_e,
           retweeted_status."user".screen_name AS rt_author
    FROM read_json($paths, format = 'newline_delimited', compression = 'auto',
                   columns = $columns)
    WHERE id_str IS NOT NULL                      -- delete / limit notices
), keyed AS (
    -- every mention key of a tweet: its own (extended) entities, and for a
    -- retweet the retweeted tweet's entities and author
    SELECT id, author,
           list_concat(
             list_concat(
               list_transform(e.hashtags, lambda h: '#' || lower(h.text)),
               list_transform(rt_e.hashtags, lambda h: '#' || lower(h.text))),
             list_concat(
               list_concat(
                 list_transform(e.user_mentions, lambda u: '@' || lower(u.screen_name)),
                 list_transform(rt_e.user_mentions, lambda u: '@' || lower(u.screen_name))),
               CASE WHEN rt_author IS NULL THEN []
                    ELSE ['@' || lower(rt_author)] END)) AS mentions
    FROM tweets
), matched AS (
    SELECT t.pos, t.term, k.id, k.mentions
    FROM keyed k JOIN terms t
      ON CASE t.kind WHEN 'mention' THEN list_contains(k.mentions, t.key)
                     WHEN 'from'    THEN k.author = t.key
                     ELSE true END
)
SELECT term,
       CASE WHEN starts_with(mention, '#') THEN 'hashtag' ELSE 'user' END AS type,
       mention,
       count(DISTINCT id) AS count
FROM (SELECT pos, term, id, unnest(mentions) AS mention FROM matched)
GROUP BY pos, term, mention
HAVING count(DISTINCT id) >= $min_count
ORDER BY pos, type, count DESC, mention
"""


def parse_term(raw):
    t = unicodedata.normalize("NFC", raw).lower()
    if t == "*":
        return t, "all", ""
    if t.startswith("from:") and len(t) > 5:
        return t, "from", t[5:]
    if t[:1] in "#@" and len(t) > 1:
        return t, "mention", t
    sys.exit(f"duckdb_report.py: unsupported term {raw!r} (#tag, @name, from:name, *)")


def expand(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, n) for n in os.listdir(p)
                          if not n.startswith("."))
        else:
            out.append(p)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-t", "--term", action="append", required=True)
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--explain", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()

    terms, seen = [], set()
    for raw in a.term:
        term, kind, key = parse_term(raw)
        if term not in seen:
            seen.add(term)
            terms.append((len(terms), term, kind, key))

    con = duckdb.connect()
    con.execute(f"SET threads = {a.threads}")
    con.execute("SET preserve_insertion_order = false")
    con.execute("CREATE TEMP TABLE terms (pos INTEGER, term VARCHAR, kind VARCHAR, key VARCHAR)")
    con.executemany("INSERT INTO terms VALUES (?, ?, ?, ?)", terms)
    params = {"paths": expand(a.paths), "columns": TWEET, "min_count": a.min_count}
    if a.explain:
        for row in con.execute("EXPLAIN " + QUERY, params).fetchall():
            print(row[-1])
        return
    rows = con.execute(QUERY, params).fetchall()
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["term", "type", "mention", "count"])
    w.writerows(rows)


if __name__ == "__main__":
    main()
