#!/usr/bin/env python3
"""utq's benchmark: whole-process load-and-count against the native DuckDB CLI (and sqlite3,
Miller, jq when installed) on the same generated files in every shape a user hands us, peak
memory, and start-up. The time of each query alone after one load is bench/queries.py.

    python3 bench/run.py                      # 1M entries, 5 runs each
    python3 bench/run.py --sizes 1m,10m       # and 10M (about 6 GB of files, made once)
    python3 bench/run.py --update-readme      # write the table into bench/README.md

Peers run when installed: `pip install duckdb-cli` (the real binary, not its Python launcher);
`pip install duckdb` adds the Python module as a second row (`--peers duckdb,duckdb-py`);
`apt-get install sqlite3 miller jq`. Figures are medians; ratios are utq's time divided by
the peer's, from the same run.
"""
import argparse, json, os, platform, re, shutil, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "bench", "data")
UTQ = os.path.join(ROOT, ".build", "release", "utq")
DATAGEN = os.path.join(ROOT, ".build", "release", "utq-datagen")
SIZES = {"100k": 100_000, "1m": 1_000_000, "10m": 10_000_000}


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=isinstance(cmd, str), check=True, **kw)


def build():
    sh(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "utq"], cwd=ROOT)
    sh(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "utq-datagen"], cwd=ROOT)


def duckdb_binary():
    """The DuckDB CLI itself. `pip install duckdb-cli` puts a Python launcher on PATH (about
    0.1 s of interpreter start-up per run) and the real binary inside its package."""
    try:
        import duckdb_cli
        path = os.path.join(os.path.dirname(duckdb_cli.__file__), "duckdb")
        if os.access(path, os.X_OK):
            return path
    except ImportError:
        pass
    path = shutil.which("duckdb")
    if path:
        with open(path, "rb") as f:
            if f.read(4) == b"\x7fELF":
                return path
    return None


DUCKDB = duckdb_binary()


def derive(array_path, shape, out):
    """The other JSON shapes from the generator's array (one object per line): one line,
    pretty-printed as `json.dump(indent=2)` writes it, and NDJSON."""
    tmp = out + ".part"
    with open(array_path) as src, open(tmp, "w") as dst:
        first = True
        if shape == "oneline":
            dst.write("[")
        elif shape == "pretty":
            dst.write("[\n")
        for line in src:
            line = line.strip().rstrip(",")
            if line in ("[", "]", ""):
                continue
            if shape == "ndjson":
                dst.write(line + "\n")
                continue
            if not first:
                dst.write("," if shape == "oneline" else ",\n")
            first = False
            if shape == "oneline":
                dst.write(line)
            else:
                dst.write("\n".join("  " + l for l in json.dumps(json.loads(line), indent=2).splitlines()))
        if shape == "oneline":
            dst.write("]")
        elif shape == "pretty":
            dst.write("\n]\n")
    os.replace(tmp, out)


def data(size):
    """{shape: path} for one size, made once."""
    n = SIZES[size]
    os.makedirs(DATA, exist_ok=True)
    paths = {"array": os.path.join(DATA, f"entries-{size}.json"), "csv": os.path.join(DATA, f"entries-{size}.csv")}
    if not (os.path.exists(paths["array"]) and os.path.exists(paths["csv"])):
        print(f"generating {n:,} entries …", file=sys.stderr)
        sh([DATAGEN, "entries", str(n), paths["array"], paths["csv"]])
    for shape, name in (("oneline", f"entries-{size}-oneline.json"), ("pretty", f"entries-{size}-pretty.json"),
                        ("ndjson", f"entries-{size}.ndjson")):
        paths[shape] = os.path.join(DATA, name)
        if not os.path.exists(paths[shape]):
            print(f"writing {name} …", file=sys.stderr)
            derive(paths["array"], shape, paths[shape])
    rides_dir = os.path.join(DATA, f"rides-{size}")
    paths["rides"] = os.path.join(rides_dir, "rides.csv")
    if not os.path.exists(paths["rides"]):
        print(f"generating {n:,} rides …", file=sys.stderr)
        users = max(40, n // 2000)
        sh([DATAGEN, "rides", rides_dir, str(n), str(users), "8"], stderr=subprocess.DEVNULL)
    return paths


def run_once(cmd):
    t = time.perf_counter()
    r = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(f"failed: {cmd}\n{r.stderr.decode()[-500:]}")
    return elapsed


def peak_kb(cmd):
    """The peak memory (KB) of one run under /usr/bin/time."""
    if not os.path.exists("/usr/bin/time"):
        return None
    r = subprocess.run(f"/usr/bin/time -f '%M' {cmd}", shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    last = r.stderr.decode().strip().splitlines()[-1:]
    return int(last[0]) if last and last[0].isdigit() else None


def timed(cmd, runs):
    """Median wall time over runs, and the peak memory (KB) of one more run."""
    return statistics.median(run_once(cmd) for _ in range(runs)), peak_kb(cmd)


def timed_together(cmds, runs):
    """Median wall times of several commands, run in turn (a, b, c, a, b, c, …) so that a
    noisy minute on a shared machine falls on all of them alike. A command slower than five
    seconds is run three times at most."""
    times = {tool: [] for tool in cmds}
    failed = set()
    for r in range(runs):
        for tool, cmd in cmds.items():
            if tool in failed or (r >= 3 and times[tool] and times[tool][0] > 5):
                continue
            try:
                times[tool].append(run_once(cmd))
            except RuntimeError as e:
                print(e, file=sys.stderr)
                failed.add(tool)
    return {tool: statistics.median(ts) for tool, ts in times.items() if ts and tool not in failed}


def have(tool):
    if tool == "duckdb":
        return DUCKDB is not None
    if tool == "duckdb-py":
        return subprocess.run([sys.executable, "-c", "import duckdb"], capture_output=True).returncode == 0
    return shutil.which({"miller": "mlr"}.get(tool, tool)) is not None


def q(s):
    return "'" + s.replace("'", "'\\''") + "'"


def duck(sql, zone="Europe/Oslo"):
    return f"{DUCKDB} :memory: -c {q(f'''SET TimeZone='{zone}'; {sql}''')}"


def duck_py(sql, zone="Europe/Oslo"):
    code = f"import duckdb; c = duckdb.connect(); c.sql(\"SET TimeZone='{zone}'\"); c.sql({sql!r}).fetchall()"
    return f"{sys.executable} -c {q(code)}"


def commands(p):
    """The work: (name, path, {tool: command})."""
    w = []
    jq_program = q('reduce .[] as $e ({}; .[$e.legend + " " + $e.time[11:13]] += 1)')
    mlr_bike = q('$legend == "Bike"')
    count = "count by legend, hour"
    bike = 'where legend = "Bike" | avg angle by day'
    count_sql = "select legend, hour(time), count(*) from {read} group by all"
    for shape, label in (("oneline", "JSON on one line"), ("pretty", "JSON pretty-printed"), ("ndjson", "NDJSON")):
        path = p[shape]
        read = f"read_json('{path}')"
        cmds = {
            "utq": f"{UTQ} -c {q(f'load {path}; set timezone Europe/Oslo; {count}')}",
            "duckdb": duck(count_sql.format(read=read)),
            "duckdb-py": duck_py(count_sql.format(read=read)),
        }
        if shape != "ndjson":
            cmds["sqlite3"] = f"sqlite3 :memory: {q(f'''select json_extract(value, '$.legend'), substr(json_extract(value, '$.time'), 12, 2), count(*) from json_each(readfile('{path}')) group by 1, 2''')}"
            cmds["jq"] = f"jq {jq_program} {path}"
        cmds["miller"] = f"mlr --ijson --ocsv put {q('$h = substr($time, 11, 12)')} then count -g legend,h {path}"
        w.append((f"{label} + {count}", path, cmds))
    csv = p["csv"]
    read = f"read_csv('{csv}')"
    w.append((f"CSV + {count}", csv, {
        "utq": f"{UTQ} -c {q(f'load {csv}; set timezone Europe/Oslo; {count}')}",
        "duckdb": duck(count_sql.format(read=read)),
        "duckdb-py": duck_py(count_sql.format(read=read)),
        "sqlite3": f"sqlite3 :memory: -cmd '.mode csv' -cmd {q(f'.import {csv} t')} {q('select legend, substr(time, 12, 2), count(*) from t group by 1, 2')}",
        "miller": f"mlr --icsv --ocsv put {q('$h = substr($time, 11, 12)')} then count -g legend,h {csv}",
    }))
    bike_sql = f"select date_trunc('day', time)::varchar d, avg(angle) from {read} where legend = 'Bike' group by all"
    w.append(("CSV + Bike avg angle by day", csv, {
        "utq": f"{UTQ} -c {q(f'load {csv}; set timezone Europe/Oslo; {bike}')}",
        "duckdb": duck(bike_sql),
        "duckdb-py": duck_py(bike_sql),
        "sqlite3": f"sqlite3 :memory: -cmd '.mode csv' -cmd {q(f'.import {csv} t')} {q('''select substr(time, 1, 10), avg(nullif(angle, '')) from t where legend = 'Bike' group by 1''')}",
        "miller": f"mlr --icsv --ocsv filter {mlr_bike} then put {q('$d = substr($time, 0, 9)')} then stats1 -a mean -f angle -g d {csv}",
    }))
    rides = p["rides"]
    rides_sql = f"select dayname(requested_at), hour(requested_at), count(*) from read_csv('{rides}') group by all"
    w.append(("wide rides CSV (4 timestamps) + count by weekday, hour", rides, {
        "utq": f"{UTQ} -c {q(f'load {rides}; set timezone Europe/London; count by weekday, hour')}",
        "duckdb": duck(rides_sql, "Europe/London"),
        "duckdb-py": duck_py(rides_sql, "Europe/London"),
    }))
    return w


def machine():

    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(next(l for l in f if l.startswith("MemTotal")).split()[1])
            mem = f"{kb / 1024 / 1024:.0f} GB"
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} cores, {cpu}, {mem}, {platform.system()} {platform.release()}"


def fmt(s):
    return "—" if s is None else (f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1m")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--peers", default="duckdb,sqlite3,miller,jq")
    ap.add_argument("--queries", action="store_true", help="also each query alone after load, at the largest size (bench/queries.py)")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--update-readme", action="store_true")
    args = ap.parse_args()
    if not args.no_build:
        build()
    peers = [p for p in args.peers.split(",") if p and have(p)]
    tools = ["utq"] + peers
    results = {"date": time.strftime("%Y-%m-%d"), "machine": machine(), "rows": [], "startup": None, "queries": None}
    startup, _ = timed(f"{UTQ} -c tables", max(args.runs, 10))
    results["startup"] = startup
    sizes = args.sizes.split(",")
    for size in sizes:
        paths = data(size)
        runs = args.runs if size != "10m" else max(3, args.runs // 2)
        for name, path, cmds in commands(paths):
            row = {"work": name, "size": size, "mb": os.path.getsize(path) / 1e6, "time": {}, "peak_kb": {}}
            # jq and Miller hold the input as records: at 1M already 0.7 and 3.4 GB, at 10M
            # past this machine's memory; sqlite3's strings stop at 1 GB.
            chosen = {tool: cmds[tool] for tool in tools if tool in cmds and not (tool in ("jq", "miller", "sqlite3") and size == "10m")}
            row["time"] = timed_together(chosen, runs)
            for tool in row["time"]:
                row["peak_kb"][tool] = peak_kb(chosen[tool])
                print(f"{size:>4}  {name:<58} {tool:<9} {fmt(row['time'][tool]):>9}  {row['peak_kb'][tool] or 0:>9,} KB", file=sys.stderr)
            results["rows"].append(row)
    if args.queries:
        import queries
        results["queries"] = queries.table(sizes[-1], args.runs if sizes[-1] != "10m" else 3)
    text = report(results, tools)
    print(text)
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", "latest.json"), "w") as f:
        json.dump(results, f, indent=2)
    if args.update_readme:
        update_readme(text)


def report(r, tools):
    peers = [t for t in tools if t != "utq"]
    names = {"duckdb": "DuckDB CLI", "duckdb-py": "DuckDB (Python)"}
    lines = [f"Measured {r['date']} on {r['machine']}.", "",
             "Whole process (start, load, answer, exit; medians), and utq's time as a fraction of each peer's:", "",
             "| work | size | file | " + " | ".join(names.get(t, t) for t in tools) + " | " + " | ".join(f"utq/{p}" for p in peers) + " |",
             "|---|---|---:|" + "---:|" * (len(tools) + len(peers))]
    for row in r["rows"]:
        t = row["time"]
        cells = [fmt(t.get(tool)) for tool in tools]
        ratios = [f"{t['utq'] / t[p]:.2f}" if "utq" in t and p in t and t[p] > 0 else "—" for p in peers]
        lines.append(f"| {row['work']} | {row['size']} | {row['mb']:.0f} MB | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
    lines += ["", "Peak memory (max resident set):", "", "| work | size | file | " + " | ".join(names.get(t, t) for t in tools) + " | utq / file size |",
              "|---|---|---:|" + "---:|" * (len(tools) + 1)]
    for row in r["rows"]:
        pk = row["peak_kb"]
        cells = [f"{pk[tool] / 1024:.0f} MB" if pk.get(tool) else "—" for tool in tools]
        frac = f"{pk['utq'] / 1024 / row['mb']:.2f}" if pk.get("utq") else "—"
        lines.append(f"| {row['work']} | {row['size']} | {row['mb']:.0f} MB | " + " | ".join(cells) + f" | {frac} |")
    if r.get("queries"):
        lines += ["", r["queries"]]
    lines += ["", f"Start-up (`utq -c tables`): {fmt(r['startup'])}."]
    return "\n".join(lines)


def update_readme(text):
    path = os.path.join(ROOT, "bench", "README.md")
    with open(path) as f:
        readme = f.read()
    start, end = "<!-- results -->", "<!-- /results -->"
    before, rest = readme.split(start, 1)
    _, after = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(before + start + "\n" + text + "\n" + end + after)


if __name__ == "__main__":
    main()
