import Foundation

/// Measures that depend on where a geometry lies: on a plane they are the plane's (`Planar`);
/// in lng/lat they are geodesic on WGS 84 (`Geodesic`): distances and lengths in metres,
/// areas in square metres, bearings from north. Which side of an edge a point is on, and so
/// within, contains and intersects, are read in the coordinates as they are on both, as
/// PostGIS's geometry type and shapely read them.
enum GeoMeasure {
    static let geodesic = Geodesic.wgs84

    /// The shortest distance between two geometries: 0 when they meet.
    static func distance(_ a: Geometry, _ b: Geometry) -> Double {
        if a.isEmpty || b.isEmpty { return .nan }
        guard a.space == .lnglat else { return Planar.distance(a, b) }
        if a.kind == .point && b.kind == .point {
            return geodesic.inverse(lat1: a.ys[0], lon1: a.xs[0], lat2: b.ys[0], lon2: b.xs[0]).distance
        }
        if Planar.intersects(a, b) { return 0 }
        // Apart, the nearest points of two geometries include a vertex of one of them.
        var best = Double.infinity
        for i in a.xs.indices { best = min(best, pointDistance(a.xs[i], a.ys[i], to: b)) }
        for i in b.xs.indices { best = min(best, pointDistance(b.xs[i], b.ys[i], to: a)) }
        return best
    }

    /// Metres from a lng/lat point to the nearest point of a geometry's vertices and edges
    /// (0 inside a polygon). Edges are geodesics; each one near enough to be the nearest by a
    /// flat estimate is searched along its length.
    static func pointDistance(_ x: Double, _ y: Double, to g: Geometry) -> Double {
        if g.kind.dimension == 2, Planar.locate(x, y, in: g) != .exterior { return 0 }
        let frame = LocalFrame(lat: y)
        var estimates: [(Double, Int)] = []
        var nearest = Double.infinity
        for ring in 0..<g.ringCount {
            let r = g.pointRange(ring: ring)
            if r.count == 1 {
                let e = frame.distance(x, y, g.xs[r.lowerBound], g.ys[r.lowerBound])
                estimates.append((e, -1 - r.lowerBound)); nearest = min(nearest, e)
                continue
            }
            for k in r.lowerBound..<(r.upperBound - 1) {
                let e = frame.segmentDistance(x, y, g.xs[k], g.ys[k], g.xs[k + 1], g.ys[k + 1])
                estimates.append((e, k)); nearest = min(nearest, e)
            }
        }
        // The flat estimate is within a fraction of a percent over a city; allow for more.
        let reach = nearest * 1.02 + 1
        var best = Double.infinity
        for (e, k) in estimates where e <= reach {
            if k < 0 {
                let i = -1 - k
                best = min(best, geodesic.inverse(lat1: y, lon1: x, lat2: g.ys[i], lon2: g.xs[i]).distance)
            } else {
                best = min(best, segmentDistance(x, y, g.xs[k], g.ys[k], g.xs[k + 1], g.ys[k + 1]))
            }
        }
        return best
    }

    /// Metres from a point to a geodesic segment: the nearest point along it found by a
    /// golden-section search (the distance along a geodesic has one minimum for segments of
    /// the lengths geometries have), ends included.
    static func segmentDistance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let line = geodesic.inverse(lat1: ay, lon1: ax, lat2: by, lon2: bx)
        func at(_ t: Double) -> Double {
            let q = geodesic.direct(lat1: ay, lon1: ax, azimuth: line.azimuth1, distance: t * line.distance)
            return geodesic.inverse(lat1: py, lon1: px, lat2: q.lat, lon2: q.lon).distance
        }
        let toA = geodesic.inverse(lat1: py, lon1: px, lat2: ay, lon2: ax).distance
        let toB = geodesic.inverse(lat1: py, lon1: px, lat2: by, lon2: bx).distance
        guard line.distance > 0 else { return toA }
        let ratio = (5.0.squareRoot() - 1) / 2
        var lo = 0.0, hi = 1.0
        var c = hi - ratio * (hi - lo), d = lo + ratio * (hi - lo)
        var fc = at(c), fd = at(d)
        // Until the bracket is under a micrometre of the segment.
        while (hi - lo) * line.distance > 1e-6 {
            if fc < fd { hi = d; d = c; fd = fc; c = hi - ratio * (hi - lo); fc = at(c) }
            else { lo = c; c = d; fc = fd; d = lo + ratio * (hi - lo); fd = at(d) }
        }
        return min(toA, toB, fc, fd)
    }

    /// Lines' lengths and polygons' perimeters: geodesic metres in lng/lat.
    static func length(_ g: Geometry) -> Double {
        guard g.space == .lnglat else { return Planar.length(g) }
        guard g.kind.dimension > 0 else { return 0 }
        var total = 0.0
        for ring in 0..<g.ringCount {
            let r = g.pointRange(ring: ring)
            total += geodesic.length(lats: Array(g.ys[r]), lons: Array(g.xs[r]))
        }
        return total
    }

    /// Polygons' areas, holes taken out: geodesic square metres in lng/lat.
    static func area(_ g: Geometry) -> Double {
        guard g.space == .lnglat else { return Planar.area(g) }
        guard g.kind.dimension == 2 else { return 0 }
        var total = 0.0
        for p in 0..<g.partCount {
            for (k, ring) in g.ringRange(part: p).enumerated() {
                let r = g.pointRange(ring: ring)
                let a = geodesic.ringArea(lats: Array(g.ys[r]), lons: Array(g.xs[r])).area
                total += k == 0 ? a : -a
            }
        }
        return total
    }

    /// The direction from one point to another, in degrees clockwise from north (0 to 360):
    /// the geodesic's start in lng/lat, from the plane's y axis on a plane.
    static func bearing(_ a: Geometry, _ b: Geometry) -> Double? {
        guard let p = representative(a), let q = representative(b), p != q else { return nil }
        if a.space == .plane { return Planar.bearing(from: p, to: q) }
        let az = geodesic.inverse(lat1: p.y, lon1: p.x, lat2: q.y, lon2: q.x).azimuth1
        return az < 0 ? az + 360 : az
    }

    /// A point stands for itself; anything else for its centroid.
    static func representative(_ g: Geometry) -> (x: Double, y: Double)? {
        if g.kind == .point, !g.isEmpty { return (g.xs[0], g.ys[0]) }
        guard let c = Planar.centroid(g), !c.isEmpty else { return nil }
        return (c.xs[0], c.ys[0])
    }

    /// Every point within `d` of the geometry (metres in lng/lat): a point's circle has its
    /// vertices at exactly `d` along geodesics; other geometries are buffered in metres on an
    /// azimuthal equidistant plane around their middle, which keeps distances from it exact.
    static func buffer(_ g: Geometry, _ d: Double) -> Geometry {
        guard g.space == .lnglat else { return Planar.buffer(g, d) }
        guard !g.isEmpty, let bounds = g.bounds else { return g }
        let plane = AzimuthalPlane(lat: (bounds.minY + bounds.maxY) / 2, lon: (bounds.minX + bounds.maxX) / 2)
        if g.kind == .point {
            // The plane's circle around the origin, its vertices sent out along geodesics.
            var ring = Planar.buffer(.point(0, 0, space: .plane), d)
            for i in ring.xs.indices {
                let azimuth = atan2(ring.xs[i], ring.ys[i]) * 180 / .pi
                let q = geodesic.direct(lat1: g.ys[0], lon1: g.xs[0], azimuth: azimuth, distance: d)
                ring.xs[i] = q.lon; ring.ys[i] = q.lat
            }
            ring.space = .lnglat
            return ring
        }
        var flat = g
        flat.space = .plane
        for i in flat.xs.indices { (flat.xs[i], flat.ys[i]) = plane.forward(lat: g.ys[i], lon: g.xs[i]) }
        var out = Planar.buffer(flat, d)
        for i in out.xs.indices { (out.xs[i], out.ys[i]) = plane.inverse(x: out.xs[i], y: out.ys[i]) }
        out.space = .lnglat
        return out
    }
}

/// Metres east and north of a latitude, for quick estimates: the ellipsoid's radii of
/// curvature there (a city's distances to a fraction of a percent).
struct LocalFrame {
    let metresPerDegreeLat: Double
    let metresPerDegreeLon: Double

    init(lat: Double) {
        let a = 6_378_137.0, e2 = 0.006_694_379_990_14
        let phi = lat * .pi / 180
        let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        metresPerDegreeLat = .pi / 180 * a * (1 - e2) / (w * w * w)
        metresPerDegreeLon = .pi / 180 * a * cos(phi) / w
    }

    func distance(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        let dx = wrap(x2 - x1) * metresPerDegreeLon, dy = (y2 - y1) * metresPerDegreeLat
        return (dx * dx + dy * dy).squareRoot()
    }

    func segmentDistance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let ux = wrap(bx - ax) * metresPerDegreeLon, uy = (by - ay) * metresPerDegreeLat
        let vx = wrap(px - ax) * metresPerDegreeLon, vy = (py - ay) * metresPerDegreeLat
        let len2 = ux * ux + uy * uy
        let t = len2 > 0 ? max(0, min(1, (vx * ux + vy * uy) / len2)) : 0
        let dx = vx - t * ux, dy = vy - t * uy
        return (dx * dx + dy * dy).squareRoot()
    }

    /// A longitude difference the short way round.
    func wrap(_ d: Double) -> Double { d > 180 ? d - 360 : (d < -180 ? d + 360 : d) }
}

/// The azimuthal equidistant projection about a centre: a point's distance and direction
/// from the centre are its geodesic distance and azimuth, so a buffer drawn on it in metres
/// is true about the middle of the geometry.
struct AzimuthalPlane {
    let lat: Double, lon: Double

    func forward(lat: Double, lon: Double) -> (Double, Double) {
        let r = GeoMeasure.geodesic.inverse(lat1: self.lat, lon1: self.lon, lat2: lat, lon2: lon)
        let a = r.azimuth1 * .pi / 180
        return (r.distance * sin(a), r.distance * cos(a))
    }

    func inverse(x: Double, y: Double) -> (Double, Double) {
        let distance = (x * x + y * y).squareRoot()
        guard distance > 0 else { return (lon, lat) }
        let q = GeoMeasure.geodesic.direct(lat1: lat, lon1: lon, azimuth: atan2(x, y) * 180 / .pi, distance: distance)
        return (q.lon, q.lat)
    }
}
