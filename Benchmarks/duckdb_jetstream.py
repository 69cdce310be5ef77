#!/usr/bin/env python3
"""The DuckDB peer of `smashtag report '*' --kinds hashtag` on Bluesky
Jetstream lines, for `make bench` (not part of the product).

    duckdb_jetstream.py [--min-count N] [--threads N] [--explain] PATH...

Computes SPEC §16's hashtag report the way an analyst would write it in
DuckDB: read_json with an explicit schema; the posts are `create` commits of
`app.bsky.feed.post`, the reposts those of `app.bsky.feed.repost`; a post's
hashtags are its tag facets' `tag` together with `record.tags`, each trimmed
of spaces and of one leading `#` (an empty one is none), keyed by lower() of
its NFC form; a repost carries the hashtags of its subject when the subject
is among the posts read; each tag counts distinct AT-URIs. It writes the same
CSV as `smashtag report '*' --kinds hashtag --format csv`.

Scope: the lines Benchmarks/Bench generates (`generate-jetstream`), whose
tags hold no white space but spaces.
"""

import argparse
import csv
import sys

import duckdb

from duckdb_report import expand  # a folder stands for the files in it

FEATURE = 'STRUCT("$type" VARCHAR, tag VARCHAR)'
COLUMNS = {
    "did": "VARCHAR",
    "kind": "VARCHAR",
    "commit": ("STRUCT(operation VARCHAR, collection VARCHAR, rkey VARCHAR, "
               f"record STRUCT(tags VARCHAR[], facets STRUCT(features {FEATURE}[])[], subject JSON))"),
}

QUERY = """
WITH events AS (
    SELECT did, "commit".collection AS coll, "commit".rkey AS rkey, "commit".record AS r
    FROM read_json($paths, format = 'newline_delimited', compression = 'auto',
                   columns = $columns)
    WHERE kind = 'commit' AND "commit".operation = 'create'
      AND "commit".collection IN ('app.bsky.feed.post', 'app.bsky.feed.repost')
), written AS (
    -- a post's tags as written: its tag facets', then record.tags
    SELECT 'at://' || did || '/' || coll || '/' || rkey AS uri, coll,
           json_extract_string(r.subject, '$.uri') AS subject,
           list_concat(
             flatten(list_transform(coalesce(r.facets, []),
               lambda f: list_transform(
                      list_filter(coalesce(f.features, []),
                                  lambda x: x."$type" = 'app.bsky.richtext.facet#tag'),
                      lambda x: x.tag))),
             coalesce(r.tags, [])) AS raw
    FROM events
), tagged AS (
    SELECT uri, coll, subject,
           list_filter(
             list_transform(raw, lambda t: CASE WHEN starts_with(trim(t), '#')
                                           THEN substr(trim(t), 2) ELSE trim(t) END),
             lambda t: t IS NOT NULL AND t <> '') AS tags
    FROM written
), own AS (
    SELECT uri, '#' || lower(nfc_normalize(unnest(tags))) AS mention
    FROM tagged WHERE coll = 'app.bsky.feed.post'
), reposted AS (
    -- a repost carries its subject's hashtags when the subject was read
    SELECT DISTINCT t.uri, o.mention
    FROM tagged t JOIN own o ON o.uri = t.subject
    WHERE t.coll = 'app.bsky.feed.repost'
)
SELECT '*' AS term, 'hashtag' AS type, mention, count(DISTINCT uri) AS count
FROM (SELECT uri, mention FROM own UNION ALL SELECT uri, mention FROM reposted)
GROUP BY mention
HAVING count(DISTINCT uri) >= $min_count
ORDER BY count DESC, mention
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--explain", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()

    con = duckdb.connect()
    con.execute(f"SET threads = {a.threads}")
    con.execute("SET preserve_insertion_order = false")
    params = {"paths": expand(a.paths), "columns": COLUMNS, "min_count": a.min_count}
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
