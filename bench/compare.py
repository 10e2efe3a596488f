#!/usr/bin/env python3
"""This utq against another build of it (an earlier commit), in one run so the machine's noise
falls on both: whole-process loads of every shape of the entries and of the wide rides, and
each query of bench/queries.py alone after one load. Prints each figure for both and the
ratio this / baseline; a change is no worse where the ratios stay near 1.

    git worktree add ../utq-base COMMIT && (cd ../utq-base && swift build -c release --product utq)
    python3 bench/compare.py --baseline ../utq-base/.build/release/utq [--size 1m] [--runs 5]
"""
import argparse, os, statistics, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as bench  # noqa: E402  (the data and the load commands)
import queries  # noqa: E402  (the queries after one load)


def load_commands(utq, paths):
    count = "count by legend, hour"
    work = [(f"load {shape}", f"{utq} -c {bench.q(f'load {paths[shape]}; set timezone Europe/Oslo; {count}')}")
            for shape in ("oneline", "pretty", "csv", "ndjson")]
    rides = paths["rides"]
    work.append(("load wide rides", f"{utq} -c {bench.q(f'load {rides}; set timezone Europe/London; count by weekday, hour')}"))
    return work


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", required=True, help="the other utq binary")
    ap.add_argument("--size", default="1m")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    this, base = bench.UTQ, os.path.abspath(args.baseline)
    paths = bench.data(args.size)
    print(f"# {args.size}, {args.runs} runs each, in turn; medians", file=sys.stderr)
    rows = []
    mine_loads, theirs_loads = load_commands(this, paths), load_commands(base, paths)
    for (name, a), (_, b) in zip(mine_loads, theirs_loads):
        ta, tb = [], []
        for _ in range(args.runs):
            ta.append(bench.run_once(a))
            tb.append(bench.run_once(b))
        rows.append((name, statistics.median(ta), statistics.median(tb)))
    kinds = queries.kinds_file(bench.DATA)
    qa, qb = [], []
    for _ in range(2):
        queries.UTQ = this
        qa.append(queries.utq_times(paths["csv"], kinds, args.runs))
        queries.UTQ = base
        qb.append(queries.utq_times(paths["csv"], kinds, args.runs))
    for k, (name, _, _) in enumerate(queries.QUERIES):
        rows.append((name, min(r[k] for r in qa), min(r[k] for r in qb)))
    width = max(len(r[0]) for r in rows)
    print(f"{'work'.ljust(width)}  {'this':>9}  {'baseline':>9}  ratio")
    for name, a, b in rows:
        print(f"{name.ljust(width)}  {fmt(a):>9}  {fmt(b):>9}  {a / b:5.2f}")


def fmt(s):
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"


if __name__ == "__main__":
    main()
