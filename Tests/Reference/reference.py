#!/usr/bin/env python3
"""Independent reference implementation of `smashtag report` (SPEC.md).

This script is NOT part of the product.  It is a deliberately separate,
stdlib-only Python re-implementation of the popularity report, written from
SPEC.md without looking at the Swift sources, and it is used to derive the
expected outputs in Tests/Reference/expected/ (see regenerate.sh and
corpus_cases.json).  The Swift test-suite compares the `smashtag` binary's
output to those files byte for byte.

    python3 reference.py [--min-count N] [--top N] [--format csv|json]
                         [--mentions-from entities|text]
                         [--id-column NAME] [--text-column NAME] [--author-column NAME]
                         [--since T] [--until T] [--retweets include|exclude|only]
                         [--lang CODE[,CODE...]] [--columns LIST]
                         [--pairs [--without-term]]
                         -t TERM [-t TERM...] PATH...

SPEC section 12.1-12.3 (time, kind, language and spellings of a tweet; the
filters; the extra columns) are written from the SPEC too: see "SPEC 12".

With --pairs it writes co-occurrence instead (SPEC 12.5, `smashtag pairs`):
CSV `term,source,target,weight`, or JSON objects {"term","tweets","pairs"}.

The report goes to stdout; the number of bad records (and where they were)
goes to stderr as a final line `bad_records=N`.

Decisions beyond SPEC.md are marked "DECISION" in comments.
"""

import argparse
import bz2
import csv
import datetime
import gzip
import io
import json
import lzma
import os
import re
import sys
import tarfile
import unicodedata
import zipfile
import zoneinfo

import twitter_text

U64_MAX = 18446744073709551615
NOTICE_KEYS = {"delete", "limit", "scrub_geo", "status_withheld", "user_withheld",
               "disconnect", "warning", "friends", "friends_str", "event"}
ARCHIVE_PREFIX = re.compile(rb"\A\s*window\.YTD\.[A-Za-z0-9_.]+\s*=\s*")
DIGITS = re.compile(r"\A[0-9]+\Z")


def norm(s):
    """NFC, then full Unicode lowercasing (SPEC section 5)."""
    return unicodedata.normalize("NFC", s).lower()


# ---------------------------------------------------------------- bad input

class Bad:
    """Counts skipped records, remembering where the first few were."""

    def __init__(self):
        self.count = 0
        self.where = []

    def add(self, source, line, why):
        self.count += 1
        if len(self.where) < 20:
            self.where.append("%s:%s: %s" % (source, line, why))


# ---------------------------------------------------------------- inputs

def read_path(path, sink):
    """Feed every file below `path` (or stdin for '-') to sink(name, bytes)."""
    if path == "-":
        sink("<stdin>", sys.stdin.buffer.read())
    elif os.path.isdir(path):
        # Folders: recursive, hidden entries skipped, sorted bytewise by name.
        names = sorted(os.listdir(path), key=os.fsencode)
        for name in names:
            if not name.startswith("."):
                read_path(os.path.join(path, name), sink)
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            sink(path, None, str(e))
            return
        sink(path, data)


def hidden_member(name):
    return any(part.startswith(".") for part in name.split("/") if part)


def unpack(name, data, on_plain, bad):
    """Decompress / open containers by magic bytes, recursively."""
    try:
        if data[:2] == b"\x1f\x8b":
            return unpack(name, gzip.decompress(data), on_plain, bad)
        if data[:3] == b"BZh":
            return unpack(name, bz2.decompress(data), on_plain, bad)
        if data[:6] == b"\xfd7zXZ\x00":
            return unpack(name, lzma.decompress(data), on_plain, bad)
    except (OSError, EOFError, lzma.LZMAError, ValueError) as e:
        bad.add(name, 0, "corrupt compressed stream: %s" % e)
        return
    if data[:4] in (b"\x28\xb5\x2f\xfd", b"\x04\x22\x4d\x18"):
        # DECISION: zstd/lz4 are not in the stdlib; the corpus has none.
        bad.add(name, 0, "zstd/lz4 not supported by the reference")
        return
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                for info in z.infolist():  # archive order
                    if not info.is_dir() and not hidden_member(info.filename):
                        unpack(name + "/" + info.filename, z.read(info), on_plain, bad)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
            bad.add(name, 0, "corrupt zip: %s" % e)
        return
    if len(data) >= 262 and data[257:262] == b"ustar":
        try:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as t:
                for m in t:  # archive order
                    if m.isfile() and not hidden_member(m.name):
                        unpack(name + "/" + m.name, t.extractfile(m).read(), on_plain, bad)
        except (tarfile.TarError, OSError, EOFError) as e:
            bad.add(name, 0, "corrupt tar: %s" % e)
        return
    on_plain(name, data)


# ---------------------------------------------------------------- records

def _no_constants(name):
    raise ValueError("not JSON: %s" % name)  # reject NaN / Infinity


DECODER = json.JSONDecoder(parse_constant=_no_constants)


def loads(text):
    value, end = DECODER.raw_decode(text, 0)
    if text[end:].strip(" \t\r\n"):
        raise ValueError("trailing data")
    return value


def records(name, data, bad):
    """Yield (line_number, value) for each valid JSON record of a plain file."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    m = ARCHIVE_PREFIX.match(data)
    if m:
        data = data[m.end():]
        yield from documents(name, data, bad)
        return
    lines = data.split(b"\n")
    first = next((i for i, l in enumerate(lines) if l.strip(b" \t\r")), None)
    if first is None:
        return
    # Document mode when the first JSON value spans several lines.
    try:
        loads(lines[first].decode("utf-8"))
        multi_line = False
    except ValueError:
        rest = b"\n".join(lines[first:])
        try:
            text = rest.decode("utf-8")
            _, end = DECODER.raw_decode(text, 0)
            multi_line = "\n" in text[:end]
        except ValueError:
            multi_line = False
    if multi_line:
        yield from documents(name, b"\n".join(lines[first:]), bad, first + 1)
        return
    for i, raw in enumerate(lines):
        line = raw.rstrip(b"\r")
        if not line.strip(b" \t"):
            continue
        try:
            yield i + 1, loads(line.decode("utf-8"))
        except ValueError as e:  # includes UnicodeDecodeError
            bad.add(name, i + 1, "invalid JSON (%s)" % e)


def documents(name, data, bad, first_line=1):
    """One or more whole JSON values, separated by whitespace."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        bad.add(name, first_line, "invalid UTF-8 (%s)" % e)
        return
    pos = 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos >= len(text):
            return
        line = first_line + text.count("\n", 0, pos)
        try:
            value, pos = DECODER.raw_decode(text, pos)
        except ValueError as e:
            # DECISION: after a broken document the rest of the file cannot be
            # resynchronised; it counts as one bad record.
            bad.add(name, line, "invalid JSON (%s)" % e)
            return
        yield line, value


# ---------------------------------------------------------------- tweets

def tweet_id(tweet):
    """The tweet id as int, or None when missing / invalid."""
    # DECISION: a key whose value is null counts as absent.
    raw = tweet.get("id_str")
    if raw is None:
        raw = tweet.get("id")
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and DIGITS.match(raw):
        value = int(raw)
    else:
        return None
    return value if 0 <= value <= U64_MAX else None


def tweets_of(value, ctx, name, line, bad):
    """Yield (tweet_object, includes) for every top-level tweet in a value."""
    if isinstance(value, list):
        for element in value:
            yield from tweets_of(element, ctx, name, line, bad)
        return
    if not isinstance(value, dict):
        # DECISION: a non-object where a tweet is expected is bad input.
        bad.add(name, line, "not a tweet (%s)" % type(value).__name__)
        return
    has_id = "id" in value or "id_str" in value
    if not has_id:
        if isinstance(value.get("statuses"), list):
            yield from tweets_of(value["statuses"], ctx, name, line, bad)
            return
        if isinstance(value.get("results"), list):
            yield from tweets_of(value["results"], ctx, name, line, bad)
            return
        if "data" in value:
            yield from tweets_of_page(value, name, line, bad)
            return
        if isinstance(value.get("tweet"), dict):
            yield from tweets_of(value["tweet"], ctx, name, line, bad)
            return
        if NOTICE_KEYS & value.keys():
            return  # stream notice: skipped, not bad
        if "meta" in value or "errors" in value:
            return  # v2 page without data: nothing, not bad
    if tweet_id(value) is None:
        bad.add(name, line, "object without a valid tweet id")
        return
    yield value, ctx


def tweets_of_page(page, name, line, bad):
    includes = page.get("includes") if isinstance(page.get("includes"), dict) else {}
    ctx = {"users": {}, "tweets": {}}
    for user in includes.get("users") or []:
        if isinstance(user, dict) and user.get("id") is not None and isinstance(user.get("username"), str):
            ctx["users"][str(user["id"])] = user["username"]
    for tweet in includes.get("tweets") or []:
        if isinstance(tweet, dict) and tweet.get("id") is not None:
            ctx["tweets"][str(tweet["id"])] = tweet
    data = page["data"]
    if data is None:
        return
    yield from tweets_of(data, ctx, name, line, bad)


EMPTY_CTX = {"users": {}, "tweets": {}}


def obj(x):
    return x if isinstance(x, dict) else {}


def own_mentions(tweet):
    """(hashtags, users) of a tweet itself, both dialects, normalised keys."""
    if isinstance(obj(tweet.get("extended_tweet")).get("entities"), dict):
        ents = tweet["extended_tweet"]["entities"]
    elif "note_tweet" in tweet and isinstance(tweet["note_tweet"], dict):
        ents = obj(tweet["note_tweet"].get("entities"))
    else:
        ents = obj(tweet.get("entities"))
    tags, users = set(), set()
    for field, keys, out in (("hashtags", ("text", "tag"), tags),
                             ("user_mentions", ("screen_name", "username"), users),
                             ("mentions", ("screen_name", "username"), users)):
        entries = ents.get(field)
        if not isinstance(entries, list):
            continue
        for entry in entries:
            for key in keys:
                v = obj(entry).get(key)
                if isinstance(v, str) and v:
                    out.add(norm(v))
    return tags, users


def full_text(tweet):
    for candidate in (obj(tweet.get("extended_tweet")).get("full_text"),
                      obj(tweet.get("note_tweet")).get("text"),
                      tweet.get("full_text"), tweet.get("text")):
        if isinstance(candidate, str):
            return candidate
    return None


def author(tweet, ctx):
    for candidate in (obj(tweet.get("user")).get("screen_name"),
                      obj(tweet.get("author")).get("username")):
        if isinstance(candidate, str) and candidate:
            return candidate
    aid = tweet.get("author_id")
    if aid is not None:
        name = ctx["users"].get(str(aid))
        if isinstance(name, str) and name:
            return name
    return None


def retweeted(tweet, ctx):
    """The retweeted tweet (object) when known, else None."""
    if isinstance(tweet.get("retweeted_status"), dict):
        return tweet["retweeted_status"]
    refs = tweet.get("referenced_tweets")
    if isinstance(refs, list):
        for ref in refs:
            if isinstance(ref, dict) and ref.get("type") == "retweeted":
                rid = ref.get("id")
                if rid is not None and str(rid) in ctx["tweets"]:
                    return ctx["tweets"][str(rid)]
                # DECISION: "inline" = any key besides id and type.
                if set(ref.keys()) - {"id", "type"}:
                    return ref
                return None
    return None


def analyse(tweet, ctx, mode="entities"):
    """(hashtags, users, author_key, full_text, facts) of a top-level tweet;
    facts as `tweet_facts` (SPEC 12.1)."""
    tags, users = own_mentions(tweet) if mode == "entities" else (set(), set())
    spellings = own_spellings(tweet) if mode == "entities" else []
    text = full_text(tweet)
    rt = retweeted(tweet, ctx)
    if rt is not None:
        if mode == "entities":
            rt_tags, rt_users = own_mentions(rt)
            tags |= rt_tags
            users |= rt_users
            spellings += own_spellings(rt)
        rt_author = author(rt, ctx)
        if rt_author:
            users.add(norm(rt_author))
            spellings.append("@" + nfc(rt_author))
        rt_text = full_text(rt)
        if rt_text is not None:  # DECISION: keep own text if the RT has none
            text = rt_text
    if mode == "text" and text is not None:
        # Mentions from text (SPEC 4): the retweeted tweet's full text when
        # there is one, by twitter-text's rules.
        t, u = twitter_text.tweet_mentions(text)
        tags |= {norm(x) for x in t}
        users |= {norm(x) for x in u}
        spellings += ["#" + nfc(x) for x in t] + ["@" + nfc(x) for x in u]
    who = author(tweet, ctx)
    marked = is_marked_retweet(tweet)
    facts = tweet_facts(created_at=tweet.get("created_at"), tid=tweet_id(tweet), lang=tweet.get("lang"),
                        marked=marked, own_text=full_text(tweet), text_mode=(mode == "text"), spellings=spellings)
    return tags, users, (norm(who) if who else None), text, facts


# ---------------------------------------------------------------- SPEC 12

def nfc(s):
    return unicodedata.normalize("NFC", s)


def own_spellings(tweet):
    """SPEC 12.1: the tweet's own hashtags and user mentions as written, NFC
    (not lowercased), with their sign, from the same entities own_mentions reads."""
    if isinstance(obj(tweet.get("extended_tweet")).get("entities"), dict):
        ents = tweet["extended_tweet"]["entities"]
    elif "note_tweet" in tweet and isinstance(tweet["note_tweet"], dict):
        ents = obj(tweet["note_tweet"].get("entities"))
    else:
        ents = obj(tweet.get("entities"))
    out = []
    for field, keys, sign in (("hashtags", ("text", "tag"), "#"),
                              ("user_mentions", ("screen_name", "username"), "@"),
                              ("mentions", ("screen_name", "username"), "@")):
        entries = ents.get(field)
        if not isinstance(entries, list):
            continue
        for entry in entries:
            for key in keys:
                v = obj(entry).get(key)
                if isinstance(v, str) and v:
                    out.append(sign + nfc(v))
    return out


def is_marked_retweet(tweet):
    """SPEC 12.1: v1.1 `retweeted_status`, or a v2 `retweeted` reference."""
    if "retweeted_status" in tweet and tweet["retweeted_status"] is not None:
        return True
    refs = tweet.get("referenced_tweets")
    return isinstance(refs, list) and any(isinstance(r, dict) and r.get("type") == "retweeted" for r in refs)


TWITTER_EPOCH_MS = 1288834974657
FIRST_SNOWFLAKE = 29700859247
RT_MARK = re.compile(r"\ART @[A-Za-z0-9_]{1,20}:")


def parse_created_at(raw):
    """Seconds since 1970 UTC of a created_at (v1.1 `Wed Aug 27 13:08:45 +0000
    2008` or ISO 8601, no offset meaning UTC), or None when unreadable.
    DECISION: whole seconds (a fraction is dropped)."""
    if not isinstance(raw, str):
        return None
    raw = raw.strip()
    try:
        t = datetime.datetime.strptime(raw, "%a %b %d %H:%M:%S %z %Y")
    except ValueError:
        try:
            t = datetime.datetime.fromisoformat(raw)
        except ValueError:
            return None
        if t.tzinfo is None:
            t = t.replace(tzinfo=datetime.timezone.utc)
    return int(t.timestamp() // 1)


def tweet_time(created_at, tid):
    t = parse_created_at(created_at)
    if t is not None:
        return t
    if tid is not None and tid >= FIRST_SNOWFLAKE:
        return ((tid >> 22) + TWITTER_EPOCH_MS) // 1000
    return None


def tweet_facts(created_at, tid, lang, marked, own_text, text_mode, spellings):
    """SPEC 12.1: time (or None), retweet flag, language (or None), spellings.
    `marked` is True/False as the record says, or None when it cannot say
    (a CSV without retweet columns)."""
    retweet = marked is True
    if not retweet and (text_mode or marked is None) and isinstance(own_text, str):
        retweet = RT_MARK.match(own_text) is not None
    return {"time": tweet_time(created_at, tid), "retweet": retweet,
            "lang": lang if isinstance(lang, str) and lang != "" else None,
            "spellings": spellings}


def parse_bound(raw):
    """A --since/--until value: a date (00:00 UTC) or an ISO 8601 date-time
    with Z or an offset; None when malformed or without an offset."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
        try:
            d = datetime.date.fromisoformat(raw)
        except ValueError:
            return None
        return int(datetime.datetime(d.year, d.month, d.day, tzinfo=datetime.timezone.utc).timestamp())
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})", raw):
        return None
    try:
        t = datetime.datetime.fromisoformat(raw)
    except ValueError:
        return None
    return int(t.timestamp() // 1)


class Filter:
    """SPEC 12.2, applied before matching and dedup."""

    def __init__(self, since=None, until=None, retweets="include", langs=None, need_time=False):
        self.since, self.until, self.retweets = since, until, retweets
        self.need_time = need_time  # SPEC 12.4: with --by, tweets of unknown time are left out
        self.langs = {c.lower() for c in langs} if langs is not None else None
        self.left_out = 0
        self.unknown_time = 0

    def keeps(self, facts):
        if self.since is not None or self.until is not None or self.need_time:
            t = facts["time"]
            if t is None:
                self.unknown_time += 1
                self.left_out += 1
                return False
            if (self.since is not None and t < self.since) or (self.until is not None and t >= self.until):
                self.left_out += 1
                return False
        if self.retweets == "exclude" and facts["retweet"] or self.retweets == "only" and not facts["retweet"]:
            self.left_out += 1
            return False
        if self.langs is not None and (facts["lang"] is None or facts["lang"].lower() not in self.langs):
            self.left_out += 1
            return False
        return True


# ---------------------------------------------------------------- CSV

# DECISION: candidates in order of preference; names compared stripped and
# lowercased; a --*-column option replaces the list.
CSV_ID = ["id_str", "id", "tweet_id"]
CSV_TEXT = ["full_text", "text", "tweet", "content"]
CSV_AUTHOR = ["author.username", "user_screen_name", "screen_name", "username", "user.screen_name"]


def csv_header(data, columns):
    """(delimiter, {role: index}, field_count, text) when data is a CSV export
    whose first line names an id and a text column; else None."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8", errors="replace")
    first = text.lstrip(" \t\r\n")[:1]
    if first in ("{", "[", ""):
        return None
    start = len(text) - len(text.lstrip(" \t\r\n"))
    start = text.rfind("\n", 0, start) + 1
    line = text[start:].split("\n", 1)[0].rstrip("\r")
    for delim in (",", "\t", ";"):
        if delim not in line:
            continue
        names = [n.strip().lower() for n in next(csv.reader([line], delimiter=delim))]

        def find(cands):
            for c in cands:
                if c.strip().lower() in names:
                    return names.index(c.strip().lower())
            return None

        roles = {"id": find(columns["id"]), "text": find(columns["text"]),
                 "author": find(columns["author"]), "hashtags": find(["entities.hashtags"]),
                 "mentions": find(["entities.mentions"]), "retweeted": find(["retweeted_username"]),
                 # SPEC 12.1: a CSV created_at, lang and retweeted-id column.
                 "created_at": find(["created_at"]), "lang": find(["lang"]),
                 "retweeted_id": find(["referenced_tweets.retweeted.id", "retweeted_status.id_str", "retweeted_id"])}
        if roles["id"] is not None and roles["text"] is not None:
            return delim, roles, len(names), text
    return None


def looks_like_csv_header(data):
    """DECISION: a first line of two or more column-name-like fields (words
    of letters, digits, `_.- `) that names no id or text column makes the
    whole file one bad input, not one bad record per line."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    data = data[:4096].lstrip(b" \t\r\n")
    if data[:1] in (b"{", b"[") or b"\n" not in data:
        return False
    line = data.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8", errors="replace")
    for delim in (",", "\t", ";"):
        if delim not in line:
            continue
        names = [n.strip() for n in next(csv.reader([line], delimiter=delim))]
        if len(names) >= 2 and all(n and len(n) <= 64 and all(c.isalpha() or c.isnumeric() or c in "_.- " for c in n)
                                   for n in names):
            return True
    return False


def entity_names(field):
    """Names in a twarc-csv entity column: a JSON array of "#tag"/"@name"
    strings or of objects (tag/text, username/screen_name); else words."""
    names = []
    try:
        value = json.loads(field)
        if not isinstance(value, list):
            raise ValueError
        for v in value:
            if isinstance(v, dict):
                for k in ("tag", "text", "username", "screen_name"):
                    if isinstance(v.get(k), str):
                        names.append(v[k])
                        break
            elif isinstance(v, str):
                names.append(v)
    except ValueError:
        names = [w for w in re.split(r"[\s,;|\[\]\"']+", field) if w]
    out = set()
    for n in names:
        if n[:1] in ("#", "@", "\uff03", "\uff20"):
            n = n[1:]
        if n:
            out.add(norm(n))
    return out


def entity_spellings(field):
    """The names of a twarc-csv entity column as written (entity_names, not normalised)."""
    names = []
    try:
        value = json.loads(field)
        if not isinstance(value, list):
            raise ValueError
        for v in value:
            if isinstance(v, dict):
                for k in ("tag", "text", "username", "screen_name"):
                    if isinstance(v.get(k), str):
                        names.append(v[k])
                        break
            elif isinstance(v, str):
                names.append(v)
    except ValueError:
        names = [w for w in re.split(r"[\s,;|\[\]\"']+", field) if w]
    out = []
    for n in names:
        if n[:1] in ("#", "@", "\uff03", "\uff20"):
            n = n[1:]
        if n:
            out.append(n)
    return out


def csv_tweets(name, header, bad, mode):
    """Yield (id, hashtags, users, author_key, text) for the rows of a CSV export."""
    delim, roles, count, text = header
    # The header is the first non-blank line: find its end.
    lead = len(text) - len(text.lstrip(" \t\r\n"))
    header_end = text.find("\n", lead)
    header_line = text.count("\n", 0, lead) + 1
    if header_end < 0:
        return
    body = text[header_end + 1:]
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delim, quotechar='"', doublequote=True, strict=False)
    prev = 0
    for row in reader:
        line = header_line + prev + 1
        prev = reader.line_num
        if not row or (len(row) == 1 and not row[0].strip(" \t\r")):
            continue  # DECISION: blank lines are no rows
        if len(row) != count:
            bad.add(name, line, "CSV row has %d fields, the header %d" % (len(row), count))
            continue
        raw_id = row[roles["id"]].strip(" \t\r\n")
        if not DIGITS.match(raw_id) or int(raw_id) > U64_MAX:
            bad.add(name, line, "CSV row without a valid tweet id")
            continue
        # DECISION: twarc-csv writes a tweet's line ends as the two characters \n.
        tweet_text = row[roles["text"]].replace("\\n", "\n")
        who = None
        if roles["author"] is not None:
            who = row[roles["author"]].strip(" \t\r\n")
            who = who[1:] if who.startswith("@") else who
        users = set()
        spellings = []
        rt = ""
        if roles["retweeted"] is not None:
            rt = row[roles["retweeted"]].strip(" \t\r\n")
            rt = rt[1:] if rt.startswith("@") else rt
            if rt:
                users.add(norm(rt))
                spellings.append("@" + nfc(rt))
        if mode == "entities" and (roles["hashtags"] is not None or roles["mentions"] is not None):
            tags = entity_names(row[roles["hashtags"]]) if roles["hashtags"] is not None else set()
            users |= entity_names(row[roles["mentions"]]) if roles["mentions"] is not None else set()
            for role, sign in (("hashtags", "#"), ("mentions", "@")):
                if roles[role] is not None:
                    spellings += [sign + nfc(n) for n in entity_spellings(row[roles[role]])]
        else:
            t, u = twitter_text.tweet_mentions(tweet_text)
            tags = {norm(x) for x in t}
            users |= {norm(x) for x in u}
            spellings += ["#" + nfc(x) for x in t] + ["@" + nfc(x) for x in u]
        cell = (lambda role: row[roles[role]].strip(" \t\r\n") if roles[role] is not None else None)
        if roles["retweeted"] is None and roles["retweeted_id"] is None:
            marked = None
        else:
            marked = bool(rt) or bool(cell("retweeted_id"))
        facts = tweet_facts(created_at=cell("created_at"), tid=int(raw_id), lang=cell("lang"), marked=marked,
                            own_text=tweet_text, text_mode=(mode == "text"), spellings=spellings)
        yield int(raw_id), tags, users, (norm(who) if who else None), tweet_text, facts


# ---------------------------------------------------------------- terms

def is_word_char(ch):
    return ch == "_" or unicodedata.category(ch)[0] in "LN"


def contains_word(text, word):
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        if (start == 0 or not is_word_char(text[start - 1])) and \
           (end == len(text) or not is_word_char(text[end])):
            return True
        start = text.find(word, start + 1)
    return False


def unescape(text):
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def check_term(raw):
    if raw in ("", "#", "@") or any(ch.isspace() or unicodedata.category(ch) == "Cc" for ch in raw):
        usage("invalid term %r" % raw)
    return norm(raw)


def usage(msg):
    sys.stderr.write("reference.py: %s\n" % msg)
    sys.exit(2)


def matches(term, tags, users, who, text):
    if term == "*":
        return True
    if term.startswith("#"):
        return term[1:] in tags
    if term.startswith("@"):
        return term[1:] in users
    if term.startswith("from:"):
        return who is not None and who == term[5:]
    if text is None:
        return False
    return contains_word(norm(unescape(text)), term)


# ---------------------------------------------------------------- report

def run(terms, paths, bad, mode="entities", columns=None, filt=None, extra=None, series=None, pairs=None):
    """Return {term: (tweet_count, {mention: count})}; with `extra` (a dict),
    also fill extra[term] with SPEC 12.3's per-term and per-mention facts;
    with `series` (a dict), also fill series[term] with each counted tweet
    as (time, mention keys, retweet, author, spellings) for SPEC 12.4.

    With `pairs` (a dict), also fill pairs[term] with {(a, b): weight} for
    the unordered pairs of distinct signed keys of each counted tweet, a
    before b in UTF-8 byte order (SPEC 12.5)."""
    seen = {t: set() for t in terms}
    counts = {t: {} for t in terms}
    if pairs is not None:
        for t in terms:
            pairs[t] = {}
    columns = columns or {"id": CSV_ID, "text": CSV_TEXT, "author": CSV_AUTHOR}
    if extra is not None:
        for t in terms:
            extra[t] = {"retweets": 0, "authors": set(), "m_retweets": {}, "m_authors": {}, "spellings": {}}

    def count(tid, tags, users, who, text, facts):
        # SPEC 12.2: filters before matching and dedup.
        if filt is not None and not filt.keeps(facts):
            return
        for term in terms:
            # Dedup keyed on (id, term): first matching occurrence counts.
            if tid in seen[term] or not matches(term, tags, users, who, text):
                continue
            seen[term].add(tid)
            c = counts[term]
            keys = ["#" + t for t in tags] + ["@" + u for u in users]
            if series is not None:
                series.setdefault(term, []).append((facts["time"], keys, facts["retweet"], who, facts["spellings"]))
            for key in keys:
                c[key] = c.get(key, 0) + 1
            if extra is not None:
                e = extra[term]
                if facts["retweet"]:
                    e["retweets"] += 1
                if who is not None:
                    e["authors"].add(who)
                for key in keys:
                    if facts["retweet"]:
                        e["m_retweets"][key] = e["m_retweets"].get(key, 0) + 1
                    if who is not None:
                        e["m_authors"].setdefault(key, set()).add(who)
                # Each distinct spelling a tweet carries of a mention adds one.
                for sp in set(facts["spellings"]):
                    key = sp[0] + norm(sp[1:])
                    if key in keys:
                        d = e["spellings"].setdefault(key, {})
                        d[sp] = d.get(sp, 0) + 1
            if pairs is not None:
                # tags and users are sets of normalised names, so keys are
                # distinct: "#x" and "@x" are two, "#Foo"/"#foo" one.
                ordered = sorted(keys, key=lambda k: k.encode("utf-8"))
                p = pairs[term]
                for i in range(len(ordered)):
                    for j in range(i + 1, len(ordered)):
                        edge = (ordered[i], ordered[j])
                        p[edge] = p.get(edge, 0) + 1

    def on_plain(name, data):
        header = csv_header(data, columns)
        if header is not None:
            for row in csv_tweets(name, header, bad, mode):
                count(*row)
            return
        if looks_like_csv_header(data):
            bad.add(name, 0, "CSV without an id and a text column")
            return
        for line, value in records(name, data, bad):
            for tweet, ctx in tweets_of(value, EMPTY_CTX, name, line, bad):
                count(tweet_id(tweet), *analyse(tweet, ctx, mode))

    def sink(name, data, error=None):
        if data is None:
            bad.add(name, 0, "unreadable: %s" % error)
        else:
            unpack(name, data, on_plain, bad)

    for path in paths:
        read_path(path, sink)
    return {t: (len(seen[t]), counts[t]) for t in terms}


def rows_for(counts, prefix, min_count, top):
    rows = [(m, n) for m, n in counts.items() if m.startswith(prefix) and n >= min_count]
    rows.sort(key=lambda r: (-r[1], r[0].encode("utf-8")))
    return rows[:top] if top is not None else rows


def csv_field(s):
    if any(c in s for c in ',"\r\n'):
        return '"' + s.replace('"', '""') + '"'
    return s


def display_of(spellings):
    """The most frequent spelling; ties by ascending UTF-8 bytes; '' when none."""
    if not spellings:
        return ""
    return sorted(spellings.items(), key=lambda kv: (-kv[1], kv[0].encode("utf-8")))[0][0]


def render_columns(terms, result, extra, min_count, top, fmt, cols):
    """SPEC 12.3: the report with the picked columns."""
    def value(col, term, kind, m, c):
        e = extra[term]
        return {"term": term, "type": kind, "mention": m, "count": c,
                "display": display_of(e["spellings"].get(m)),
                "retweets": e["m_retweets"].get(m, 0), "originals": c - e["m_retweets"].get(m, 0),
                "authors": len(e["m_authors"].get(m, ()))}[col]
    if fmt == "json":
        doc = []
        for term in terms:
            n, counts = result[term]
            e = extra[term]
            o = {"term": term, "tweets": n}
            for col in cols:
                if col == "originals":
                    o["originals"] = n - e["retweets"]
                elif col == "retweets":
                    o["retweets"] = e["retweets"]
                elif col == "authors":
                    o["authors"] = len(e["authors"])
            for kind, prefix, field in (("hashtag", "#", "hashtags"), ("user", "@", "users")):
                o[field] = [{col: value(col, term, kind, m, c) for col in cols if col not in ("term", "type")}
                            for m, c in rows_for(counts, prefix, min_count, top)]
            doc.append(o)
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    out = [",".join(cols) + "\n"]
    for term in terms:
        counts = result[term][1]
        for kind, prefix in (("hashtag", "#"), ("user", "@")):
            for m, c in rows_for(counts, prefix, min_count, top):
                out.append(",".join(csv_field(str(value(col, term, kind, m, c))) for col in cols) + "\n")
    return "".join(out)


# ---------------------------------------------------------------- SPEC 12.4

BY_UNITS = ("hour", "day", "week", "month", "year")


def bucket_name(t, unit, zone):
    """The bucket of instant t (seconds UTC), named by wall-clock time in zone."""
    local = datetime.datetime.fromtimestamp(t, zone)
    if unit == "week":
        y, w, _ = local.isocalendar()
        return "%04d-W%02d" % (y, w)
    return local.strftime({"hour": "%Y-%m-%dT%H", "day": "%Y-%m-%d", "month": "%Y-%m", "year": "%Y"}[unit])


def bucket_span(lo, hi, unit, zone):
    """Every bucket holding an instant of [lo, hi], ascending. Offsets and
    changes of the tz database fall on quarter hours since 1970, so a walk
    by quarter hours meets every wall-clock hour that exists."""
    names = set()
    t = lo
    while t < hi:
        names.add(bucket_name(t, unit, zone))
        t = (t // 900 + 1) * 900
    names.add(bucket_name(hi, unit, zone))
    return sorted(names)


def series_reports(terms, series, unit, zone, min_count, top, since, until):
    """[(term, bucket, tweets, rows, extra)] in output order: rows
    [(kind, mention, count, retweets, authors, display)] of the mentions
    chosen over the whole period, in the bucket's order."""
    out = []
    for term in terms:
        tweets = series.get(term, [])
        totals = {}
        for _, keys, _, _, _ in tweets:
            for k in keys:
                totals[k] = totals.get(k, 0) + 1
        chosen = {prefix: [m for m, _ in rows_for(totals, prefix, min_count, top)] for prefix in "#@"}
        times = [t for t, _, _, _, _ in tweets]
        lo = since if since is not None else (min(times) if times else None)
        hi = until - 1 if until is not None else (max(times) if times else None)
        if lo is None or hi is None or lo > hi:
            continue
        by_bucket = {}
        for tw in tweets:
            by_bucket.setdefault(bucket_name(tw[0], unit, zone), []).append(tw)
        for b in bucket_span(lo, hi, unit, zone):
            mine = by_bucket.get(b, [])
            extra = {"tweets": len(mine), "retweets": sum(1 for tw in mine if tw[2]),
                     "authors": len({tw[3] for tw in mine if tw[3] is not None})}
            rows = []
            for kind, prefix in (("hashtag", "#"), ("user", "@")):
                found = []
                for m in chosen[prefix]:
                    carrying = [tw for tw in mine if m in tw[1]]
                    spell = {}
                    for tw in carrying:
                        for sp in set(tw[4]):
                            if sp[0] + norm(sp[1:]) == m:
                                spell[sp] = spell.get(sp, 0) + 1
                    found.append((kind, m, len(carrying), sum(1 for tw in carrying if tw[2]),
                                  len({tw[3] for tw in carrying if tw[3] is not None}), display_of(spell)))
                found.sort(key=lambda r: (-r[2], r[1].encode("utf-8")))
                rows += found
            out.append((term, b, extra, rows))
    return out


def render_series(reports, fmt, cols):
    cols = cols or ["term", "type", "mention", "count"]
    def value(col, term, row):
        kind, m, c, rts, authors, display = row
        return {"term": term, "type": kind, "mention": m, "count": c, "display": display,
                "retweets": rts, "originals": c - rts, "authors": authors}[col]
    if fmt == "json":
        doc = []
        for term, b, extra, rows in reports:
            o = {"term": term, "bucket": b, "tweets": extra["tweets"]}
            for col in cols:
                if col == "originals":
                    o["originals"] = extra["tweets"] - extra["retweets"]
                elif col in ("retweets", "authors"):
                    o[col] = extra[col]
            for kind, field in (("hashtag", "hashtags"), ("user", "users")):
                o[field] = [{col: value(col, term, r) for col in cols if col not in ("term", "type")}
                            for r in rows if r[0] == kind]
            doc.append(o)
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    at = cols.index("term") + 1 if "term" in cols else 0
    header = cols[:at] + ["bucket"] + cols[at:]
    out = [",".join(header) + "\n"]
    for term, b, extra, rows in reports:
        for r in rows:
            fields = [csv_field(str(value(col, term, r))) for col in cols]
            fields.insert(at, csv_field(b))
            out.append(",".join(fields) + "\n")
    return "".join(out)


COLUMN_NAMES = ("term", "type", "mention", "display", "count", "originals", "retweets", "authors")


def render(terms, result, min_count, top, fmt):
    if fmt == "json":
        doc = []
        for term in terms:
            n, counts = result[term]
            doc.append({"term": term, "tweets": n,
                        "hashtags": [{"mention": m, "count": c} for m, c in rows_for(counts, "#", min_count, top)],
                        "users": [{"mention": m, "count": c} for m, c in rows_for(counts, "@", min_count, top)]})
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    out = ["term,type,mention,count\n"]
    for term in terms:
        counts = result[term][1]
        for kind, prefix in (("hashtag", "#"), ("user", "@")):
            for m, c in rows_for(counts, prefix, min_count, top):
                out.append("%s,%s,%s,%d\n" % (csv_field(term), kind, csv_field(m), c))
    return "".join(out)


def own_mention(term):
    """The mention --without-term leaves out: #tag and @name terms only."""
    return term if term[:1] in ("#", "@") else None


def pair_rows(term, weights, min_count, top, without_term):
    own = own_mention(term) if without_term else None
    rows = [(a, b, w) for (a, b), w in weights.items() if w >= min_count and own not in (a, b)]
    rows.sort(key=lambda r: (-r[2], r[0].encode("utf-8"), r[1].encode("utf-8")))
    return rows[:top] if top is not None else rows


def render_pairs(terms, result, pairs, min_count, top, without_term, fmt):
    if fmt == "json":
        doc = [{"term": t, "tweets": result[t][0],
                "pairs": [{"source": a, "target": b, "weight": w}
                          for a, b, w in pair_rows(t, pairs[t], min_count, top, without_term)]}
               for t in terms]
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    out = ["term,source,target,weight\n"]
    for t in terms:
        for a, b, w in pair_rows(t, pairs[t], min_count, top, without_term):
            out.append("%s,%s,%s,%d\n" % (csv_field(t), csv_field(a), csv_field(b), w))
    return "".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(description="smashtag reference report")
    p.add_argument("-t", "--term", action="append", required=True)
    p.add_argument("--min-count", type=int, default=2)
    p.add_argument("--top", type=int, default=None)
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.add_argument("--mentions-from", choices=("entities", "text"), default="entities")
    p.add_argument("--id-column")
    p.add_argument("--text-column")
    p.add_argument("--author-column")
    p.add_argument("--since")
    p.add_argument("--until")
    p.add_argument("--retweets", default="include")
    p.add_argument("--lang")
    p.add_argument("--columns")
    p.add_argument("--pairs", action="store_true")
    p.add_argument("--without-term", action="store_true")
    p.add_argument("--by")
    p.add_argument("--tz", default="UTC")
    p.add_argument("paths", nargs="*")
    a = p.parse_args(argv)
    zone = None
    if a.by is not None:
        if a.by not in BY_UNITS:
            usage("bad --by %r" % a.by)
        try:
            zone = zoneinfo.ZoneInfo(a.tz)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            usage("unknown --tz %r" % a.tz)
    filt = None
    if a.since is not None or a.until is not None or a.retweets != "include" or a.lang is not None or a.by is not None:
        bounds = []
        for raw in (a.since, a.until):
            b = parse_bound(raw) if raw is not None else None
            if raw is not None and b is None:
                usage("bad time %r" % raw)
            bounds.append(b)
        if a.retweets not in ("include", "exclude", "only"):
            usage("bad --retweets %r" % a.retweets)
        langs = None
        if a.lang is not None:
            langs = a.lang.split(",")
            if any(not c or any(ch.isspace() for ch in c) for c in langs):
                usage("bad --lang %r" % a.lang)
        filt = Filter(bounds[0], bounds[1], a.retweets, langs, need_time=a.by is not None)
    cols = None
    if a.columns is not None:
        cols = a.columns.split(",")
        if any(c not in COLUMN_NAMES for c in cols) or len(set(cols)) != len(cols):
            usage("bad --columns %r" % a.columns)
    terms = []
    for raw in a.term:
        t = check_term(raw)
        if t not in terms:  # a term given twice counts once
            terms.append(t)
    bad = Bad()
    columns = {"id": [a.id_column] if a.id_column else CSV_ID,
               "text": [a.text_column] if a.text_column else CSV_TEXT,
               "author": [a.author_column] if a.author_column else CSV_AUTHOR}
    extra = {} if cols is not None else None
    pairs = {} if a.pairs else None
    series = {} if a.by is not None else None
    result = run(terms, a.paths or ["-"], bad, a.mentions_from, columns, filt, extra, series, pairs)
    if a.pairs:
        text = render_pairs(terms, result, pairs, a.min_count, a.top, a.without_term, a.format)
    elif a.by is not None:
        text = render_series(series_reports(terms, series, a.by, zone, a.min_count, a.top, filt.since, filt.until),
                             a.format, cols)
    elif cols is not None:
        text = render_columns(terms, result, extra, a.min_count, a.top, a.format, cols)
    else:
        text = render(terms, result, a.min_count, a.top, a.format)
    sys.stdout.buffer.write(text.encode("utf-8"))
    if filt is not None:
        sys.stderr.write("left_out=%d unknown_time=%d\n" % (filt.left_out, filt.unknown_time))
    for w in bad.where:
        sys.stderr.write("bad: %s\n" % w)
    sys.stderr.write("bad_records=%d\n" % bad.count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
