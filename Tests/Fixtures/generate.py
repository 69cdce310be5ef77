#!/usr/bin/env python3
"""Generate the cross-shape fixtures in Tests/Fixtures/dozen/ and the
single-defect fixtures in Tests/Fixtures/defects/.

THE SAME DOZEN TWEETS are rendered in every input shape smashtag reads (SPEC
section 3), so a test can check that every shape gives an identical report.
The expected reports are computed here from the abstract tweet table below
(SPEC sections 2, 4, 5 and 7), never by parsing the rendered files.

Deterministic: running it twice gives byte-identical files (fixed gzip mtime,
tar mtimes/owners, zip date_time, seeded PRNG). Python 3 stdlib only, plus the
`zstd` and `lz4` command-line tools for those two formats.

    python3 Tests/Fixtures/generate.py
"""

import bz2
import datetime as dt
import gzip
import io
import json
import lzma
import os
import random
import re
import subprocess
import tarfile
import unicodedata
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
DOZEN = os.path.join(HERE, "dozen")
DEFECTS = os.path.join(HERE, "defects")

UTC = dt.timezone.utc
TAR_MTIME = 1551441600  # 2019-03-01T12:00:00Z
ZIP_TIME = (2019, 3, 1, 12, 0, 0)
TWEPOCH_MS = 1288834974657

# ---------------------------------------------------------------------------
# The abstract table
# ---------------------------------------------------------------------------

USERS = {
    # screen_name: (id, display name)
    "StanfordDaily": (14428393, "The Stanford Daily"),
    "NASA": (11348282, "NASA"),
    "Stanford": (18036441, "Stanford University"),
    "mei_tanaka": (3190045821, "田中 芽衣"),
    "ivan_petrov": (2837461190, "Иван Петров"),
    "dmitri_k": (974412305, "Дмитрий К."),
    "olga_s": (1058823467, "Ольга Смирнова"),
    "GoStanford": (21659423, "Stanford Athletics"),
    "gotrees_fan": (817263544, "Jo \U0001F332 Tree"),
    "swift_dev": (2204716593, "Sam Swift Dev"),
    "SwiftLang": (3244785612, "Swift"),
    "StanfordEng": (36180264, "Stanford Engineering"),
    "ai_researcher": (1127733951, "Priya Natarajan"),
    "StanfordHAI": (1027633045, "Stanford HAI"),
    "indexingai": (963582114, "AI Index"),
    "cafe_lover": (403385621, "Amélie Durand"),
    "bay_area_news": (72993508, "Bay Area News"),
    "Space_Station": (1451773004, "Intl. Space Station"),
}


def at(minute, second):
    return dt.datetime(2019, 3, 1, 12, minute, second, tzinfo=UTC)


def snowflake(when, worker, seq):
    ms = int(when.timestamp() * 1000)
    return ((ms - TWEPOCH_MS) << 22) | (worker << 12) | seq


# Tweets referenced by the dozen but not part of it: they appear only nested
# (retweeted_status / quoted_status) or in v2 includes.tweets, and must never
# be counted as tweets of their own.
X1_TEXT = ("Big Game week on the Farm! Tickets are going fast, grab yours "
           "before Saturday with @Stanford #GoTrees #BeatCal #Pac12 #stanford")
X2_TEXT = ("The 2019 AI Index report is out today: 290 pages of data on where "
           "AI is heading. Thanks @indexingai #AIIndex #MachineLearning")
T08_TEXT = (
    "What I learned teaching a #Swift workshop at #Stanford this quarter, "
    "in one post instead of a thread. Value types make R&amp;D prototypes "
    "safer, protocols beat deep inheritance, and async/await finally made our "
    "networking code readable. Students shipped 14 apps in ten weeks, two of "
    "them already on the App Store. Huge thanks to @SwiftLang for the docs and "
    "to @StanfordEng for the room. Slides soon! #iOSDev")

# id, author, created, text, hashtags, mentions, rt_of, quote_of, lang
# For a retweet text/hashtags/mentions are None: they come from the original.
ABSTRACT = [
    dict(key="X1", author="GoStanford", when=at(0, 1) - dt.timedelta(hours=3),
         text=X1_TEXT, hashtags=["GoTrees", "BeatCal", "Pac12", "stanford"],
         mentions=["Stanford"], lang="en"),
    dict(key="X2", author="StanfordHAI", when=at(0, 2) - dt.timedelta(hours=5),
         text=X2_TEXT, hashtags=["AIIndex", "MachineLearning"],
         mentions=["indexingai"], lang="en"),
    dict(key="T01", author="StanfordDaily", when=at(0, 5),
         text="Commencement speaker announced for June 16! Details via "
              "@Stanford #Stanford #Commencement2019",
         hashtags=["Stanford", "Commencement2019"], mentions=["Stanford"],
         lang="en"),
    dict(key="T02", author="NASA", when=at(0, 17),
         text="Congrats to the @Stanford alumni heading to the @Space_Station "
              "next year \U0001F332\U0001F680 #stanford #NASA",
         hashtags=["stanford", "NASA"], mentions=["Stanford", "Space_Station"],
         lang="en"),
    dict(key="T03", author="mei_tanaka", when=at(0, 31),
         text="東京からこんにちは！ @nasa のライブ配信をスタンフォードで見ています "
              "#東京 #STANFORD",
         hashtags=["東京", "STANFORD"], mentions=["nasa"], lang="ja"),
    dict(key="T04", author="ivan_petrov", when=at(0, 44),
         text="Привет из Калифорнии! Первая неделя обмена #Россия #stanford",
         hashtags=["Россия", "stanford"], mentions=[], lang="ru"),
    dict(key="T05", author="dmitri_k", when=at(1, 2), rt_of="T04", lang="ru"),
    dict(key="T06", author="olga_s", when=at(1, 19),
         text="#РОССИЯ и Стэнфорд: новая программа обмена для Stanfordians, "
              "спасибо @ivan_petrov",
         hashtags=["РОССИЯ"], mentions=["ivan_petrov"], lang="ru"),
    dict(key="T07", author="gotrees_fan", when=at(1, 36), rt_of="X1", lang="en"),
    dict(key="T08", author="swift_dev", when=at(1, 50), text=T08_TEXT,
         hashtags=["Swift", "Stanford", "iOSDev"],
         mentions=["SwiftLang", "StanfordEng"], lang="en"),
    dict(key="T09", author="ai_researcher", when=at(2, 8), quote_of="X2",
         text="Worth a read for anyone working on #AI policy. Proud of the "
              "#stanford team! https://t.co/Qx2AIndex1",
         hashtags=["AI", "stanford"], mentions=[], lang="en"),
    # "#café" with a precomposed é (written \u00e9 in every JSON rendering)
    dict(key="T10", author="cafe_lover", when=at(2, 27),
         text="Best #café near campus? Asking for a friend #Stanford ☕",
         hashtags=["café", "Stanford"], mentions=[], lang="en"),
    dict(key="T11", author="bay_area_news", when=at(2, 41), rt_of="T02",
         lang="en"),
    # "Cafe\u0301": decomposed (e + COMBINING ACUTE), written raw in UTF-8;
    # NFC makes it the same key as T10's "#café".
    dict(key="T12", author="cafe_lover", when=at(2, 58),
         text="Cafe\u0301 au lait at Stanford's Coupa, then an R&amp;D talk with the @NASA folks "
              "and @mei_tanaka. Rainy #BayArea day #Cafe\u0301",
         hashtags=["BayArea", "Cafe\u0301"], mentions=["NASA", "mei_tanaka"],
         lang="en"),
]

BY_KEY = {}
for _n, _t in enumerate(ABSTRACT):
    _t["id"] = snowflake(_t["when"], 37 + _n % 5, 100 + _n)
    BY_KEY[_t["key"]] = _t
for _t in ABSTRACT:
    for _name in [_t["author"]] + (_t.get("mentions") or []):
        assert _name.lower() in {u.lower() for u in USERS}, _name
DOZEN_KEYS = ["T%02d" % i for i in range(1, 13)]
DOZEN_TWEETS = [BY_KEY[k] for k in DOZEN_KEYS]
for _t in ABSTRACT:
    assert _t["id"] > 2 ** 53 and len(str(_t["id"])) == 19

# ---------------------------------------------------------------------------
# Expected reports, from the abstract table (SPEC 2, 4, 5, 7)
# ---------------------------------------------------------------------------


def norm(s):
    return unicodedata.normalize("NFC", s).lower()


def unescape_html(s):
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def canonical(t):
    """(author, hashtag keys, user keys, full text) of a dozen tweet."""
    if t.get("rt_of"):
        o = BY_KEY[t["rt_of"]]
        tags = {norm(h) for h in o["hashtags"]}
        users = {norm(u) for u in o["mentions"]} | {norm(o["author"])}
        # plus the retweet's own (visible) entities: a subset of the above
        return t["author"], tags, users, o["text"]
    return (t["author"], {norm(h) for h in t["hashtags"]},
            {norm(u) for u in t["mentions"]}, t["text"])


def is_word_char(c):
    return c.isalnum() or c == "_"


def word_match(text, word):
    text = norm(unescape_html(text))
    word = norm(word)
    start = 0
    while True:
        i = text.find(word, start)
        if i < 0:
            return False
        j = i + len(word)
        if (i == 0 or not is_word_char(text[i - 1])) and \
                (j == len(text) or not is_word_char(text[j])):
            return True
        start = i + 1


def matches(term, author, tags, users, text):
    if term == "*":
        return True
    if term.startswith("#"):
        return norm(term[1:]) in tags
    if term.startswith("@"):
        return norm(term[1:]) in users
    if term.startswith("from:"):
        return norm(term[5:]) == norm(author)
    return word_match(text, term)


def report(terms, min_count, archive_text=False):
    out = []
    for term in terms:
        hit = []
        for t in DOZEN_TWEETS:
            author, tags, users, text = canonical(t)
            if archive_text:
                text = archive_full_text(t)
            if matches(term, author, tags, users, text):
                hit.append((tags, users))
        obj = {"term": term, "tweets": len(hit)}
        for kind, sign, idx in (("hashtags", "#", 0), ("users", "@", 1)):
            counts = {}
            for h in hit:
                for m in h[idx]:
                    counts[m] = counts.get(m, 0) + 1
            rows = [(m, c) for m, c in counts.items() if c >= min_count]
            rows.sort(key=lambda r: (-r[1], r[0].encode("utf-8")))
            obj[kind] = [{"mention": sign + m, "count": c} for m, c in rows]
        out.append(obj)
    return out


def csv_field(s):
    s = str(s)
    if any(c in s for c in ',"\r\n'):
        return '"' + s.replace('"', '""') + '"'
    return s


def report_csv(rep):
    lines = ["term,type,mention,count"]
    for obj in rep:
        for kind, typ in (("hashtags", "hashtag"), ("users", "user")):
            for r in obj[kind]:
                lines.append(",".join(csv_field(x) for x in
                                      (obj["term"], typ, r["mention"], r["count"])))
    return ("\n".join(lines) + "\n").encode("utf-8")


def report_json(rep):
    return (json.dumps(rep, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


# ---------------------------------------------------------------------------
# Rendering helpers
# ---------------------------------------------------------------------------


def v11_date(when):
    return when.strftime("%a %b %d %H:%M:%S +0000 %Y")


def v2_date(when):
    return when.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def ms(when):
    return str(int(when.timestamp() * 1000))


def escape_json(s):
    """Twitter-ish escaping on top of ensure_ascii=False output: astral-plane
    characters become surrogate-pair escapes and U+00E9 becomes \\u00e9, so
    the fixtures hold both escaped and raw UTF-8 non-ASCII text."""
    out = []
    for c in s:
        o = ord(c)
        if o > 0xFFFF:
            o -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
        elif c == "é":
            out.append("\\u00e9")
        else:
            out.append(c)
    return "".join(out)


def dumps(obj, indent=None):
    if indent is None:
        s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    else:
        s = json.dumps(obj, ensure_ascii=False, indent=indent)
        # keep number pairs (indices, display_text_range) on one line
        s = re.sub(r"\[\s+(\d+),\s+(\d+)\s+\]", r"[\1, \2]", s)
    return escape_json(s)


def find_entities(text, hashtags, mentions, limit=None):
    """Locate '#tag' and '@name' in text (code point indices). Entities that
    do not end within `limit` (a truncation point) are dropped."""
    limit = len(text) if limit is None else limit
    tags, users = [], []
    for h in hashtags:
        i = text.find("#" + h)
        assert i >= 0, (h, text)
        if i + 1 + len(h) <= limit:
            tags.append((h, i, i + 1 + len(h)))
    for m in mentions:
        i = text.find("@" + m)
        assert i >= 0, (m, text)
        if i + 1 + len(m) <= limit:
            users.append((m, i, i + 1 + len(m)))
    tags.sort(key=lambda x: x[1])
    users.sort(key=lambda x: x[1])
    return tags, users


def tco(seed):
    r = random.Random(seed)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "https://t.co/" + "".join(r.choice(alphabet) for _ in range(10))


def rt_text(t):
    """A retweet's own text and its visible length (140-char cut)."""
    o = BY_KEY[t["rt_of"]]
    full = "RT @%s: %s" % (o["author"], o["text"])
    if len(full) > 140:
        return full[:139] + "…", 139
    return full, len(full)


def own_text_entities(t, limit=None):
    """(text, hashtags, mentions) a tweet carries itself (as written)."""
    if t.get("rt_of"):
        o = BY_KEY[t["rt_of"]]
        text, vis = rt_text(t)
        full = "RT @%s: %s" % (o["author"], o["text"])
        tags, users = find_entities(full, o["hashtags"], [o["author"]] + o["mentions"], vis)
        return text, tags, users
    tags, users = find_entities(t["text"], t["hashtags"], t["mentions"], limit)
    return t["text"], tags, users


def uid(name):
    for k, v in USERS.items():
        if k.lower() == name.lower():
            return v[0]
    raise KeyError(name)


def canon_user(name):
    for k in USERS:
        if k.lower() == name.lower():
            return k
    raise KeyError(name)


SOURCES = [
    '<a href="http://twitter.com/download/iphone" rel="nofollow">Twitter for iPhone</a>',
    '<a href="http://twitter.com/download/android" rel="nofollow">Twitter for Android</a>',
    '<a href="https://mobile.twitter.com" rel="nofollow">Twitter Web App</a>',
]


def source_of(t):
    return SOURCES[t["id"] % 3]


# ---------------------------------------------------------------------------
# API v1.1
# ---------------------------------------------------------------------------


def v11_user(name):
    i, display = USERS[name]
    return {
        "id": i, "id_str": str(i), "name": display, "screen_name": name,
        "verified": name in ("NASA", "Stanford", "StanfordDaily", "GoStanford",
                             "SwiftLang", "StanfordEng", "StanfordHAI"),
        "followers_count": (i % 9973) * 13,
    }


def v11_entities(tags, users, urls=()):
    return {
        "hashtags": [{"text": h, "indices": [a, b]} for h, a, b in tags],
        "urls": [{"url": u, "expanded_url": e, "display_url": d, "indices": [a, b]}
                 for u, e, d, a, b in urls],
        "user_mentions": [{"screen_name": m, "name": USERS[canon_user(m)][1],
                           "id": uid(m), "id_str": str(uid(m)), "indices": [a, b]}
                          for m, a, b in users],
        "symbols": [],
    }


def v11_status(t, mode="compat", stream=False, nested=False):
    """A v1.1 status. mode 'compat' (text + extended_tweet for long tweets,
    as the streaming and premium APIs deliver) or 'extended' (full_text, as
    tweet_mode=extended search/timelines deliver)."""
    s = {"created_at": v11_date(t["when"]), "id": t["id"], "id_str": str(t["id"])}
    urls = []
    ext = None
    if t.get("rt_of"):
        text, tags, users = own_text_entities(t)
        display = [0, len(text)]
        truncated = False
    elif len(t["text"]) > 140:
        link = tco(t["id"])
        if mode == "compat":
            cut = t["text"].rfind(" ", 0, 140 - 2 - len(link))
            text = t["text"][:cut] + "… " + link
            _, tags, users = own_text_entities(t, limit=cut)
            urls = [(link, "https://twitter.com/i/web/status/%d" % t["id"],
                     "twitter.com/i/web/status/1…", cut + 2, cut + 2 + len(link))]
            truncated = True
            display = [0, cut + 1]
            ftags, fusers = find_entities(t["text"], t["hashtags"], t["mentions"])
            ext = {"full_text": t["text"], "display_text_range": [0, len(t["text"])],
                   "entities": v11_entities(ftags, fusers)}
        else:
            text, tags, users = own_text_entities(t)
            truncated = False
            display = [0, len(text)]
    else:
        text, tags, users = own_text_entities(t)
        truncated = False
        display = [0, len(text)]
    if t.get("quote_of"):
        q = BY_KEY[t["quote_of"]]
        link = text.split()[-1]
        urls.append((link, "https://twitter.com/%s/status/%d" % (q["author"], q["id"]),
                     "twitter.com/%s/status/1…" % q["author"],
                     len(text) - len(link), len(text)))
    if mode == "compat":
        s["text"] = text
    else:
        s["full_text"] = text
        s["display_text_range"] = display
    s["source"] = source_of(t)
    s["truncated"] = truncated
    s["in_reply_to_screen_name"] = None
    s["user"] = v11_user(t["author"])
    if t.get("rt_of"):
        s["retweeted_status"] = v11_status(BY_KEY[t["rt_of"]], mode, nested=True)
    s["is_quote_status"] = bool(t.get("quote_of"))
    if t.get("quote_of"):
        q = BY_KEY[t["quote_of"]]
        s["quoted_status_id"] = q["id"]
        s["quoted_status_id_str"] = str(q["id"])
        s["quoted_status"] = v11_status(q, mode, nested=True)
        s["quoted_status_permalink"] = {
            "url": urls[-1][0], "expanded": urls[-1][1], "display": urls[-1][2]}
    if ext is not None:
        s["extended_tweet"] = ext
    s["retweet_count"] = 0 if stream else (t["id"] % 40)
    s["favorite_count"] = 0 if stream else (t["id"] % 97)
    s["entities"] = v11_entities(tags, users, urls)
    s["favorited"] = False
    s["retweeted"] = False
    s["lang"] = t["lang"]
    if stream and not nested:
        s["filter_level"] = "low"
        s["timestamp_ms"] = ms(t["when"])
    return s


DELETE_NOTICE = {"delete": {"status": {"id": 1101529412840013825,
                                       "id_str": "1101529412840013825",
                                       "user_id": 974412305,
                                       "user_id_str": "974412305"},
                            "timestamp_ms": "1551441680311"}}


def v11_lines(tweets, notice=True):
    lines = []
    for t in tweets:
        lines.append(dumps(v11_status(t, "compat", stream=True)))
        if notice and t["key"] == "T06":
            lines.append(dumps(DELETE_NOTICE))
    return lines


# ---------------------------------------------------------------------------
# API v2
# ---------------------------------------------------------------------------


def v2_user(name):
    i, display = USERS[name]
    return {"id": str(i), "name": display, "username": name,
            "verified": v11_user(name)["verified"]}


def v2_entities(tags, users, urls=()):
    e = {}
    if urls:
        e["urls"] = [{"start": a, "end": b, "url": u, "expanded_url": x, "display_url": d}
                     for u, x, d, a, b in urls]
    if tags:
        e["hashtags"] = [{"start": a, "end": b, "tag": h} for h, a, b in tags]
    if users:
        e["mentions"] = [{"start": a, "end": b, "username": m, "id": str(uid(m))}
                         for m, a, b in users]
    return e


def v2_tweet(t):
    d = {"id": str(t["id"]), "edit_history_tweet_ids": [str(t["id"])]}
    urls = []
    note = None
    if t.get("rt_of"):
        text, tags, users = own_text_entities(t)
    elif len(t["text"]) > 280:
        cut = t["text"].rfind(" ", 0, 279)
        text = t["text"][:cut] + "…"
        _, tags, users = own_text_entities(t, limit=cut)
        ftags, fusers = find_entities(t["text"], t["hashtags"], t["mentions"])
        note = {"text": t["text"], "entities": v2_entities(ftags, fusers)}
    else:
        text, tags, users = own_text_entities(t)
    if t.get("quote_of"):
        q = BY_KEY[t["quote_of"]]
        link = text.split()[-1]
        urls.append((link, "https://twitter.com/%s/status/%d" % (q["author"], q["id"]),
                     "twitter.com/%s/status/1…" % q["author"],
                     len(text) - len(link), len(text)))
    d["text"] = text
    d["author_id"] = str(USERS[t["author"]][0])
    d["created_at"] = v2_date(t["when"])
    d["conversation_id"] = str(t["id"])
    d["lang"] = t["lang"]
    d["public_metrics"] = {"retweet_count": t["id"] % 40, "reply_count": 0,
                           "like_count": t["id"] % 97, "quote_count": 0}
    e = v2_entities(tags, users, urls)
    if e:  # v2 omits entities when there are none
        d["entities"] = e
    if note:
        d["note_tweet"] = note
    if t.get("rt_of"):
        d["referenced_tweets"] = [{"type": "retweeted", "id": str(BY_KEY[t["rt_of"]]["id"])}]
    if t.get("quote_of"):
        d["referenced_tweets"] = [{"type": "quoted", "id": str(BY_KEY[t["quote_of"]]["id"])}]
    return d


def referenced(t):
    return [BY_KEY[k] for k in (t.get("rt_of"), t.get("quote_of")) if k]


def users_of(tweets):
    names = []
    for t in tweets:
        for n in [t["author"]] + [m for m in (t.get("mentions") or [])]:
            n = canon_user(n)
            if n not in names:
                names.append(n)
    return names


def v2_includes(tweets):
    refs = []
    for t in tweets:
        for r in referenced(t):
            if r not in refs:
                refs.append(r)
    users = users_of(list(tweets) + refs)
    inc = {"users": [v2_user(n) for n in users]}
    if refs:
        inc["tweets"] = [v2_tweet(r) for r in refs]
    return inc


TWARC = {"url": "https://api.twitter.com/2/tweets/search/recent?expansions=author_id"
                "%2Creferenced_tweets.id%2Creferenced_tweets.id.author_id%2C"
                "entities.mentions.username&tweet.fields=author_id%2Ccreated_at%2C"
                "entities%2Clang%2Cpublic_metrics%2Creferenced_tweets%2Cnote_tweet"
                "&max_results=100&query=stanford",
         "version": "2.12.0", "retrieved_at": "2019-03-01T12:05:00+00:00"}


def v2_page(tweets):
    data = [v2_tweet(t) for t in reversed(tweets)]  # newest first, like search
    return {"data": data, "includes": v2_includes(tweets),
            "meta": {"newest_id": data[0]["id"], "oldest_id": data[-1]["id"],
                     "result_count": len(data),
                     "next_token": "b26v89c19zqg8o3fo7gesq314yb9l2l4ptqy8qsrcd4bx"},
            "__twarc": TWARC}


def v2_stream_line(t):
    return {"data": v2_tweet(t), "includes": v2_includes([t]),
            "matching_rules": [{"id": "1101500000000000001", "tag": "stanford"}],
            "__twarc": dict(TWARC, url="https://api.twitter.com/2/tweets/search/stream")}


def v2_flat(t, top=True):
    d = v2_tweet(t)
    d["author"] = v2_user(t["author"])
    if "entities" in d and "mentions" in d["entities"]:
        for m in d["entities"]["mentions"]:
            m.update({k: v for k, v in v2_user(canon_user(m["username"])).items()
                      if k != "username"})
    if "referenced_tweets" in d:
        refs = []
        for r, o in zip(d["referenced_tweets"], referenced(t)):
            inline = {"type": r["type"]}
            inline.update(v2_flat(o, top=False))
            refs.append(inline)
        d["referenced_tweets"] = refs
    if top:
        d["__twarc"] = TWARC
    return d


# ---------------------------------------------------------------------------
# Account archive (tweets.js)
# ---------------------------------------------------------------------------
# Archive tweets carry no author and no retweeted_status. A retweet is written
# as "RT @author: <original text>" with entities already holding the
# retweeted author's mention and the original's hashtags and mentions, so the
# mention sets equal those of every other shape. The archive shapes are
# therefore checked only for terms that do not need the author (no from:).


def archive_full_text(t):
    if t.get("rt_of"):
        o = BY_KEY[t["rt_of"]]
        return "RT @%s: %s" % (o["author"], o["text"])
    return t["text"]


def archive_tweet(t):
    text = archive_full_text(t)
    if t.get("rt_of"):
        o = BY_KEY[t["rt_of"]]
        tags, users = find_entities(text, o["hashtags"], [o["author"]] + o["mentions"])
    else:
        tags, users = find_entities(text, t["hashtags"], t["mentions"])
    urls = []
    if t.get("quote_of"):
        q = BY_KEY[t["quote_of"]]
        link = text.split()[-1]
        urls.append({"url": link,
                     "expanded_url": "https://twitter.com/%s/status/%d" % (q["author"], q["id"]),
                     "display_url": "twitter.com/%s/status/1…" % q["author"],
                     "indices": [str(len(text) - len(link)), str(len(text))]})
    tid = str(t["id"])
    until = (t["when"] + dt.timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    return {"tweet": {
        "edit_info": {"initial": {"editTweetIds": [tid], "editableUntil": until,
                                  "editsRemaining": "5", "isEditEligible": False}},
        "retweeted": False,
        "source": source_of(t),
        "entities": {
            "hashtags": [{"text": h, "indices": [str(a), str(b)]} for h, a, b in tags],
            "symbols": [],
            "user_mentions": [{"name": USERS[canon_user(m)][1], "screen_name": m,
                               "indices": [str(a), str(b)], "id_str": str(uid(m)),
                               "id": str(uid(m))} for m, a, b in users],
            "urls": urls},
        "display_text_range": ["0", str(len(text))],
        "favorite_count": str(t["id"] % 97),
        "id_str": tid,
        "truncated": False,
        "retweet_count": str(t["id"] % 40),
        "id": tid,
        "created_at": v11_date(t["when"]),
        "favorited": False,
        "full_text": text,
        "lang": t["lang"],
    }}


def tweets_js(tweets):
    body = dumps([archive_tweet(t) for t in tweets], indent=2)
    return ("window.YTD.tweets.part0 = " + body).encode("utf-8")


ACCOUNT_JS = ('window.YTD.account.part0 = [\n  {\n    "account" : {\n'
              '      "email" : "jo@example.org",\n'
              '      "createdVia" : "web",\n'
              '      "username" : "gotrees_fan",\n'
              '      "accountId" : "817263544",\n'
              '      "createdAt" : "2017-01-06T07:52:11.000Z",\n'
              '      "accountDisplayName" : "Jo Tree"\n    }\n  }\n]').encode("utf-8")

# ---------------------------------------------------------------------------
# Containers and compression (all reproducible)
# ---------------------------------------------------------------------------


def gz(data):
    return gzip.compress(data, compresslevel=9, mtime=0)


def run_cli(args, data):
    return subprocess.run(args, input=data, stdout=subprocess.PIPE, check=True).stdout


def zstd(data):
    return run_cli(["zstd", "-q", "-19", "-c"], data)


def lz4(data):
    return run_cli(["lz4", "-q", "-9", "-c"], data)


def tar_bytes(members, dirs=()):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        for d in dirs:
            ti = tarfile.TarInfo(d)
            ti.type = tarfile.DIRTYPE
            ti.mode = 0o755
            ti.mtime = TAR_MTIME
            ti.uid = ti.gid = 1000
            ti.uname = ti.gname = "archiveteam"
            tf.addfile(ti)
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            ti.mode = 0o644
            ti.mtime = TAR_MTIME
            ti.uid = ti.gid = 1000
            ti.uname = ti.gname = "archiveteam"
            tf.addfile(ti, io.BytesIO(data))
    # Like `tar -b 1`: end after the two zero blocks, without padding the
    # archive to a 10 KiB record (keeps the fixtures small).
    out = buf.getvalue()
    end = tf.offset  # includes the two zero blocks
    assert not out[end:].strip(b"\0")
    return out[:end]


def zip_bytes(members):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data, method in members:
            zi = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            zi.compress_type = method
            zi.create_system = 3
            zi.external_attr = 0o644 << 16
            zf.writestr(zi, data)
    return buf.getvalue()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    assert len(data) < 20 * 1024, (path, len(data))
    with open(path, "wb") as f:
        f.write(data)


def joined(lines, eol="\n"):
    return "".join(l + eol for l in lines).encode("utf-8")


# ---------------------------------------------------------------------------
# dozen/
# ---------------------------------------------------------------------------


def gen_dozen():
    half_a, half_b = DOZEN_TWEETS[:6], DOZEN_TWEETS[6:]
    lines = v11_lines(DOZEN_TWEETS)
    la, lb = v11_lines(half_a), v11_lines(half_b)
    lf = joined(lines)
    a, b = joined(la), joined(lb)
    p = lambda name: os.path.join(DOZEN, name)

    write(p("dozen.jsonl"), joined(lines, "\r\n"))
    write(p("dozen-bom.jsonl"), b"\xef\xbb\xbf" + lf)
    write(p("dozen.jsonl.gz"), gz(lf))
    write(p("dozen.jsonl.bz2"), bz2.compress(lf, 9))
    write(p("dozen.jsonl.xz"), lzma.compress(lf, format=lzma.FORMAT_XZ))
    write(p("dozen.jsonl.zst"), zstd(lf))
    write(p("dozen.jsonl.lz4"), lz4(lf))
    write(p("dozen-multimember.jsonl.gz"), gz(a) + gz(b))
    plain_tar = tar_bytes([("a.jsonl", a), ("b.jsonl", b)])
    write(p("dozen.tar"), plain_tar)
    write(p("dozen.tar.gz"), gz(plain_tar))
    write(p("dozen-members.tar"), tar_bytes(
        [("2019/03/01/12/00.json.bz2", bz2.compress(a, 9)),
         ("2019/03/01/12/01.json.bz2", bz2.compress(b, 9))],
        dirs=["2019/", "2019/03/", "2019/03/01/", "2019/03/01/12/"]))
    write(p("dozen.zip"), zip_bytes([("a.jsonl", a, zipfile.ZIP_DEFLATED),
                                     ("b.jsonl", b, zipfile.ZIP_DEFLATED)]))
    inner = gz(tar_bytes([("part/a.json.gz", gz(a)), ("part/b.json.gz", gz(b))],
                         dirs=["part/"]))
    write(p("dozen-nested.zip"), zip_bytes([("dump/inner.tar.gz", inner, zipfile.ZIP_STORED)]))

    write(p("dozen-array.json"),
          dumps([v11_status(t, "extended") for t in DOZEN_TWEETS], indent=1) + "\n")
    search = {"statuses": [v11_status(t, "extended") for t in reversed(DOZEN_TWEETS)],
              "search_metadata": {
                  "completed_in": 0.041, "max_id": DOZEN_TWEETS[-1]["id"],
                  "max_id_str": str(DOZEN_TWEETS[-1]["id"]),
                  "next_results": "?max_id=%d&q=stanford&count=100&include_entities=1"
                                  "&result_type=recent&tweet_mode=extended"
                                  % (DOZEN_TWEETS[0]["id"] - 1),
                  "query": "stanford", "count": 100, "since_id": 0, "since_id_str": "0",
                  "refresh_url": "?since_id=%d&q=stanford&result_type=recent"
                                 "&include_entities=1" % DOZEN_TWEETS[-1]["id"]}}
    for s in search["statuses"]:
        s["metadata"] = {"iso_language_code": s["lang"], "result_type": "recent"}
    write(p("dozen-search.json"), dumps(search) + "\n")
    premium = {"results": [v11_status(t, "compat") for t in reversed(DOZEN_TWEETS)],
               "next": "eyJhdXRoZW50aWNpdHkiOiJzdGFuZm9yZCIsIm5leHQiOiIyMDE5MDMwMTEyMDAwMCJ9",
               "requestParameters": {"maxResults": 100, "fromDate": "201903010000",
                                     "toDate": "201903011300"}}
    # the premium API escapes '/' as '\/'
    write(p("dozen-premium.json"), dumps(premium).replace("/", "\\/") + "\n")

    write(p("dozen-v2-page.json"), dumps(v2_page(DOZEN_TWEETS), indent=1) + "\n")
    write(p("dozen-v2-stream.jsonl"),
          joined([dumps(v2_stream_line(t)) for t in DOZEN_TWEETS]))
    write(p("dozen-v2-flat.jsonl"), joined([dumps(v2_flat(t)) for t in DOZEN_TWEETS]))

    tjs = tweets_js(DOZEN_TWEETS)
    write(p("dozen-tweets.js"), tjs)
    jpg = bytes([0xFF, 0xD8, 0xFF, 0xE0]) + bytes(random.Random(12).randrange(256)
                                                  for _ in range(60)) + b"\xff\xd9"
    html = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            "<title>Your archive</title></head>\n<body><p>Open data/tweets.js</p>"
            "</body></html>\n").encode("utf-8")
    write(p("dozen-archive.zip"), zip_bytes([
        ("Your archive.html", html, zipfile.ZIP_DEFLATED),
        ("data/account.js", ACCOUNT_JS, zipfile.ZIP_DEFLATED),
        ("data/tweets.js", tjs, zipfile.ZIP_DEFLATED),
        ("data/tweets_media/x.jpg", jpg, zipfile.ZIP_STORED),
    ]))

    # expected reports
    archive = ["dozen-tweets.js", "dozen-archive.zip"]
    cases = [
        ("stanford", ["#stanford"], 1),
        ("nasa", ["@nasa"], 1),
        ("all", ["*"], 1),
        ("multi", ["#stanford", "#café", "@nasa", "*"], 2),
        ("from", ["from:nasa", "from:cafe_lover"], 1),
        ("words", ["stanford", "café", "r&d"], 1),
    ]
    manifest = []
    for name, terms, mc in cases:
        rep = report(terms, mc)
        excluded = []
        if any(t.startswith("from:") for t in terms) or \
                report(terms, mc, archive_text=True) != rep:
            excluded = archive
        write(p("expected-%s.csv" % name), report_csv(rep))
        write(p("expected-%s.json" % name), report_json(rep))
        manifest.append({"terms": terms, "min_count": mc,
                         "csv": "expected-%s.csv" % name,
                         "json": "expected-%s.json" % name,
                         "shapes_excluded": excluded})
    write(p("expected.json"), json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")


# ---------------------------------------------------------------------------
# defects/
# ---------------------------------------------------------------------------


def simple_status(tid, author, text, hashtags, when, id_mode="both"):
    """A small v1.1 status; id_mode: 'both', 'id_str' only, 'id' only."""
    tags, users = find_entities(text, hashtags, [])
    s = {"created_at": v11_date(when)}
    if id_mode in ("both", "id"):
        s["id"] = tid
    if id_mode in ("both", "id_str"):
        s["id_str"] = str(tid)
    s.update({"text": text, "truncated": False, "user": v11_user(author),
              "entities": v11_entities(tags, users), "lang": "en",
              "timestamp_ms": ms(when)})
    return s


def defect_lines(n, base, tag="defect"):
    out = []
    for i in range(n):
        when = at(10 + i, 7 * i)
        tid = snowflake(when, 9, i + base)
        out.append(dumps(simple_status(tid, ["NASA", "Stanford", "swift_dev"][i % 3],
                                       "Line %d of a fixture #%s #stanford" % (i + 1, tag),
                                       [tag, "stanford"], when)))
    return out


def raw_id_line(id_json, when, tag="bigid"):
    """A status whose id fields are spliced in verbatim (JSON text)."""
    s = simple_status(0, "NASA", "Edge case id #%s" % tag, [tag], when)
    s.pop("id")
    s.pop("id_str")
    body = dumps(s)
    return "{" + id_json + "," + body[1:]


def gen_defects():
    p = lambda name: os.path.join(DEFECTS, name)
    good = defect_lines(4, 0, "truncated")
    write(p("truncated_last_line.jsonl"),
          "".join(l + "\n" for l in good[:3]) + good[3][:len(good[3]) // 2])
    write(p("crlf_bom.jsonl"),
          b"\xef\xbb\xbf" + joined(defect_lines(3, 10, "crlfbom"), "\r\n"))
    shared = defect_lines(1, 20, "dup")[0]
    write(p("duplicate_across_files_a.jsonl"),
          joined(defect_lines(2, 30, "dup") + [shared]))
    write(p("duplicate_across_files_b.jsonl"),
          joined([shared] + defect_lines(2, 40, "dup")))
    g = defect_lines(2, 50, "invalid")
    write(p("invalid_json_line.jsonl"), joined([g[0], "{not json", g[1]]))
    g = defect_lines(3, 60, "notatweet")
    write(p("not_a_tweet.jsonl"), joined([g[0], g[1], '{"foo":1}', g[2]]))
    # big_id: two ids above 2^53 that differ by one, given only as JSON
    # numbers (no id_str): float parsing would merge them into one tweet.
    n1, n2 = 1101512345678901235, 1101512345678901236
    assert float(n1) == float(n2)
    g = defect_lines(2, 70, "bigid")
    lines = [
        g[0],
        raw_id_line('"id":18446744073709551615,"id_str":"18446744073709551615"', at(20, 1)),
        raw_id_line('"id":18446744073709551616,"id_str":"18446744073709551616"', at(20, 2)),
        raw_id_line('"id":%d' % n1, at(20, 3)),
        raw_id_line('"id":-5,"id_str":"-5"', at(20, 4)),
        raw_id_line('"id":%d' % n2, at(20, 5)),
        raw_id_line('"id_str":"12a"', at(20, 6)),
        g[1],
    ]
    write(p("big_id.jsonl"), joined(lines))
    write(p("README.md"), DEFECTS_README)


DEFECTS_README = """\
# Single-defect fixtures

Made by `Tests/Fixtures/generate.py` (do not edit by hand). Every good line is
a small API v1.1 status; "bad" counts the records SPEC section 8 says are
skipped and reported (the run still exits 0 without `--strict`, 1 with it).

| file | good tweets | bad records | what it checks |
|---|---|---|---|
| truncated_last_line.jsonl | 3 | 1 | 4th line cut in half, no final newline |
| crlf_bom.jsonl | 3 | 0 | UTF-8 BOM at the start, CRLF line ends |
| duplicate_across_files_a.jsonl + duplicate_across_files_b.jsonl | 5 distinct (3 + 3 read) | 0 | one tweet id in both files counts once (`*` reports 5 tweets) |
| invalid_json_line.jsonl | 2 | 1 | middle line `{not json` (line 2) |
| not_a_tweet.jsonl | 3 | 1 | line 3 is `{"foo":1}`: valid JSON, not a tweet |
| big_id.jsonl | 5 | 3 | see below |

big_id.jsonl, line by line:

1. good (ordinary id)
2. good: `id` and `id_str` 18446744073709551615 (2^64-1, the largest valid id)
3. bad: 18446744073709551616 (2^64, beyond 64 bits)
4. good: only a numeric `id` 1101512345678901235 (no `id_str`)
5. bad: -5 (not an unsigned decimal integer)
6. good: only a numeric `id` 1101512345678901236: differs from line 4 by one
   but is the same double, so float parsing would merge the two
7. bad: `id_str` "12a" (not a decimal integer; no `id`)
8. good (ordinary id)

All good big_id tweets carry `#bigid`: `report '#bigid' --min-count 1`
reports 5 tweets (the ordinary lines also carry `#stanford`).
"""


def main():
    gen_dozen()
    gen_defects()


if __name__ == "__main__":
    main()
