#!/usr/bin/env python3
"""Writes a GTFS feed of a grid town for the routing benchmark: STOPS x STOPS stops 400 m
apart (around Oslo's latitude), a bus line along every other row and every other column,
both ways, a trip every HEADWAY minutes from 05:00 to past midnight, all week. With the
defaults, 1,600 stops, 80 line directions, 13,028 trips and 521,120 stop times. The same
arguments write the same bytes.

    python3 bench/gtfs_grid.py DIR [--stops 40] [--headway 7]
"""
import argparse, math, os


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--stops", type=int, default=40)
    ap.add_argument("--headway", type=int, default=7)
    a = ap.parse_args()
    n, os_dir = a.stops, a.dir
    os.makedirs(os_dir, exist_ok=True)
    lat0, lon0 = 59.85, 10.65
    dlat = 400 / 111_195
    dlon = 400 / (111_195 * math.cos(math.radians(lat0)))

    def w(name, lines):
        with open(os.path.join(os_dir, name), "w") as f:
            f.write("\n".join(lines) + "\n")

    w("agency.txt", ["agency_id,agency_name,agency_url,agency_timezone", "G,Grid Transit,https://example.org/grid,Europe/Oslo"])
    w("stops.txt", ["stop_id,stop_name,stop_lat,stop_lon"] +
      [f"S{r:02d}_{c:02d},Row {r} Column {c},{lat0 + r * dlat:.6f},{lon0 + c * dlon:.6f}" for r in range(n) for c in range(n)])
    w("calendar.txt", ["service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
                       "ALL,1,1,1,1,1,1,1,20260101,20261231"])
    lines = []
    for k in range(0, n, 2):
        lines.append((f"H{k:02d}", [f"S{k:02d}_{c:02d}" for c in range(n)]))
        lines.append((f"V{k:02d}", [f"S{r:02d}_{k:02d}" for r in range(n)]))
    routes, trips, times = ["route_id,agency_id,route_short_name,route_type"], ["route_id,service_id,trip_id,direction_id"], \
        ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    for route, stops in lines:
        routes.append(f"{route},G,{route},3")
        for direction, order in ((0, stops), (1, stops[::-1])):
            # Lines start a little apart, so that changes wait a varying time.
            offset = (hash_of(route) + direction * 3) % a.headway
            start = 5 * 3600 + offset * 60
            while start < 24 * 3600:
                trip = f"{route}_{direction}_{start // 60}"
                trips.append(f"{route},ALL,{trip},{direction}")
                t = start
                for seq, stop in enumerate(order):
                    clock = f"{t // 3600}:{t // 60 % 60:02d}:{t % 60:02d}"
                    times.append(f"{trip},{clock},{clock},{stop},{seq + 1}")
                    t += 80  # 400 m in 80 s: 18 km/h with the stops
                start += a.headway * 60
    w("routes.txt", routes)
    w("trips.txt", trips)
    w("stop_times.txt", times)
    print(f"{os_dir}: {n * n} stops, {len(lines) * 2} line directions, {len(trips) - 1} trips, {len(times) - 1} stop times")


def hash_of(text):
    return sum(ord(c) * (k + 1) for k, c in enumerate(text))


if __name__ == "__main__":
    main()
