import Foundation

extension Planar {
    /// The smallest distance between two geometries: 0 when they meet, a point inside a
    /// polygon included. NaN when either is empty, as shapely answers.
    public static func distance(_ a: Geometry, _ b: Geometry) -> Double {
        var search = PlanarNearestSearch(a, b, wantPoints: false)
        return search.run()
    }

    /// The two points, one on each geometry, that are nearest to each other, as
    /// `shapely.ops.nearest_points` returns them (ties broken in GEOS's order); nil when either
    /// geometry is empty.
    public static func nearestPoints(_ a: Geometry, _ b: Geometry) -> ((Double, Double), (Double, Double))? {
        var search = PlanarNearestSearch(a, b, wantPoints: true)
        let d = search.run()
        guard !d.isNaN, let pa = search.pointA, let pb = search.pointB else { return nil }
        return (pa, pb)
    }
}

/// GEOS's DistanceOp: first whether a vertex of one lies in a polygon of the other (distance
/// 0), then every segment pair, segment–point pair and point pair, keeping the first strictly
/// smaller distance found so that ties resolve to the same points as GEOS.
private struct PlanarNearestSearch {
    let a: Geometry, b: Geometry
    let wantPoints: Bool
    var minDistance = Double.infinity
    var pointA: (Double, Double)?, pointB: (Double, Double)?

    init(_ a: Geometry, _ b: Geometry, wantPoints: Bool) {
        self.a = a; self.b = b; self.wantPoints = wantPoints
    }

    mutating func run() -> Double {
        if a.isEmpty || b.isEmpty { return .nan }
        if containment(of: a, in: b, flip: false) || containment(of: b, in: a, flip: true) { return 0 }
        lineLine()
        if minDistance <= 0 { return 0 }
        linePoint(lines: a, points: b, flip: false)
        if minDistance <= 0 { return 0 }
        linePoint(lines: b, points: a, flip: true)
        if minDistance <= 0 { return 0 }
        pointPoint()
        return minDistance
    }

    /// Whether the first coordinate of some member of `inner` lies in or on a polygon of
    /// `outer` (GEOS's ConnectedElementLocationFilter against its polygons).
    mutating func containment(of inner: Geometry, in outer: Geometry, flip: Bool) -> Bool {
        guard outer.kind.dimension == 2 else { return false }
        return outer.xs.withUnsafeBufferPointer { oxs in
            outer.ys.withUnsafeBufferPointer { oys in
                for part in 0..<inner.partCount {
                    let rings = inner.ringRange(part: part)
                    guard let firstRing = rings.first else { continue }
                    let points = inner.pointRange(ring: firstRing)
                    guard !points.isEmpty else { continue }
                    let x = inner.xs[points.lowerBound], y = inner.ys[points.lowerBound]
                    for polygon in 0..<outer.partCount
                    where Planar.locateInPolygon(x, y, outer, part: polygon, oxs, oys) != .exterior {
                        minDistance = 0
                        pointA = (x, y); pointB = (x, y)
                        return true
                    }
                }
                return false
            }
        }
    }

    /// The rings that are lines for distance: every ring of a line or polygon geometry.
    static func lineRings(_ g: Geometry) -> Range<Int> { g.kind.dimension >= 1 ? 0..<g.ringCount : 0..<0 }

    mutating func lineLine() {
        for ra in Self.lineRings(a) {
            let pa = a.pointRange(ring: ra)
            guard pa.count > 0 else { continue }
            for rb in Self.lineRings(b) {
                let pb = b.pointRange(ring: rb)
                guard pb.count > 0 else { continue }
                for i in pa.lowerBound..<max(pa.lowerBound, pa.upperBound - 1) {
                    let ax = a.xs[i], ay = a.ys[i], bx = a.xs[i + 1], by = a.ys[i + 1]
                    for j in pb.lowerBound..<max(pb.lowerBound, pb.upperBound - 1) {
                        let cx = b.xs[j], cy = b.ys[j], dx = b.xs[j + 1], dy = b.ys[j + 1]
                        // A lower bound from the boxes skips most pairs cheaply.
                        let gapX = max(0, max(min(cx, dx) - max(ax, bx), min(ax, bx) - max(cx, dx)))
                        let gapY = max(0, max(min(cy, dy) - max(ay, by), min(ay, by) - max(cy, dy)))
                        if gapX * gapX + gapY * gapY > minDistance * minDistance { continue }
                        let d = Planar.segmentSegmentDistance(ax, ay, bx, by, cx, cy, dx, dy)
                        if d < minDistance {
                            minDistance = d
                            if wantPoints {
                                let (p, q) = PlanarClosestPoints.compute(ax, ay, bx, by, cx, cy, dx, dy)
                                pointA = p; pointB = q
                            }
                        }
                        if minDistance <= 0 { return }
                    }
                }
            }
        }
    }

    mutating func linePoint(lines: Geometry, points: Geometry, flip: Bool) {
        guard points.kind.dimension == 0 else { return }
        for r in Self.lineRings(lines) {
            let range = lines.pointRange(ring: r)
            guard range.count > 0 else { continue }
            for k in 0..<points.pointCount {
                let px = points.xs[k], py = points.ys[k]
                for i in range.lowerBound..<max(range.lowerBound, range.upperBound - 1) {
                    let ax = lines.xs[i], ay = lines.ys[i], bx = lines.xs[i + 1], by = lines.ys[i + 1]
                    let d = Planar.pointSegmentDistance(px, py, ax, ay, bx, by)
                    if d < minDistance {
                        minDistance = d
                        if wantPoints {
                            let onLine = PlanarClosestPoints.closestPoint(px, py, ax, ay, bx, by)
                            if flip { pointA = (px, py); pointB = onLine } else { pointA = onLine; pointB = (px, py) }
                        }
                    }
                    if minDistance <= 0 { return }
                }
            }
        }
    }

    mutating func pointPoint() {
        guard a.kind.dimension == 0 && b.kind.dimension == 0 else { return }
        for i in 0..<a.pointCount {
            for j in 0..<b.pointCount {
                let d = Planar.hypotenuse(a.xs[i] - b.xs[j], a.ys[i] - b.ys[j])
                if d < minDistance {
                    minDistance = d
                    pointA = (a.xs[i], a.ys[i]); pointB = (b.xs[j], b.ys[j])
                }
                if minDistance <= 0 { return }
            }
        }
    }
}

/// GEOS's LineSegment.closestPoints and closestPoint, so nearest points agree with shapely's
/// where several pairs are equally near.
enum PlanarClosestPoints {
    typealias Point = (Double, Double)

    static func closestPoint(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Point {
        let factor = Planar.projectionFactor(px, py, ax, ay, bx, by)
        if factor > 0 && factor < 1 {
            return (ax + factor * (bx - ax), ay + factor * (by - ay))
        }
        let d0 = Planar.hypotenuse(ax - px, ay - py), d1 = Planar.hypotenuse(bx - px, by - py)
        return d0 < d1 ? (ax, ay) : (bx, by)
    }

    /// The closest pair between segment p (first geometry) and q (second geometry).
    static func compute(_ p0x: Double, _ p0y: Double, _ p1x: Double, _ p1y: Double,
                        _ q0x: Double, _ q0y: Double, _ q1x: Double, _ q1y: Double) -> (Point, Point) {
        if let x = intersection(p0x, p0y, p1x, p1y, q0x, q0y, q1x, q1y) { return (x, x) }
        var best: (Point, Point)
        let c00 = closestPoint(q0x, q0y, p0x, p0y, p1x, p1y)
        var minD = Planar.hypotenuse(c00.0 - q0x, c00.1 - q0y)
        best = (c00, (q0x, q0y))
        let c01 = closestPoint(q1x, q1y, p0x, p0y, p1x, p1y)
        var d = Planar.hypotenuse(c01.0 - q1x, c01.1 - q1y)
        if d < minD { minD = d; best = (c01, (q1x, q1y)) }
        let c10 = closestPoint(p0x, p0y, q0x, q0y, q1x, q1y)
        d = Planar.hypotenuse(c10.0 - p0x, c10.1 - p0y)
        if d < minD { minD = d; best = ((p0x, p0y), c10) }
        let c11 = closestPoint(p1x, p1y, q0x, q0y, q1x, q1y)
        d = Planar.hypotenuse(c11.0 - p1x, c11.1 - p1y)
        if d < minD { minD = d; best = ((p1x, p1y), c11) }
        return best
    }

    /// The first intersection point GEOS's LineIntersector reports for p and q, nil if none.
    static func intersection(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double,
                             _ q1x: Double, _ q1y: Double, _ q2x: Double, _ q2y: Double) -> Point? {
        if min(p1x, p2x) > max(q1x, q2x) || max(p1x, p2x) < min(q1x, q2x)
            || min(p1y, p2y) > max(q1y, q2y) || max(p1y, p2y) < min(q1y, q2y) { return nil }
        let pq1 = Planar.orientation(p1x, p1y, p2x, p2y, q1x, q1y)
        let pq2 = Planar.orientation(p1x, p1y, p2x, p2y, q2x, q2y)
        if pq1 * pq2 > 0 { return nil }
        let qp1 = Planar.orientation(q1x, q1y, q2x, q2y, p1x, p1y)
        let qp2 = Planar.orientation(q1x, q1y, q2x, q2y, p2x, p2y)
        if qp1 * qp2 > 0 { return nil }
        if pq1 == 0 && pq2 == 0 && qp1 == 0 && qp2 == 0 {
            @inline(__always) func inBox(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ x: Double, _ y: Double) -> Bool {
                x >= min(ax, bx) && x <= max(ax, bx) && y >= min(ay, by) && y <= max(ay, by)
            }
            let q1InP = inBox(p1x, p1y, p2x, p2y, q1x, q1y), q2InP = inBox(p1x, p1y, p2x, p2y, q2x, q2y)
            let p1InQ = inBox(q1x, q1y, q2x, q2y, p1x, p1y), p2InQ = inBox(q1x, q1y, q2x, q2y, p2x, p2y)
            if q1InP && q2InP { return (q1x, q1y) }
            if p1InQ && p2InQ { return (p1x, p1y) }
            if q1InP && (p1InQ || p2InQ) { return (q1x, q1y) }
            if q2InP && (p1InQ || p2InQ) { return (q2x, q2y) }
            return nil
        }
        if pq1 == 0 || pq2 == 0 || qp1 == 0 || qp2 == 0 {
            if (p1x == q1x && p1y == q1y) || (p1x == q2x && p1y == q2y) { return (p1x, p1y) }
            if (p2x == q1x && p2y == q1y) || (p2x == q2x && p2y == q2y) { return (p2x, p2y) }
            if pq1 == 0 { return (q1x, q1y) }
            if pq2 == 0 { return (q2x, q2y) }
            if qp1 == 0 { return (p1x, p1y) }
            return (p2x, p2y)
        }
        return properIntersection(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y)
    }

    /// GEOS's Intersection.intersection: homogeneous coordinates about the middle of the
    /// boxes' overlap (for accuracy), and the nearest end point if that lands outside.
    static func properIntersection(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double,
                                   _ q1x: Double, _ q1y: Double, _ q2x: Double, _ q2y: Double) -> Point {
        let intMinX = max(min(p1x, p2x), min(q1x, q2x)), intMaxX = min(max(p1x, p2x), max(q1x, q2x))
        let intMinY = max(min(p1y, p2y), min(q1y, q2y)), intMaxY = min(max(p1y, p2y), max(q1y, q2y))
        let midX = (intMinX + intMaxX) / 2, midY = (intMinY + intMaxY) / 2
        let ax = p1x - midX, ay = p1y - midY, bx = p2x - midX, by = p2y - midY
        let cx = q1x - midX, cy = q1y - midY, dx = q2x - midX, dy = q2y - midY
        let px = ay - by, py = bx - ax, pw = ax * by - bx * ay
        let qx = cy - dy, qy = dx - cx, qw = cx * dy - dx * cy
        let x = py * qw - qy * pw, y = qx * pw - px * qw, w = px * qy - qx * py
        let xi = x / w + midX, yi = y / w + midY
        if xi.isFinite && yi.isFinite
            && xi >= min(p1x, p2x) && xi <= max(p1x, p2x) && yi >= min(p1y, p2y) && yi <= max(p1y, p2y)
            && xi >= min(q1x, q2x) && xi <= max(q1x, q2x) && yi >= min(q1y, q2y) && yi <= max(q1y, q2y) {
            return (xi, yi)
        }
        // Nearest end point to the other segment, as GEOS falls back to.
        var best = (p1x, p1y)
        var minD = Planar.pointSegmentDistance(p1x, p1y, q1x, q1y, q2x, q2y)
        var d = Planar.pointSegmentDistance(p2x, p2y, q1x, q1y, q2x, q2y)
        if d < minD { minD = d; best = (p2x, p2y) }
        d = Planar.pointSegmentDistance(q1x, q1y, p1x, p1y, p2x, p2y)
        if d < minD { minD = d; best = (q1x, q1y) }
        d = Planar.pointSegmentDistance(q2x, q2y, p1x, p1y, p2x, p2y)
        if d < minD { best = (q2x, q2y) }
        return best
    }
}
