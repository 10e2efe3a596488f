#!/usr/bin/env python3
"""An independent reading of utq's geometry functions and spatial joins, for the
differential tests: shapely (GEOS) for the plane, geographiclib (Karney) for lng/lat.

    geometry_reference.py CASES.json

CASES.json is {"cases": [{"op": ..., ...}, ...]}; the answer, printed as JSON, is one result
per case, in order:

  pairs        {"left": [[id, wkt]], "right": [[id, wkt]], "test": "within"|"contains"|"intersects"}
               -> [[left id, right id]] for every pair that holds (brute force, shapely)
  measures     {"geometries": [[id, wkt]]} -> [[id, area, length, centroid x, centroid y]] (shapely)
  nearest      {"left": [[id, wkt]], "right": [[id, wkt]], "k": k}
               -> [[left id, [distances of its k nearest right rows, nearest first]]] (shapely)
  buffers      {"geometries": [[id, wkt]], "d": d} -> [[id, area of shapely's buffer(d)]]
  dissolves    {"groups": [[id, [wkt, ...]]], "d": d} -> [[id, area of the union of their buffers]]
  near_geodesic {"left": [[id, lon, lat]], "right": [[id, lon, lat]], "d": metres}
               -> [[left id, right id, metres]] for every pair at most d apart (geographiclib)
  nearest_geodesic {"left": [[id, lon, lat]], "right": [[id, lon, lat]], "k": k}
               -> [[left id, [metres of its k nearest]]]
  lengths_geodesic {"geometries": [[id, wkt]]} -> [[id, metres]] (sum of geodesics; rings too)
  areas_geodesic {"geometries": [[id, wkt]]} -> [[id, square metres]] (PolygonArea, holes out)
  bearings_geodesic {"pairs": [[id, lon1, lat1, lon2, lat2]]} -> [[id, degrees 0..360]]
  point_line_geodesic {"points": [[id, lon, lat]], "lines": [[id, wkt]]}
               -> [[point id, line id, metres]]: the nearest point of each line, found on each
                  of its geodesic segments by a ternary search with geographiclib's Direct and
                  Inverse, ends included
"""
import json, math, sys

from geographiclib.geodesic import Geodesic
from shapely import wkt as shapely_wkt

G = Geodesic.WGS84


def geom(text):
    return shapely_wkt.loads(text)


def pairs(case):
    left = [(i, geom(w)) for i, w in case["left"]]
    right = [(j, geom(w)) for j, w in case["right"]]
    test = case["test"]
    out = []
    for i, a in left:
        for j, b in right:
            if getattr(a, test)(b):
                out.append([i, j])
    return out


def measures(case):
    out = []
    for i, w in case["geometries"]:
        g = geom(w)
        c = g.centroid
        out.append([i, g.area, g.length, c.x, c.y])
    return out


def nearest(case):
    right = [(j, geom(w)) for j, w in case["right"]]
    out = []
    for i, w in case["left"]:
        a = geom(w)
        d = sorted(a.distance(b) for _, b in right)
        out.append([i, d[: case["k"]]])
    return out


def buffers(case):
    # Eight segments a quadrant, as PostGIS's ST_Buffer and utq draw arcs (shapely 2 uses 16).
    return [[i, geom(w).buffer(case["d"], quad_segs=8).area] for i, w in case["geometries"]]


def dissolves(case):
    """{"groups": [[id, [wkt, ...]]], "d": d} -> [[id, area of the union of the buffers]]"""
    from shapely.ops import unary_union
    return [[i, unary_union([geom(w).buffer(case["d"], quad_segs=8) for w in ws]).area] for i, ws in case["groups"]]


def inverse(lon1, lat1, lon2, lat2):
    return G.Inverse(lat1, lon1, lat2, lon2)


def near_geodesic(case):
    out = []
    for i, lon1, lat1 in case["left"]:
        for j, lon2, lat2 in case["right"]:
            s = inverse(lon1, lat1, lon2, lat2)["s12"]
            if s <= case["d"]:
                out.append([i, j, s])
    return out


def nearest_geodesic(case):
    out = []
    for i, lon1, lat1 in case["left"]:
        d = sorted(inverse(lon1, lat1, lon2, lat2)["s12"] for _, lon2, lat2 in case["right"])
        out.append([i, d[: case["k"]]])
    return out


def rings(g):
    if g.geom_type == "LineString":
        return [list(g.coords)]
    if g.geom_type == "Polygon":
        return [list(g.exterior.coords)] + [list(r.coords) for r in g.interiors]
    out = []
    for part in g.geoms:
        out += rings(part)
    return out


def lengths_geodesic(case):
    out = []
    for i, w in case["geometries"]:
        total = 0.0
        for ring in rings(geom(w)):
            for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
                total += inverse(x1, y1, x2, y2)["s12"]
        out.append([i, total])
    return out


def ring_area(coords):
    p = G.Polygon()
    for x, y in coords[:-1] if coords[0] == coords[-1] else coords:
        p.AddPoint(y, x)
    _, _, area = p.Compute(False, True)
    return abs(area)


def areas_geodesic(case):
    out = []
    for i, w in case["geometries"]:
        g = geom(w)
        parts = [g] if g.geom_type == "Polygon" else list(g.geoms)
        total = 0.0
        for p in parts:
            total += ring_area(list(p.exterior.coords))
            for hole in p.interiors:
                total -= ring_area(list(hole.coords))
        out.append([i, total])
    return out


def bearings_geodesic(case):
    out = []
    for i, lon1, lat1, lon2, lat2 in case["pairs"]:
        a = inverse(lon1, lat1, lon2, lat2)["azi1"]
        out.append([i, a + 360 if a < 0 else a])
    return out


def segment_distance(lon, lat, a, b):
    line = G.InverseLine(a[1], a[0], b[1], b[0])
    def at(t):
        q = line.Position(t * line.s13)
        return G.Inverse(lat, lon, q["lat2"], q["lon2"])["s12"]
    lo, hi = 0.0, 1.0
    while (hi - lo) * line.s13 > 1e-7:
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if at(m1) < at(m2):
            hi = m2
        else:
            lo = m1
    return min(at(0.0), at(1.0), at((lo + hi) / 2))


def point_line_geodesic(case):
    out = []
    lines = [(j, rings(geom(w))) for j, w in case["lines"]]
    for i, lon, lat in case["points"]:
        for j, line_rings in lines:
            best = math.inf
            for ring in line_rings:
                for a, b in zip(ring, ring[1:]):
                    best = min(best, segment_distance(lon, lat, a, b))
            out.append([i, j, best])
    return out


OPS = {f.__name__: f for f in [pairs, measures, nearest, buffers, dissolves, near_geodesic, nearest_geodesic, lengths_geodesic,
                               areas_geodesic, bearings_geodesic, point_line_geodesic]}

if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        cases = json.load(f)["cases"]
    json.dump([OPS[c["op"]](c) for c in cases], sys.stdout)
