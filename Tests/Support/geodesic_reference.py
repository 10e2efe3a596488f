#!/usr/bin/env python3
"""GeographicLib's own answers (the geographiclib package, WGS 84) for the differential tests of
Geodesic.

    geodesic_reference.py [--c-hypot] CASES.json

With --c-hypot, geographiclib calls the C library's hypot (as GeographicLib's C library does)
instead of Python's math.hypot, which rounds differently in about one case in a thousand;
otherwise it runs as installed.

CASES.json holds lists of cases under any of these keys:
    inverse    [lat1, lon1, lat2, lon2]
    direct     [lat1, lon1, azi1, s12]
    length     [[lat, ...], [lon, ...]]
    ring       [[lat, ...], [lon, ...]]
    waypoints  [lat1, lon1, lat2, lon2, step]

Prints JSON with the same keys, one result per case:
    inverse    [s12, azi1, azi2]                    Geodesic.Inverse
    direct     [lat2, lon2, azi2]                   Geodesic.Direct (lon2 in [-180, 180])
    length     s12                                  PolygonArea as a polyline
    ring       [area, perimeter]                    PolygonArea.Compute(reverse=False, sign=True),
                                                    area made positive
    waypoints  [[lat, lon], ...]                    the two ends (lon in [-180, 180]) and, between
                                                    them, InverseLine.Position(k * step) for
                                                    k = 1 ..< ceil(s12 / step)
"""
import ctypes
import ctypes.util
import json
import math
import sys

try:
    from geographiclib.geodesic import Geodesic
    from geographiclib.geomath import Math
except ImportError:
    sys.exit("geodesic_reference.py needs the geographiclib package: pip install geographiclib")

GEOD = Geodesic.WGS84


def use_c_hypot():
    """Makes geographiclib call the C library's hypot, as geodesic.c does, instead of Python's
    own math.hypot (which rounds differently in about one case in a thousand)."""
    libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    libm.hypot.restype = ctypes.c_double
    libm.hypot.argtypes = [ctypes.c_double, ctypes.c_double]
    math.hypot = libm.hypot


def inverse(lat1, lon1, lat2, lon2):
    r = GEOD.Inverse(lat1, lon1, lat2, lon2)
    return [r["s12"], r["azi1"], r["azi2"]]


def direct(lat1, lon1, azi1, s12):
    r = GEOD.Direct(lat1, lon1, azi1, s12)
    return [r["lat2"], r["lon2"], r["azi2"]]


def length(lats, lons):
    polyline = GEOD.Polygon(True)
    for lat, lon in zip(lats, lons):
        polyline.AddPoint(lat, lon)
    return polyline.Compute(False, True)[1]


def ring(lats, lons):
    polygon = GEOD.Polygon(False)
    for lat, lon in zip(lats, lons):
        polygon.AddPoint(lat, lon)
    _, perimeter, area = polygon.Compute(False, True)
    return [abs(area), perimeter]


def waypoints(lat1, lon1, lat2, lon2, step):
    start = [lat1, Math.AngNormalize(lon1)]
    end = [lat2, Math.AngNormalize(lon2)]
    s12 = GEOD.Inverse(lat1, lon1, lat2, lon2)["s12"]
    if not (s12 > 0 and math.isfinite(s12) and step > 0):
        return [start, end]
    line = GEOD.InverseLine(lat1, lon1, lat2, lon2)
    points = [start]
    for k in range(1, math.ceil(s12 / step)):
        p = line.Position(k * step)
        points.append([p["lat2"], p["lon2"]])
    points.append(end)
    return points


SOLVERS = {"inverse": inverse, "direct": direct, "length": length, "ring": ring, "waypoints": waypoints}


def main():
    arguments = sys.argv[1:]
    if arguments[:1] == ["--c-hypot"]:
        use_c_hypot()
        arguments = arguments[1:]
    if len(arguments) != 1:
        sys.exit(__doc__)
    with open(arguments[0]) as f:
        cases = json.load(f)
    results = {key: [SOLVERS[key](*case) for case in cases[key]] for key in cases}
    json.dump(results, sys.stdout, allow_nan=False)


if __name__ == "__main__":
    main()
