"""Timed v1.1 stream lines for Benchmarks/trend_bench.sh (SPEC §14's bench):
14 days ending 2020-03-08, a skewed spread of 20,000 hashtags, 50,000 users
and 200,000 authors, 5% of the tweets in a burst on the last day; snowflake ids
that agree with created_at. Usage: trend_data.py MB OUT.

trend_data.py --tweets N --days D OUT: N tweets over the D days ending
2020-03-08 instead (the same spread, 5% in the last day's burst), written in
time order as a collection that is ingested nightly delivers them: the store
bench's data (a store of a year of tweets, whose windows hold a few weeks)."""
import json, random, sys, datetime
random.seed(7)
count, days = None, 14
if sys.argv[1] == "--tweets":
    count, days, sys.argv[1:] = int(sys.argv[2]), int(sys.argv[4]), ["0", sys.argv[5]]
target = int(sys.argv[1]) * 1_000_000
end = int(datetime.datetime(2020, 3, 8, tzinfo=datetime.timezone.utc).timestamp())
span = days * 86400
start = end - span
times = None
if count is not None:
    times = sorted(start + random.randrange(span) if random.random() >= 0.05 else end - 86400 + random.randrange(86400)
                   for _ in range(count))
tags = ["tag%d" % i for i in range(20000)]
users = ["user%d" % i for i in range(50000)]
filler = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor " * 2
def pick(n):
    return int(n * random.random() ** 3)
written, i = 0, 0
out = open(sys.argv[2], "w")
while (i < count) if times else (written < target):
    i += 1
    if times:
        t = times[i - 1]
    else:
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
