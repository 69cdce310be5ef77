#!/usr/bin/env python3
"""Generate the CSV fixtures: tweets as CSV exports, the way twarc-csv,
spreadsheets and shared data sets write them (SPEC section 3, "CSV export").

    dozen/dozen-twarc.csv            the dozen tweets as twarc-csv writes them by
                                     default: retweets merged (text and entities
                                     of the retweeted tweet, `retweeted_username`),
                                     entities as JSON lists of "#tag" / "@name"
    dozen/dozen-twarc-text.csv       the same without entity columns (mentions
                                     come from the text)
    dozen/dozen-excel.csv            a spreadsheet's export: BOM, CRLF, `;`,
                                     every field quoted, other column names
    dozen/dozen-csv.zip              the twarc-csv export in two members
    csv/dozen-id-text.csv            a shared data set: id and text only, the
                                     API's own text (retweets "RT @x: …", cut)
    csv/custom-columns.csv           column names of its own (--id-column, …)
    csv/bad_rows.csv                 one bad row of each kind among good ones
    csv/corpus/NAME.csv              the v2 tweets of corpus/twarc-csv/NAME.jsonl
                                     as twarc-csv would write them
    csv/corpus/NAME-text.csv         the same without entity columns

The dozen files must give the very reports of every other dozen shape
(Tests/Fixtures/dozen/expected-*.csv); the corpus renders are checked against
reference.py's report on the JSON they come from (Tests/Reference/text_cases.py).
Deterministic; Python 3 stdlib only.

    python3 Tests/Fixtures/generate_csv.py [CORPUS_ROOT]
"""

import csv
import io
import json
import os
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import generate  # noqa: E402  (the dozen's abstract table and renderers)

CSV_DIR = os.path.join(HERE, "csv")

# twarc-csv's column order, the columns a report can use and a few others.
TWARC_COLUMNS = [
    "id", "conversation_id", "referenced_tweets.retweeted.id", "referenced_tweets.quoted.id",
    "author_id", "retweeted_user_id", "retweeted_username", "created_at", "text", "lang",
    "public_metrics.retweet_count", "entities.hashtags", "entities.mentions",
    "author.id", "author.username", "author.name",
]
ENTITY_COLUMNS = ("entities.hashtags", "entities.mentions")


def twarc_escape(value):
    """twarc-csv's mandatory escaping of text fields: no CR, LF as `\\n`."""
    return value.replace("\r", "").replace("\n", "\\n")


def twarc_row(tweet):
    """One flattened v2 tweet (author and referenced tweets inline) as a
    twarc-csv row: {column: value}."""
    row = {"id": tweet["id"], "conversation_id": tweet.get("conversation_id", ""),
           "author_id": tweet.get("author_id", ""), "created_at": tweet.get("created_at", ""),
           "lang": tweet.get("lang", ""),
           "public_metrics.retweet_count": (tweet.get("public_metrics") or {}).get("retweet_count", "")}
    def long_form(t, text, entities):
        # A long post: its note_tweet's text and entities (an export that kept
        # only the first 280 characters would lose the rest).
        note = t.get("note_tweet") or {}
        return note.get("text", text), note.get("entities", entities)

    text, entities = long_form(tweet, tweet.get("text"), tweet.get("entities"))
    for ref in tweet.get("referenced_tweets") or []:
        row["referenced_tweets.%s.id" % ref["type"]] = ref["id"]
        if ref["type"] == "retweeted":
            if "author_id" in ref:
                row["retweeted_user_id"] = ref["author_id"]
                if "username" in (ref.get("author") or {}):
                    row["retweeted_username"] = ref["author"]["username"]
            # Merged: the retweeted tweet's text and entities, when it has them.
            text, entities = long_form(ref, ref.get("text", text), ref.get("entities", entities))
    row["text"] = twarc_escape(text or "")
    entities = entities or {}
    if "hashtags" in entities:
        row["entities.hashtags"] = json.dumps(["#" + h["tag"] for h in entities["hashtags"]])
    if "mentions" in entities:
        row["entities.mentions"] = json.dumps(["@" + m["username"] for m in entities["mentions"]])
    author = tweet.get("author") or {}
    row["author.id"] = author.get("id", "")
    row["author.username"] = author.get("username", "")
    row["author.name"] = twarc_escape(author.get("name", ""))
    return row


def render(rows, columns, delimiter=",", quoting=csv.QUOTE_MINIMAL, eol="\n", bom=False, rename=None):
    out = io.StringIO()
    w = csv.writer(out, delimiter=delimiter, quoting=quoting, lineterminator=eol)
    w.writerow([(rename or {}).get(c, c) for c in columns])
    for r in rows:
        w.writerow([r.get(c, "") for c in columns])
    data = out.getvalue().encode("utf-8")
    return b"\xef\xbb\xbf" + data if bom else data


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    assert len(data) < 64 * 1024, (path, len(data))
    with open(path, "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- the dozen

def gen_dozen():
    rows = [twarc_row(generate.v2_flat(t)) for t in generate.DOZEN_TWEETS]
    no_entities = [c for c in TWARC_COLUMNS if c not in ENTITY_COLUMNS]
    p = lambda name: os.path.join(generate.DOZEN, name)
    twarc = render(rows, TWARC_COLUMNS)
    write(p("dozen-twarc.csv"), twarc)
    write(p("dozen-twarc-text.csv"), render(rows, no_entities))
    excel = ["id", "author.username", "retweeted_username", "created_at", "text"]
    write(p("dozen-excel.csv"), render(rows, excel, delimiter=";", quoting=csv.QUOTE_ALL, eol="\r\n", bom=True,
                                       rename={"id": "Tweet_ID", "author.username": "Screen_Name",
                                               "text": "Tweet", "created_at": "Created At"}))
    halves = [render(rows[:6], TWARC_COLUMNS), render(rows[6:], TWARC_COLUMNS)]
    write(p("dozen-csv.zip"), generate.zip_bytes([("export/part-1.csv", halves[0], zipfile.ZIP_DEFLATED),
                                                  ("export/part-2.csv", halves[1], zipfile.ZIP_DEFLATED)]))
    # A shared data set: the API's own text (a retweet's is "RT @x: …", cut at 140).
    plain = [{"id": d["id"], "text": d["text"]} for d in (generate.v2_tweet(t) for t in generate.DOZEN_TWEETS)]
    write(os.path.join(CSV_DIR, "dozen-id-text.csv"), render(plain, ["id", "text"]))
    # Column names of its own (read with --id-column, --text-column, --author-column).
    write(os.path.join(CSV_DIR, "custom-columns.csv"),
          render(rows, ["id", "author.username", "text"],
                 rename={"id": "Tweet Number", "author.username": "Handle", "text": "Body"}))


# Bad rows, one per kind, among good ones (line numbers in the comments).
BAD_ROWS = (
    "id,text,author.username\n"                      # 1
    "1101452040074326118,ok #stanford,a\n"           # 2
    "1101452040074326119,too,many,fields\n"          # 3: 4 fields, the header 3
    "1.10145E+18,a spreadsheet's float id #x,b\n"    # 4: not a 64-bit decimal
    ",no id at all,c\n"                              # 5: no id
    "1101452040074326120,\"quoted\n#stanford across lines\",d\n"  # 6-7: good
    "18446744073709551616,beyond 64 bits,e\n"         # 8
    "1101452040074326121,\"an unclosed quote #stanford,f\n"  # 9: the rest is one row, 2 fields
    "1101452040074326122,never read,g\n"
)


# ---------------------------------------------------------------- the corpus

CORPUS_FILES = ["brexit", "flat", "kpop", "streaming_output_with_error"]


def flattened(value):
    """Flattened v2 tweets of one JSON line: pages and stream lines get their
    authors and referenced tweets from `includes`; flat tweets are already so."""
    if "data" not in value:
        yield value
        return
    inc = value.get("includes") or {}
    users = {u["id"]: u for u in inc.get("users") or []}
    tweets = {t["id"]: t for t in inc.get("tweets") or []}

    def expand(t):
        t = dict(t)
        if t.get("author_id") in users:
            t["author"] = users[t["author_id"]]
        return t

    data = value["data"] if isinstance(value["data"], list) else [value["data"]]
    for t in data:
        t = expand(t)
        refs = []
        for r in t.get("referenced_tweets") or []:
            full = dict(r)
            if r["id"] in tweets:
                full.update(expand(tweets[r["id"]]))
                full["type"] = r["type"]
            refs.append(full)
        if refs:
            t["referenced_tweets"] = refs
        yield t


def gen_corpus(root):
    for name in CORPUS_FILES:
        rows, seen = [], set()
        with open(os.path.join(root, "twarc-csv", name + ".jsonl"), encoding="utf-8") as f:
            for line in f:
                try:
                    value = json.loads(line)
                except ValueError:
                    continue  # the truncated last line of streaming_output_with_error
                for t in flattened(value):
                    if t["id"] not in seen:  # twarc-csv drops duplicates
                        seen.add(t["id"])
                        rows.append(twarc_row(t))
        columns = ["id", "referenced_tweets.retweeted.id", "retweeted_username", "created_at", "text",
                   "entities.hashtags", "entities.mentions", "author.username"]
        write(os.path.join(CSV_DIR, "corpus", name + ".csv"), render(rows, columns))
        write(os.path.join(CSV_DIR, "corpus", name + "-text.csv"),
              render(rows, [c for c in columns if c not in ENTITY_COLUMNS]))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "SMASHTAG_CORPUS", os.path.join(HERE, "..", "..", "..", "shared", "corpus"))
    gen_dozen()
    write(os.path.join(CSV_DIR, "bad_rows.csv"), BAD_ROWS.encode("utf-8"))
    gen_corpus(root)


if __name__ == "__main__":
    main()
