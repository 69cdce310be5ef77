#!/usr/bin/env python3
"""Generate the small, real-shaped, synthetic tweet dumps in samples/ that
`make report TERM=#stanford` reads for the README demo.

All content is made up (seeded PRNG, random.Random(2024)); the shapes follow
the public formats smashtag reads (SPEC section 3). Running it twice gives
byte-identical files: fixed gzip mtime, fixed tar mtimes/owners, fixed zip
timestamps. Python 3 stdlib only.

    python3 samples/generate.py
"""

import bz2
import datetime as dt
import gzip
import io
import json
import os
import random
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
UTC = dt.timezone.utc
TWEPOCH_MS = 1288834974657
R = random.Random(2024)

# ---------------------------------------------------------------------------
# People
# ---------------------------------------------------------------------------

# Popular accounts: (screen_name, display name, user id, weight)
HUBS = [
    ("Stanford", "Stanford University", 18036441, 30),
    ("StanfordDaily", "The Stanford Daily", 14428393, 14),
    ("GoStanford", "Stanford Athletics", 21659423, 12),
    ("StanfordHAI", "Stanford HAI", 1027633045, 10),
    ("StanfordEng", "Stanford Engineering", 36180264, 8),
    ("StanfordMed", "Stanford Medicine", 19281962, 6),
    ("stanfordnlp", "Stanford NLP Group", 405722346, 6),
    ("NASA", "NASA", 11348282, 5),
    ("SwiftLang", "Swift", 3244785612, 5),
    ("pac12", "Pac-12 Conference", 6475082, 4),
    ("Caltrain", "Caltrain", 17680487, 3),
    ("PaloAltoOnline", "Palo Alto Online", 15311205, 3),
    ("sfchronicle", "San Francisco Chronicle", 8299012, 2),
    ("nhk_news", "NHKニュース", 131454554, 2),
    ("rianru", "РИА Новости", 76947315, 2),
]

FIRST = ["Maria", "James", "Aisha", "Wei", "Sofia", "Diego", "Priya", "Liam",
         "Olivia", "Noah", "Fatima", "Chen", "Emma", "Lucas", "Hannah", "Omar",
         "Grace", "Mateo", "Zoe", "Ethan", "Ava", "Kwame", "Ines", "Rahul",
         "Elena", "Tomás", "Nina", "Samir", "Julia", "Ben", "Chloe", "Arjun",
         "Leah", "Marco", "Yara", "Daniel", "Ruth", "Felix", "Amara", "Owen"]
LAST = ["Garcia", "Nguyen", "Smith", "Okafor", "Kim", "Rossi", "Patel",
        "Johnson", "Silva", "Cohen", "Haddad", "Müller", "Lopez", "Chen",
        "Williams", "Singh", "Brown", "Ivanova", "Moreau", "Park", "Davis",
        "Kowalski", "Ali", "Martin", "Fischer", "Reyes", "Walker", "Sato"]
JA_NAMES = [("Kenji", "Tanaka", "田中 健二"), ("Yuki", "Sato", "佐藤 由紀"),
            ("Haruto", "Suzuki", "鈴木 陽翔"), ("Aoi", "Takahashi", "高橋 葵"),
            ("Ren", "Watanabe", "渡辺 蓮"), ("Mei", "Ito", "伊藤 芽衣")]
RU_NAMES = [("Ivan", "Petrov", "Иван Петров"), ("Olga", "Smirnova", "Ольга Смирнова"),
            ("Dmitri", "Volkov", "Дмитрий Волков"), ("Anna", "Kuznetsova", "Анна Кузнецова"),
            ("Sergei", "Popov", "Сергей Попов"), ("Natalia", "Sokolova", "Наталья Соколова")]
LOCATIONS = ["Stanford, CA", "Palo Alto, CA", "San Francisco, CA", "Menlo Park",
             "Bay Area", "Mountain View, CA", "東京", "Москва", "Oakland, CA",
             "New York, NY", "London", "", "", ""]


def make_users():
    users, seen = [], set()
    people = []
    for _ in range(170):
        people.append((R.choice(FIRST), R.choice(LAST), None, "en"))
    for f, l, native in JA_NAMES * 3:
        people.append((f, l, native, "ja"))
    for f, l, native in RU_NAMES * 3:
        people.append((f, l, native, "ru"))
    R.shuffle(people)
    for first, last, native, lang in people:
        style = R.randrange(6)
        base = {0: first + last, 1: first.lower() + "_" + last.lower(),
                2: first[0].lower() + last.lower(), 3: first + "_" + last[0],
                4: last.lower() + first.lower()[:3], 5: first.lower() + last[:1]}[style]
        base = base.replace("ü", "u").replace("á", "a")
        if R.random() < 0.45:
            base += str(R.choice([1, 7, 22, 88, 92, 99, 2019, 23, 4, 11]))
        if base.lower() in seen:
            base += str(R.randrange(100, 999))
        seen.add(base.lower())
        name = native or (first + " " + last)
        if R.random() < 0.08:
            name += " \U0001F332"
        users.append({"screen_name": base[:15], "name": name,
                      "id": R.randrange(10 ** 8, 10 ** 18) if R.random() < 0.6
                      else R.randrange(10 ** 6, 4 * 10 ** 9),
                      "lang": lang, "location": R.choice(LOCATIONS),
                      "followers": int(R.paretovariate(1.2) * 40),
                      "created": dt.datetime(2008, 1, 1, tzinfo=UTC)
                      + dt.timedelta(seconds=R.randrange(10 ** 8, 3 * 10 ** 8))})
    return users


USERS = make_users()
HUB_USERS = [{"screen_name": s, "name": n, "id": i, "lang": "en",
              "location": "Stanford, CA" if s.startswith(("Stanford", "stanford", "Go"))
              else "", "followers": 100000 + (i % 900000), "verified": True,
              "created": dt.datetime(2009, 3, 4, 17, 22, 9, tzinfo=UTC)}
             for s, n, i, _ in HUBS]
HUB_WEIGHTS = [w for _, _, _, w in HUBS]
BY_NAME = {u["screen_name"]: u for u in USERS + HUB_USERS}
# Zipf-ish activity: a few users tweet a lot
USER_WEIGHTS = [1.0 / (k + 1) ** 0.9 for k in range(len(USERS))]


def pick_user():
    return R.choices(USERS, USER_WEIGHTS)[0]


def pick_hub():
    return R.choices(HUB_USERS, HUB_WEIGHTS)[0]


def mentioned_user(hubs_only=False):
    # mentions go mostly to the popular accounts, sometimes to anyone
    return pick_hub() if hubs_only or R.random() < 0.92 else R.choice(USERS)


# ---------------------------------------------------------------------------
# Hashtags and text
# ---------------------------------------------------------------------------

STANFORD_FORMS = [("Stanford", 50), ("stanford", 35), ("STANFORD", 15)]
# hashtags that travel with #stanford: (forms, weight)
CO_TAGS = [
    (["GoTrees", "gotrees", "GOTREES"], 30), (["Pac12", "pac12"], 18),
    (["AI", "ai"], 16), (["BayArea", "bayarea"], 13), (["Swift", "swift"], 11),
    (["MachineLearning"], 9), (["BeatCal"], 8), (["PaloAlto", "paloalto"], 7),
    (["NLP"], 6), (["CS106A", "cs106a"], 5), (["Commencement2019"], 4),
    (["東京"], 4), (["Россия", "РОССИЯ", "россия"], 4), (["SiliconValley"], 3),
    (["MarchMadness"], 3), (["iOSDev"], 2),
]
GENERAL_TAGS = [
    (["BayArea", "bayarea"], 12), (["Swift", "swift"], 8), (["AI"], 8),
    (["SF"], 7), (["Warriors"], 6), (["49ers"], 4), (["WWDC"], 4),
    (["東京"], 5), (["Россия", "РОССИЯ"], 5), (["Caltrain"], 3),
    (["MachineLearning"], 4), (["coffee"], 3), (["tbt", "TBT"], 3),
    (["SwiftUI"], 3), (["startups"], 3), (["rain"], 2), (["PaloAlto"], 2),
]
NOISE_TAGS = [
    "MondayMotivation", "tbt", "nofilter", "sunset", "hiking", "physics",
    "math", "books", "running", "caltrainlife", "startuplife", "design",
    "ux", "python", "rustlang", "opensource", "research", "phdlife",
    "gradschool", "finals", "midterms", "robots", "climate", "energy",
    "music", "jazz", "food", "ramen", "tacos", "boba", "soccer", "tennis",
    "swimming", "rowing", "cycling", "photography", "art", "poetry",
    "history", "economics", "policy", "health", "sleep", "weekend", "goals",
    "throwback", "springbreak", "mlb", "nba", "wine", "napa", "sfgiants",
    "oakland", "sanjose", "tahoe", "yosemite", "fog", "karlthefog",
    "dataviz", "quantum", "biology", "neuroscience", "chemistry", "cs229",
    "cs231n", "hackathon", "TreeHacks", "hoovertower", "theoval", "thedish",
    "さくら", "ラーメン", "спорт", "наука", "Москва", "café",
]

STANFORD_LINES = [
    "Beautiful morning on the Farm",
    "Just finished my CS106A section and my brain hurts",
    "The Oval is packed today, everyone is out in the sun",
    "Hoover Tower views never get old",
    "Who is going to the Big Game this weekend?",
    "Great talk on large language models at Gates today",
    "Coffee at Coupa before the midterm, wish me luck",
    "Tree mascot spotted outside Tresidder",
    "Caltrain delays again, late to lecture",
    "New paper from the NLP group is out today",
    "Sunset hike up the Dish with friends",
    "The Swift on the server workshop was packed",
    "Rodin sculpture garden in the rain is something else",
    "Cardinal win at Maples tonight!",
    "Research symposium posters are up in the Engineering Quad",
    "Admit weekend energy is unmatched",
    "Office hours until midnight, send help",
    "Finally got a bike that does not squeak",
    "Memorial Church at golden hour",
    "Watching the robotics demo at the d.school",
    "Lab meeting ran two hours over again",
    "Applications for the summer research program close Friday",
    "The band is rehearsing outside Frost again",
    "Library is full at 9am during dead week",
    "Big announcement from the medical school today",
    "Stanford's hackathon starts tonight, 36 hours of code",
]
GENERAL_LINES = [
    "Traffic on 101 is unreal today",
    "Rainy day in the city, perfect for coding",
    "Anyone else watching the game tonight?",
    "Finally shipped the new release",
    "This burrito is worth the line",
    "Fog rolling over the hills this morning",
    "Three meetings that could have been emails",
    "New coffee place on University Ave is great",
    "Reading about the history of the transistor",
    "Weekend plans: nothing at all",
    "The sunset over the bay right now",
    "Debugging a race condition for five hours",
]
JA_LINES = ["今日は東京で勉強会でした", "桜がきれいな一日", "スタンフォードの講義をオンラインで見ています",
            "新しいアプリをリリースしました"]
RU_LINES = ["Доброе утро из Москвы", "Отличная лекция сегодня", "Стажировка в Стэнфорде, неделя первая",
            "Новый релиз уже вышел"]
EMOJI = ["\U0001F332", "\U0001F3C8", "☕", "\U0001F680", "\U0001F4DA",
         "\U0001F308", "\U0001F64C", "\U0001F916", "❤️", "\U0001F389"]
LONG_TAILS = [
    "We spent the whole afternoon comparing notes on what worked and what "
    "did not, and the short version is: start small, measure everything, and "
    "write it down before you forget",
    "Honestly the best part was the questions at the end, where students "
    "pushed back on every assumption and made the whole thing better",
    "If you missed it, the recording and the slides will be posted next week "
    "along with the code and the data, so nobody has to take notes",
]


def tag_form(forms):
    return R.choice(forms)


def pick_tags(stanford, noise=True):
    tags = []
    if stanford:
        tags.append(R.choices([f for f, _ in STANFORD_FORMS],
                              [w for _, w in STANFORD_FORMS])[0])
        n = R.choices([0, 1, 2, 3], [25, 40, 25, 10])[0]
        pool = CO_TAGS
    else:
        n = R.choices([0, 1, 2], [35, 45, 20])[0]
        pool = GENERAL_TAGS
    for _ in range(n):
        forms = R.choices([f for f, _ in pool], [w for _, w in pool])[0]
        if not any(t.lower() in [f.lower() for f in forms] for t in tags):
            tags.append(tag_form(forms))
    if noise and R.random() < 0.1:
        t = R.choice(NOISE_TAGS)
        if t.lower() not in [x.lower() for x in tags]:
            tags.append(t)
    return tags


def compose(author, stanford, long=False, popular=False, reply_to=None):
    """(text, hashtags, mentions) for a new tweet; `popular` ones (to be
    retweeted a lot) mention only the popular accounts and no rare tags."""
    lang = author["lang"]
    if lang == "ja" and R.random() < 0.7:
        line = R.choice(JA_LINES)
    elif lang == "ru" and R.random() < 0.7:
        line = R.choice(RU_LINES)
    else:
        line = R.choice(STANFORD_LINES if stanford or R.random() < 0.2 else GENERAL_LINES)
    tags = pick_tags(stanford, noise=not popular)
    mentions = []
    for _ in range(R.choices([0, 1, 2], [55, 35, 10])[0]):
        u = mentioned_user(hubs_only=popular)
        if u is not author and u["screen_name"] not in mentions:
            mentions.append(u["screen_name"])
    if reply_to and reply_to not in mentions:
        mentions.insert(0, reply_to)
    parts = [line]
    if reply_to:
        # a reply starts with the replied-to user's name
        parts = ["@" + reply_to, line[0].lower() + line[1:]]
        mentions.remove(reply_to)
    if R.random() < 0.3:
        parts[-1] += " " + R.choice(EMOJI)
    if long:
        parts[-1] += "."
        parts.append(R.choice(LONG_TAILS) + ".")
    if mentions:
        if R.random() < 0.5:
            parts.append("with " + " and ".join("@" + m for m in mentions))
        else:
            parts.append(" ".join("@" + m for m in mentions))
    if R.random() < 0.1:
        parts.append("Q&amp;A after")
    if tags:
        parts.append(" ".join("#" + t for t in tags))
    if reply_to:
        mentions.insert(0, reply_to)
    text = " ".join(parts)
    assert len(text) <= 280, text
    return text, tags, mentions


# ---------------------------------------------------------------------------
# Tweets (abstract)
# ---------------------------------------------------------------------------

USED_IDS = set()


def snowflake(when):
    while True:
        ms = int(when.timestamp() * 1000) + R.randrange(1000)
        tid = ((ms - TWEPOCH_MS) << 22) | (R.randrange(32) << 17) | (R.randrange(32) << 12) \
            | R.randrange(4096)
        if tid not in USED_IDS:
            USED_IDS.add(tid)
            return tid


def new_original(author, when, stanford, long=None, popular=False, reply=False):
    if long is None:
        long = R.random() < 0.1
    reply_to = None
    if reply:
        u = mentioned_user()
        reply_to = u["screen_name"] if u is not author else None
    text, tags, mentions = compose(author, stanford, long, popular, reply_to)
    t = {"id": snowflake(when), "when": when, "author": author, "text": text,
         "hashtags": tags, "mentions": mentions,
         "lang": author["lang"] if author["lang"] != "en" or R.random() < 0.95 else "und"}
    if reply_to:
        t["reply_to"] = reply_to
    return t


def make_timeline(start, minutes, per_minute, originals, stanford_share=0.40):
    """Tweets for a stretch of the stream, in time order. About a third are
    retweets of `originals` (popular ones are retweeted more)."""
    weights = [1.0 / (k + 1) ** 1.1 for k in range(len(originals))]
    tweets = []
    for m in range(minutes):
        n = per_minute + R.randrange(-3, 4)
        secs = sorted(R.randrange(60) for _ in range(n))
        for s in secs:
            when = start + dt.timedelta(minutes=m, seconds=s)
            author = pick_user()
            r = R.random()
            if r < 0.33:
                o = R.choices(originals, weights)[0]
                if o["author"] is author:
                    continue
                t = {"id": snowflake(when), "when": when, "author": author, "rt_of": o,
                     "lang": o["lang"]}
            else:
                stanford = R.random() < stanford_share - 0.05
                t = new_original(author, when, stanford, reply=0.88 < r <= 0.95)
                if r > 0.95:
                    t["quote_of"] = R.choice(originals)
            tweets.append(t)
    return tweets


def make_originals(n, start, span_minutes):
    out = []
    for _ in range(n):
        when = start + dt.timedelta(seconds=R.randrange(span_minutes * 60))
        author = pick_hub() if R.random() < 0.88 else pick_user()
        out.append(new_original(author, when, R.random() < 0.62, popular=True))
    out.sort(key=lambda t: t["when"])
    return out


# ---------------------------------------------------------------------------
# Rendering: API v1.1
# ---------------------------------------------------------------------------

SOURCES = [
    ('<a href="http://twitter.com/download/iphone" rel="nofollow">Twitter for iPhone</a>', 45),
    ('<a href="http://twitter.com/download/android" rel="nofollow">Twitter for Android</a>', 30),
    ('<a href="https://mobile.twitter.com" rel="nofollow">Twitter Web App</a>', 20),
    ('<a href="https://about.twitter.com/products/tweetdeck" rel="nofollow">TweetDeck</a>', 5),
]


def source_of(t):
    rr = random.Random(t["id"])
    return rr.choices([s for s, _ in SOURCES], [w for _, w in SOURCES])[0]


def v11_date(when):
    return when.strftime("%a %b %d %H:%M:%S +0000 %Y")


def ms(when):
    return str(int(when.timestamp() * 1000))


def tco(seed):
    rr = random.Random(seed)
    al = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return "https://t.co/" + "".join(rr.choice(al) for _ in range(10))


def locate(text, hashtags, mentions, limit=None):
    limit = len(text) if limit is None else limit
    tags, users = [], []
    for h in hashtags:
        i = text.find("#" + h)
        if 0 <= i and i + 1 + len(h) <= limit:
            tags.append((h, i, i + 1 + len(h)))
    for m in mentions:
        i = text.find("@" + m)
        if 0 <= i and i + 1 + len(m) <= limit:
            users.append((m, i, i + 1 + len(m)))
    return sorted(tags, key=lambda x: x[1]), sorted(users, key=lambda x: x[1])


def v11_user(u):
    return {"id": u["id"], "id_str": str(u["id"]), "name": u["name"],
            "screen_name": u["screen_name"], "location": u["location"] or None,
            "protected": False, "verified": bool(u.get("verified")),
            "followers_count": u["followers"], "friends_count": (u["id"] % 1500) + 20,
            "statuses_count": (u["id"] % 40000) + 100,
            "created_at": v11_date(u["created"]), "lang": None}


def v11_entities(tags, users, urls=()):
    return {"hashtags": [{"text": h, "indices": [a, b]} for h, a, b in tags],
            "urls": [{"url": l, "expanded_url": x, "display_url": d, "indices": [a, b]}
                     for l, x, d, a, b in urls],
            "user_mentions": [{"screen_name": m, "name": BY_NAME[m]["name"],
                               "id": BY_NAME[m]["id"], "id_str": str(BY_NAME[m]["id"]),
                               "indices": [a, b]} for m, a, b in users],
            "symbols": []}


def rt_parts(t):
    o = t["rt_of"]
    full = "RT @%s: %s" % (o["author"]["screen_name"], o["text"])
    vis = len(full)
    if len(full) > 140:
        full, vis = full[:139] + "…", 139
    tags, users = locate("RT @%s: %s" % (o["author"]["screen_name"], o["text"]),
                         o["hashtags"], [o["author"]["screen_name"]] + o["mentions"], vis)
    return full, tags, users


def v11_status(t, stream=True, nested=False):
    s = {"created_at": v11_date(t["when"]), "id": t["id"], "id_str": str(t["id"])}
    urls, ext = [], None
    truncated = False
    if "rt_of" in t:
        text, tags, users = rt_parts(t)
    elif len(t["text"]) > 140:
        link = tco(t["id"])
        cut = t["text"].rfind(" ", 0, 140 - 2 - len(link))
        text = t["text"][:cut] + "… " + link
        tags, users = locate(t["text"], t["hashtags"], t["mentions"], cut)
        urls.append((link, "https://twitter.com/i/web/status/%d" % t["id"],
                     "twitter.com/i/web/status/1…", cut + 2, cut + 2 + len(link)))
        truncated = True
        ft, fu = locate(t["text"], t["hashtags"], t["mentions"])
        ext = {"full_text": t["text"], "display_text_range": [0, len(t["text"])],
               "entities": v11_entities(ft, fu)}
    else:
        text = t["text"]
        tags, users = locate(text, t["hashtags"], t["mentions"])
    if "quote_of" in t:
        q = t["quote_of"]
        link = tco(q["id"] + 1)
        text = text + " " + link
        urls.append((link, "https://twitter.com/%s/status/%d" % (q["author"]["screen_name"], q["id"]),
                     "twitter.com/%s/status/1…" % q["author"]["screen_name"],
                     len(text) - len(link), len(text)))
    s["text"] = text
    s["source"] = source_of(t)
    s["truncated"] = truncated
    reply = t.get("reply_to")
    s["in_reply_to_status_id"] = None
    s["in_reply_to_status_id_str"] = None
    s["in_reply_to_user_id"] = BY_NAME[reply]["id"] if reply else None
    s["in_reply_to_user_id_str"] = str(BY_NAME[reply]["id"]) if reply else None
    s["in_reply_to_screen_name"] = reply
    s["user"] = v11_user(t["author"])
    s["geo"] = None
    s["coordinates"] = None
    s["place"] = None
    s["contributors"] = None
    if "rt_of" in t:
        s["retweeted_status"] = v11_status(t["rt_of"], stream, nested=True)
    s["is_quote_status"] = "quote_of" in t
    if "quote_of" in t:
        q = t["quote_of"]
        s["quoted_status_id"] = q["id"]
        s["quoted_status_id_str"] = str(q["id"])
        s["quoted_status"] = v11_status(q, stream, nested=True)
    if ext:
        s["extended_tweet"] = ext
    s["quote_count"] = 0 if not nested else t["id"] % 7
    s["reply_count"] = 0 if not nested else t["id"] % 11
    s["retweet_count"] = 0 if not nested else t["id"] % 300
    s["favorite_count"] = 0 if not nested else t["id"] % 900
    s["entities"] = v11_entities(tags, users, urls)
    s["favorited"] = False
    s["retweeted"] = False
    s["filter_level"] = "low"
    s["lang"] = t["lang"]
    if not nested:
        s["timestamp_ms"] = ms(t["when"])
    return s


def v11_line(t):
    # like the API: compact, non-ASCII as \u escapes
    return json.dumps(v11_status(t), separators=(",", ":"))


def notice(t, kind):
    if kind == "delete":
        u = t["author"]
        return json.dumps({"delete": {"status": {"id": t["id"], "id_str": str(t["id"]),
                                                 "user_id": u["id"], "user_id_str": str(u["id"])},
                                      "timestamp_ms": ms(t["when"] + dt.timedelta(seconds=7))}},
                          separators=(",", ":"))
    return json.dumps({"limit": {"track": R.randrange(1, 60),
                                 "timestamp_ms": ms(t["when"] + dt.timedelta(milliseconds=311))}},
                      separators=(",", ":"))


def stream_lines(tweets):
    lines = []
    for t in tweets:
        lines.append(v11_line(t))
        r = R.random()
        if r < 0.03:
            lines.append(notice(t, "delete"))
        elif r < 0.045:
            lines.append(notice(t, "limit"))
    return lines


# ---------------------------------------------------------------------------
# Rendering: API v2 (twarc-style page)
# ---------------------------------------------------------------------------


def v2_date(when):
    return when.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def v2_user(u):
    return {"id": str(u["id"]), "name": u["name"], "username": u["screen_name"],
            "created_at": v2_date(u["created"]), "protected": False,
            "verified": bool(u.get("verified")), "location": u["location"],
            "description": "",
            "public_metrics": {"followers_count": u["followers"],
                               "following_count": (u["id"] % 1500) + 20,
                               "tweet_count": (u["id"] % 40000) + 100,
                               "listed_count": u["id"] % 50}}


def v2_tweet(t):
    d = {"id": str(t["id"]), "text": None, "author_id": str(t["author"]["id"]),
         "created_at": v2_date(t["when"]), "conversation_id": str(t["id"]),
         "lang": t["lang"], "source": "Twitter for iPhone",
         "public_metrics": {"retweet_count": t["id"] % 300, "reply_count": t["id"] % 11,
                            "like_count": t["id"] % 900, "quote_count": t["id"] % 7},
         "reply_settings": "everyone", "possibly_sensitive": False,
         "edit_history_tweet_ids": [str(t["id"])]}
    urls = []
    if "rt_of" in t:
        text, tags, users = rt_parts(t)
    else:
        text = t["text"]
        tags, users = locate(text, t["hashtags"], t["mentions"])
    if "quote_of" in t:
        q = t["quote_of"]
        link = tco(q["id"] + 1)
        text += " " + link
        urls.append({"start": len(text) - len(link), "end": len(text), "url": link,
                     "expanded_url": "https://twitter.com/%s/status/%d"
                                     % (q["author"]["screen_name"], q["id"]),
                     "display_url": "twitter.com/%s/status/1…" % q["author"]["screen_name"]})
    d["text"] = text
    e = {}
    if urls:
        e["urls"] = urls
    if tags:
        e["hashtags"] = [{"start": a, "end": b, "tag": h} for h, a, b in tags]
    if users:
        e["mentions"] = [{"start": a, "end": b, "username": m, "id": str(BY_NAME[m]["id"])}
                         for m, a, b in users]
    if e:
        d["entities"] = e
    if "rt_of" in t:
        d["referenced_tweets"] = [{"type": "retweeted", "id": str(t["rt_of"]["id"])}]
    elif "quote_of" in t:
        d["referenced_tweets"] = [{"type": "quoted", "id": str(t["quote_of"]["id"])}]
    if t.get("reply_to"):
        d["in_reply_to_user_id"] = str(BY_NAME[t["reply_to"]]["id"])
    return d


def v2_page(tweets):
    data = [v2_tweet(t) for t in sorted(tweets, key=lambda t: t["id"], reverse=True)]
    refs = []
    for t in tweets:
        for o in (t.get("rt_of"), t.get("quote_of")):
            if o is not None and o not in refs:
                refs.append(o)
    names = []
    for t in list(tweets) + refs:
        for n in [t["author"]["screen_name"]] + t.get("mentions", []):
            if n not in names:
                names.append(n)
    for t in tweets:
        if "rt_of" in t:
            for n in t["rt_of"]["mentions"]:
                if n not in names:
                    names.append(n)
    return {"data": data,
            "includes": {"users": [v2_user(BY_NAME[n]) for n in names],
                         "tweets": [v2_tweet(o) for o in refs]},
            "meta": {"newest_id": data[0]["id"], "oldest_id": data[-1]["id"],
                     "result_count": len(data),
                     "next_token": "b26v89c19zqg8o3fpe17ph4ub6fl5yyf1d1ntu0khb7nh"},
            "__twarc": {"url": "https://api.twitter.com/2/tweets/search/recent?expansions="
                               "author_id%2Creferenced_tweets.id%2Creferenced_tweets.id."
                               "author_id%2Centities.mentions.username&max_results=100"
                               "&query=%23stanford%20OR%20stanford",
                        "version": "2.12.0", "retrieved_at": "2021-09-22T16:41:03+00:00"}}


# ---------------------------------------------------------------------------
# Rendering: account archive
# ---------------------------------------------------------------------------

OWNER = {"screen_name": "cardinal_coder", "name": "Robin Alvarez \U0001F332",
         "id": 1042577313904259073, "lang": "en", "location": "Stanford, CA",
         "followers": 412, "created": dt.datetime(2018, 9, 20, 1, 2, 3, tzinfo=UTC)}
BY_NAME[OWNER["screen_name"]] = OWNER


def archive_tweet(t):
    if "rt_of" in t:
        o = t["rt_of"]
        text = "RT @%s: %s" % (o["author"]["screen_name"], o["text"])
        tags, users = locate(text, o["hashtags"], [o["author"]["screen_name"]] + o["mentions"])
    else:
        text = t["text"]
        tags, users = locate(text, t["hashtags"], t["mentions"])
    tid = str(t["id"])
    tw = {"edit_info": {"initial": {"editTweetIds": [tid],
                                    "editableUntil": v2_date(t["when"] + dt.timedelta(minutes=30)),
                                    "editsRemaining": "5", "isEditEligible": False}},
          "retweeted": False, "source": source_of(t),
          "entities": {"hashtags": [{"text": h, "indices": [str(a), str(b)]} for h, a, b in tags],
                       "symbols": [],
                       "user_mentions": [{"name": BY_NAME[m]["name"], "screen_name": m,
                                          "indices": [str(a), str(b)],
                                          "id_str": str(BY_NAME[m]["id"]),
                                          "id": str(BY_NAME[m]["id"])} for m, a, b in users],
                       "urls": []},
          "display_text_range": ["0", str(len(text))],
          "favorite_count": str(0 if "rt_of" in t else t["id"] % 40),
          "id_str": tid, "truncated": False,
          "retweet_count": str(0 if "rt_of" in t else t["id"] % 9),
          "id": tid, "created_at": v11_date(t["when"]), "favorited": False,
          "full_text": text, "lang": t["lang"]}
    if t.get("reply_to"):
        ru = BY_NAME[t["reply_to"]]
        tw.update({"in_reply_to_user_id": str(ru["id"]), "in_reply_to_screen_name": ru["screen_name"],
                   "in_reply_to_user_id_str": str(ru["id"])})
    return {"tweet": tw}


# ---------------------------------------------------------------------------
# Containers (reproducible)
# ---------------------------------------------------------------------------

TAR_MTIME = 1551484800  # 2019-03-02T00:00:00Z, when the archive was packed


def tar_bytes(members, dirs):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        def info(name):
            ti = tarfile.TarInfo(name)
            ti.mtime = TAR_MTIME
            ti.uid = ti.gid = 1000
            ti.uname = ti.gname = "archiveteam"
            return ti
        for d in dirs:
            ti = info(d)
            ti.type = tarfile.DIRTYPE
            ti.mode = 0o755
            tf.addfile(ti)
        for name, data in members:
            ti = info(name)
            ti.size = len(data)
            ti.mode = 0o644
            tf.addfile(ti, io.BytesIO(data))
    return buf.getvalue()


def zip_bytes(members):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data, when in members:
            zi = zipfile.ZipInfo(name, date_time=when)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.create_system = 3
            zi.external_attr = 0o644 << 16
            zf.writestr(zi, data)
    return buf.getvalue()


def write(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    return len(data)


def joined(lines):
    return "".join(l + "\n" for l in lines).encode("utf-8")


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------


def main():
    t0 = dt.datetime(2019, 3, 1, 12, 0, 0, tzinfo=UTC)
    originals = make_originals(70, t0 - dt.timedelta(hours=6), 6 * 60 + 50)
    timeline = make_timeline(t0, 60, 13, originals)
    # popular originals posted during the hour also appear in the stream
    for o in originals:
        if o["when"] >= t0:
            timeline.append(o)
    timeline.sort(key=lambda t: t["when"])

    def minute(t):
        return int((t["when"] - t0).total_seconds() // 60)

    # archive-stream.tar: 12:00 .. 12:11, one bzip2 member per minute
    members, dirs = [], ["2019/", "2019/03/", "2019/03/01/", "2019/03/01/12/"]
    for m in range(12):
        part = [t for t in timeline if minute(t) == m]
        members.append(("2019/03/01/12/%02d.json.bz2" % m,
                        bz2.compress(joined(stream_lines(part)), 9)))
    sizes = {"archive-stream.tar": write("archive-stream.tar", tar_bytes(members, dirs))}

    # stream.jsonl: 12:12 .. 12:35, starting with a few tweets replayed
    # after a reconnect (they are also in the tar's 12:11 member)
    replay = [t for t in timeline if minute(t) == 11][-5:]
    part = [t for t in timeline if 12 <= minute(t) < 36]
    sizes["stream.jsonl"] = write("stream.jsonl", joined(stream_lines(replay + part)))

    # stream-2.jsonl.gz: 12:36 .. 12:59, with one line delivered twice
    part = [t for t in timeline if minute(t) >= 36]
    lines = stream_lines(part)
    lines.insert(41, lines[40])
    sizes["stream-2.jsonl.gz"] = write("stream-2.jsonl.gz",
                                       gzip.compress(joined(lines), 9, mtime=0))

    # search-v2.json: one API v2 recent-search page from another day
    t1 = dt.datetime(2021, 9, 22, 16, 0, 0, tzinfo=UTC)
    originals2 = make_originals(25, t1 - dt.timedelta(hours=4), 4 * 60 + 30)
    page = [t for t in make_timeline(t1 + dt.timedelta(minutes=31), 9, 12, originals2)][:100]
    sizes["search-v2.json"] = write("search-v2.json",
                                    json.dumps(v2_page(page)) + "\n")

    # account-archive.zip: one student's downloaded archive
    own = []
    when = dt.datetime(2019, 1, 7, 18, 4, 11, tzinfo=UTC)
    for _ in range(140):
        when += dt.timedelta(seconds=R.randrange(3600, 5 * 86400))
        if R.random() < 0.3:
            o = R.choice(originals)
            own.append({"id": snowflake(when), "when": when, "author": OWNER,
                        "rt_of": o, "lang": o["lang"]})
        else:
            own.append(new_original(OWNER, when, R.random() < 0.45,
                                    reply=R.random() < 0.15))
    own.reverse()  # archives list newest first
    tweets_js = "window.YTD.tweets.part0 = " + json.dumps(
        [archive_tweet(t) for t in own], ensure_ascii=False, indent=2)
    account_js = "window.YTD.account.part0 = " + json.dumps([{"account": {
        "email": "robin@example.org", "createdVia": "web",
        "username": OWNER["screen_name"], "accountId": str(OWNER["id"]),
        "createdAt": v2_date(OWNER["created"]), "accountDisplayName": OWNER["name"]}}],
        ensure_ascii=False, indent=2)
    html = ("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">"
            "<title>Your Twitter Data</title></head>\n<body>\n<h1>Your archive</h1>\n"
            "<p>@%s &middot; %d Tweets. Open this file in a browser to explore it; "
            "the raw data is in <code>data/</code>.</p>\n</body>\n</html>\n"
            % (OWNER["screen_name"], len(own)))
    packed = (2020, 6, 14, 9, 30, 0)
    sizes["account-archive.zip"] = write("account-archive.zip", zip_bytes([
        ("Your archive.html", html.encode("utf-8"), packed),
        ("data/account.js", account_js.encode("utf-8"), packed),
        ("data/tweets.js", tweets_js.encode("utf-8"), packed),
    ]))
    total = sum(sizes.values())
    assert total < 1_500_000, sizes
    for k, v in sizes.items():
        print("%-22s %8d bytes" % (k, v))
    print("%-22s %8d bytes" % ("total", total))


if __name__ == "__main__":
    main()
