#!/usr/bin/env python3
"""A ride log of 10M and 100M rows (20 columns, four of them times) loaded whole and asked six
questions: whether 100M rides fit this machine's memory with room to query, and how each
question's time grows with the rows. utq against the native DuckDB CLI in the same run.

    python3 bench/rides_scale.py                        # 10m and 100m, 1 run (about 10 minutes)
    python3 bench/rides_scale.py --sizes 10m --runs 3
    python3 bench/rides_scale.py --whole               # utq holds every column too

The 10M log is the wide rides CSV of bench/run.py (`utq-datagen rides`, 2.1 GB); the 100M
log is its rows ten times over (21 GB; the generator holds a log in memory as it writes, so
it does not make 100M rows itself), written once to bench/data/, not committed. Each tool is
one process: the load (DuckDB: `create table rides as from read_csv(…)`, every column held;
utq, given the commands as a script, reads the columns they name, eight of the twenty, unless
--whole), then the questions, each timed by the tool itself (utq `set timer on`,
DuckDB `.timer on`), and the process's peak resident memory (`/usr/bin/time`). Answers are
summed, so every group is computed, and the two tools' sums are compared.
"""
import os, re, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from run import DUCKDB  # the CLI binary itself, not its Python launcher
from scale import arguments, timed, fmt

UTQ = os.path.join(ROOT, ".build", "release", "utq")
DATAGEN = os.path.join(ROOT, ".build", "release", "utq-datagen")
DATA = os.path.join(ROOT, "bench", "data")
SIZES = {"10m": 10_000_000, "100m": 100_000_000}

# (label, utq, DuckDB SQL); times in Europe/London for both.
QUESTIONS = [
    ("`count by weekday, hour`", "rides | count by weekday, hour | sum count",
     "select sum(c) from (select isodow(requested_at) d, hour(requested_at) h, count(*) c from rides group by all)"),
    ("`count by status`", "rides | count by status | sum count",
     "select sum(c) from (select status, count(*) c from rides group by status)"),
    ("`avg price by driver`", "rides | avg price by driver | sum avg_price",
     "select sum(c) from (select driver, avg(price) c from rides group by driver)"),
    ("`median miles by rider`", "rides | median miles by rider | sum median_miles",
     "select sum(c) from (select rider, median(miles) c from rides group by rider)"),
    ("`where paid | sum price`", "rides | where paid | sum price",
     "select sum(price) from rides where paid"),
    ("`where … | count by pickup_place`",
     'rides | where status = "completed" and miles > 5 | count by pickup_place | sum count',
     "select sum(c) from (select pickup_place, count(*) c from rides where status = 'completed' and miles > 5 group by pickup_place)"),
]


def log(size):
    ten = os.path.join(DATA, "rides-10m", "rides.csv")
    if not os.path.exists(ten):
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "utq-datagen"], cwd=ROOT, check=True)
        subprocess.run([DATAGEN, "rides", os.path.dirname(ten), "10000000", "5000", "8"], check=True, stderr=subprocess.DEVNULL)
    if size == "10m":
        return ten
    path = os.path.join(DATA, "rides-100m", "rides.csv")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "wb") as out, open(ten, "rb") as f:
            header = f.readline()
            out.write(header)
            for _ in range(10):
                f.seek(len(header))
                while chunk := f.read(1 << 24):
                    out.write(chunk)
        os.replace(path + ".tmp", path)
    return path


def numbers(text):
    return [float(v) for v in re.findall(r"^\s*(-?[\d.]+(?:e[+-]?\d+)?)\s*$", text, re.M)]


def utq_run(path, whole):
    script = ["set timer on", f"load {path} as rides", "set timezone Europe/London"] + [q for _, q, _ in QUESTIONS]
    # Commands given as a script make a load read the columns they name; with --interactive
    # (and no terminal, so no prompt opens after them) it reads and holds every column, as
    # DuckDB's table does.
    out, peak = timed([UTQ] + (["--interactive"] if whole else []) + sum((["-c", line] for line in script), []), stdin="")
    times = [float(v) / (1000 if u == "ms" else 1) for v, u in re.findall(r"time: ([\d.]+) (ms|s)\b", out)]
    if len(times) < 1 + len(QUESTIONS):
        sys.exit("utq printed fewer timings than commands:\n" + out[-2000:])
    return times[-(1 + len(QUESTIONS)):], peak, numbers(out)[-len(QUESTIONS):]


def duckdb_run(path):
    sql = ".timer on\nset TimeZone = 'Europe/London';\n" + f"create table rides as from read_csv('{path}');\n"
    sql += "".join(s + ";\n" for _, _, s in QUESTIONS)
    out, peak = timed([DUCKDB, "-list", "-noheader"], stdin=sql)
    times = [float(t) for t in re.findall(r"Run Time \(s\): real ([\d.]+)", out)]
    if len(times) < 1 + len(QUESTIONS):
        sys.exit("DuckDB printed another number of timings:\n" + out[-2000:])
    return times[-(1 + len(QUESTIONS)):], peak, numbers(out)[-len(QUESTIONS):]


def main():
    args = arguments(__doc__, "10m,100m", 1, [("--whole", "utq holds every column, as DuckDB's table does "
                                                           "(by default it reads the columns the questions name)")])
    total = int(open("/proc/meminfo").read().split()[1]) / 1024
    labels = ["load"] + [label for label, _, _ in QUESTIONS]
    rows, per_row = [], {}
    for size in args.sizes.split(","):
        path, n = log(size), SIZES[size]
        mine, theirs, mine_peak, their_peak = [], [], [], []
        for _ in range(args.runs):
            t, p, a = utq_run(path, args.whole); mine.append(t); mine_peak.append(p)
            t, p, b = duckdb_run(path); theirs.append(t); their_peak.append(p)
            for (label, _, _), x, y in zip(QUESTIONS, a, b):
                if abs(x - y) > 1e-6 * max(1, abs(y)):
                    print(f"warning: {label} at {size}: utq {x} against DuckDB {y}", file=sys.stderr)
        for k, label in enumerate(labels):
            u = statistics.median(r[k] for r in mine)
            d = statistics.median(r[k] for r in theirs)
            per_row[(label, size)] = u / n
            rows.append(f"| {label} | {size} | {fmt(u)} | {fmt(d)} | {u / d:.2f} |")
        um, dm = statistics.median(mine_peak), statistics.median(their_peak)
        rows.append(f"| peak memory (of {total / 1024:.0f} GB) | {size} | {um:,.0f} MB | {dm:,.0f} MB | {um / dm:.2f} |")
        print("\n".join(rows[-len(labels) - 1:]), flush=True)
    text = ["| work | rows | utq | DuckDB CLI | utq/DuckDB |", "|---|---|---:|---:|---:|"] + rows
    if ("load", "10m") in per_row and ("load", "100m") in per_row:
        text += ["", "Time per row at 100m against 10m: " + ", ".join(
            f"{label} {per_row[(label, '100m')] / per_row[(label, '10m')]:.2f}×" for label in labels)]
    print("\n" + "\n".join(text))


if __name__ == "__main__":
    main()
