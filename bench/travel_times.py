#!/usr/bin/env python3
"""The routing benchmark: travel times (RAPTOR) from one stop over a generated grid town of
about 500,000 stop times (bench/gtfs_grid.py, written to bench/data/ once), each command's
time by `set timer on` in one session after one load, medians over the runs. The day's
departures alone (the calendar, the join of stop times with the day's trips) are timed too,
since every travel time starts from them.

    python3 bench/travel_times.py [--runs 9]
"""
import argparse, os, re, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UTQ = os.path.join(ROOT, ".build", "release", "utq")
FEED = os.path.join(ROOT, "bench", "data", "gtfs-grid")

COMMANDS = [
    ("the day's departures", 'feed | departures on 2026-03-03 | count'),
    ("travel times from one stop at 08:00", 'feed | travel times from S20_20 at "08:00" on 2026-03-03 | count'),
    ("… from a corner, walks up to 450 m", 'feed | travel times from S00_00 at "08:00" on 2026-03-03 walk 450 m | count'),
    ("… until 09:00", 'feed | travel times from S20_20 at "08:00" on 2026-03-03 until "09:00" | count'),
    ("… over a window of 30 minutes", 'feed | travel times from S20_20 between "08:00" and "08:30" on 2026-03-03 | count'),
]


def seconds(value, unit):
    return float(value) / (1000 if unit == "ms" else 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    a = ap.parse_args()
    if not os.path.exists(UTQ):
        sys.exit("build utq first: swift build -c release")
    if not os.path.exists(os.path.join(FEED, "stop_times.txt")):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gtfs_grid.py"), FEED], check=True)
    script = f"load {FEED} as feed\nset timer on\n" + "".join(c + "\n" for _, c in COMMANDS for _ in range(a.runs))
    r = subprocess.run([UTQ], input=script, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        sys.exit(r.stderr)
    times = [seconds(v, u) for v, u in re.findall(r"time: ([0-9.]+) (ms|s)", r.stderr)]
    counts = re.findall(r"^ *([0-9,]+)\s*$", r.stdout, re.M)
    print(f"| command | median | fastest | rows |\n|---|---:|---:|---:|")
    for k, (name, command) in enumerate(COMMANDS):
        runs = times[k * a.runs:(k + 1) * a.runs]
        print(f"| {name}: `{command}` | {statistics.median(runs) * 1000:.0f} ms | {min(runs) * 1000:.0f} ms | {counts[k * a.runs]} |")


if __name__ == "__main__":
    main()
