#!/usr/bin/env python3
"""How cost grows with the rows: a load and five questions over many keys at 1M, 10M, 50M
and 100M rows, utq against the native DuckDB CLI in the same run, time and peak memory.

    python3 bench/scale.py                          # 1m,10m (a few minutes)
    python3 bench/scale.py --sizes 1m,10m,50m,100m  # about half an hour; 100M rows need ~12 GB here

Per size N, `utq-datagen keys` writes (once, to bench/data/keys/, not committed) the rows
`a` (N rows: k one of N/10 ids, so ten rows an id; k2 one of 1,000; v with two decimals) and
the table `b` (N/10 rows, each id once, in another order). Each tool runs as one process:
both loads, then the questions, each timed by the tool itself (utq `set timer on`, DuckDB
`.timer on`), and the whole process's peak resident memory (`/usr/bin/time`). The questions'
results are used (summed), so DuckDB cannot drop the aggregate. Runs alternate between the
tools; medians.
"""
import argparse, os, re, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "bench", "data", "keys")
UTQ = os.path.join(ROOT, ".build", "release", "utq")
DATAGEN = os.path.join(ROOT, ".build", "release", "utq-datagen")
sys.path.insert(0, os.path.join(ROOT, "bench"))
from run import DUCKDB  # the CLI binary itself, not its Python launcher

SIZES = {"1m": 1_000_000, "10m": 10_000_000, "50m": 50_000_000, "100m": 100_000_000}

# (label, utq, DuckDB SQL): each answer summed, so every group's value is computed.
QUESTIONS = [
    ("`count by k`", "a | count by k | sum count",
     "select sum(c) from (select k, count(*) c from a group by k)"),
    ("`count distinct k2 by k`", "a | count distinct k2 by k | sum distinct_k2",
     "select sum(c) from (select k, count(distinct k2) c from a group by k)"),
    ("`median v by k`", "a | median v by k | sum median_v",
     "select sum(c) from (select k, median(v) c from a group by k)"),
    ("`avg v by k`", "a | avg v by k | sum avg_v",
     "select sum(c) from (select k, avg(v) c from a group by k)"),
    ("`join b on k` (N/10 ids)", "a | join b on k | sum b.v",
     "select sum(b.v) from a join b on a.k = b.k"),
]


def files(n):
    os.makedirs(DATA, exist_ok=True)
    a = os.path.join(DATA, f"scale-a-{n}.csv")
    b = os.path.join(DATA, f"scale-b-{n}.csv")
    if not os.path.exists(a):
        subprocess.run([DATAGEN, "keys", str(n), str(max(1, n // 10)), a, "1"], check=True)
    if not os.path.exists(b):
        subprocess.run([DATAGEN, "keys", str(max(1, n // 10)), str(max(1, n // 10)), b, "2"], check=True)
    return a, b


def timed(command, stdin=None):
    """Runs a process under /usr/bin/time; its output and peak memory in MB."""
    p = subprocess.run(["/usr/bin/time", "-f", "peak %M"] + command, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{command[0]} failed:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    peak = int(re.search(r"peak (\d+)", p.stderr).group(1)) / 1024
    return p.stdout + p.stderr, peak


def utq_run(a, b):
    script = ["set timer on", f"load {a} as a", f"load {b} as b"] + [q for _, q, _ in QUESTIONS]
    out, peak = timed([UTQ] + sum((["-c", line] for line in script), []))
    times = []
    for value, unit in re.findall(r"time: ([\d.]+) (ms|s)\b", out):
        times.append(float(value) / 1000 if unit == "ms" else float(value))
    if len(times) < 2 + len(QUESTIONS):
        sys.exit("utq printed fewer timings than commands:\n" + out[-2000:])
    times = times[-(2 + len(QUESTIONS)):]
    return [times[0] + times[1]] + times[2:], peak


def duckdb_run(a, b):
    sql = ".timer on\n" + f"create table a as from read_csv('{a}');\ncreate table b as from read_csv('{b}');\n"
    sql += "".join(s + ";\n" for _, _, s in QUESTIONS)
    out, peak = timed([DUCKDB], stdin=sql)
    times = [float(t) for t in re.findall(r"Run Time \(s\): real ([\d.]+)", out)]
    if len(times) != 2 + len(QUESTIONS):
        sys.exit("DuckDB printed another number of timings:\n" + out[-2000:])
    return [times[0] + times[1]] + times[2:], peak


def fmt(seconds):
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def arguments(doc, sizes, runs, flags=()):
    """The command line of a benchmark over sizes (--sizes, --runs, and the benchmark's own
    switches: (name, help) pairs); it needs the DuckDB CLI."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default=sizes)
    ap.add_argument("--runs", type=int, default=runs)
    for name, text in flags:
        ap.add_argument(name, action="store_true", help=text)
    args = ap.parse_args()
    if not DUCKDB:
        sys.exit("the DuckDB CLI is not installed (pip install duckdb-cli)")
    return args


def main():
    args = arguments(__doc__, "1m,10m", 3)
    labels = ["load both files"] + [label for label, _, _ in QUESTIONS]
    rows, per_row = [], {}
    for size in args.sizes.split(","):
        n = SIZES[size]
        a, b = files(n)
        mine, theirs, mine_peak, their_peak = [], [], [], []
        for _ in range(args.runs):
            t, p = utq_run(a, b); mine.append(t); mine_peak.append(p)
            t, p = duckdb_run(a, b); theirs.append(t); their_peak.append(p)
        for k, label in enumerate(labels):
            u = statistics.median(r[k] for r in mine)
            d = statistics.median(r[k] for r in theirs)
            per_row[(label, size)] = u / n
            rows.append(f"| {label} | {size} | {fmt(u)} | {fmt(d)} | {u / d:.2f} |")
        rows.append(f"| peak memory | {size} | {statistics.median(mine_peak):.0f} MB | {statistics.median(their_peak):.0f} MB | "
                    f"{statistics.median(mine_peak) / statistics.median(their_peak):.2f} |")
        print("\n".join(rows[-len(labels) - 1:]), flush=True)
    table = ["| work | rows | utq | DuckDB CLI | utq/DuckDB |", "|---|---|---:|---:|---:|"] + rows
    sizes = args.sizes.split(",")
    growth = []
    if "10m" in sizes and len(sizes) > 1:
        for s in sizes:
            if SIZES[s] > SIZES["10m"]:
                growth.append(f"Time per row at {s} against 10m: " + ", ".join(
                    f"{label} {per_row[(label, s)] / per_row[(label, '10m')]:.2f}×" for label in labels))
    text = "\n".join(table + [""] + growth)
    print("\n" + text)


if __name__ == "__main__":
    main()
