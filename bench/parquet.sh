#!/usr/bin/env bash
# Parquet against the native DuckDB CLI, in one run: 10M rides written by pyarrow (Snappy,
# pyarrow's defaults otherwise: row groups of 1Mi rows, dictionaries), then
#   first question:  utq -c 'load F; count by status'   vs  duckdb -c "select status, count(*) from 'F' group by 1"
#   two questions:   the same twice in one process (utq reads the status column once; DuckDB
#                    reads the file for each), and status then driver
#   every column:    utq -c 'load F as rides; rides | where ride_id < 0' (a result of every
#                    column) vs duckdb -c "create table t as from 'F'; select * from t where ride_id < 0"
#   save:            utq -c 'load F; save! out.parquet' vs  duckdb -c "COPY (from 'F') TO 'out.parquet' (FORMAT parquet)"
# Each is a whole process; hyperfine when installed (medians of its runs), else the median of
# RUNS runs (default 5), the tools taking turns so a noisy minute falls on both. The file is
# made once, in bench/data/ (not committed). A file this large is loaded from its footer and
# each column read when a question first needs it, as DuckDB reads only the columns a query
# names; utq keeps what it read for the questions after.
#
#   bench/parquet.sh             # 10M rides
#   ROWS=1000000 bench/parquet.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS="${ROWS:-10000000}"
RUNS="${RUNS:-5}"
DATA=bench/data
FILE="$DATA/rides-$ROWS.parquet"
OUT="$DATA/parquet-out"
mkdir -p "$DATA" "$OUT"

DUCKDB=$(python3 - <<'PY'
import os, shutil
try:
    import duckdb_cli
    p = os.path.join(os.path.dirname(duckdb_cli.__file__), "duckdb")
    print(p if os.access(p, os.X_OK) else shutil.which("duckdb") or "")
except ImportError:
    print(shutil.which("duckdb") or "")
PY
)
[ -n "$DUCKDB" ] || { echo "the DuckDB CLI is needed: pip install duckdb-cli"; exit 1; }

[ -n "${NO_BUILD:-}" ] || swift build -c release --static-swift-stdlib --product utq
UTQ=.build/release/utq

if [ ! -f "$FILE" ]; then
  echo "writing $ROWS rides to $FILE with pyarrow ..."
  python3 - "$FILE" "$ROWS" <<'PY'
import sys
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

path, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(7)
people = np.array([f"{a}.{b}" for a in ["lily", "liam", "holly", "dan", "amir", "sara", "noah", "emma", "olga", "kofi"]
                   for b in "abcdefghijklmnopqrstuvwxyz"] * 4)
people = np.array([f"{p}{i // 260 or ''}" for i, p in enumerate(people)])
places = np.array(["Barton Seagrave", "Rothwell", "Railway station", "Kettering centre", "Burton Latimer", "Desborough",
                   "Geddington", "Broughton", "Cranford", "Pytchley", "Isham", "Wicksteed Park"])
status = rng.choice(np.array(["completed", "cancelled", "declined", "requested"]), n, p=[0.7, 0.12, 0.1, 0.08])
start = np.int64(1_577_836_800_000_000)  # 2020-01-01
requested = start + np.sort(rng.integers(0, 365 * 86_400_000_000, n))
accepted = requested + rng.integers(30_000_000, 600_000_000, n)
miles = np.round(rng.gamma(2.0, 2.5, n), 1)
rate = np.round(rng.choice([0.4, 0.45, 0.5, 0.55, 0.65, 0.8], n), 2)
price = np.round(miles * rate * 1.1, 2)
ts = pa.timestamp("us", tz="UTC")
table = pa.table({
    "ride_id": pa.array(np.arange(1, n + 1, dtype=np.int64)),
    "driver": pa.array(people[rng.integers(0, len(people), n)]),
    "rider": pa.array(people[rng.integers(0, len(people), n)]),
    "status": pa.array(status),
    "requested_at": pa.array(requested, ts),
    "accepted_at": pa.array(accepted, ts, mask=status == "requested"),
    "pickup_place": pa.array(places[rng.integers(0, len(places), n)]),
    "dropoff_place": pa.array(places[rng.integers(0, len(places), n)]),
    "pickup_lat": pa.array(52.35 + rng.random(n) * 0.1),
    "pickup_lng": pa.array(-0.75 + rng.random(n) * 0.1),
    "miles": pa.array(miles),
    "rate_per_mile": pa.array(rate),
    "price": pa.array(price),
    "paid": pa.array(status == "completed"),
})
pq.write_table(table, path, compression="snappy")
PY
fi
ls -l "$FILE"

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc -l; }

compare() {  # name, utq command, duckdb command
  local name=$1 u=$2 d=$3
  local ut=() dt=()
  if command -v hyperfine >/dev/null; then
    local json="$OUT/hyperfine.json"
    hyperfine --style none --warmup 1 --runs "$RUNS" --export-json "$json" -n utq "$u" -n duckdb "$d" >/dev/null
    mapfile -t ut < <(python3 -c 'import json,sys; print("\n".join(map(str, json.load(open(sys.argv[1]))["results"][0]["times"])))' "$json")
    mapfile -t dt < <(python3 -c 'import json,sys; print("\n".join(map(str, json.load(open(sys.argv[1]))["results"][1]["times"])))' "$json")
  else
    for _ in $(seq "$RUNS"); do
      ut+=("$(seconds bash -c "$u")")
      dt+=("$(seconds bash -c "$d")")
    done
  fi
  local um dm
  um=$(printf '%s\n' "${ut[@]}" | median); dm=$(printf '%s\n' "${dt[@]}" | median)
  printf '%-22s utq %6.3f s   DuckDB %6.3f s   utq/DuckDB %.2f   (medians of %s; load average %s)\n' \
    "$name" "$um" "$dm" "$(echo "$um / $dm" | bc -l)" "$RUNS" "$(cut -d' ' -f1 /proc/loadavg)"
}

# The answers first: the same counts from both.
"$UTQ" -c "load $FILE; count by status | sort status" | tail -n +1
"$DUCKDB" -c "select status, count(*) from '$FILE' group by 1 order by 1"

Q="select status, count(*) from '$FILE' group by 1"
compare "first question" "$UTQ -c 'load $FILE; count by status'" "$DUCKDB -c \"$Q\""
# A second question on the same column reads nothing; on another, that column.
compare "the same twice" "$UTQ -c 'load $FILE; count by status; count by status'" "$DUCKDB -c \"$Q; $Q\""
compare "status, then driver" "$UTQ -c 'load $FILE; count by status; count by driver'" \
  "$DUCKDB -c \"$Q; select driver, count(*) from '$FILE' group by 1\""
# Every column read: a result that shows them all (no rows), DuckDB holding them all too.
compare "every column" "$UTQ -c 'load $FILE as rides; rides | where ride_id < 0'" \
  "$DUCKDB -c \"create table t as from '$FILE'; select * from t where ride_id < 0\""
compare "save" "$UTQ -c 'load $FILE; save! $OUT/utq.parquet'" \
  "$DUCKDB -c \"COPY (from '$FILE') TO '$OUT/duckdb.parquet' (FORMAT parquet)\""
ls -l "$OUT"
