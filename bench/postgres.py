#!/usr/bin/env python3
"""utq on an attached PostgreSQL against psql sending the same SQL, on a throwaway server:
`count by` two keys over generated rides (the query utq compiles), and `save to` of a loaded
table (a new table) and `save append to` (an existing one) against psql's `\\copy` of the same CSV.
Then utq alone: `db.rides | limit 3` (the whole
process within 0.5 s and 100 MB), and every row of two columns under `set memory-limit
200MB`, which must stop with the estimate quickly, the result within the limit (the process
holds its own start beside it). Last, the same rides over two shards against one server.

    python3 bench/postgres.py [--rows 10000000] [--save-rows 1000000] [--runs 5] [--only-limits]

Needs PostgreSQL's server programs (Debian: postgresql) and the release build of utq. Run
as root, the server runs as the postgres user (initdb refuses root).
"""
import argparse, glob, os, re, resource, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UTQ = os.environ.get("UTQ_BIN") or os.path.join(ROOT, ".build", "release", "utq")
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


def measured(cmd):
    """Runs a command alone: its wall time in seconds, its peak resident memory in MB (as
    /usr/bin/time -v reports it), its exit code and output."""
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    lines = p.stderr.strip().splitlines()
    kb = int(lines[-1]) if lines and lines[-1].isdigit() else resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, kb / 1024, p.returncode, p.stdout + "\n".join(lines[:-1])


def limits(uri, rows, runs):
    """`limit 3` and a full select under a memory limit, each as a whole process."""
    ok = True
    cmd = [UTQ, "-c", f"attach {uri} as db; db.rides | limit 3"]
    results = [measured(cmd) for _ in range(runs)]
    t = statistics.median(r[0] for r in results)
    mb = max(r[1] for r in results)
    if any(r[2] != 0 for r in results):
        print(results[0][3], file=sys.stderr)
        ok = False
    good = t < 0.5 and mb < 100
    ok = ok and good
    print(f"| `db.rides \\| limit 3` on {rows:,} rows | {t * 1000:.0f} ms | {mb:.0f} MB | < 500 ms, < 100 MB: {'yes' if good else 'NO'} |")
    cmd = [UTQ, "-c", f"attach {uri} as db; set memory-limit 200MB; db.rides | select ride_id, price"]
    results = [measured(cmd) for _ in range(runs)]
    t = statistics.median(r[0] for r in results)
    mb = max(r[1] for r in results)
    said = results[0][3]
    stopped = all(r[2] != 0 and "does not fit in the memory a result may take" in r[3] and "expects about" in r[3] for r in results)
    # The limit is what a result may take, as for a load; the process holds its own start
    # (the peak of `limit 3` above) beside it.
    base = max(r[1] for r in [measured([UTQ, "-c", f"attach {uri} as db; db.rides | limit 3"])])
    good = stopped and mb < 200 + base
    ok = ok and good
    print(f"| `set memory-limit 200MB; db.rides \\| select ride_id, price` on {rows:,} rows | {t * 1000:.0f} ms | {mb:.0f} MB | "
          f"stops with the estimate, < 200 MB + utq's own {base:.0f} MB: {'yes' if good else 'NO'} |")
    message = next((l.strip() for l in said.splitlines() if "does not fit" in l), said.strip()[:400])
    print(f"  {message}")
    return ok


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--rows", type=int, default=10_000_000)
    a.add_argument("--save-rows", type=int, default=1_000_000)
    a.add_argument("--runs", type=int, default=5)
    a.add_argument("--only-limits", action="store_true", help="only the limit 3 and memory-limit figures")
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
        print("| work | whole process | peak memory | target |")
        print("|---|---:|---:|---|")
        ok = limits(uri, args.rows, args.runs)
        if args.only_limits:
            sys.exit(0 if ok else 1)
        print()
        pipeline = "db.rides | count by weekday(requested_at), hour(requested_at)"
        explain = subprocess.run([UTQ, "-c", f"attach {uri} as db; explain {pipeline}"], check=True, capture_output=True, text=True).stdout
        # The SQL is laid out over indented lines.
        sent = explain.split("SQL sent to db:\n", 1)[1].splitlines()
        sql = "\n".join(l[2:] for l in sent[:next((k for k, l in enumerate(sent) if not l.startswith("  ")), len(sent))])
        utq_count = timed([UTQ, "-c", f"attach {uri} as db; {pipeline}"], args.runs)
        psql_count = timed(["psql", "-X", "-q", "-h", folder, "-U", "postgres", "-d", "bench", "-c", sql], args.runs)
        print(f"| `{pipeline}` on {args.rows:,} rows | {utq_count * 1000:.0f} ms | {psql_count * 1000:.0f} ms | {utq_count / psql_count:.2f} |")

        # save to: the same CSV through utq (load + COPY) and psql's \copy.
        csv = os.path.join(DATA, "rides-1m", "rides.csv")
        if not os.path.exists(csv):
            print(f"save to: {csv} is made by bench/run.py; left out", file=sys.stderr)
            return
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
        sharded(args, folder, uri)
    finally:
        stop()


def sharded(args, folder, single_uri):
    """The same rides hash-partitioned by driver over two other servers (postgres_fdw), against
    the one server: a one-day count by hour (the day's range is sent to the shards) and a count
    (one number from each shard)."""
    shards = [server() for _ in range(2)]
    try:
        cols = "ride_id int, driver text, status text, requested_at timestamptz, price numeric(8,2)"
        setup = ["CREATE EXTENSION postgres_fdw", f"CREATE TABLE rides ({cols}) PARTITION BY HASH (driver)",
                 "ALTER DATABASE sharded SET enable_partitionwise_aggregate = on"]
        for k, (shard, _) in enumerate(shards):
            subprocess.run(["psql", "-X", "-q", "-h", shard, "-U", "postgres", "-c", "CREATE DATABASE sharded"], check=True)
            psql(shard, f"CREATE TABLE rides ({cols})", db="sharded")
            setup += [f"CREATE SERVER shard{k} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '{shard}', dbname 'sharded', async_capable 'true', batch_size '10000')",
                      f"CREATE USER MAPPING FOR postgres SERVER shard{k} OPTIONS (user 'postgres')",
                      f"CREATE FOREIGN TABLE rides_{k} PARTITION OF rides FOR VALUES WITH (MODULUS 2, REMAINDER {k}) SERVER shard{k} OPTIONS (table_name 'rides')"]
        subprocess.run(["psql", "-X", "-q", "-h", folder, "-U", "postgres", "-c", "CREATE DATABASE sharded"], check=True)
        psql(folder, "; ".join(setup), db="sharded")
        print(f"making {args.rows:,} rides over two shards …", file=sys.stderr)
        psql(folder, f"""INSERT INTO rides SELECT i, 'driver' || (i % 50), (ARRAY['completed','cancelled','declined','requested'])[1 + i % 4],
            TIMESTAMPTZ '2020-02-17' + (i * INTERVAL '7 seconds'), (i % 97) / 10.0 FROM generate_series(1, {args.rows}) AS i""", db="sharded")
        for shard, _ in shards:
            psql(shard, "VACUUM ANALYZE rides", db="sharded")
        sharded_uri = f"postgresql:///sharded?host={folder}&user=postgres"
        for pipeline in ['db.rides | where day(requested_at) = "2020-02-18" | count by hour(requested_at)', "db.rides | count"]:
            one = timed([UTQ, "-c", f"set timezone UTC; attach {single_uri} as db; {pipeline}"], args.runs)
            two = timed([UTQ, "-c", f"set timezone UTC; attach {sharded_uri} as db; {pipeline}"], args.runs)
            print(f"| `{pipeline}` on {args.rows:,} rows, two shards | {two * 1000:.0f} ms | one server {one * 1000:.0f} ms | {two / one:.2f} |")
    finally:
        for _, stop in shards:
            stop()


if __name__ == "__main__":
    main()
