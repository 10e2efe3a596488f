#!/usr/bin/env python3
"""The rows of bench/spatial.py, made from a seed: points, zones and stops over a 40 km × 40 km
box around Oslo's centre (59.9139 N, 10.7522 E), written as CSV to bench/data/spatial/.

    python3 bench/spatial_data.py [--points 1000000] [--seed 35]

- points-N.csv (id, lng, lat): N positions, as GPS logs of a city's activity hold them: most
  around the centre (a normal spread of 3 km), a quarter around four local centres, a fifth
  anywhere in the box; 6 decimals (about 0.1 m). One in 10,000 lies exactly on a zone's
  corner (a position snapped to a block's corner), which is on the zone's boundary and so
  within no zone.
- zones.csv (id, kind, geometry): 10,000 polygons as WKT that tile the box but for a bay
  south of the centre: a 100 × 100 grid whose lines crowd towards the centre (140 m blocks
  there, 900 m districts at the edge), each corner moved at random, each side bent by 0 to 2
  points shared with the neighbour across it (4 to 12 corners, convex or not); 900 zones
  have a hole, 600 of them filled by a zone of their own (an enclave: a park in a district),
  300 left empty (a lake).
- stops.csv (id, lat, lng): 100,000 stops, three quarters anywhere in the box, a quarter
  around the centre (a normal spread of 6 km).

Each file is made once for its size and seed; its rows depend on nothing else.
"""
import argparse, math, os, sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "bench", "data", "spatial")

LAT0, LNG0 = 59.9139, 10.7522
HALF = 20.0  # km either side of the centre
KM_LAT = 1 / 111.2  # degrees of latitude in a km, near enough for laying out the box
KM_LNG = 1 / (111.32 * math.cos(math.radians(LAT0)))
GRID = 100  # cells a side
DROPPED = 600  # cells of the bay
ENCLAVES = 600  # holes filled by a zone of their own
LAKES = 300  # holes left empty
STOPS = 100_000


def lnglat(u, v):
    """Local km east and north of the centre as longitude and latitude."""
    return LNG0 + u * KM_LNG, LAT0 + v * KM_LAT


def text(x):
    return f"{x:.6f}"


def grid_lines():
    """The grid's lines in km: crowded towards the centre (g(t) = 20 (a t + (1 − a) t³))."""
    a = 0.35
    t = np.linspace(-1, 1, GRID + 1)
    return HALF * (a * t + (1 - a) * t ** 3)


def make_zones(seed):
    rng = np.random.default_rng(seed)
    g = grid_lines()
    spacing = np.diff(g)
    # The smaller neighbouring spacing at each grid line.
    near = np.minimum(np.r_[spacing[0], spacing], np.r_[spacing, spacing[-1]])
    n = GRID + 1
    cu = np.repeat(g[:, None], n, axis=1)  # corner (i, j): x from column line i, y from row line j
    cv = np.repeat(g[None, :], n, axis=0)
    inner = np.zeros((n, n), bool)
    inner[1:-1, 1:-1] = True
    cu = cu + np.where(inner, rng.uniform(-0.18, 0.18, (n, n)) * near[:, None], 0)
    cv = cv + np.where(inner, rng.uniform(-0.18, 0.18, (n, n)) * near[None, :], 0)
    # Rounded once, so that a corner two zones share is the same text in both.
    corners = {}
    for i in range(n):
        for j in range(n):
            x, y = lnglat(cu[i, j], cv[i, j])
            corners[i, j] = (round(float(x), 6), round(float(y), 6))

    def bend(a, b, across):
        """0 to 2 points between corners a and b, within its middle half, off the line by up
        to 8% of its length or of the cells' size across it (`across`, km), whichever is less;
        shared by the zones on both sides."""
        k = int(rng.integers(0, 3))
        (ax, ay), (bx, by) = corners[a], corners[b]
        dx, dy = bx - ax, by - ay
        # The unit perpendicular, in degrees that hold a km each way.
        length = math.hypot(dx / KM_LNG, dy / KM_LAT)
        px, py = -dy / KM_LAT / length * KM_LNG, dx / KM_LNG / length * KM_LAT
        reach = min(length, across)
        ts = sorted(rng.uniform(0.25, 0.45, k) + np.array([0, 0.3])[:k])
        out = []
        for t in ts:
            o = rng.uniform(-0.08, 0.08) * reach
            out.append((round(float(ax + t * dx + o * px), 6), round(float(ay + t * dy + o * py), 6)))
        return out

    horizontal = {(i, j): bend((i, j), (i + 1, j), near[j]) for i in range(GRID) for j in range(n)}
    vertical = {(i, j): bend((i, j), (i, j + 1), near[i]) for i in range(n) for j in range(GRID)}

    def shell(i, j):
        """Counter-clockwise: bottom left to right, right side up, top right to left, left down."""
        ring = [corners[i, j]] + horizontal[i, j] + [corners[i + 1, j]] + vertical[i + 1, j]
        ring += [corners[i + 1, j + 1]] + horizontal[i, j + 1][::-1] + [corners[i, j + 1]] + vertical[i, j][::-1]
        return ring

    # The bay: the cells nearest a point 12 km south of the centre.
    centres = [((g[i] + g[i + 1]) / 2, (g[j] + g[j + 1]) / 2, i, j) for i in range(GRID) for j in range(GRID)]
    centres.sort(key=lambda c: math.hypot(c[0] - 0.5, (c[1] + 12) * 1.6))
    dropped = {(c[2], c[3]) for c in centres[:DROPPED]}
    kept = [(i, j) for i in range(GRID) for j in range(GRID) if (i, j) not in dropped]
    holed = rng.choice(len(kept), ENCLAVES + LAKES, replace=False)
    holes = {}
    for k, h in enumerate(holed):
        i, j = kept[h]
        four = [corners[i, j], corners[i + 1, j], corners[i + 1, j + 1], corners[i, j + 1]]
        cx, cy = sum(p[0] for p in four) / 4, sum(p[1] for p in four) / 4
        r = 0.15 * min(spacing[i], spacing[j])
        m = int(rng.integers(4, 7))
        angles = np.sort(rng.uniform(0, 2 * math.pi / m, m) + np.arange(m) * 2 * math.pi / m)
        radii = r * rng.uniform(0.7, 1.0, m)
        # Clockwise, as a hole runs.
        hole = [(round(float(cx + rr * math.cos(a) * KM_LNG), 6), round(float(cy + rr * math.sin(a) * KM_LAT), 6)) for a, rr in zip(angles[::-1], radii[::-1])]
        holes[i, j] = (hole, k < ENCLAVES)
    zones = []  # (kind, rings)
    for i, j in kept:
        rings = [shell(i, j)]
        if (i, j) in holes:
            rings.append(holes[i, j][0])
        zones.append(("district" if max(abs(g[i]), abs(g[j])) > 6 else "block", rings))
    for (i, j), (hole, enclave) in holes.items():
        if enclave:
            zones.append(("park", [hole[::-1]]))
    assert len(zones) == 10_000, len(zones)
    for _, rings in zones:
        check(rings)
    return zones


def segments_cross(a, b, c, d):
    """Whether segments a–b and c–d share a point (touching counts)."""
    def orient(p, q, r):
        v = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
        return (v > 0) - (v < 0)

    def on(p, q, r):
        return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if o1 != o2 and o3 != o4:
        return True
    return (o1 == 0 and on(a, b, c)) or (o2 == 0 and on(a, b, d)) or (o3 == 0 and on(c, d, a)) or (o4 == 0 and on(c, d, b))


def check(rings):
    """Each ring simple, each hole inside the shell and apart from it: a valid polygon."""
    edges = []
    for r, ring in enumerate(rings):
        assert len(set(ring)) == len(ring), "a repeated corner"
        m = len(ring)
        edges += [(r, k, ring[k], ring[(k + 1) % m], m) for k in range(m)]
    for x in range(len(edges)):
        for y in range(x + 1, len(edges)):
            r1, k1, a, b, m1 = edges[x]
            r2, k2, c, d, _ = edges[y]
            if r1 == r2 and (k2 == k1 + 1 or (k1 == 0 and k2 == m1 - 1)):
                continue  # neighbours share a corner
            assert not segments_cross(a, b, c, d), f"ring {rings[0][:3]}… crosses itself"
    for hole in rings[1:]:
        assert inside(hole[0], rings[0]), "a hole outside its shell"


def inside(p, ring):
    """Whether p is inside the ring (crossings of a ray to the east)."""
    x, y = p
    crossings = 0
    for k in range(len(ring)):
        (ax, ay), (bx, by) = ring[k], ring[(k + 1) % len(ring)]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            crossings += 1
    return crossings % 2 == 1


def wkt(rings):
    return "POLYGON (" + ", ".join("(" + ", ".join(f"{text(x)} {text(y)}" for x, y in ring + [ring[0]]) + ")" for ring in rings) + ")"


def make_points(count, seed, zones):
    rng = np.random.default_rng([seed, count])
    parts = [(0.55, [(0.0, 0.0)], 3.0), (0.25, [(-8, 5), (7, 6), (9, -4), (-6, -7)], 1.5)]
    us, vs = [], []
    for share, centres, sigma in parts:
        k = int(count * share)
        which = rng.integers(0, len(centres), k)
        c = np.array(centres, float)[which]
        us.append(c[:, 0] + rng.normal(0, sigma, k))
        vs.append(c[:, 1] + rng.normal(0, sigma, k))
    rest = count - sum(len(u) for u in us)
    us.append(rng.uniform(-HALF, HALF, rest))
    vs.append(rng.uniform(-HALF, HALF, rest))
    u, v = np.concatenate(us), np.concatenate(vs)
    # Those outside the box come back in from the opposite side.
    u = (u + HALF) % (2 * HALF) - HALF
    v = (v + HALF) % (2 * HALF) - HALF
    order = rng.permutation(count)
    x, y = lnglat(u[order], v[order])
    x, y = np.round(x, 6), np.round(y, 6)
    # One in 10,000 exactly on a zone's corner.
    snapped = rng.choice(count, count // 10_000, replace=False)
    for s in snapped:
        ring = zones[int(rng.integers(0, len(zones)))][1][0]
        x[s], y[s] = ring[int(rng.integers(0, len(ring)))]
    return x, y


def make_stops(seed):
    rng = np.random.default_rng([seed, 7])
    k = STOPS // 4
    u = np.r_[rng.normal(0, 6, k), rng.uniform(-HALF, HALF, STOPS - k)]
    v = np.r_[rng.normal(0, 6, k), rng.uniform(-HALF, HALF, STOPS - k)]
    u = (u + HALF) % (2 * HALF) - HALF
    v = (v + HALF) % (2 * HALF) - HALF
    order = rng.permutation(STOPS)
    x, y = lnglat(u[order], v[order])
    return np.round(x, 6), np.round(y, 6)


def files(points, seed=35):
    """The three files for `points` points, made if missing: (points, zones, stops)."""
    os.makedirs(FOLDER, exist_ok=True)
    tag = f"-s{seed}" if seed != 35 else ""
    zones_path = os.path.join(FOLDER, f"zones{tag}.csv")
    stops_path = os.path.join(FOLDER, f"stops{tag}.csv")
    points_path = os.path.join(FOLDER, f"points-{points}{tag}.csv")
    zones = None
    if not os.path.exists(zones_path) or not os.path.exists(points_path):
        print(f"making 10,000 zones (seed {seed}) …", file=sys.stderr)
        zones = make_zones(seed)
    if not os.path.exists(zones_path):
        with open(zones_path + ".part", "w") as f:
            f.write("id,kind,geometry\n")
            for k, (kind, rings) in enumerate(zones, 1):
                f.write(f'{k},{kind},"{wkt(rings)}"\n')
        os.replace(zones_path + ".part", zones_path)
    if not os.path.exists(points_path):
        print(f"making {points:,} points …", file=sys.stderr)
        x, y = make_points(points, seed, zones)
        with open(points_path + ".part", "w") as f:
            f.write("id,lng,lat\n")
            f.writelines(f"{k},{a:.6f},{b:.6f}\n" for k, (a, b) in enumerate(zip(x.tolist(), y.tolist()), 1))
        os.replace(points_path + ".part", points_path)
    if not os.path.exists(stops_path):
        print("making 100,000 stops …", file=sys.stderr)
        x, y = make_stops(seed)
        with open(stops_path + ".part", "w") as f:
            f.write("id,lat,lng\n")
            f.writelines(f"{k},{b:.6f},{a:.6f}\n" for k, (a, b) in enumerate(zip(x.tolist(), y.tolist()), 1))
        os.replace(stops_path + ".part", stops_path)
    return points_path, zones_path, stops_path


def main():
    a = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    a.add_argument("--points", type=int, default=1_000_000)
    a.add_argument("--seed", type=int, default=35)
    args = a.parse_args()
    for path in files(args.points, args.seed):
        print(path, f"{os.path.getsize(path) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
