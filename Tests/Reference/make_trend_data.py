#!/usr/bin/env python3
"""Timed tweets with bursts for the differential test of `smashtag trend`
against trend_reference.py (TrendReferenceTests). Deterministic.

    python3 make_trend_data.py OUT.jsonl [TWEETS]

21 days ending 2020-03-09T00:00Z: 40 hashtags and 30 users of skewed
popularity, 80 authors (a few of them prolific), spellings in mixed case,
bursts of a few tags on the last days (one new on the last day, one carried
by one author alone),
retweets (10%), copies of earlier tweets with another created_at (3%),
tweets without an author (2%), ties of time between tweets.
"""
import datetime
import json
import random
import sys

rng = random.Random(20261207)
out_path = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
end = int(datetime.datetime(2020, 3, 9, tzinfo=datetime.timezone.utc).timestamp())
start = end - 21 * 86400
tags = ["Tag%d" % i for i in range(40)] + ["Straße", "ÉTÉ"]
users = ["User%d" % i for i in range(30)]
authors = ["au%d" % i for i in range(80)]


def skew(items):
    return items[int(len(items) * rng.random() ** 2.5)]


def spelled(name):
    return rng.choice([name, name.lower(), name.upper()])


def when(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%a %b %d %H:%M:%S +0000 %Y")


def snowflake(t, i):
    return ((t * 1000 - 1288834974657) << 22) + i


lines, written = [], []
for i in range(count):
    r = rng.random()
    if r < 0.03:  # new on the last day, by many authors
        t = end - 1 - rng.randrange(86400)
        ht = ["Fresh"]
    elif r < 0.12:  # a burst on the last two days: few tags, many authors
        t = end - rng.randrange(2 * 86400)
        ht = [rng.choice(["Tag7", "Tag8", "Burst"])]
    elif r < 0.15:  # one author's burst: many tweets, one voice
        t = end - rng.randrange(86400)
        ht = ["Solo"]
    else:
        t = start + rng.randrange(21 * 86400)
        ht = [skew(tags) for _ in range(rng.randrange(0, 4))]
    t -= t % rng.choice([1, 60, 3600])  # ties of time
    um = [skew(users) for _ in range(rng.randrange(0, 3))]
    author = "soloist" if ht == ["Solo"] else skew(authors)
    tid = snowflake(t, i)
    d = {"created_at": when(t), "id": tid, "id_str": str(tid), "text": " ".join("#" + h for h in ht),
         "entities": {"hashtags": [{"text": spelled(h)} for h in ht],
                      "user_mentions": [{"screen_name": spelled(u)} for u in um]}}
    if rng.random() >= 0.02:
        d["user"] = {"screen_name": spelled(author)}
    if rng.random() < 0.10 and written:
        # A retweet: the retweeted tweet's mentions and its author count (SPEC §5), unless retweets are left out.
        src = rng.choice(written)
        while "retweeted_status" in src:
            src = rng.choice(written)
        d["retweeted_status"] = src
        d["text"] = "RT @%s: %s" % (src.get("user", {}).get("screen_name", "x"), src["text"])
    lines.append(json.dumps(d, ensure_ascii=rng.random() < 0.5, separators=(",", ":")))
    written.append(d)
    if rng.random() < 0.03:
        # A copy of an earlier tweet under another created_at: the first copy read counts (SPEC §6).
        old = dict(rng.choice(written))
        old["created_at"] = when(start + rng.randrange(21 * 86400))
        lines.append(json.dumps(old, separators=(",", ":")))
with open(out_path, "w") as f:
    f.write("\n".join(lines) + "\n")
