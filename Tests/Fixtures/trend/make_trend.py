#!/usr/bin/env python3
"""Writes the hand-worked fixtures of `smashtag trend` (SPEC §14), whose
expected rows are worked out by hand in Tests/PipelineTests/TrendTests.swift.

rise.jsonl (UTC; --current 1d --now 2020-03-08T10:00:00Z):
  current  2020-03-07: #Rise/#rise by a1..a9 (9 authors), #fresh by a1..a5,
           #meh by a6..a9, #fall by a1, #spam 50 times by spammer,
           a retweet of #rise by a10 (left out by default), a copy of tweet 101
  previous 2020-03-06: #rise by b1, b2; #fall by b1, b2, b3
  2020-03-05: #rise by c1 (the second window of mean:2)
  weekago  2020-02-29: #rise by w1..w4
dst.jsonl (Europe/Berlin; --current 1d --now 2021-03-29T10:00:00+02:00):
  the current day, 2021-03-28 in Berlin, has 23 hours: [2021-03-27T23:00Z, 2021-03-28T22:00Z)
  #edge by d1..d5 at 2021-03-28T21:59:59Z (Berlin 23:59:59, current)
  #edge by e1, e2 at 2021-03-27T22:59:59Z (Berlin 2021-03-27 23:59:59, previous)
  #next by n1..n5 at 2021-03-28T22:00:00Z (Berlin 2021-03-29 00:00, no window)
  #first by f1..f5 at 2021-03-27T23:00:00Z (Berlin 2021-03-28 00:00, current)
"""
import json, datetime, os

here = os.path.dirname(os.path.abspath(__file__))


def classic(iso):
    t = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ")
    return t.strftime("%a %b %d %H:%M:%S +0000 %Y")


def tweet(id, when, author, tags, retweet_of=None):
    t = {"created_at": classic(when), "id": id, "id_str": str(id),
         "text": " ".join("#" + h for h in tags), "user": {"screen_name": author},
         "entities": {"hashtags": [{"text": h} for h in tags], "user_mentions": []}}
    if retweet_of:
        t["retweeted_status"] = retweet_of
        t["text"] = "RT @" + retweet_of["user"]["screen_name"] + ": " + retweet_of["text"]
    return t


def rise():
    out = []
    day = "2020-03-07T%02d:%02d:%02dZ"
    for i in range(1, 10):
        tags = ["Rise" if i <= 5 else "rise"]
        if i <= 5:
            tags.append("fresh")
        else:
            tags.append("meh")
        out.append(tweet(100 + i, day % (9, i, 0), "a%d" % i, tags))
    out.append(tweet(110, day % (20, 0, 0), "a1", ["fall"]))
    for i in range(50):
        out.append(tweet(201 + i, day % (12, i // 60, i % 60), "spammer", ["spam"]))
    out.append(tweet(301, day % (13, 0, 0), "a10", ["rise"], retweet_of=tweet(100, "2020-03-01T00:00:00Z", "a1", ["Rise"])))
    out.append(out[0])  # a copy of tweet 101
    prev = "2020-03-06T%02d:00:00Z"
    out.append(tweet(1, prev % 8, "b1", ["rise"]))
    out.append(tweet(2, prev % 9, "b2", ["rise"]))
    out.append(tweet(3, prev % 10, "b1", ["fall"]))
    out.append(tweet(4, prev % 11, "b2", ["fall"]))
    out.append(tweet(5, prev % 12, "b3", ["fall"]))
    out.append(tweet(6, "2020-03-05T08:00:00Z", "c1", ["rise"]))
    for i in range(1, 5):
        out.append(tweet(10 + i, "2020-02-29T1%d:00:00Z" % i, "w%d" % i, ["rise"]))
    return out


def dst():
    out = []
    for i in range(1, 6):
        out.append(tweet(400 + i, "2021-03-28T21:59:59Z", "d%d" % i, ["edge"]))
        out.append(tweet(500 + i, "2021-03-28T22:00:00Z", "n%d" % i, ["next"]))
        out.append(tweet(600 + i, "2021-03-27T23:00:00Z", "f%d" % i, ["first"]))
    for i in range(1, 3):
        out.append(tweet(700 + i, "2021-03-27T22:59:59Z", "e%d" % i, ["edge"]))
    return out


for name, tweets in [("rise.jsonl", rise()), ("dst.jsonl", dst())]:
    with open(os.path.join(here, name), "w") as f:
        for t in tweets:
            f.write(json.dumps(t, separators=(",", ":")) + "\n")
