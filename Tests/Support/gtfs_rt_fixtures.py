"""GTFS-Realtime test feeds keyed to the demo feed (datasets/gtfs/demo-transit), written with
Google's own bindings (gtfs-realtime-bindings), and what those bindings decode from them.

    gtfs_rt_fixtures.py FOLDER

writes FOLDER/vehicle_positions.pb, trip_updates.pb, alerts.pb, mixed.pb, snapshots/*.pb,
delays.pb with delays.json (the delays it means: see `delays`) and
FOLDER/expected.json: for each file, the rows utq must give, decoded by the bindings
(MessageToDict, so enumerations by their names and times as the feed's seconds).
"""
import json
import os
import sys

from google.protobuf.json_format import MessageToDict
from google.transit import gtfs_realtime_pb2 as rt

T0 = 1181000000  # 2007-06-04 23:33:20 UTC, a day the demo feed runs


def header(feed, t):
    feed.header.gtfs_realtime_version = "2.0"
    feed.header.incrementality = rt.FeedHeader.FULL_DATASET
    feed.header.timestamp = t


def vehicles(feed, t, n=3):
    trips = [("AB1", "AB", 0, "BEATTY_AIRPORT"), ("STBA", "STBA", None, "STAGECOACH"), ("CITY1", "CITY", 0, "NADAV")]
    for k in range(n):
        trip, route, direction, stop = trips[k % len(trips)]
        e = feed.entity.add()
        e.id = f"v{k}"
        v = e.vehicle
        v.trip.trip_id = trip
        v.trip.route_id = route
        if direction is not None:
            v.trip.direction_id = direction
        v.trip.start_date = "20070604"
        v.vehicle.id = f"bus-{k}"
        v.vehicle.label = f"Bus {k}"
        v.position.latitude = 36.9 + k * 0.01
        v.position.longitude = -116.76 - k * 0.01
        if k != 1:
            v.position.bearing = 90.0 * k
            v.position.speed = 8.5 + k
        v.current_stop_sequence = k + 1
        v.stop_id = stop
        v.current_status = [rt.VehiclePosition.IN_TRANSIT_TO, rt.VehiclePosition.STOPPED_AT, rt.VehiclePosition.INCOMING_AT][k % 3]
        v.timestamp = t - 5 * k
        if k == 2:
            v.occupancy_status = rt.VehiclePosition.FEW_SEATS_AVAILABLE
            v.congestion_level = rt.VehiclePosition.STOP_AND_GO
    return feed


def trip_updates(feed, t):
    e = feed.entity.add()
    e.id = "u1"
    u = e.trip_update
    u.trip.trip_id = "AB1"
    u.trip.route_id = "AB"
    u.trip.start_date = "20070604"
    u.vehicle.id = "bus-0"
    u.timestamp = t
    for seq, stop, delay in [(1, "BEATTY_AIRPORT", 60), (2, "BULLFROG", 120)]:
        s = u.stop_time_update.add()
        s.stop_sequence = seq
        s.stop_id = stop
        s.arrival.delay = delay
        s.arrival.time = t + 600 * seq
        s.departure.time = t + 600 * seq + 30
    s = u.stop_time_update.add()
    s.stop_sequence = 3
    s.stop_id = "STAGECOACH"
    s.schedule_relationship = rt.TripUpdate.StopTimeUpdate.SKIPPED
    e = feed.entity.add()
    e.id = "u2"
    e.trip_update.trip.trip_id = "STBA"
    e.trip_update.trip.schedule_relationship = rt.TripDescriptor.CANCELED
    e.trip_update.delay = -30
    return feed


def alerts(feed, t):
    e = feed.entity.add()
    e.id = "a1"
    a = e.alert
    a.cause = rt.Alert.CONSTRUCTION
    a.effect = rt.Alert.DETOUR
    p = a.active_period.add()
    p.start = t
    p.end = t + 3600
    for lang, text in [("fr", "Déviation"), ("en", "Detour on Bullfrog road")]:
        tr = a.header_text.translation.add()
        tr.language = lang
        tr.text = text
    a.informed_entity.add().route_id = "AB"
    a.informed_entity.add().stop_id = "BULLFROG"
    return feed


def rows(feed):
    """The rows per kind, from the bindings' own decoding."""
    d = MessageToDict(feed, preserving_proto_field_name=True)
    out = {"vehicles": [], "trip_updates": [], "alerts": []}
    for e in d.get("entity", []):
        if "vehicle" in e:
            v = e["vehicle"]
            t, pos, veh = v.get("trip", {}), v.get("position", {}), v.get("vehicle", {})
            out["vehicles"].append({
                "entity_id": e["id"], "trip_id": t.get("trip_id"), "route_id": t.get("route_id"),
                "direction_id": t.get("direction_id"), "vehicle_id": veh.get("id"), "vehicle_label": veh.get("label"),
                "lat": pos.get("latitude"), "lon": pos.get("longitude"), "bearing": pos.get("bearing"), "speed": pos.get("speed"),
                "current_stop_sequence": v.get("current_stop_sequence"), "stop_id": v.get("stop_id"),
                "current_status": v.get("current_status"), "timestamp": int(v["timestamp"]) if "timestamp" in v else None,
                "occupancy_status": v.get("occupancy_status"), "congestion_level": v.get("congestion_level")})
        if "trip_update" in e:
            u = e["trip_update"]
            base = {"entity_id": e["id"], "trip_id": u["trip"].get("trip_id"), "trip_schedule": u["trip"].get("schedule_relationship"),
                    "trip_delay": u.get("delay")}
            for s in u.get("stop_time_update", []) or [{}]:
                out["trip_updates"].append(dict(base, stop_sequence=s.get("stop_sequence"), stop_id=s.get("stop_id"),
                                                arrival_time=int(s["arrival"]["time"]) if "time" in s.get("arrival", {}) else None,
                                                arrival_delay=s.get("arrival", {}).get("delay"),
                                                departure_time=int(s["departure"]["time"]) if "time" in s.get("departure", {}) else None,
                                                stop_schedule=s.get("schedule_relationship")))
        if "alert" in e:
            a = e["alert"]
            header = a.get("header_text", {}).get("translation", [])
            english = [x["text"] for x in header if x.get("language", "").startswith("en")]
            for s in a.get("informed_entity", []):
                out["alerts"].append({"entity_id": e["id"], "cause": a.get("cause"), "effect": a.get("effect"),
                                      "header": english[0] if english else None,
                                      "active_start": int(a["active_period"][0]["start"]), "route_id": s.get("route_id"),
                                      "stop_id": s.get("stop_id")})
    return out


def delays(folder):
    """Trip updates for every stop time of the demo feed on 2007-06-04, at the scheduled time
    plus a delay of -3 to +9 minutes, some giving only the delay, some no stop_sequence, one
    trip no start_date; and the delays they mean, computed here: the service day from noon
    minus 12 hours in the feed's zone (zoneinfo), the stop's arrival (else departure) time."""
    import csv
    import datetime
    import random
    import zoneinfo
    demo = os.path.join(os.path.dirname(__file__), "..", "..", "datasets", "gtfs", "demo-transit")
    zone = zoneinfo.ZoneInfo("America/Los_Angeles")
    noon = datetime.datetime(2007, 6, 4, 12, tzinfo=zone)
    day0 = noon.timestamp() - 12 * 3600
    routes = {r["trip_id"]: r["route_id"] for r in csv.DictReader(open(os.path.join(demo, "trips.txt")))}

    def secs(t):
        h, m, s = (int(x) for x in t.split(":"))
        return h * 3600 + m * 60 + s

    rng = random.Random(7)
    feed = rt.FeedMessage()
    header(feed, int(day0) + 86400)
    rows = []
    by_trip = {}
    for st in csv.DictReader(open(os.path.join(demo, "stop_times.txt"))):
        by_trip.setdefault(st["trip_id"], []).append(st)
    for k, (trip, stops) in enumerate(sorted(by_trip.items())):
        e = feed.entity.add()
        e.id = f"d{k}"
        u = e.trip_update
        u.trip.trip_id = trip
        if k != 1:
            u.trip.start_date = "20070604"
        for j, st in enumerate(stops):
            when = st["arrival_time"] or st["departure_time"]
            scheduled = day0 + secs(when)
            delay = rng.randint(-180, 540)
            s = u.stop_time_update.add()
            s.stop_id = st["stop_id"]
            if j % 3 != 2:
                s.stop_sequence = int(st["stop_sequence"])
            if j % 4 == 3:
                s.arrival.delay = delay
            else:
                s.arrival.time = int(scheduled) + delay
            rows.append({"trip_id": trip, "route_id": routes[trip], "stop_id": st["stop_id"],
                         "scheduled": int(scheduled), "delay": delay, "on_time": -60 <= delay <= 300})
    with open(os.path.join(folder, "delays.pb"), "wb") as f:
        f.write(feed.SerializeToString())
    return rows


def write(folder, name, feed, expected):
    with open(os.path.join(folder, name), "wb") as f:
        f.write(feed.SerializeToString())
    expected[name] = rows(feed)


def main(folder):
    os.makedirs(os.path.join(folder, "snapshots"), exist_ok=True)
    expected = {}
    f = rt.FeedMessage(); header(f, T0); write(folder, "vehicle_positions.pb", vehicles(f, T0), expected)
    f = rt.FeedMessage(); header(f, T0); write(folder, "trip_updates.pb", trip_updates(f, T0), expected)
    f = rt.FeedMessage(); header(f, T0); write(folder, "alerts.pb", alerts(f, T0), expected)
    f = rt.FeedMessage(); header(f, T0); vehicles(f, T0, 2); trip_updates(f, T0); alerts(f, T0)
    write(folder, "mixed.pb", f, expected)
    for k in range(3):
        f = rt.FeedMessage(); header(f, T0 + 30 * k)
        write(folder, os.path.join("snapshots", f"vp-{k}.pb"), vehicles(f, T0 + 30 * k, 2 + k), expected)
    with open(os.path.join(folder, "delays.json"), "w") as out:
        json.dump(delays(folder), out, indent=1)
    with open(os.path.join(folder, "expected.json"), "w") as out:
        json.dump(expected, out, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
