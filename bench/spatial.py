#!/usr/bin/env python3
"""utq's spatial joins against PostGIS on the same rows, in the same run: points in zones
(`join zones on within` against ST_Within) and points near stops (`join stops within 400 m`
against ST_DWithin on geography, metres on the spheroid as utq's geodesic metres), each a
count of the joined rows, which must be equal.

    python3 bench/spatial.py [--points 1000000] [--runs 5] [--joins within,near]

The rows come from bench/spatial_data.py (made once in bench/data/spatial/): N points, 10,000
zones (WKT polygons, 900 with a hole) and 100,000 stops around Oslo's centre.

What each figure holds:
- utq, join: the pipeline's own time after both tables are loaded (`set timer on`): making
  the positions, building the R-tree of the right side's boxes, probing it and testing each
  candidate exactly, gathering the joined rows, counting them.
- utq, whole process: `utq -c 'load …; load …; … | count'` from start to exit: both CSVs
  read, the zones' WKT parsed, the join.
- PostGIS, query: psql's `\\timing` of the SELECT alone, sent in a session that has already
  loaded PostGIS's library, against tables already loaded and indexed (GiST on each geometry
  and on each point table's geometry cast to geography) and analyzed; JIT off (--jit leaves
  it on), the server's default parallelism kept (two workers per query beside the leader).
  The points-in-zones join is timed in two forms: as written, and with the zones driving the
  loop (PostGIS's faster form). The time to make the tables (COPY, the GiST builds, ANALYZE)
  is measured once and printed beside.

Runs are interleaved (utq, PostGIS, utq, PostGIS …) so a noisy minute falls on both; figures
are medians. Needs PostgreSQL 15 with PostGIS (Debian: postgresql-15-postgis-3) and the
release build of utq; run as root, the server runs as the postgres user.
"""
import argparse, os, re, statistics, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from postgres import server  # noqa: E402
import spatial_data  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UTQ = os.environ.get("UTQ_BIN") or os.path.join(ROOT, ".build", "release", "utq")

# (key, what, utq pipeline, PostGIS's forms of it: (how, SQL)). `{points}`, `{zones}`,
# `{stops}` are the files. The points-in-zones join is also sent written so that the zones
# drive the loop (LATERAL: each zone looks up its points in the points' index, so PostGIS
# tests one polygon against many points in a row): 3 to 5 times faster than the plain form,
# for which the planner puts the points on the outer side. For stops the plain form
# is PostGIS's faster (the stops driving the loop took 1.7 × as long at 100,000 points).
JOINS = {
    "within": ("points in zones", "load {points} as points; load {zones} as zones; set timer on; points | join zones on within | count",
               [("`JOIN zones ON ST_Within`", "SELECT count(*) FROM points p JOIN zones z ON ST_Within(p.geom, z.geom)"),
                ("zones driving the loop (`LATERAL`)",
                 "SELECT count(*) FROM zones z CROSS JOIN LATERAL (SELECT 1 FROM points p WHERE ST_Within(p.geom, z.geom) OFFSET 0) x")]),
    "near": ("points within 400 m of stops", "load {points} as points; load {stops} as stops; set timer on; points | join stops within 400 m | count",
             [("`JOIN stops ON ST_DWithin(geography)`",
               "SELECT count(*) FROM points p JOIN stops s ON ST_DWithin(p.geom::geography, s.geom::geography, 400)")]),
}
# Context only: the same 400 m as degrees of latitude on the plane of lng/lat (an ellipse on
# the ground, half as wide east–west at 60° N), so its count differs.
DEGREES = "SELECT count(*) FROM points p JOIN stops s ON ST_DWithin(p.geom, s.geom, 400 / 111320.0)"


def psql_session(folder, lines):
    """Sends lines to one psql session; its output."""
    r = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-h", folder, "-U", "postgres", "-d", "bench", "-v", "ON_ERROR_STOP=1"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("psql: " + r.stderr)
    return r.stdout


def setup(folder, points, zones, stops):
    """The three tables, loaded with COPY, indexed and analyzed: the seconds each step took."""
    subprocess.run(["psql", "-X", "-q", "-h", folder, "-U", "postgres", "-c", "CREATE DATABASE bench"], check=True)
    psql_session(folder, ["CREATE EXTENSION postgis;",
                          "CREATE TABLE points (id bigint, lng float8, lat float8, "
                          "geom geometry(Point,4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lng, lat), 4326)) STORED);",
                          "CREATE TABLE zones (id int, kind text, geom geometry(Polygon,4326));",
                          "CREATE TABLE stops (id int, lat float8, lng float8, "
                          "geom geometry(Point,4326) GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint(lng, lat), 4326)) STORED);"])
    steps = [("COPY points", f"\\copy points (id, lng, lat) from '{points}' csv header"),
             ("COPY zones", f"\\copy zones (id, kind, geom) from '{zones}' csv header"),
             ("COPY stops", f"\\copy stops (id, lat, lng) from '{stops}' csv header"),
             ("GiST points", "CREATE INDEX ON points USING gist (geom);"),
             ("GiST zones", "CREATE INDEX ON zones USING gist (geom);"),
             ("GiST stops", "CREATE INDEX ON stops USING gist (geom);"),
             ("GiST points::geography", "CREATE INDEX ON points USING gist ((geom::geography));"),
             ("GiST stops::geography", "CREATE INDEX ON stops USING gist ((geom::geography));"),
             ("ANALYZE", "VACUUM ANALYZE points, zones, stops;")]
    took = {}
    for name, sql in steps:
        t = time.perf_counter()
        psql_session(folder, [sql])
        took[name] = time.perf_counter() - t
    return took


def postgis(folder, sql, jit=False):
    """One session: PostGIS's library loaded first, then the query timed alone: (count, seconds).
    JIT is off unless asked: PostgreSQL 15 compiles these plans for 0.5 to 0.9 s (their cost
    estimates are large) and gains nothing in a loop of index scans."""
    out = psql_session(folder, ([] if jit else ["SET jit = off;"]) + ["SELECT postgis_lib_version();", "\\timing on", sql + ";"])
    count = int(out.strip().splitlines()[1])
    ms = float(re.search(r"Time: ([0-9.]+) ms", out).group(1))
    return count, ms / 1000


def utq(script):
    """One process: (count, the pipeline's own seconds, the whole process's seconds, peak MB)."""
    t = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", UTQ, "-c", script], capture_output=True, text=True)
    whole = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit("utq: " + r.stderr)
    m = re.findall(r"time: ([0-9.]+) (ms|s)", r.stderr)
    own = float(m[-1][0]) / (1000 if m[-1][1] == "ms" else 1)
    # The count is the line under the table's rule.
    lines = r.stdout.splitlines()
    count = int(lines[next(k for k, l in enumerate(lines) if l.startswith("─")) + 1].strip().replace(",", ""))
    peak = int(r.stderr.strip().splitlines()[-1]) / 1024
    return count, own, whole, peak


def explain(folder, sql):
    """The plan's lines, to see which index each join uses."""
    return [l for l in psql_session(folder, ["EXPLAIN " + sql + ";"]).splitlines() if l.strip()]


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--points", type=int, default=1_000_000)
    a.add_argument("--runs", type=int, default=5)
    a.add_argument("--joins", default="within,near")
    a.add_argument("--seed", type=int, default=35)
    a.add_argument("--jit", action="store_true", help="leave PostgreSQL's JIT on (its default)")
    a.add_argument("--no-degrees", action="store_true", help="leave out the geometry-in-degrees query (context only)")
    args = a.parse_args()
    joins = [j for j in args.joins.split(",") if j]
    points, zones, stops = spatial_data.files(args.points, args.seed)
    files = {"points": points, "zones": zones, "stops": stops}
    folder, stop = server()
    try:
        print(f"loading {args.points:,} points, 10,000 zones and 100,000 stops into PostGIS …", file=sys.stderr)
        took = setup(folder, points, zones, stops)
        invalid = psql_session(folder, ["SELECT count(*) FROM zones WHERE NOT ST_IsValid(geom);"]).strip()
        version = psql_session(folder, ["SELECT 'PostgreSQL ' || split_part(version(), ' ', 2) || ', PostGIS ' || postgis_lib_version() "
                                        "|| ', GEOS ' || postgis_geos_version();"]).strip()
        print(f"{version}; invalid zones: {invalid}", file=sys.stderr)
        print("PostGIS's tables (once): " + ", ".join(f"{k} {v:.2f} s" for k, v in took.items()), file=sys.stderr)
        for j in joins:
            for how, sql in JOINS[j][2]:
                print(f"plan of {j}, {how}: " + " / ".join(l.strip() for l in explain(folder, sql)), file=sys.stderr)
        figures = {j: {"utq": [], "whole": [], "peak": [], "pg": [[] for _ in JOINS[j][2]], "counts": set()} for j in joins}
        degrees, loads = [], []
        for run in range(args.runs):
            loads.append(os.getloadavg()[0])
            for j in joins:
                _, script, forms = JOINS[j]
                n, own, whole, peak = utq(script.format(**files))
                f = figures[j]
                f["utq"].append(own); f["whole"].append(whole); f["peak"].append(peak); f["counts"].add(("utq", n))
                said = []
                for k, (how, sql) in enumerate(forms):
                    m, t = postgis(folder, sql, args.jit)
                    f["pg"][k].append(t); f["counts"].add((how, m))
                    said.append(f"{t:.3f} s, count {m:,}")
                print(f"run {run + 1}, {j}: utq {own:.3f} s (whole {whole:.3f} s, {peak:.0f} MB), count {n:,}; "
                      f"PostGIS {'; '.join(said)}; load {loads[-1]:.1f}", file=sys.stderr)
            if "near" in joins and not args.no_degrees:
                degrees.append(postgis(folder, DEGREES, args.jit))
        print(f"{args.points:,} points, medians of {args.runs}, load average {min(loads):.1f}–{max(loads):.1f} ({version}"
              f"{', JIT on' if args.jit else ', JIT off'}):")
        print()
        print("| join | joined rows | utq, join | PostGIS, query | utq/PostGIS | utq, whole process | utq peak memory |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        ok = True
        for j in joins:
            f = figures[j]
            counts = {n for _, n in f["counts"]}
            if len(counts) != 1:
                ok = False
                print(f"COUNTS DIFFER for {j}: {sorted(f['counts'])}", file=sys.stderr)
            u = statistics.median(f["utq"])
            for k, (how, _) in enumerate(JOINS[j][2]):
                p = statistics.median(f["pg"][k])
                print(f"| {JOINS[j][0]}; PostGIS: {how} | {' / '.join(f'{n:,}' for n in sorted(counts))} | {u:.2f} s | {p:.2f} s | {u / p:.2f} | "
                      f"{statistics.median(f['whole']):.2f} s | {max(f['peak']):.0f} MB |")
        print()
        if degrees:
            print(f"PostGIS on geometry in degrees (`ST_DWithin(p.geom, s.geom, 400 / 111320.0)`, an ellipse on the ground, so "
                  f"another count): {degrees[0][0]:,} rows, {statistics.median(t for _, t in degrees):.2f} s.")
        print("PostGIS's tables, made once: " + ", ".join(f"{k} {v:.2f} s" for k, v in took.items()) + ".")
        sys.exit(0 if ok else 1)
    finally:
        stop()


if __name__ == "__main__":
    main()
