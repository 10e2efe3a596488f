#!/usr/bin/env bash
# Loading compressed and split files against the plain file: a generated ride log (1M rows by
# default, the wide rides CSV of bench/run.py) as CSV, as .csv.gz (gzip -6), as .csv.zst
# (zstd -3), and split into one file per day loaded by a pattern. Each is a whole process
# (start, load, exit) under /usr/bin/time; the figures are medians of RUNS runs taken in turn,
# so a noisy minute falls on all of them. Then each asked `count by status` (utq loading the
# status column with the time), against the native DuckDB CLI's read_csv in the same runs.
#
#   bench/compressed.sh                 1M rides, 5 runs
#   ROWS=10000000 RUNS=3 bench/compressed.sh
#   NO_BUILD=1 bench/compressed.sh      use the release build as it is
#
# Targets (issue 32): a .csv.gz load holds at most the plain load's peak memory + 64 MB;
# its time at most 1.3 × the plain load's (decompressing alone is the floor: see the last
# line; gzip -dc is zlib's inflate, which utq no longer uses).
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS="${ROWS:-1000000}"
RUNS="${RUNS:-5}"
DATA="bench/data/rides-$((ROWS / 1000))k"
UTQ=.build/release/utq
if [ -z "${NO_BUILD:-}" ]; then
  swift build -c release --static-swift-stdlib --product utq >/dev/null
  swift build -c release --static-swift-stdlib --product utq-datagen >/dev/null
fi
if [ ! -f "$DATA/rides.csv" ]; then
  echo "generating $ROWS rides in $DATA ..." >&2
  users=$(( ROWS / 2000 > 40 ? ROWS / 2000 : 40 ))
  .build/release/utq-datagen rides "$DATA" "$ROWS" "$users" 8 2>/dev/null
fi
[ -f "$DATA/rides.csv.gz" ] || gzip -6 -k "$DATA/rides.csv"
[ -f "$DATA/rides.csv.zst" ] || zstd -q -3 -k "$DATA/rides.csv"
if [ ! -d "$DATA/days" ]; then
  mkdir -p "$DATA/days"
  # One file per day of requested_at (the fifth column), each with the header.
  awk -F, -v dir="$DATA/days" 'NR == 1 { header = $0; next }
    { f = dir "/" substr($5, 1, 10) ".csv"; if (!(f in seen)) { print header > f; seen[f] = 1 } print > f }' "$DATA/rides.csv"
fi
days=$(ls "$DATA/days" | wc -l)

declare -A label=(
  [plain]="load rides.csv"
  [gz]="load rides.csv.gz"
  [zst]="load rides.csv.zst"
  [days]="load \"days/*.csv\" ($days files)"
)
declare -A command=(
  [plain]="load $DATA/rides.csv"
  [gz]="load $DATA/rides.csv.gz"
  [zst]="load $DATA/rides.csv.zst"
  [days]="load \"$DATA/days/*.csv\" as rides"
)
# The same files asked one question, utq against the native DuckDB CLI (when installed).
declare -A question=(
  [plain]="$DATA/rides.csv"
  [gz]="$DATA/rides.csv.gz"
  [zst]="$DATA/rides.csv.zst"
  [days]="$DATA/days/*.csv"
)
DUCKDB=$(python3 -c "import duckdb_cli, os; print(os.path.join(os.path.dirname(duckdb_cli.__file__), 'duckdb'))" 2>/dev/null || true)
[ -x "$DUCKDB" ] || DUCKDB=""
order=(plain gz zst days)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((run = 1; run <= RUNS; run++)); do
  for k in "${order[@]}"; do
    /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$UTQ" -c "${command[$k]}" >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
    read -r elapsed rss user sys <"$tmp/time"
    echo "$elapsed" >>"$tmp/$k.time"
    echo "$rss" >>"$tmp/$k.rss"
    echo "$user $sys" | awk '{ print $1 + $2 }' >>"$tmp/$k.cpu"
    /usr/bin/time -f "%e" -o "$tmp/time" "$UTQ" -c "load \"${question[$k]}\" as rides" -c "rides | count by status" >/dev/null 2>"$tmp/err" \
      || { cat "$tmp/err"; exit 1; }
    cat "$tmp/time" >>"$tmp/$k.qtime"
    if [ -n "$DUCKDB" ]; then
      /usr/bin/time -f "%e" -o "$tmp/time" "$DUCKDB" -c \
        "select status, count(*) from read_csv('${question[$k]}', union_by_name = true) group by all" >/dev/null 2>"$tmp/err" \
        || { cat "$tmp/err"; exit 1; }
      cat "$tmp/time" >>"$tmp/$k.duck"
    fi
  done
done
# The floor for each compression: decompressing alone, to /dev/null.
for ((run = 1; run <= RUNS; run++)); do
  /usr/bin/time -f "%e" -o "$tmp/time" gzip -dc "$DATA/rides.csv.gz" >/dev/null; cat "$tmp/time" >>"$tmp/gunzip.time"
  /usr/bin/time -f "%e" -o "$tmp/time" zstd -dcq "$DATA/rides.csv.zst" >/dev/null; cat "$tmp/time" >>"$tmp/unzstd.time"
done
median() { sort -g "$1" | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
plain_time=$(median "$tmp/plain.time")
plain_rss=$(median "$tmp/plain.rss")
size() { stat -c %s "$1" | awk '{ printf "%.0f MB", $1 / 1048576 }'; }
printf "%s rows, %s runs each (medians), %s cores\n\n" "$ROWS" "$RUNS" "$(nproc)"
printf "| %-32s | %8s | %8s | %8s | %10s | %10s | %12s |\n" what file time "× plain" "CPU (s)" "peak RSS" "RSS − plain"
printf "|%s|%s|%s|%s|%s|%s|%s|\n" "----------------------------------" "----------" "----------" "----------" "------------" "------------" "--------------"
for k in "${order[@]}"; do
  t=$(median "$tmp/$k.time"); r=$(median "$tmp/$k.rss"); c=$(median "$tmp/$k.cpu")
  case $k in plain) f="$DATA/rides.csv" ;; gz) f="$DATA/rides.csv.gz" ;; zst) f="$DATA/rides.csv.zst" ;; days) f="$DATA/rides.csv" ;; esac
  printf "| %-32s | %8s | %7.2f s | %8.2f | %10.2f | %7.0f MB | %+9.0f MB |\n" "${label[$k]}" "$(size "$f")" "$t" \
    "$(awk -v a="$t" -v b="$plain_time" 'BEGIN { print a / b }')" "$c" "$(awk -v r="$r" 'BEGIN { print r / 1024 }')" \
    "$(awk -v r="$r" -v p="$plain_rss" 'BEGIN { print (r - p) / 1024 }')"
done
printf "\ndecompressing alone: gzip -dc %.2f s, zstd -dc %.2f s\n" "$(median "$tmp/gunzip.time")" "$(median "$tmp/unzstd.time")"
printf "\nload and count by status, utq against the DuckDB CLI (read_csv, union_by_name), medians:\n\n"
printf "| %-32s | %8s | %10s | %10s |\n" what utq "DuckDB" "utq/DuckDB"
printf "|%s|%s|%s|%s|\n" "----------------------------------" "----------" "------------" "------------"
for k in "${order[@]}"; do
  u=$(median "$tmp/$k.qtime")
  if [ -n "$DUCKDB" ]; then
    d=$(median "$tmp/$k.duck")
    printf "| %-32s | %6.2f s | %8.2f s | %10.2f |\n" "${label[$k]}" "$u" "$d" "$(awk -v a="$u" -v b="$d" 'BEGIN { print a / b }')"
  else
    printf "| %-32s | %6.2f s | %10s | %10s |\n" "${label[$k]}" "$u" "-" "-"
  fi
done
