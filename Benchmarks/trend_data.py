"""Timed v1.1 stream lines for Benchmarks/trend_bench.sh (SPEC §14's bench):
14 days ending 2020-03-08, a skewed spread of 20,000 hashtags, 50,000 users
and 200,000 authors, 5% of the tweets in a burst on the last day; snowflake ids
that agree with created_at. Usage: trend_data.py MB OUT."""
import json, random, sys, datetime
random.seed(7)
target = int(sys.argv[1]) * 1_000_000
start = int(datetime.datetime(2020, 2, 23, tzinfo=datetime.timezone.utc).timestamp())
span = 14 * 86400
tags = ["tag%d" % i for i in range(20000)]
users = ["user%d" % i for i in range(50000)]
filler = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor " * 2
def pick(n):
    return int(n * random.random() ** 3)
written, i = 0, 0
out = open(sys.argv[2], "w")
while written < target:
    i += 1
    t = start + random.randrange(span)
    if random.random() < 0.05:
        t = start + span - 86400 + random.randrange(86400)
    ht = [tags[pick(len(tags))] for _ in range(random.randrange(0, 4))]
    um = [users[pick(len(users))] for _ in range(random.randrange(0, 3))]
    created = datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%a %b %d %H:%M:%S +0000 %Y")
    tid = ((t * 1000 - 1288834974657) << 22) + i % 4194304
    d = {"created_at": created, "id": tid, "id_str": str(tid), "text": filler + " ".join("#" + h for h in ht),
         "lang": "en", "user": {"id": i % 200000, "screen_name": "author%d" % pick(200000), "name": "Someone", "followers_count": 10},
         "entities": {"hashtags": [{"text": h, "indices": [0, 1]} for h in ht],
                      "user_mentions": [{"screen_name": u, "id": 1, "indices": [0, 1]} for u in um], "urls": [], "symbols": []}}
    line = json.dumps(d, separators=(",", ":")) + "\n"
    out.write(line)
    written += len(line)
print(i, written)
