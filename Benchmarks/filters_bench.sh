#!/bin/sh
# The figures of SPEC §12's options (issue 13), on a release build, over the
# bench's generated stream (`smashtag-bench generate`, stream.jsonl):
#
#   plain       report '#stanford' (and '*') as before           target: within 3% of the build before
#   columns     --columns term,type,mention,display,count,originals,retweets,authors
#                                                                 target <= 1.3 x plain
#   since/until a window of the stream (FILTER_BENCH_WINDOW)      target <= 1.1 x plain
#   store       bytes a tweet with spellings, language and kind  target <= 90
#   memory      peak RSS of '*' with authors                      target <= 200 MB (on 500 MB)
#
#   FILTER_BENCH_DATA   the generated folder [default .build/bench-data]
#   FILTER_BENCH_RUNS   timed runs of each row, alternating [default 5]
#   FILTER_BENCH_BASE   an older smashtag to time the plain rows against (optional)
#   FILTER_BENCH_WINDOW "SINCE UNTIL" [default: 2026-11-29T00:02:00Z 2026-11-29T00:04:00Z,
#                       a slice of the generator's clock, which starts 2026-11-29T00:00:00Z]
#
# Rows print the answer's size (rows of CSV) beside the times, so a fast
# wrong answer shows; times are medians of the runs (wall and CPU seconds).
set -eu
cd "$(dirname "$0")/.."
DATA=${FILTER_BENCH_DATA:-.build/bench-data}
RUNS=${FILTER_BENCH_RUNS:-5}
WINDOW=${FILTER_BENCH_WINDOW:-"2026-11-29T00:02:00Z 2026-11-29T00:04:00Z"}
SINCE=${WINDOW% *}
UNTIL=${WINDOW#* }
BIN=${FILTER_BENCH_BIN:-.build/release/smashtag}
IN="$DATA/stream.jsonl"
[ -s "$IN" ] || { echo "filters_bench: no $IN: run smashtag-bench generate --out $DATA first" >&2; exit 1; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
COLS=term,type,mention,display,count,originals,retweets,authors

# row NAME BINARY ARGS...: one line in $OUT/NAME.cmd, run by the rounds below.
rows=""
row() {
  name=$1; shift
  printf '%s\n' "$@" > "$OUT/$name.cmd"
  rows="$rows $name"
}
if [ -n "${FILTER_BENCH_BASE:-}" ]; then
  row base-tag "$FILTER_BENCH_BASE" report '#stanford' "$IN" --format csv --min-count 1 -q
  row base-all "$FILTER_BENCH_BASE" report '*' "$IN" --format csv --min-count 1 -q
fi
row plain-tag "$BIN" report '#stanford' "$IN" --format csv --min-count 1 -q
row plain-all "$BIN" report '*' "$IN" --format csv --min-count 1 -q
row columns-tag "$BIN" report '#stanford' "$IN" --format csv --min-count 1 -q --columns "$COLS"
row columns-all "$BIN" report '*' "$IN" --format csv --min-count 1 -q --columns "$COLS"
row window-tag "$BIN" report '#stanford' "$IN" --format csv --min-count 1 -q --since "$SINCE" --until "$UNTIL"
row authors-all "$BIN" report '*' "$IN" --format csv --min-count 1 -q --columns term,type,mention,count,authors

i=0
while [ $i -le "$RUNS" ]; do
  for name in $rows; do
    set --
    while IFS= read -r a; do set -- "$@" "$a"; done < "$OUT/$name.cmd"
    /usr/bin/time -f "%e %U %S %M" -o "$OUT/t" "$@" > "$OUT/$name.csv" 2>/dev/null
    # The first round warms the page cache and is not counted.
    [ $i -gt 0 ] && awk '{print $1, $2 + $3, $4}' "$OUT/t" >> "$OUT/$name.times"
    wc -l < "$OUT/$name.csv" > "$OUT/$name.rows"
  done
  i=$((i + 1))
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
wallm() { cut -d' ' -f1 < "$OUT/$1.times" | median; }
cpum() { cut -d' ' -f2 < "$OUT/$1.times" | median; }
rss() { cut -d' ' -f3 < "$OUT/$1.times" | sort -n | tail -1; }

echo "filters bench: $(du -m "$IN" | cut -f1) MB, $RUNS runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %8s %8s %9s %8s  %s\n' row "wall s" "cpu s" "peak MiB" ratio rows
for name in $rows; do
  case $name in
    base-*|plain-*) ref="" ;;
    *-tag) ref=plain-tag ;;
    *-all) ref=plain-all ;;
  esac
  case $name in plain-tag) [ -n "${FILTER_BENCH_BASE:-}" ] && ref=base-tag ;; plain-all) [ -n "${FILTER_BENCH_BASE:-}" ] && ref=base-all ;; esac
  ratio=""
  [ -n "$ref" ] && ratio=$(echo "$(wallm "$name") $(wallm "$ref")" | awk '{printf "%.3f", $1 / $2}')
  printf '%-14s %8.2f %8.2f %9d %8s  %s\n' "$name" "$(wallm "$name")" "$(cpum "$name")" "$(( $(rss "$name") / 1024 ))" \
    "$ratio" "$(cat "$OUT/$name.rows")"
done

STORE="$OUT/store.db"
"$BIN" ingest "$IN" --store "$STORE" -q
tweets=$("$BIN" report '*' --store "$STORE" --format json -q --top 1 | sed 's/.*"tweets":\([0-9]*\).*/\1/')
bytes=$(stat -c %s "$STORE")
printf '%-14s %s bytes a tweet (%s tweets, %s bytes; target <= 90)\n' store "$(echo "$bytes $tweets" | awk '{printf "%.1f", $1 / $2}')" \
  "$tweets" "$bytes"
