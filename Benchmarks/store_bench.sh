#!/bin/sh
# The store's figures (issue #4), on a release build:
#
#   ingest      v1.1 stream lines into a fresh store            target >= 150,000 tweets/s
#   report      '#tag' --store on a store of N tweets            target < 0.3 s
#   size        store bytes per tweet, without --keep-text       target <= 120
#   re-ingest   the same file again (unchanged: not read)        target < 5% of the first ingest
#   one .zst    ingest of the data as one zstd stream, --jobs 2 against --jobs 1
#               (one inflates, the other parses, the writer has its own core)
#
# The data is generated, not committed: N tweets (STORE_BENCH_TWEETS, default
# 1,000,000) of API v1.1 stream lines made from samples/stream.jsonl's
# statuses with fresh, increasing snowflake ids (about 1.7 KB a line, 2.4
# mentions a tweet; 46% carry #stanford). It is written once to
# $STORE_BENCH_DIR (default .build/store-bench) and reused.
#
# Every row prints the answer's size beside the time, so a fast wrong answer
# shows: tweets stored, tweets matched. Timings are wall clock: the best of
# the runs (ingest 2, reports 5), as a busy machine only ever adds time.
set -eu
cd "$(dirname "$0")/.."
N=${STORE_BENCH_TWEETS:-1000000}
DIR=${STORE_BENCH_DIR:-.build/store-bench}
BIN=.build/release/smashtag
mkdir -p "$DIR"
swift build -c release --static-swift-stdlib --product smashtag >&2  # as make bench builds it

DATA="$DIR/stream-$N.jsonl"
if [ ! -s "$DATA" ]; then
  echo "store_bench: writing $N tweets to $DATA (once)" >&2
  python3 - "$N" "$DATA" <<'PY'
import re, sys
n, out = int(sys.argv[1]), sys.argv[2]
statuses = [l for l in open("samples/stream.jsonl", encoding="utf-8") if l.startswith('{"created_at"')]
head = re.compile(r'^(\{"created_at":"[^"]*","id":)\d+(,"id_str":")\d+(")')
# Snowflake ids from 2019-03-01 on, 4096 apart: increasing, as a stream delivers them.
base = 1101454984121177699
with open(out + ".tmp", "w", encoding="utf-8") as f:
    for i in range(n):
        tid = str(base + i * 4096)
        f.write(head.sub(lambda m: m.group(1) + tid + m.group(2) + tid + m.group(3), statuses[i % len(statuses)], count=1))
import os
os.replace(out + ".tmp", out)
PY
fi

# best TIMES CMD...: runs CMD (output discarded) TIMES times; prints "WALL CPU" in
# seconds of the run with the least wall time (CPU = user + system, all threads).
best() {
  times=$1; shift
  i=0; b="999999 0"
  while [ $i -lt "$times" ]; do
    /usr/bin/time -f "%e %U %S" -o "$DIR/time.txt" "$@" >/dev/null 2>&1
    b=$(awk -v b="$b" '{split(b, o, " "); if ($1 < o[1]) print $1, $2 + $3; else print b}' "$DIR/time.txt")
    i=$((i + 1))
  done
  echo "$b"
}
wall() { echo "$1" | cut -d' ' -f1; }
cpu() { echo "$1" | cut -d' ' -f2; }

STORE="$DIR/bench.db"
first="999999 0"
for run in 1 2; do
  rm -f "$STORE" "$STORE-wal" "$STORE-shm" "$STORE-lock"
  t=$(best 1 "$BIN" ingest "$DATA" --store "$STORE" -q)
  first=$(echo "$t $first" | awk '{print ($1 < $3) ? $1 " " $2 : $3 " " $4}')
done
stored=$("$BIN" report '*' --store "$STORE" --format json -q --top 1 | sed 's/.*"tweets":\([0-9]*\).*/\1/')
bytes=$(stat -c %s "$STORE")
again=$(best 1 "$BIN" ingest "$DATA" --store "$STORE" -q)

echo "store bench: $N tweets, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %10s %8s %8s  %s\n' "figure" "value" "wall s" "cpu s" "answer"
printf '%-34s %10.0f %8.2f %8.2f  %s tweets stored (target >= 150000 tweets/s)\n' "ingest, tweets/s" \
  "$(echo "$stored $(wall "$first")" | awk '{print $1/$2}')" "$(wall "$first")" "$(cpu "$first")" "$stored"
printf '%-34s %10.1f %8s %8s  %s bytes (target <= 120)\n' "store, bytes/tweet" "$(echo "$bytes $stored" | awk '{print $1/$2}')" "" "" "$bytes"
for term in '#stanford' '#gotrees' '@nasa' 'from:hannah_n' '*'; do
  matched=$("$BIN" report "$term" --store "$STORE" --format json -q --top 1 | sed 's/.*"tweets":\([0-9]*\).*/\1/')
  t=$(best 5 "$BIN" report "$term" --store "$STORE" --format csv -q)
  printf '%-34s %10.3f %8.3f %8.3f  %s tweets matched (target < 0.3 s)\n' "report '$term' --store, s" "$(wall "$t")" "$(wall "$t")" "$(cpu "$t")" "$matched"
done
"$BIN" track '#stanford' --store "$STORE" -q
t=$(best 5 "$BIN" report '#stanford' --store "$STORE" --format csv -q)
printf '%-34s %10.3f %8.3f %8.3f  (kept counts)\n' "report '#stanford' tracked, s" "$(wall "$t")" "$(wall "$t")" "$(cpu "$t")"
printf '%-34s %10.3f %8.3f %8.3f  %.1f%% of the first ingest (target < 5%%)\n' "re-ingest unchanged, s" "$(wall "$again")" \
  "$(wall "$again")" "$(cpu "$again")" "$(echo "$(wall "$again") $(wall "$first")" | awk '{print 100*$1/$2}')"

# One compressed file: the record-batch fan-out lets a second worker parse
# what the first inflates (zstd from `make deps`; made once beside the data).
if command -v zstd >/dev/null; then
  ZST="$DATA.zst"
  [ -s "$ZST" ] || zstd -q -3 -c "$DATA" > "$ZST"
  for j in 1 2; do
    t="999999 0"
    for run in 1 2; do
      rm -f "$STORE" "$STORE-wal" "$STORE-shm" "$STORE-lock"
      r=$(best 1 "$BIN" ingest "$ZST" --store "$STORE" --jobs "$j" -q)
      t=$(echo "$r $t" | awk '{print ($1 < $3) ? $1 " " $2 : $3 " " $4}')
    done
    eval "zst$j=\"\$t\""
  done
  printf '%-34s %10.2f %8.2f %8.2f  --jobs 1: %s s wall (%s MB of zstd)\n' "ingest one .zst, --jobs 2 speed-up" \
    "$(echo "$(wall "$zst1") $(wall "$zst2")" | awk '{print $1/$2}')" "$(wall "$zst2")" "$(cpu "$zst2")" "$(wall "$zst1")" \
    "$(stat -c %s "$ZST" | awk '{printf "%.0f", $1/1e6}')"
fi
