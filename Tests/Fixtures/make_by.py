#!/usr/bin/env python3
"""Writes Tests/Fixtures/by/: tweets around the instants SPEC 12.4's
buckets get wrong most easily, for the `--by` tests.

    dst.jsonl       Europe/Berlin's 2021 changes (2021-03-28 01:00 UTC, clocks
                    forward: the day has 23 hours, 02:xx never happens; 2021-10-31
                    01:00 UTC, clocks back: 25 hours, 02:xx twice), and New York's
                    (2021-03-14 07:00 UTC, 2021-11-07 06:00 UTC): tweets just
                    before, in and after each change, v1.1 shape
    newyear.jsonl   2020-12-28 to 2021-01-04: ISO week 2020-W53 runs from Monday
                    2020-12-28 to Sunday 2021-01-03 across the new year (v2 shape,
                    ISO times with offsets), plus a duplicate and a tweet of
                    unknown time (an id before the first snowflake, no created_at)
    tide.jsonl      #tide over four days in Asia/Tokyo (UTC+9), worked by hand
                    in ByTests: a day whose display spelling, retweets and
                    authors differ from the whole period's (#Tide on 06-01;
                    @SEA, of three spellings written once each, on 06-02), a
                    tweet on 06-01 in UTC but 06-02 in Tokyo, an empty day

Hashtags and users are picked so that a mention frequent in one bucket only
differs from the one frequent over the whole period (for --top), spellings
vary (for display), and some tweets are retweets. Deterministic:

    python3 Tests/Fixtures/make_by.py
"""

import datetime
import json
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "by")
UTC = datetime.timezone.utc
EPOCH_MS = 1288834974657


def snowflake(t, n):
    return ((int(t.timestamp() * 1000) - EPOCH_MS) << 22) | n


def v1(t, n, tags, users, author, retweet=False):
    tid = snowflake(t, n)
    tweet = {"created_at": t.strftime("%a %b %d %H:%M:%S +0000 %Y"), "id": tid, "id_str": str(tid),
             "text": " ".join("#" + h for h in tags) + " " + " ".join("@" + u for u in users),
             "user": {"screen_name": author},
             "entities": {"hashtags": [{"text": h} for h in tags], "user_mentions": [{"screen_name": u} for u in users]}}
    if retweet:
        tweet["retweeted_status"] = {"id": tid - 1, "id_str": str(tid - 1), "text": "x", "user": {"screen_name": users[0]},
                                     "entities": {"hashtags": [], "user_mentions": []}}
    return tweet


def v2(t, n, tags, users, author, offset_hours):
    tid = snowflake(t, n)
    local = t.astimezone(datetime.timezone(datetime.timedelta(hours=offset_hours)))
    return {"data": {"id": str(tid), "created_at": local.isoformat(), "text": " ".join("#" + h for h in tags),
                     "author_id": author, "entities": {"hashtags": [{"tag": h} for h in tags],
                                                       "mentions": [{"username": u} for u in users]}},
            "includes": {"users": [{"id": author, "username": "user" + author}]}}


def at(*parts):
    return datetime.datetime(*parts, tzinfo=UTC)


def dst():
    out = []
    n = 0
    def add(t, tags, users, author, retweet=False):
        nonlocal n
        n += 1
        out.append(v1(t, n, tags, users, author, retweet))
    # Berlin forward: 2021-03-28 01:00 UTC (02:00 CET -> 03:00 CEST).
    add(at(2021, 3, 27, 22, 59, 59), ["Spring", "dst"], ["alice"], "ann")          # 23:59:59 CET on the 27th
    add(at(2021, 3, 27, 23, 0, 0), ["spring", "dst"], ["bob"], "ann")              # 00:00 CET on the 28th
    add(at(2021, 3, 28, 0, 59, 59), ["SPRING"], ["alice"], "ben", True)            # 01:59:59 CET
    add(at(2021, 3, 28, 1, 0, 0), ["spring", "clock"], ["alice"], "ben")           # 03:00 CEST
    add(at(2021, 3, 28, 21, 59, 59), ["spring"], ["carol"], "cy")                  # 23:59:59 CEST
    add(at(2021, 3, 28, 22, 0, 0), ["dst"], ["carol"], "cy")                       # 00:00 CEST on the 29th
    # New York forward: 2021-03-14 07:00 UTC (02:00 EST -> 03:00 EDT).
    add(at(2021, 3, 14, 6, 30), ["ny", "dst"], ["dave"], "dan")                    # 01:30 EST
    add(at(2021, 3, 14, 7, 0), ["NY"], ["dave"], "dan", True)                      # 03:00 EDT
    # Berlin back: 2021-10-31 01:00 UTC (03:00 CEST -> 02:00 CET).
    add(at(2021, 10, 30, 21, 59, 59), ["fall"], ["bob"], "ann")                    # 23:59:59 CEST on the 30th
    add(at(2021, 10, 30, 22, 0, 0), ["Fall", "dst"], ["bob"], "ann")               # 00:00 CEST on the 31st
    add(at(2021, 10, 31, 0, 15), ["fall", "clock"], ["alice"], "ben")              # 02:15 CEST
    add(at(2021, 10, 31, 1, 15), ["fall", "clock"], ["alice"], "cy", True)         # 02:15 CET (the same wall-clock hour)
    add(at(2021, 10, 31, 22, 59, 59), ["fall"], ["carol"], "cy")                   # 23:59:59 CET
    add(at(2021, 10, 31, 23, 0, 0), ["dst"], ["carol"], "dan")                     # 00:00 CET on 1 November
    # New York back: 2021-11-07 06:00 UTC (02:00 EDT -> 01:00 EST).
    add(at(2021, 11, 7, 5, 30), ["ny", "fall"], ["dave"], "dan")                   # 01:30 EDT
    add(at(2021, 11, 7, 6, 30), ["ny"], ["dave"], "ann")                           # 01:30 EST
    return out


def newyear():
    out = []
    n = 100
    def add(t, tags, users, author, offset):
        nonlocal n
        n += 1
        out.append(v2(t, n, tags, users, author, offset))
    add(at(2020, 12, 27, 22, 59), ["nye", "old"], ["eve"], "1", 1)     # Sunday 23:59 in Berlin: 2020-W52
    add(at(2020, 12, 27, 23, 0), ["nye", "old"], ["eve"], "1", 1)      # Monday 00:00 in Berlin: 2020-W53
    add(at(2020, 12, 31, 12, 0), ["nye", "Party"], ["eve"], "2", -5)
    add(at(2020, 12, 31, 23, 30), ["nye", "party"], ["frank"], "2", 0)  # 2021-01-01 00:30 in Berlin, 18:30 in New York
    add(at(2021, 1, 1, 4, 59), ["nye", "party"], ["frank"], "3", 9)     # 2020-12-31 23:59 in New York
    add(at(2021, 1, 3, 22, 59, 59), ["new"], ["gina"], "3", 1)          # Sunday 23:59:59 in Berlin: still 2020-W53
    add(at(2021, 1, 3, 23, 0), ["new"], ["gina"], "4", 1)               # Monday 00:00 in Berlin: 2021-W01
    add(at(2021, 1, 4, 12, 0), ["new", "old"], ["gina"], "4", 0)
    out.append(out[3])  # a duplicate: counts once
    out.append({"data": {"id": "1000", "text": "#nye no time", "author_id": "5",
                         "entities": {"hashtags": [{"tag": "nye"}]}}})  # unknown time: left out with --by
    return out


def tide():
    out = []
    n = 200
    def add(t, tags, users, author, retweet=False):
        nonlocal n
        n += 1
        out.append(v1(t, n, tags, users, author, retweet))
    add(at(2022, 6, 1, 1, 0), ["Tide"], ["sea"], "ann")                  # 06-01 10:00 in Tokyo
    add(at(2022, 6, 1, 2, 0), ["Tide"], ["sea"], "ann", True)            # a retweet of @sea
    add(at(2022, 6, 1, 15, 30), ["TIDE"], ["SEA"], "ben")                # 06-02 00:30 in Tokyo, still 06-01 in UTC
    add(at(2022, 6, 2, 3, 0), ["tide"], ["Sea"], "ben")
    add(at(2022, 6, 2, 4, 0), ["tide"], ["sea"], "cy")
    add(at(2022, 6, 2, 5, 0), ["tide"], ["moon"], "ben", True)           # a retweet of @moon
    add(at(2022, 6, 4, 0, 0), ["tide"], [], "cy")                        # 06-04 09:00 in Tokyo; 06-03 is empty
    return out


def main():
    os.makedirs(HERE, exist_ok=True)
    for name, tweets in (("dst.jsonl", dst()), ("newyear.jsonl", newyear()), ("tide.jsonl", tide())):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            for t in tweets:
                f.write(json.dumps(t, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
