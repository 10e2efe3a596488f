#!/usr/bin/env python3
"""utq on an attached PostgreSQL against psql sending the same SQL, on a throwaway server:
`count by` two keys over generated rides (the query utq compiles), and `save to` of a loaded
table (a new table) and `save append to` (an existing one) against psql's `\\copy` of the same CSV.

    python3 bench/postgres.py [--rows 10000000] [--save-rows 1000000] [--runs 5]

Needs PostgreSQL's server programs (Debian: postgresql) and the release build of utq. Run
as root, the server runs as the postgres user (initdb refuses root).
"""
import argparse, glob, os, re, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UTQ = os.path.join(ROOT, ".build", "release", "utq")
DATA = os.path.join(ROOT, "bench", "data")


def server():
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]
    folder = tempfile.mkdtemp(prefix="utq-bench-pg-")
    as_pg = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    if as_pg:
        shutil.chown(folder, "postgres")
    subprocess.run(as_pg + [f"{bins}/initdb", "-D", f"{folder}/data", "-A", "trust", "-U", "postgres", "--no-sync"], check=True, capture_output=True)
    subprocess.run(as_pg + [f"{bins}/pg_ctl", "-D", f"{folder}/data", "-l", f"{folder}/log", "-w", "-o",
                            f"-k {folder} -c listen_addresses='' -c fsync=off -c shared_buffers=1GB", "start"], check=True, capture_output=True)
    stop = lambda: (subprocess.run(as_pg + [f"{bins}/pg_ctl", "-D", f"{folder}/data", "-m", "immediate", "stop"], capture_output=True),
                    shutil.rmtree(folder, ignore_errors=True))
    return folder, stop


def psql(folder, sql, db="bench"):
    return subprocess.run(["psql", "-X", "-q", "-h", folder, "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1", "-c", sql],
                          check=True, capture_output=True, text=True).stdout


def timed(cmd, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--rows", type=int, default=10_000_000)
    a.add_argument("--save-rows", type=int, default=1_000_000)
    a.add_argument("--runs", type=int, default=5)
    args = a.parse_args()
    folder, stop = server()
    try:
        subprocess.run(["psql", "-X", "-q", "-h", folder, "-U", "postgres", "-c", "CREATE DATABASE bench"], check=True)
        print(f"making {args.rows:,} rides in PostgreSQL …", file=sys.stderr)
        psql(folder, f"""CREATE TABLE rides AS SELECT i AS ride_id,
            TIMESTAMPTZ '2020-02-17' + (i * INTERVAL '7 seconds') AS requested_at,
            (ARRAY['completed','cancelled','declined','requested'])[1 + i % 4] AS status, (i % 97) / 10.0 AS price
            FROM generate_series(1, {args.rows}) AS i""")
        psql(folder, "VACUUM ANALYZE rides")
        uri = f"postgresql:///bench?host={folder}&user=postgres"
        pipeline = "db.rides | count by weekday(requested_at), hour(requested_at)"
        explain = subprocess.run([UTQ, "-c", f"attach {uri} as db; explain {pipeline}"], check=True, capture_output=True, text=True).stdout
        # The SQL as explain lays it out: the indented lines after its heading.
        block = explain.split("SQL sent to db:\n", 1)[1].splitlines()
        sql = " ".join(line.strip() for line in block[:next((k for k, line in enumerate(block) if not line.startswith("  ")), len(block))])
        utq_count = timed([UTQ, "-c", f"attach {uri} as db; {pipeline}"], args.runs)
        psql_count = timed(["psql", "-X", "-q", "-h", folder, "-U", "postgres", "-d", "bench", "-c", sql], args.runs)
        print(f"| `{pipeline}` on {args.rows:,} rows | {utq_count * 1000:.0f} ms | {psql_count * 1000:.0f} ms | {utq_count / psql_count:.2f} |")

        # save to: the same CSV through utq (load + COPY) and psql's \copy.
        csv = os.path.join(DATA, "rides-1m", "rides.csv")
        n = args.save_rows
        part = os.path.join(DATA, f"rides-save-{n}.csv")
        if not os.path.exists(part):
            with open(csv) as src, open(part, "w") as dst:
                for k, line in enumerate(src):
                    if k > n:
                        break
                    dst.write(line)
        create = ("CREATE TABLE IF NOT EXISTS r (ride_id bigint, driver text, rider text, status text, requested_at timestamptz, "
                  "accepted_at timestamptz, picked_up_at timestamptz, dropped_off_at timestamptz, pickup_place text, pickup_lat float8, "
                  "pickup_lng float8, dropoff_place text, dropoff_lat float8, dropoff_lng float8, miles float8, rate_per_mile float8, "
                  "cheapest_rate float8, fee_percent bigint, price float8, paid boolean)")
        utq_times, psql_times, load_times = [], [], []
        for _ in range(args.runs):
            t = time.perf_counter()
            subprocess.run([UTQ, "-c", f"load {part} as r; attach {uri} as db; r | save! to db.r"], check=True, capture_output=True)
            utq_times.append(time.perf_counter() - t)
            t = time.perf_counter()
            subprocess.run([UTQ, "-c", f"load {part} as r"], check=True, capture_output=True)
            load_times.append(time.perf_counter() - t)
            psql(folder, "DROP TABLE IF EXISTS r; " + create)
            t = time.perf_counter()
            subprocess.run(["psql", "-X", "-q", "-h", folder, "-U", "postgres", "-d", "bench", "-c", f"\\copy r from '{part}' csv header"], check=True)
            psql_times.append(time.perf_counter() - t)
        u, p, l = statistics.median(utq_times), statistics.median(psql_times), statistics.median(load_times)
        print(f"| `save to` {n:,} rides (load + COPY) | {u * 1000:.0f} ms (load alone {l * 1000:.0f} ms) | {p * 1000:.0f} ms | {u / p:.2f} |")

        # save append to: the same CSV added to an existing table (emptied before each run, so
        # both add to a table of the same size) through utq and psql's \copy.
        psql(folder, "DROP TABLE IF EXISTS a; " + create.replace(" r (", " a ("))
        utq_times, psql_times = [], []
        for _ in range(args.runs):
            psql(folder, "TRUNCATE a; CHECKPOINT")
            t = time.perf_counter()
            subprocess.run([UTQ, "-c", f"load {part} as r; attach {uri} as db; r | save append to db.a"], check=True, capture_output=True)
            utq_times.append(time.perf_counter() - t)
            appended = int(psql(folder, "SELECT count(*) FROM a").split()[2])
            assert appended == n, f"save append added {appended:,} rows, not {n:,}"
            psql(folder, "TRUNCATE a; CHECKPOINT")
            t = time.perf_counter()
            subprocess.run(["psql", "-X", "-q", "-h", folder, "-U", "postgres", "-d", "bench", "-c", f"\\copy a from '{part}' csv header"], check=True)
            psql_times.append(time.perf_counter() - t)
        u, p = statistics.median(utq_times), statistics.median(psql_times)
        print(f"| `save append to` {n:,} rides (load + COPY) | {u * 1000:.0f} ms (load alone {l * 1000:.0f} ms) | {p * 1000:.0f} ms | {u / p:.2f} |")
    finally:
        stop()


if __name__ == "__main__":
    main()
