#!/bin/sh
# SPEC §14's bench (issue 26), on a release build; `make bench-trend` (and
# `make bench`) run it.
#
#   dumps   `trend '*' --current 7d` against `report '*'` on the same MB
#           (default 500) of timed tweets (Benchmarks/trend_data.py: 14 days,
#           a burst on the last): target at most 1.3x.
#   store   `trend '#tag' --store` on a store of STORE_TWEETS (default
#           10,000,000) tweets of a year (trend_data.py --days 365, written in
#           time order as a nightly collection is): target under 1 s.
#
# Each row is the best wall time of RUNS (default 3; a busy machine only ever
# adds time) with the user time and peak memory of that run, and the answer's
# size beside it (rows written; posts the store read), so a fast wrong answer
# shows. The dumps' pair runs in PAIR_RUNS (default 7) alternating rounds,
# report then trend, so that both meet the host's same phases: its ratio is
# of the medians, the best times' beside it. The data and the year store are
# made once under BENCH_TREND_DIR.
set -eu
cd "$(dirname "$0")/.."
MB=${MB:-500}
RUNS=${RUNS:-3}
PAIR_RUNS=${PAIR_RUNS:-7}
TWEETS=${STORE_TWEETS:-10000000}
DIR=${BENCH_TREND_DIR:-.build/bench-trend}
BIN=${SMASHTAG:-.build/release/smashtag}
NOW=2020-03-08T10:00:00Z
mkdir -p "$DIR"
[ -s "$DIR/timed-$MB.jsonl" ] || python3 Benchmarks/trend_data.py "$MB" "$DIR/timed-$MB.jsonl" >&2

# best NAME CMD...: runs CMD RUNS times (stdout to $DIR/out, stderr to $DIR/err)
# and prints NAME, the least wall time, and that run's user time and peak memory.
best() {
  name=$1; shift
  b=""
  i=0
  while [ $i -lt "$RUNS" ]; do
    /usr/bin/time -f "%e %U %M" -o "$DIR/time.txt" "$@" > "$DIR/out" 2> "$DIR/err"
    b=$(awk -v b="$b" '{ split(b, o, " "); if (b == "" || $1 < o[1]) print $1, $2, $3; else print b }' "$DIR/time.txt")
    i=$((i + 1))
  done
  echo "$b" | awk -v n="$name" '{ printf "%-52s %7.2f s wall %7.2f s user %8.0f MB", n, $1, $2, $3 / 1024 }'
  echo "$b" | cut -d' ' -f1 > "$DIR/wall"
}

# rounds NAME FILE: the best wall time of the runs in FILE ("wall user KB" a line) with that run's user
# time and peak memory, and the median wall time; the median alone goes to $DIR/median, the best to $DIR/wall.
rounds() {
  sort -n "$2" | awk -v n="$1" '{ w[NR] = $1; u[NR] = $2; m[NR] = $3 }
    END { med = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2
          printf "%-52s %7.2f s wall %7.2f s user %8.0f MB (median of %d: %.2f s)", n, w[1], u[1], m[1] / 1024, NR, med
          print med > "'"$DIR/median"'"; print w[1] > "'"$DIR/wall"'" }'
}

echo "trend bench: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$DIR/timed-$MB.jsonl" > /dev/null
: > "$DIR/report.times"
: > "$DIR/trend.times"
i=0
while [ $i -lt "$PAIR_RUNS" ]; do
  /usr/bin/time -f "%e %U %M" -o "$DIR/time.txt" "$BIN" report '*' "$DIR/timed-$MB.jsonl" -q > "$DIR/report.out" 2> "$DIR/err"
  cat "$DIR/time.txt" >> "$DIR/report.times"
  /usr/bin/time -f "%e %U %M" -o "$DIR/time.txt" "$BIN" trend '*' "$DIR/timed-$MB.jsonl" --current 7d --now $NOW -q \
    > "$DIR/trend.out" 2> "$DIR/err"
  cat "$DIR/time.txt" >> "$DIR/trend.times"
  i=$((i + 1))
done
rounds "report '*' ($MB MB of timed tweets)" "$DIR/report.times"
report=$(cat "$DIR/median") report_best=$(cat "$DIR/wall")
echo "  $(($(wc -l < "$DIR/report.out") - 1)) rows"
rounds "trend '*' --current 7d ($MB MB)" "$DIR/trend.times"
trend=$(cat "$DIR/median") trend_best=$(cat "$DIR/wall")
echo "  $(($(wc -l < "$DIR/trend.out") - 1)) rows"
echo "$trend $report $trend_best $report_best" |
  awk '{ printf "trend / report: %.2fx by the medians, %.2fx by the best times (target at most 1.3x)\n", $1 / $2, $3 / $4 }'

STORE="$DIR/year-$TWEETS.db"
if [ ! -s "$STORE" ] || [ "$(cat "$STORE.done" 2>/dev/null)" != "$TWEETS" ]; then
  DATA="$DIR/year-$TWEETS.jsonl"
  [ -s "$DATA" ] || python3 Benchmarks/trend_data.py --tweets "$TWEETS" --days 365 "$DATA" >&2
  rm -f "$STORE" "$STORE-wal" "$STORE-shm" "$STORE-lock" "$STORE.done"
  /usr/bin/time -f "ingest of $TWEETS tweets: %e s wall" "$BIN" ingest "$DATA" --store "$STORE" -q
  echo "$TWEETS" > "$STORE.done"
fi
stored=$("$BIN" report '*' --store "$STORE" --format json -q --top 1 | sed 's/.*"tweets":\([0-9]*\).*/\1/')
echo "store: $stored tweets of 365 days, $(($(stat -c %s "$STORE") / 1000000)) MB"
for term in '#tag0' '#tag5000'; do
  for window in "--current 7d" "--current 1d --baseline weekago" "--current 1d --baseline mean:28"; do
    # shellcheck disable=SC2086
    best "trend $term --store $window" "$BIN" trend "$term" --store "$STORE" $window --now $NOW
    read_=$(sed -n 's/.*store [^,]*, \([0-9]*\) posts read.*/\1/p' "$DIR/err")
    echo "  $(($(wc -l < "$DIR/out") - 1)) rows, $read_ posts read (target under 1 s)"
  done
done
