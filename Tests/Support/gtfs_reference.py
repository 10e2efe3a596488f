#!/usr/bin/env python3
"""An independent reading of a GTFS feed, for the differential tests of the transit verbs:
the trips that run on a day, and headways at stops, computed from the txt files with nothing
but the standard library.

    gtfs_reference.py FEED_DIR service DATE
    gtfs_reference.py FEED_DIR headways DATE [FROM TO] [--by KEY,KEY]

Prints JSON: service gives the sorted trip_ids; headways gives one row per key combination
(sorted), with departures and the min / median / max gap in seconds (null when no gap).
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


def headways(feed, day, window, keys):
    trips = trips_on(feed, day)
    at = {}
    for st in read(feed, "stop_times.txt"):
        trip = trips.get(st["trip_id"])
        if trip is None or not st.get("departure_time"):
            continue
        t = seconds(st["departure_time"])
        if window and not (seconds(window[0]) <= t <= seconds(window[1])):
            continue
        row = dict(trip, **{k: v for k, v in st.items() if k not in trip})
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


def main():
    feed, what, date = sys.argv[1], sys.argv[2], sys.argv[3].replace("-", "")
    rest = sys.argv[4:]
    keys = []
    if "--by" in rest:
        i = rest.index("--by")
        keys = rest[i + 1].split(",")
        rest = rest[:i] + rest[i + 2:]
    day = day_of(date)
    if what == "service":
        print(json.dumps(sorted(trips_on(feed, day))))
    else:
        print(json.dumps(headways(feed, day, rest[:2] if rest else None, keys)))


main()
