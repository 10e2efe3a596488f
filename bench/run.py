#!/usr/bin/env python3
"""utq's benchmark: whole-process load-and-count against DuckDB, sqlite3, Miller and jq on
the same generated files, the time of each query alone after load, peak memory and start-up.

    python3 bench/run.py                      # 100k and 1M entries, 5 runs each
    python3 bench/run.py --sizes 100k,1m,10m  # and 10M (about 1.2 GB of JSON)
    python3 bench/run.py --update-readme      # write the table into bench/README.md

Peers run when installed: `pip install duckdb`; `apt-get install sqlite3 miller jq`.
Figures are medians; ratios are utq's time divided by the peer's, from the same run.
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
    sh(["swift", "build", "-c", "release", "--product", "utq-datagen"], cwd=ROOT)


def data(size):
    n = SIZES[size]
    json_path = os.path.join(DATA, f"entries-{size}.json")
    csv_path = os.path.join(DATA, f"entries-{size}.csv")
    rides_dir = os.path.join(DATA, f"rides-{size}")
    os.makedirs(DATA, exist_ok=True)
    if not (os.path.exists(json_path) and os.path.exists(csv_path)):
        print(f"generating {n:,} entries …", file=sys.stderr)
        sh([DATAGEN, "entries", str(n), json_path, csv_path])
    if not os.path.exists(os.path.join(rides_dir, "rides.csv")):
        print(f"generating {n:,} rides …", file=sys.stderr)
        users = max(40, n // 2000)
        sh([DATAGEN, "rides", rides_dir, str(n), str(users), "8"], stderr=subprocess.DEVNULL)
    return json_path, csv_path, os.path.join(rides_dir, "rides.csv")


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
        return subprocess.run([sys.executable, "-c", "import duckdb"], capture_output=True).returncode == 0
    return shutil.which({"miller": "mlr"}.get(tool, tool)) is not None


def q(s):
    return "'" + s.replace("'", "'\\''") + "'"


def duck(sql):
    code = f"import duckdb; c = duckdb.connect(); c.sql(\"SET TimeZone='Europe/Oslo'\"); c.sql({sql!r}).fetchall()"
    return f"{sys.executable} -c {q(code)}"


def commands(json_path, csv_path, rides_path):
    """The work: (name, file size, {tool: command})."""
    w = []
    jq_program = q('reduce .[] as $e ({}; .[$e.legend + " " + $e.time[11:13]] += 1)')
    mlr_bike = q('$legend == "Bike"')
    count = "count by legend, hour"
    bike = 'where legend = "Bike" | avg angle by day'
    w.append(("load JSON + count by legend, hour", json_path, {
        "utq": f"{UTQ} -c {q(f'load {json_path}; set timezone Europe/Oslo; {count}')}",
        "duckdb": duck(f"select legend, hour(time), count(*) from read_json('{json_path}') group by all"),
        "sqlite3": f"sqlite3 :memory: {q(f'''select json_extract(value, '$.legend'), substr(json_extract(value, '$.time'), 12, 2), count(*) from json_each(readfile('{json_path}')) group by 1, 2''')}",
        "miller": f"mlr --ijson --ocsv put {q('$h = substr($time, 11, 12)')} then count -g legend,h {json_path}",
        "jq": f"jq {jq_program} {json_path}",
    }))
    w.append(("load CSV + count by legend, hour", csv_path, {
        "utq": f"{UTQ} -c {q(f'load {csv_path}; set timezone Europe/Oslo; {count}')}",
        "duckdb": duck(f"select legend, hour(time), count(*) from read_csv('{csv_path}') group by all"),
        "sqlite3": f"sqlite3 :memory: -cmd '.mode csv' -cmd {q(f'.import {csv_path} t')} {q('select legend, substr(time, 12, 2), count(*) from t group by 1, 2')}",
        "miller": f"mlr --icsv --ocsv put {q('$h = substr($time, 11, 12)')} then count -g legend,h {csv_path}",
    }))
    w.append(("load CSV + Bike avg angle by day", csv_path, {
        "utq": f"{UTQ} -c {q(f'load {csv_path}; set timezone Europe/Oslo; {bike}')}",
        "duckdb": duck(f"select date_trunc('day', time)::varchar d, avg(angle) from read_csv('{csv_path}') where legend = 'Bike' group by all"),
        "sqlite3": f"sqlite3 :memory: -cmd '.mode csv' -cmd {q(f'.import {csv_path} t')} {q('''select substr(time, 1, 10), avg(nullif(angle, '')) from t where legend = 'Bike' group by 1''')}",
        "miller": f"mlr --icsv --ocsv filter {mlr_bike} then put {q('$d = substr($time, 0, 9)')} then stats1 -a mean -f angle -g d {csv_path}",
    }))
    w.append(("load rides CSV + count by weekday, hour", rides_path, {
        "utq": f"{UTQ} -c {q(f'load {rides_path}; set timezone Europe/London; count by weekday, hour')}",
        "duckdb": duck(f"SET TimeZone='Europe/London'; select dayname(requested_at), hour(requested_at), count(*) from read_csv('{rides_path}') group by all"),
    }))
    return w


def query_alone(csv_path, runs):
    """After one load, the time of each query alone: utq's `set timer on`, DuckDB in-process."""
    queries = {"count by legend, hour": ("count by legend, hour", "select legend, hour(time), count(*) from t group by all"),
               "where Bike, avg angle by day": ('where legend = "Bike" | avg angle by day',
                                                 "select date_trunc('day', time)::varchar, avg(angle) from t where legend = 'Bike' group by all")}
    out = {}
    for name, (utq_q, sql) in queries.items():
        script = f"load {csv_path}; set timezone Europe/Oslo; set timer on; " + "; ".join([utq_q] * (runs + 1))
        r = subprocess.run([UTQ, "-c", script], capture_output=True, text=True)
        ms = [float(m) * (1000 if unit == "s" else 1) for m, unit in re.findall(r"time: ([0-9.]+) (ms|s)", r.stderr)]
        entry = {"utq": statistics.median(ms[1:]) if len(ms) > 1 else None}
        if have("duckdb"):
            import duckdb
            c = duckdb.connect()
            c.sql("SET TimeZone='Europe/Oslo'")
            c.sql(f"create table t as select * from read_csv('{csv_path}')")
            times = []
            for _ in range(runs + 1):
                t = time.perf_counter()
                c.sql(sql).fetchall()
                times.append((time.perf_counter() - t) * 1000)
            entry["duckdb"] = statistics.median(times[1:])
        out[name] = entry
    return out


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
    ap.add_argument("--sizes", default="100k,1m")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--peers", default="duckdb,sqlite3,miller,jq")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--update-readme", action="store_true")
    args = ap.parse_args()
    if not args.no_build:
        build()
    peers = [p for p in args.peers.split(",") if p and have(p)]
    tools = ["utq"] + peers
    results = {"date": time.strftime("%Y-%m-%d"), "machine": machine(), "rows": [], "query": {}, "startup": None}
    startup, _ = timed(f"{UTQ} -c tables", max(args.runs, 10))
    results["startup"] = startup
    for size in args.sizes.split(","):
        json_path, csv_path, rides_path = data(size)
        runs = args.runs if size != "10m" else max(1, args.runs // 2)
        for name, path, cmds in commands(json_path, csv_path, rides_path):
            row = {"work": name, "size": size, "mb": os.path.getsize(path) / 1e6, "time": {}, "peak_kb": {}}
            # jq and Miller hold the input as records: at 1M already 0.7 and 3.4 GB, at 10M
            # past this machine's memory.
            chosen = {tool: cmds[tool] for tool in tools if tool in cmds and not (tool in ("jq", "miller") and size == "10m")}
            row["time"] = timed_together(chosen, runs)
            for tool in row["time"]:
                row["peak_kb"][tool] = peak_kb(chosen[tool])
                print(f"{size:>4}  {name:<42} {tool:<8} {fmt(row['time'][tool]):>9}  {row['peak_kb'][tool] or 0:>9,} KB", file=sys.stderr)
            results["rows"].append(row)
        results["query"][size] = query_alone(csv_path, args.runs)
    text = report(results, tools)
    print(text)
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", "latest.json"), "w") as f:
        json.dump(results, f, indent=2)
    if args.update_readme:
        update_readme(text)


def report(r, tools):
    peers = [t for t in tools if t != "utq"]
    lines = [f"Measured {r['date']} on {r['machine']}.", "",
             "Whole process (load + query, medians), and utq's time as a fraction of each peer's:", "",
             "| work | size | file | " + " | ".join(tools) + " | " + " | ".join(f"utq/{p}" for p in peers) + " |",
             "|---|---|---:|" + "---:|" * (len(tools) + len(peers))]
    for row in r["rows"]:
        t = row["time"]
        cells = [fmt(t.get(tool)) for tool in tools]
        ratios = [f"{t['utq'] / t[p]:.2f}" if "utq" in t and p in t and t[p] > 0 else "—" for p in peers]
        lines.append(f"| {row['work']} | {row['size']} | {row['mb']:.0f} MB | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
    lines += ["", "Peak memory (max resident set):", "", "| work | size | file | " + " | ".join(tools) + " | utq / file size |",
              "|---|---|---:|" + "---:|" * (len(tools) + 1)]
    for row in r["rows"]:
        pk = row["peak_kb"]
        cells = [f"{pk[tool] / 1024:.0f} MB" if pk.get(tool) else "—" for tool in tools]
        frac = f"{pk['utq'] / 1024 / row['mb']:.2f}" if pk.get("utq") else "—"
        lines.append(f"| {row['work']} | {row['size']} | {row['mb']:.0f} MB | " + " | ".join(cells) + f" | {frac} |")
    lines += ["", "Each query alone, after one load (utq: `set timer on`; DuckDB: in-process, table already loaded):", "",
              "| size | query | utq | duckdb |", "|---|---|---:|---:|"]
    for size, qs in r["query"].items():
        for name, e in qs.items():
            u = f"{e['utq']:.1f} ms" if e.get("utq") is not None else "—"
            d = f"{e['duckdb']:.1f} ms" if e.get("duckdb") is not None else "—"
            lines.append(f"| {size} | {name} | {u} | {d} |")
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
