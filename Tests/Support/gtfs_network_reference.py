#!/usr/bin/env python3
"""An independent reading of a GTFS feed as a network, for the differential tests of
departures' neighbours: segments (stop to stop distances, run times and speeds), travel times
(a brute-force search of a time-expanded graph, not RAPTOR) and the differences between two
feeds. Standard library only; the day's stop times come from gtfs_reference.py.

    gtfs_network_reference.py FEED segments DATE [--by KEY,KEY]
    gtfs_network_reference.py FEED travel DATE HH:MM STOP[,STOP] [--transfer SECONDS] [--walk METRES]
                              [--until HH:MM] [--within SECONDS] [--between HH:MM (the window's end)]
    gtfs_network_reference.py FEED diff OTHER_FEED [FROM TO]   (rows: kind, change, id, route_id, date, metres, shift)

Every distance is measured by metres() alone.
"""
import json, math, os, statistics, sys

from geographiclib.geodesic import Geodesic

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtfs_reference import read, day_of, seconds, stop_times_on, services_on  # noqa: E402


def metres(lat1, lon1, lat2, lon2):
    """The geodesic distance on WGS 84, by geographiclib (Karney's algorithm)."""
    return Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2)["s12"]


def number(text):
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


def stop_positions(feed):
    out = {}
    for s in read(feed, "stops.txt") or []:
        lat, lon = number(s.get("stop_lat")), number(s.get("stop_lon"))
        if lat is not None and lon is not None:
            out[s["stop_id"]] = (lat, lon)
    return out


# MARK: segments

def load_shapes(feed):
    """Each shape's points in order, the metres along it at each, and its shape_dist_traveled."""
    pts = {}
    for row in read(feed, "shapes.txt") or []:
        lat, lon = number(row.get("shape_pt_lat")), number(row.get("shape_pt_lon"))
        if lat is None or lon is None or not row.get("shape_pt_sequence"):
            continue
        pts.setdefault(row["shape_id"], []).append((int(row["shape_pt_sequence"]), (lat, lon), number(row.get("shape_dist_traveled"))))
    shapes = {}
    for sid, rows in pts.items():
        rows.sort(key=lambda r: r[0])
        along = [0.0]
        for a, b in zip(rows, rows[1:]):
            along.append(along[-1] + metres(a[1][0], a[1][1], b[1][0], b[1][1]))
        shapes[sid] = {"points": [r[1] for r in rows], "along": along, "sdt": [r[2] for r in rows]}
    return shapes


def sdt_unit(shapes):
    ratios = []
    for s in shapes.values():
        if len(s["sdt"]) >= 2 and all(v is not None for v in s["sdt"]):
            span = s["sdt"][-1] - s["sdt"][0]
            if span > 0 and s["along"][-1] > 0:
                ratios.append(s["along"][-1] / span)
    if not ratios:
        return None
    med = statistics.median(ratios)
    best = min([1.0, 1000.0, 1609.344, 0.3048], key=lambda u: abs(math.log(med / u)))
    return best if abs(math.log(med / best)) < math.log(1.25) else None


def positions_along(shape, stops):
    """Each stop's metres along the shape: the nearest point at or after the previous stop's."""
    p = shape["points"]
    piece, start, out = 0, 0.0, []
    for s in stops:
        if s is None:
            out.append(None)
            continue
        best = None
        for j in range(piece, len(p) - 1):
            k = math.cos(math.radians(p[j][0]))
            dx, dy = (p[j + 1][1] - p[j][1]) * k, p[j + 1][0] - p[j][0]
            l2 = dx * dx + dy * dy
            t = ((s[1] - p[j][1]) * k * dx + (s[0] - p[j][0]) * dy) / l2 if l2 > 0 else 0.0
            t = min(1.0, max(start if j == piece else 0.0, t))
            q = (p[j][0] + t * (p[j + 1][0] - p[j][0]), p[j][1] + t * (p[j + 1][1] - p[j][1]))
            d = metres(s[0], s[1], q[0], q[1])
            if best is None or d < best[0]:
                best = (d, j, t, q)
        piece, start = best[1], best[2]
        out.append(shape["along"][best[1]] + metres(p[best[1]][0], p[best[1]][1], best[3][0], best[3][1]))
    return out


def segments(feed, day):
    stops = stop_positions(feed)
    shapes = load_shapes(feed)
    unit = sdt_unit(shapes)
    runs = {}
    for row in stop_times_on(feed, day):
        runs.setdefault((row["trip_id"], row["run"]), []).append(row)
    out = []
    for (trip, run), rows in runs.items():
        rows.sort(key=lambda r: int(r["stop_sequence"]))
        shape = shapes.get(rows[0].get("shape_id") or "")
        if shape and len(shape["points"]) < 2:
            shape = None
        points = [stops.get(r["stop_id"]) for r in rows]
        along = positions_along(shape, points) if shape else None
        has_sdt = shape is not None and len(shape["sdt"]) >= 2 and all(v is not None for v in shape["sdt"])
        for a, b, pa, pb, xa, xb in zip(rows, rows[1:], points, points[1:], along or [None] * len(rows), (along or [None] * len(rows))[1:]):
            sa, sb = number(a.get("shape_dist_traveled")), number(b.get("shape_dist_traveled"))
            if has_sdt and unit and sa is not None and sb is not None and sb >= sa:
                dist, how = (sb - sa) * unit, "shape_dist_traveled"
            elif shape and xa is not None and xb is not None:
                dist, how = xb - xa, "shape"
            elif pa and pb:
                dist, how = metres(pa[0], pa[1], pb[0], pb[1]), "straight"
            else:
                dist, how = None, "straight"
            leaves = a["departure_time"] if a["departure_time"] is not None else a["arrival_time"]
            arrives = b["arrival_time"] if b["arrival_time"] is not None else b["departure_time"]
            took = arrives - leaves if leaves is not None and arrives is not None else None
            speed = dist / took * 3.6 if took and took > 0 and dist is not None else None
            out.append({"trip_id": trip, "run": run, "route_id": a.get("route_id", ""), "direction_id": a.get("direction_id", ""),
                        "from_stop_id": a["stop_id"], "to_stop_id": b["stop_id"], "stop_sequence": int(a["stop_sequence"]),
                        "departure_time": leaves, "arrival_time": arrives, "metres": dist, "run_time": took, "speed": speed, "measured": how})
    return out


def segments_by(feed, day, keys):
    groups = {}
    for seg in segments(feed, day):
        key = tuple(str(seg["departure_time"] // 3600) if k == "hour" and seg["departure_time"] is not None else
                    ("null" if k == "hour" else str(seg.get(k, ""))) for k in keys)
        groups.setdefault(key, []).append(seg)
    out = []
    for key in sorted(groups, key=lambda k: [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in k]):
        segs = groups[key]
        speeds = [s["speed"] for s in segs if s["speed"] is not None]
        times = [s["run_time"] for s in segs if s["run_time"] is not None]
        out.append({"key": list(key), "segments": len(segs), "metres": sum(s["metres"] or 0 for s in segs),
                    "run_time": sum(times) if times else None,
                    "mean_speed": statistics.mean(speeds) if speeds else None,
                    "median_speed": statistics.median(speeds) if speeds else None})
    return out

# MARK: travel times

WALK_SPEED = 1.3
MAX_RIDES = 24


def runs_of_day(feed, day):
    """Each run of a trip: [(stop, arrives, leaves, can board, can alight)] over its timed stops."""
    runs = {}
    for row in stop_times_on(feed, day):
        runs.setdefault((row["trip_id"], row["run"]), []).append(row)
    out = {}
    for key, rows in runs.items():
        rows.sort(key=lambda r: int(r["stop_sequence"]))
        visits = []
        for r in rows:
            a, d = r["arrival_time"], r["departure_time"]
            if a is None and d is None:
                continue
            visits.append((r["stop_id"], a if a is not None else d, d if d is not None else a,
                           r.get("pickup_type", "") != "1", r.get("drop_off_type", "") != "1", r.get("route_id")))
        if len(visits) >= 2:
            out[key] = visits
    return out


def walks_and_changes(feed, change, walk_metres):
    stops = stop_positions(feed)
    known = {s["stop_id"] for s in read(feed, "stops.txt") or []}
    changes, walks, barred = {}, {}, set()
    if walk_metres is not None:
        # Walks join stops and platforms, not stations or entrances (location_type 1 to 4).
        places = {r["stop_id"]: stops[r["stop_id"]] for r in read(feed, "stops.txt") or []
                  if r["stop_id"] in stops and r.get("location_type", "") in ("", "0")}
        for a, pa in places.items():
            for b, pb in places.items():
                if a != b:
                    d = metres(pa[0], pa[1], pb[0], pb[1])
                    if d <= walk_metres:
                        walks[(a, b)] = math.ceil(d / WALK_SPEED)
    for t in read(feed, "transfers.txt") or []:
        a, b = t.get("from_stop_id", ""), t.get("to_stop_id", "")
        if a not in known or b not in known:
            continue
        kind = int(t["transfer_type"]) if t.get("transfer_type") else 0
        minimum = number(t.get("min_transfer_time"))
        given = math.ceil(minimum) if minimum is not None and minimum >= 0 else None
        if a == b:
            changes[a] = None if kind == 3 else 0 if kind == 1 else (given if given is not None else change) if kind == 2 else change
        elif kind == 3:
            barred.add((a, b))
        elif given is not None:
            walks[(a, b)] = given
        elif a in stops and b in stops:
            walks[(a, b)] = math.ceil(metres(*stops[a], *stops[b]) / WALK_SPEED)
    out = {}
    for (a, b), w in walks.items():
        if (a, b) not in barred:
            out.setdefault(a, []).append((b, w))
    return (lambda s: changes.get(s, change)), out


def search(runs, change_at, walks, origins, leave, limit):
    """Dijkstra by time over states (event, rides): ready to board at a stop, or aboard a run
    at one of its stops. Gives, per stop, the earliest (arrival, rides) and the runs ridden last
    on the journeys that achieve it."""
    import heapq
    departures_at = {}
    for key, visits in runs.items():
        for k, v in enumerate(visits):
            if v[3] and k + 1 < len(visits):
                departures_at.setdefault(v[0], []).append((v[2], key, k))
    arrivals = {}

    def arrive(stop, t, rides, trip):
        if t > limit:
            return
        arrivals.setdefault(stop, []).append((t, rides, trip))

    heap, seen = [], set()

    def ready(stop, t, rides):
        if t <= limit:
            heapq.heappush(heap, (t, 0, stop, rides))

    for o in origins:
        arrive(o, leave, 0, None)
        ready(o, leave, 0)
        for q, w in walks.get(o, []):
            arrive(q, leave + w, 0, None)
            ready(q, leave + w, 0)
    while heap:
        t, kind, a, b = heapq.heappop(heap)
        if kind == 0:
            stop, rides = a, b
            if (stop, rides) in seen or rides >= MAX_RIDES:
                continue
            seen.add((stop, rides))
            for dep, key, k in departures_at.get(stop, []):
                if dep >= t:
                    heapq.heappush(heap, (dep, 1, (key, k), rides + 1))
        else:
            (key, k), rides = a, b
            if ((key, k), rides) in seen:
                continue
            seen.add(((key, k), rides))
            visits = runs[key]
            nxt = visits[k + 1]
            if nxt[1] > limit:
                continue
            if nxt[4]:
                arrive(nxt[0], nxt[1], rides, key)
                c = change_at(nxt[0])
                if c is not None:
                    ready(nxt[0], nxt[1] + c, rides)
                for q, w in walks.get(nxt[0], []):
                    arrive(q, nxt[1] + w, rides, key)
                    ready(q, nxt[1] + w, rides)
            if k + 2 < len(visits):
                heapq.heappush(heap, (nxt[2], 1, (key, k + 1), rides))
    out = {}
    for stop, found in arrivals.items():
        t, rides = min((f[0], f[1]) for f in found)
        out[stop] = {"arrival": t, "rides": rides,
                     "trips": sorted({(f[2][0], f[2][1] or 0) for f in found if (f[0], f[1]) == (t, rides) and f[2]})}
    return out


def resolve(feed, words):
    rows = read(feed, "stops.txt") or []
    ids = [r["stop_id"] for r in rows]
    children = {}
    for r in rows:
        if r.get("parent_station"):
            children.setdefault(r["parent_station"], []).append(r["stop_id"])
    out = []
    for w in words:
        found = [w] if w in ids else [i for i in ids if i.lower() == w.lower()]
        if len(found) != 1:
            found = [r["stop_id"] for r in rows if r.get("stop_name", "").lower() == w.lower()]
        for f in found:
            out += children.get(f, [f])
    return list(dict.fromkeys(out))


def travel(feed, day, at, origins, change=0, walk=None, until=None, within=None, window_end=None):
    runs = runs_of_day(feed, day)
    change_at, walks = walks_and_changes(feed, change, walk)
    origins = resolve(feed, origins)
    leave = seconds(at)
    times = {leave}
    if window_end is not None:
        end = seconds(window_end)
        for o in origins:
            for stop, w in [(o, 0)] + walks.get(o, []):
                for visits in runs.values():
                    for v in visits:
                        if v[0] == stop and v[3] and leave <= v[2] - w <= end:
                            times.add(v[2] - w)
    best = {}
    for t in sorted(times):
        limit = min(seconds(until) if until else 10**9, t + within if within is not None else 10**9)
        for stop, found in search(runs, change_at, walks, origins, t, limit).items():
            score = (found["arrival"] - t, found["rides"], t)
            if stop not in best or score < best[stop][0]:
                best[stop] = (score, dict(found, leave=t))
    return {stop: v[1] for stop, v in best.items()}


# MARK: diff

def calendar_range(feed):
    days = []
    for row in read(feed, "calendar.txt") or []:
        for c in ("start_date", "end_date"):
            if len(row.get(c, "")) == 8 and row[c].isdigit():
                days.append(day_of(row[c]))
    for row in read(feed, "calendar_dates.txt") or []:
        if len(row.get("date", "")) == 8 and row["date"].isdigit():
            days.append(day_of(row["date"]))
    return (min(days), max(days)) if days else None


def trip_signatures(feed):
    trips = {t["trip_id"]: {"route": t.get("route_id", ""), "service": t.get("service_id", ""), "visits": [], "windows": []}
             for t in read(feed, "trips.txt") or []}
    for st in read(feed, "stop_times.txt") or []:
        if st["trip_id"] in trips:
            times = [seconds(st[c]) if st.get(c) else None for c in ("arrival_time", "departure_time")]
            trips[st["trip_id"]]["visits"].append((int(st["stop_sequence"]), st["stop_id"], times))
    for f in read(feed, "frequencies.txt") or []:
        if f["trip_id"] in trips:
            trips[f["trip_id"]]["windows"].append((seconds(f["start_time"]), seconds(f["end_time"]), int(f["headway_secs"])))
    for t in trips.values():
        t["visits"].sort(key=lambda v: v[0])
        t["stops"] = [v[1] for v in t["visits"]]
        t["times"] = [x for v in t["visits"] for x in v[2]]
        t["windows"].sort()
    return trips


def diff(feed_a, feed_b, first=None, last=None):
    import datetime
    out = []
    routes = [{r["route_id"]: " ".join(x for x in (r.get("route_short_name", ""), r.get("route_long_name", "")) if x)
               for r in read(f, "routes.txt") or []} for f in (feed_a, feed_b)]
    for rid in sorted(set(routes[0]) | set(routes[1])):
        old, new = routes[0].get(rid), routes[1].get(rid)
        if old is None:
            out.append(["route", "added", rid, rid, None, None, None])
        elif new is None:
            out.append(["route", "removed", rid, rid, None, None, None])
        elif old != new:
            out.append(["route", "renamed", rid, rid, None, None, None])
    stops = [{r["stop_id"]: (r.get("stop_name", ""), number(r.get("stop_lat")), number(r.get("stop_lon"))) for r in read(f, "stops.txt") or []}
             for f in (feed_a, feed_b)]
    for sid in sorted(set(stops[0]) | set(stops[1])):
        old, new = stops[0].get(sid), stops[1].get(sid)
        if old is None:
            out.append(["stop", "added", sid, None, None, None, None])
        elif new is None:
            out.append(["stop", "removed", sid, None, None, None, None])
        else:
            if old[1:] != new[1:]:
                m = metres(old[1], old[2], new[1], new[2]) if None not in old[1:] + new[1:] else None
                out.append(["stop", "moved", sid, None, None, m, None])
            if old[0] != new[0]:
                out.append(["stop", "renamed", sid, None, None, None, None])
    ranges = [r for r in (calendar_range(feed_a), calendar_range(feed_b)) if r]
    if first is None and ranges:
        first, last = min(r[0] for r in ranges), max(r[1] for r in ranges)
    sig = [trip_signatures(feed_a), trip_signatures(feed_b)]
    day = first
    while first is not None and day <= last:
        running = [services_on(feed_a, day), services_on(feed_b, day)]
        text = day.isoformat()
        for svc in sorted(running[0] - running[1]):
            out.append(["service", "removed", svc, None, text, None, None])
        for svc in sorted(running[1] - running[0]):
            out.append(["service", "added", svc, None, text, None, None])
        on = [{t for t, v in sig[k].items() if v["service"] in running[k]} for k in (0, 1)]
        for t in on[0] - on[1]:
            out.append(["trip", "removed", t, sig[0][t]["route"], text, None, None])
        for t in on[1] - on[0]:
            out.append(["trip", "added", t, sig[1][t]["route"], text, None, None])
        for t in on[0] & on[1]:
            a, b = sig[0][t], sig[1][t]
            if a["stops"] != b["stops"] or a["route"] != b["route"]:
                out.append(["trip", "rerouted", t, b["route"], text, None, None])
            elif a["times"] != b["times"] or a["windows"] != b["windows"]:
                def first_departure(x):
                    if x["windows"]:
                        return x["windows"][0][0]
                    known = [v for v in x["times"] if v is not None]
                    return min(known) if known else None
                fa, fb = first_departure(a), first_departure(b)
                out.append(["trip", "retimed", t, b["route"], text, None, fb - fa if fa is not None and fb is not None else None])
        day += datetime.timedelta(days=1)
    return out



def main():
    feed, what = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    options = {}
    while any(a.startswith("--") for a in rest):
        i = next(k for k, a in enumerate(rest) if a.startswith("--"))
        options[rest[i][2:]] = rest[i + 1]
        rest = rest[:i] + rest[i + 2:]
    if what == "diff":
        bounds = [day_of(d.replace("-", "")) for d in rest[1:3]] if len(rest) >= 3 else [None, None]
        print(json.dumps(diff(feed, rest[0], bounds[0], bounds[1])))
    elif what == "travel":
        day = day_of(rest[0].replace("-", ""))
        result = travel(feed, day, rest[1], rest[2].split(","), change=int(options.get("transfer", 0)),
                        walk=float(options["walk"]) if "walk" in options else None, until=options.get("until"),
                        within=int(options["within"]) if "within" in options else None, window_end=options.get("between"))
        print(json.dumps(result))
    elif what == "segments":
        day = day_of(rest[0].replace("-", ""))
        if "by" in options:
            print(json.dumps(segments_by(feed, day, options["by"].split(","))))
        else:
            print(json.dumps(segments(feed, day)))


if __name__ == "__main__":
    main()
