#!/usr/bin/env python3
"""The time of each query alone, after one load, in utq (`set timer on`) and in the native
DuckDB CLI (`.timer on`), on the same generated entries, in one run so the machine's noise
falls on both. Also the ratios the language's targets speak of: a window (`let … by`) and a
pivot against `count by` on the same rows.

    python3 bench/queries.py [--size 1m] [--runs 5]
"""
import argparse, os, re, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UTQ = os.path.join(ROOT, ".build", "release", "utq")
DATAGEN = os.path.join(ROOT, ".build", "release", "utq-datagen")

# (name, utq, DuckDB SQL). The table is `e`: time, legend, x, y, angle, note.
# Where the saves write (replaced on each run; not committed).
OUT = os.path.join(ROOT, "bench", "data", "out")

QUERIES = [
    ("count by legend", "count by legend", "SELECT legend, count(*) FROM e GROUP BY ALL"),
    ("count by legend, hour", "count by legend, hour",
     "SELECT legend, hour(time) AS hour, count(*) FROM e GROUP BY ALL"),
    ("let … prev(x) by legend", "let w = prev(x) by legend | count",
     "SELECT count(*) FROM (SELECT lag(x) OVER (PARTITION BY legend ORDER BY rowid) AS w FROM e)"),
    ("let … row_number() by legend", "let w = row_number() by legend | count",
     "SELECT count(*) FROM (SELECT row_number() OVER (PARTITION BY legend ORDER BY rowid) AS w FROM e)"),
    ("let share = x / sum(x) by legend", "let share = x / sum(x) by legend | count",
     "SELECT count(*) FROM (SELECT x / sum(x) OVER (PARTITION BY legend) AS share FROM e)"),
    ("count by legend, hour | pivot hour", "count by legend, hour | pivot hour",
     "PIVOT (SELECT legend, hour(time) AS hour, count(*) AS n FROM e GROUP BY ALL) ON hour USING first(n) GROUP BY legend"),
    ("top 3 by x", "top 3 by x", "SELECT * FROM e ORDER BY x DESC LIMIT 3"),
    ("sort legend, x | count", "sort legend, x | count",
     "SELECT count(*) FROM (SELECT * FROM e ORDER BY legend, x OFFSET 0)"),
    ("where legend = \"Bike\" | avg angle by day", "where legend = \"Bike\" | avg angle by day",
     "SELECT date_trunc('day', time) AS day, avg(angle) FROM e WHERE legend = 'Bike' GROUP BY ALL"),
    # Every operator after load (sort, joins, expressions, quantiles, distinct, text search).
    ("sort legend, x | limit 3", "sort legend, x | limit 3", "SELECT * FROM e ORDER BY legend, x LIMIT 3"),
    ("join k on legend | count by kind", "join k on legend | count by kind",
     "SELECT kind, count(*) FROM e JOIN k USING (legend) GROUP BY ALL"),
    ("let z = x * 2 + y | sum z", "let z = x * 2 + y | sum z", "SELECT sum(x * 2 + y) FROM e"),
    ("median x by legend", "median x by legend", "SELECT legend, median(x) FROM e GROUP BY ALL"),
    ("count distinct note", "count distinct note", "SELECT count(DISTINCT note) FROM e"),
    ("distinct legend, note | count", "distinct legend, note | count",
     "SELECT count(*) FROM (SELECT DISTINCT legend, note FROM e)"),
    # contains ignores case (and accents): ILIKE is the nearest in SQL.
    ("where note contains \"phone\" | count", "where note contains \"phone\" | count",
     "SELECT count(*) FROM e WHERE note ILIKE '%phone%'"),
    # Every row written out: the CSV a user hands on.
    ("save! e.csv", f"save! {OUT}/e.csv", f"COPY e TO '{OUT}/e-duckdb.csv'"),
    ("save! e.ndjson", f"save! {OUT}/e.ndjson", f"COPY e TO '{OUT}/e-duckdb.ndjson'"),
]

# The eight legends of the generated entries, each of a kind: the small side of the join.
KINDS = {"Walking": "moving", "Bike": "moving", "Jogging": "moving", "Skate/scooter": "moving",
         "Stroller": "moving", "Dog walking": "moving", "Standing": "staying", "Sitting": "staying"}


def kinds_file(data):
    path = os.path.join(data, "kinds.csv")
    with open(path, "w") as f:
        f.write("legend,kind\n" + "".join(f"{k},{v}\n" for k, v in KINDS.items()))
    return path


def utq_times(csv, kinds, runs):
    script = f"load {kinds} as k\nload {csv} as e\nuse e\nset timer on\n" + "".join(q + "\n" for _, q, _ in QUERIES for _ in range(runs))
    r = subprocess.run([UTQ, "-c", script], capture_output=True, text=True, env={**os.environ, "TZ": "Europe/Oslo"})
    times = [float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
             for m in re.finditer(r"time: ([0-9.]+) (ms|s)", r.stderr)]
    return [statistics.median(times[k * runs:(k + 1) * runs]) for k in range(len(QUERIES))]


def duckdb_times(csv, kinds, runs):
    lines = ["SET TimeZone = 'Europe/Oslo';", f"CREATE TABLE e AS SELECT * FROM read_csv('{csv}');",
             f"CREATE TABLE k AS SELECT * FROM read_csv('{kinds}');", ".timer on"]
    for _, _, sql in QUERIES:
        lines += [sql + ";"] * runs
    from run import DUCKDB
    r = subprocess.run([DUCKDB or "duckdb"], input="\n".join(lines) + "\n", capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("duckdb: " + r.stderr)
    # The first timed line is the .timer command's neighbour; keep the query lines only.
    times = [float(x) for x in re.findall(r"Run Time \(s\): real ([0-9.]+)", r.stdout)]
    times = times[-len(QUERIES) * runs:]
    return [statistics.median(times[k * runs:(k + 1) * runs]) for k in range(len(QUERIES))]


def table(size, runs):
    """The markdown table of every query at one size, with the ratios' line under it."""
    n = {"100k": 100_000, "1m": 1_000_000, "10m": 10_000_000}[size]
    data = os.path.join(ROOT, "bench", "data")
    os.makedirs(data, exist_ok=True)
    csv = os.path.join(data, f"entries-{size}.csv")
    if not os.path.exists(csv):
        subprocess.run([DATAGEN, "entries", str(n), os.path.join(data, f"entries-{size}.json"), csv], check=True)
    kinds = kinds_file(data)
    os.makedirs(OUT, exist_ok=True)
    mine, theirs = utq_times(csv, kinds, runs), duckdb_times(csv, kinds, runs)
    out = [f"Query times after load, {n:,} entries, medians of {runs} (utq release build; DuckDB CLI):", "",
           "| query | utq | DuckDB CLI | utq/DuckDB |", "|---|---:|---:|---:|"]
    for (name, _, _), u, d in zip(QUERIES, mine, theirs):
        cell = name.replace("|", "\\|")  # a bar inside a cell would end it
        out.append(f"| `{cell}` | {u * 1000:.1f} ms | {d * 1000:.1f} ms | {u / d:.2f} |")
    base = mine[0]
    out += ["", f"Against `count by legend` ({base * 1000:.1f} ms): " + ", ".join(
        f"{name} {t / base:.1f}×" for (name, _, _), t in zip(QUERIES[2:6], mine[2:6]))]
    return "\n".join(out)


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--size", default="1m")
    a.add_argument("--runs", type=int, default=5)
    args = a.parse_args()
    print(table(args.size, args.runs))


if __name__ == "__main__":
    main()
