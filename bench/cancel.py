#!/usr/bin/env python3
"""How long Ctrl-C takes to stop utq in the middle of heavy work: `count by` over 10M rows
with 1M different text keys, and a sort of 10M rows by text. Each command is started, given
time to be well inside its work, sent SIGINT, and timed until utq reports "cancelled" and
exits. Target: under 0.5 s.

    python3 bench/cancel.py [--rows 10000000] [--keys 1000000] [--runs 3]
"""
import argparse, os, signal, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UTQ = os.path.join(ROOT, ".build", "release", "utq")


def data(path, rows, keys):
    if os.path.exists(path):
        return
    print(f"writing {path} ({rows:,} rows, {keys:,} keys) ...", file=sys.stderr)
    with open(path + ".tmp", "w") as f:
        f.write("k,x\n")
        chunk = []
        for i in range(rows):
            chunk.append(f"key-{(i * 7919) % keys:07d},{i % 1000}\n")
            if len(chunk) == 100000:
                f.write("".join(chunk))
                chunk = []
        f.write("".join(chunk))
    os.rename(path + ".tmp", path)


def latency(path, command, into):
    """Starts utq on the file, waits until the load is done and the command has run for
    `into` seconds, sends SIGINT and returns the seconds until utq exits."""
    p = subprocess.Popen([UTQ, "-c", f"load {path}; {command}"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    # The load's summary line on stderr says the command has started.
    line = p.stderr.readline()
    while line and not line.startswith("big"):
        line = p.stderr.readline()
    time.sleep(into)
    if p.poll() is not None:
        return None  # finished before the signal: nothing to measure
    sent = time.perf_counter()
    p.send_signal(signal.SIGINT)
    rest = p.stderr.read()
    p.wait()
    took = time.perf_counter() - sent
    if "cancelled" not in rest:
        print(f"  {command}: no 'cancelled' message: {rest.strip()[:200]}", file=sys.stderr)
    return took


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--rows", type=int, default=10_000_000)
    a.add_argument("--keys", type=int, default=1_000_000)
    a.add_argument("--runs", type=int, default=3)
    a.add_argument("--no-build", action="store_true")
    args = a.parse_args()
    if not args.no_build:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "utq"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    os.makedirs(os.path.join(ROOT, "bench", "data"), exist_ok=True)
    path = os.path.join(ROOT, "bench", "data", f"big-{args.rows}-{args.keys}.csv")
    data(path, args.rows, args.keys)
    print(f"Ctrl-C latency, {args.rows:,} rows, {args.keys:,} different keys (seconds from SIGINT to exit):")
    for command in ["count by k", "sort k | limit 1", "count by k, x", "sort k desc, x | limit 3"]:
        times = []
        for r in range(args.runs):
            for into in (0.2, 0.6):
                t = latency(path, command, into)
                if t is not None:
                    times.append(t)
        if times:
            times.sort()
            print(f"  {command:40s} median {times[len(times)//2]:.3f}  worst {times[-1]:.3f}  ({len(times)} runs)")
        else:
            print(f"  {command:40s} finished before any signal could reach it")


if __name__ == "__main__":
    main()
