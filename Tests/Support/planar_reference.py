"""Reference answers from shapely (GEOS) for the planar geometry tests.

Usage: python planar_reference.py CASES.json > RESULTS.json

CASES.json holds:
  geometries: [WKT, ...]
  unary:   [i, ...]                                   -> area, length, centroid, valid
  pairs:   [[i, j], ...]                              -> distance, nearest points, predicates
  buffers: [{"g": i, "d": d, "quad_segs": q, "probes": [[x, y], ...]}, ...]
                                                      -> area, exterior ring, probe distances
  unions:  [{"gs": [i, ...], "probes": [[x, y], ...]}, ...]
                                                      -> area, polygon and hole counts,
                                                         probe inside flags and distances
                                                         to the union's boundary
Every float is written with repr, so it reads back exactly.
"""
import json
import math
import sys

import shapely
from shapely import wkt
from shapely.geometry import Point
from shapely.ops import nearest_points


def number(x):
    """JSON has no NaN or infinity: those become null."""
    return None if x is None or math.isnan(x) or math.isinf(x) else x


def polygon_counts(g):
    polygons = list(g.geoms) if g.geom_type == "MultiPolygon" else ([g] if g.geom_type == "Polygon" and not g.is_empty else [])
    return len(polygons), sum(len(p.interiors) for p in polygons)


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    geometries = [wkt.loads(w) for w in cases["geometries"]]
    out = {"unary": [], "pairs": [], "buffers": [], "unions": []}

    for i in cases.get("unary", []):
        g = geometries[i]
        c = g.centroid
        out["unary"].append({
            "area": g.area,
            "length": g.length,
            "centroid": None if c.is_empty else [c.x, c.y],
            "valid": bool(g.is_valid),
        })

    for i, j in cases.get("pairs", []):
        a, b = geometries[i], geometries[j]
        nearest = None
        if not a.is_empty and not b.is_empty:
            pa, pb = nearest_points(a, b)
            nearest = [[pa.x, pa.y], [pb.x, pb.y]]
        out["pairs"].append({
            "distance": number(a.distance(b)),
            "nearest": nearest,
            "intersects": bool(a.intersects(b)),
            "contains": bool(a.contains(b)),
            "within": bool(a.within(b)),
            "covers": bool(a.covers(b)),
            "touches": bool(a.touches(b)),
            "disjoint": bool(a.disjoint(b)),
            "relate": a.relate(b),
        })

    for case in cases.get("buffers", []):
        g = geometries[case["g"]]
        buffered = g.buffer(case["d"], quad_segs=case["quad_segs"])
        exterior = None
        if buffered.geom_type == "Polygon" and not buffered.is_empty:
            exterior = [list(c) for c in buffered.exterior.coords]
        polygons, holes = polygon_counts(buffered)
        out["buffers"].append({
            "area": buffered.area,
            "exterior": exterior,
            "polygons": polygons,
            "holes": holes,
            "probeDistances": [g.distance(Point(x, y)) for x, y in case["probes"]],
        })

    for case in cases.get("unions", []):
        merged = shapely.union_all([geometries[i] for i in case["gs"]])
        boundary = merged.boundary
        polygons, holes = polygon_counts(merged)
        out["unions"].append({
            "area": merged.area,
            "polygons": polygons,
            "holes": holes,
            "probeInside": [bool(merged.covers(Point(x, y))) for x, y in case["probes"]],
            "probeBoundaryDistance": [number(boundary.distance(Point(x, y))) for x, y in case["probes"]],
        })

    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
