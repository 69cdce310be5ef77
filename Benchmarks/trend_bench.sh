#!/bin/sh
# SPEC §14's bench: `trend '*' --current 7d` against `report '*'` on the same
# timed tweets (MB of them, default 500), then `trend '#tag' --store` on a
# store of those tweets. Release build; prints wall, user time and peak memory
# of each run, and the rows written, so a fast wrong answer shows.
set -eu
MB=${MB:-500}
DIR=${BENCH_TREND_DIR:-.build/bench-trend}
BIN=${SMASHTAG:-.build/release/smashtag}
mkdir -p "$DIR"
[ -s "$DIR/timed-$MB.jsonl" ] || python3 Benchmarks/trend_data.py "$MB" "$DIR/timed-$MB.jsonl"
cat "$DIR/timed-$MB.jsonl" > /dev/null
for run in 1 2 3; do
  /usr/bin/time -f "report '*'            %e s wall %U s user %M KB" "$BIN" report '*' "$DIR/timed-$MB.jsonl" -q > "$DIR/report.csv"
  /usr/bin/time -f "trend '*' --current 7d %e s wall %U s user %M KB" "$BIN" trend '*' "$DIR/timed-$MB.jsonl" \
    --current 7d --now 2020-03-08T10:00:00Z -q > "$DIR/trend.csv"
done
echo "rows: report $(wc -l < "$DIR/report.csv"), trend $(wc -l < "$DIR/trend.csv")"
rm -f "$DIR/store.db"
/usr/bin/time -f "ingest %e s" "$BIN" ingest "$DIR/timed-$MB.jsonl" --store "$DIR/store.db" -q
for term in '#tag0' '#tag5000'; do
  /usr/bin/time -f "trend $term --store %e s" "$BIN" trend "$term" --store "$DIR/store.db" --current 7d --now 2020-03-08T10:00:00Z -q > /dev/null
  /usr/bin/time -f "report $term --store %e s" "$BIN" report "$term" --store "$DIR/store.db" -q > /dev/null
done
