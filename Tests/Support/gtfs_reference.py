#!/usr/bin/env python3
"""An independent reading of a GTFS feed, for the differential tests of the transit verbs:
the trips that run on a day, and headways at stops, computed from the txt files with nothing
but the standard library. Trips that frequencies.txt repeats run once per headway_secs from
each window's start_time while the run starts before end_time, their stop times shifted so
that the run leaves its first stop at its start; each run counts as a trip.

    gtfs_reference.py FEED_DIR service DATE
    gtfs_reference.py FEED_DIR departures DATE [--by KEY,KEY]
    gtfs_reference.py FEED_DIR departures DATE --rows
    gtfs_reference.py FEED_DIR headways DATE [FROM TO] [--by KEY,KEY]
    gtfs_reference.py FEED_DIR span DATE [--by KEY,KEY]
    gtfs_reference.py FEED_DIR peak DATE
    gtfs_reference.py FEED_DIR routestats DATE [--by KEY,KEY]

Prints JSON: service gives the sorted trip_ids; headways gives one row per key combination
(sorted), with departures and the min / median / max gap in seconds (null when no gap); span
gives trips, first and last departure, last arrival (seconds) per key; peak gives the most
vehicles at once (blocks when every trip has one, else trips) and the first period at the peak;
routestats gives trips, hours and kilometres per key (shape lengths, else stop to stop);
departures gives the number of departures (stop times with a departure time) per key, where
a key may be hour (of the departure, past 23 after midnight); with --rows, every departure
as [trip_id, run, stop_sequence, stop_id, arrival, departure], sorted.
"""
import csv, datetime, io, json, math, os, sys, zipfile


def read(feed, name):
    if feed.endswith(".zip"):
        with zipfile.ZipFile(feed) as z:
            names = {os.path.basename(n): n for n in z.namelist()}
            if name not in names:
                return None
            text = z.read(names[name]).decode("utf-8-sig")
        return [{k.strip(): (v or "").strip() for k, v in row.items()} for row in csv.DictReader(io.StringIO(text))]
    path = os.path.join(feed, name)
    if not os.path.exists(path):
        return None
    with open(path, newline="", encoding="utf-8-sig") as f:
        return [{k.strip(): (v or "").strip() for k, v in row.items()} for row in csv.DictReader(f)]


def day_of(text):
    return datetime.date(int(text[:4]), int(text[4:6]), int(text[6:8]))


def services_on(feed, day):
    running = set()
    weekday = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.weekday()]
    for row in read(feed, "calendar.txt") or []:
        if day_of(row["start_date"]) <= day <= day_of(row["end_date"]) and row[weekday] == "1":
            running.add(row["service_id"])
    for row in read(feed, "calendar_dates.txt") or []:
        if day_of(row["date"]) == day:
            if row["exception_type"] == "1":
                running.add(row["service_id"])
            elif row["exception_type"] == "2":
                running.discard(row["service_id"])
    return running


def trips_on(feed, day):
    running = services_on(feed, day)
    return {t["trip_id"]: t for t in read(feed, "trips.txt") if t["service_id"] in running}


def seconds(clock):
    parts = [int(p) for p in clock.split(":")]
    return parts[0] * 3600 + parts[1] * 60 + (parts[2] if len(parts) > 2 else 0)


def median(values):
    s = sorted(values)
    rank = 0.5 * (len(s) - 1)
    lo, hi = math.floor(rank), math.ceil(rank)
    return s[lo] + (s[hi] - s[lo]) * (rank - lo)


def stop_times_on(feed, day):
    """The stop times of the day's trips, each as a dict with its trip's fields and "run": a
    trip in frequencies.txt once per run (numbered from 1 in the order the runs start), its
    times shifted; others once, with run None. Times are seconds (None when empty)."""
    trips = trips_on(feed, day)
    windows = {}
    for f in read(feed, "frequencies.txt") or []:
        if f.get("headway_secs") and int(f["headway_secs"]) > 0 and f.get("start_time") and f.get("end_time"):
            windows.setdefault(f["trip_id"], []).append((seconds(f["start_time"]), seconds(f["end_time"]), int(f["headway_secs"])))
    by_trip = {}
    for st in read(feed, "stop_times.txt"):
        if st["trip_id"] in trips:
            row = dict(trips[st["trip_id"]], **{k: v for k, v in st.items() if k not in trips[st["trip_id"]]})
            for c in ("arrival_time", "departure_time"):
                row[c] = seconds(row[c]) if row.get(c) else None
            by_trip.setdefault(st["trip_id"], []).append(row)
    out = []
    for trip_id, rows in by_trip.items():
        if trip_id not in windows:
            out += [dict(r, run=None) for r in rows]
            continue
        times = [r["departure_time"] if r["departure_time"] is not None else r["arrival_time"] for r in rows]
        times = [t for t in times if t is not None]
        if not times:
            out += [dict(r, run=None) for r in rows]
            continue
        first = min(times)
        starts = []
        for start, end, headway in sorted(windows[trip_id]):
            starts += list(range(start, end, headway))
        for run, start in enumerate(starts, 1):
            for r in rows:
                shifted = dict(r, run=run)
                for c in ("arrival_time", "departure_time"):
                    if r[c] is not None:
                        shifted[c] = r[c] + start - first
                out.append(shifted)
    return out


def departures(feed, day, keys):
    counts = {}
    for row in stop_times_on(feed, day):
        if row["departure_time"] is None:
            continue
        key = tuple(str(row["departure_time"] // 3600) if k == "hour" else row.get(k, "") for k in keys)
        counts[key] = counts.get(key, 0) + 1
    return [{"key": list(k), "departures": n} for k, n in sorted(counts.items(), key=lambda kv: [int(x) if x.isdigit() else x for x in kv[0]])]


def headways(feed, day, window, keys):
    at = {}
    for row in stop_times_on(feed, day):
        t = row["departure_time"]
        if t is None:
            continue
        if window and not (seconds(window[0]) <= t <= seconds(window[1])):
            continue
        apart = (row["stop_id"], row.get("direction_id", "")) + tuple(row.get(k, "") for k in keys)
        at.setdefault(apart, []).append((t, tuple(row.get(k, "") for k in keys)))
    groups = {}
    for times in at.values():
        times.sort()
        for i, (t, key) in enumerate(times):
            g = groups.setdefault(key, {"departures": 0, "gaps": []})
            g["departures"] += 1
            if i > 0:
                g["gaps"].append(t - times[i - 1][0])
    out = []
    for key in sorted(groups):
        g = groups[key]
        gaps = g["gaps"]
        out.append({"key": list(key), "departures": g["departures"],
                    "min": min(gaps) if gaps else None, "median": median(gaps) if gaps else None,
                    "max": max(gaps) if gaps else None})
    return out


def trip_times(feed, day):
    """Each run of a trip of the day that has times: (trip row, first departure, last arrival)
    in seconds."""
    first, last, trip = {}, {}, {}
    for st in stop_times_on(feed, day):
        leaves = st["departure_time"] if st["departure_time"] is not None else st["arrival_time"]
        arrives = st["arrival_time"] if st["arrival_time"] is not None else st["departure_time"]
        if leaves is None:
            continue
        t = (st["trip_id"], st["run"])
        trip[t] = st
        first[t] = min(first.get(t, 10**9), leaves)
        last[t] = max(last.get(t, -1), arrives)
    return [(trip[t], first[t], last[t]) for t in first]


def grouped(rows, keys):
    groups = {}
    for row in rows:
        groups.setdefault(tuple(row[0].get(k, "") for k in keys), []).append(row)
    return groups


def span(feed, day, keys):
    out = []
    for key, rows in sorted(grouped(trip_times(feed, day), keys).items()):
        out.append({"key": list(key), "trips": len(rows), "first_departure": min(r[1] for r in rows),
                    "last_departure": max(r[1] for r in rows), "last_arrival": max(r[2] for r in rows)})
    return out


def peak(feed, day):
    times = trip_times(feed, day)
    if not times:
        return None
    if all(t.get("block_id") for t in read(feed, "trips.txt")):
        blocks = {}
        for trip, a, b in times:
            vehicle = trip["block_id"] if trip["run"] is None else (trip["trip_id"], trip["run"])
            lo, hi = blocks.get(vehicle, (a, b))
            blocks[vehicle] = (min(lo, a), max(hi, b))
        busy = list(blocks.values())
    else:
        busy = [(a, b) for _, a, b in times]
    events = sorted([(a, 1) for a, _ in busy] + [(b, -1) for _, b in busy])
    running, counts = 0, []
    for i, (t, change) in enumerate(events):
        running += change
        if i + 1 == len(events) or events[i + 1][0] > t:
            counts.append((t, running))
    top = max(c for _, c in counts)
    periods, start = [], None
    for i, (t, c) in enumerate(counts):
        if c == top and start is None:
            start = t
        elif c != top and start is not None:
            periods.append((start, t))
            start = None
    return {"vehicles": top, "from": periods[0][0], "until": periods[0][1], "times_at_peak": len(periods)}


def path_metres(points):
    total = 0.0
    for (la1, lo1), (la2, lo2) in zip(points, points[1:]):
        p1, p2 = math.radians(la1), math.radians(la2)
        dp, dl = p2 - p1, math.radians(lo2 - lo1)
        h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
        total += 2 * 6371000 * math.asin(math.sqrt(h))
    return total


def route_stats(feed, day, keys):
    stops = {s["stop_id"]: (float(s["stop_lat"]), float(s["stop_lon"])) for s in read(feed, "stops.txt")}
    along = {}
    for st in read(feed, "stop_times.txt"):
        if st["stop_id"] in stops:
            along.setdefault(st["trip_id"], []).append((int(st["stop_sequence"]), stops[st["stop_id"]]))
    stop_metres = {t: path_metres([p for _, p in sorted(v)]) for t, v in along.items()}
    shape_metres = {}
    if read(feed, "shapes.txt"):
        pts = {}
        for sp in read(feed, "shapes.txt"):
            pts.setdefault(sp["shape_id"], []).append((int(sp["shape_pt_sequence"]), (float(sp["shape_pt_lat"]), float(sp["shape_pt_lon"]))))
        shape_metres = {k: path_metres([p for _, p in sorted(v)]) for k, v in pts.items()}
    out = []
    for key, rows in sorted(grouped(trip_times(feed, day), keys).items()):
        metres = sum(shape_metres.get(r[0].get("shape_id", ""), stop_metres.get(r[0]["trip_id"], 0.0)) for r in rows)
        hours = sum(r[2] - r[1] for r in rows) / 3600
        out.append({"key": list(key), "trips": len(rows), "first_departure": min(r[1] for r in rows),
                    "last_arrival": max(r[2] for r in rows), "service_hours": hours, "distance_km": metres / 1000})
    return out


def main():
    feed, what, date = sys.argv[1], sys.argv[2], sys.argv[3].replace("-", "")
    rest = sys.argv[4:]
    keys = []
    if "--by" in rest:
        i = rest.index("--by")
        keys = rest[i + 1].split(",")
        rest = rest[:i] + rest[i + 2:]
    day = day_of(date)
    if what == "departures" and "--rows" in rest:
        rows = [[r["trip_id"], r["run"], int(r["stop_sequence"]), r["stop_id"], r["arrival_time"], r["departure_time"]]
                for r in stop_times_on(feed, day) if r["departure_time"] is not None]
        print(json.dumps(sorted(rows, key=lambda r: (r[0], r[1] or 0, r[2]))))
    elif what == "departures":
        print(json.dumps(departures(feed, day, keys)))
    elif what == "service":
        print(json.dumps(sorted(trips_on(feed, day))))
    elif what == "span":
        print(json.dumps(span(feed, day, keys)))
    elif what == "peak":
        print(json.dumps(peak(feed, day)))
    elif what == "routestats":
        print(json.dumps(route_stats(feed, day, keys or ["route_id"])))
    else:
        print(json.dumps(headways(feed, day, rest[:2] if rest else None, keys)))


if __name__ == "__main__":
    main()
