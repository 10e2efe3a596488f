import Foundation

/// Geometry algorithms in plane coordinates (x, y), with the semantics of shapely and GEOS
/// (and so of PostGIS's `geometry` type). They ignore `Geometry.space`: the caller decides
/// what a longitude and a latitude mean on a plane.
public enum Planar {
    /// Where a point lies relative to a geometry, as DE-9IM names the three parts of a
    /// geometry.
    public enum Location: Sendable, Hashable {
        case interior, boundary, exterior
    }
}

// MARK: - Robust orientation

extension Planar {
    /// The side of the directed line a→b on which c lies: 1 left (a, b, c counterclockwise),
    /// -1 right, 0 on the line. Exact for every input: a floating-point determinant whose
    /// error bound cannot decide falls back to exact expansion arithmetic, so points on edges
    /// and vertices are classified the same way whatever the order of the edges.
    @inline(__always)
    static func orientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Int {
        let detLeft = (ax - cx) * (by - cy)
        let detRight = (ay - cy) * (bx - cx)
        let det = detLeft - detRight
        let detSum: Double
        if detLeft > 0 {
            if detRight <= 0 { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
            detSum = detLeft + detRight
        } else if detLeft < 0 {
            if detRight >= 0 { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
            detSum = -detLeft - detRight
        } else {
            return det > 0 ? 1 : (det < 0 ? -1 : 0)
        }
        // Shewchuk's bound for the first stage of orient2d.
        let errorBound = 3.3306690738754716e-16 * detSum
        if det >= errorBound { return 1 }
        if -det >= errorBound { return -1 }
        return exactOrientation(ax, ay, bx, by, cx, cy)
    }

    /// The sign of (a − c) × (b − c) computed exactly: every difference split into a value
    /// and its rounding error, every product into two doubles, all summed as a
    /// non-overlapping expansion whose largest component carries the sign.
    @inline(never)
    static func exactOrientation(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Int {
        let (acx, acxTail) = twoDiff(ax, cx)
        let (bcy, bcyTail) = twoDiff(by, cy)
        let (acy, acyTail) = twoDiff(ay, cy)
        let (bcx, bcxTail) = twoDiff(bx, cx)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 24) { expansion -> Int in
            var count = 0
            func add(_ a: Double, _ b: Double, negate: Bool) {
                var product = a * b
                var error = (-product).addingProduct(a, b)
                if negate { product = -product; error = -error }
                growExpansion(expansion, &count, error)
                growExpansion(expansion, &count, product)
            }
            add(acx, bcy, negate: false); add(acx, bcyTail, negate: false)
            add(acxTail, bcy, negate: false); add(acxTail, bcyTail, negate: false)
            add(acy, bcx, negate: true); add(acy, bcxTail, negate: true)
            add(acyTail, bcx, negate: true); add(acyTail, bcxTail, negate: true)
            for i in stride(from: count - 1, through: 0, by: -1) where expansion[i] != 0 {
                return expansion[i] > 0 ? 1 : -1
            }
            return 0
        }
    }

    /// a − b as a rounded value and its exact error.
    @inline(__always)
    static func twoDiff(_ a: Double, _ b: Double) -> (Double, Double) {
        let x = a - b
        let bVirtual = a - x
        let aVirtual = x + bVirtual
        return (x, (a - aVirtual) + (bVirtual - b))
    }

    /// a + b as a rounded value and its exact error.
    @inline(__always)
    static func twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
        let x = a + b
        let bVirtual = x - a
        let aVirtual = x - bVirtual
        return (x, (a - aVirtual) + (b - bVirtual))
    }

    /// Adds one double to an expansion kept in increasing magnitude, dropping zero components.
    @inline(__always)
    static func growExpansion(_ e: UnsafeMutableBufferPointer<Double>, _ count: inout Int, _ b: Double) {
        var q = b
        var out = 0
        for i in 0..<count {
            let (sum, error) = twoSum(q, e[i])
            q = sum
            if error != 0 { e[out] = error; out += 1 }
        }
        if q != 0 { e[out] = q; out += 1 }
        count = out
    }

    /// Twice the signed area of the triangle a, b, c in floating point (positive when
    /// counterclockwise); for magnitudes and intersection parameters, never for signs.
    @inline(__always)
    static func cross(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double) -> Double {
        (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    }
}

// MARK: - Segments

extension Planar {
    /// The distance from p to the segment a–b, by GEOS's formula (so equal results on ties).
    @inline(__always)
    static func pointSegmentDistance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        if ax == bx && ay == by { return hypotenuse(px - ax, py - ay) }
        let len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay)
        let r = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2
        if r <= 0 { return hypotenuse(px - ax, py - ay) }
        if r >= 1 { return hypotenuse(px - bx, py - by) }
        let s = ((ay - py) * (bx - ax) - (ax - px) * (by - ay)) / len2
        return abs(s) * len2.squareRoot()
    }

    /// √(dx² + dy²) as GEOS computes a distance (no rescaling, so results match bit for bit).
    @inline(__always)
    static func hypotenuse(_ dx: Double, _ dy: Double) -> Double { (dx * dx + dy * dy).squareRoot() }

    /// Whether the segments p1–p2 and q1–q2 share at least one point, decided exactly.
    @inline(__always)
    static func segmentsIntersect(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double,
                                  _ q1x: Double, _ q1y: Double, _ q2x: Double, _ q2y: Double) -> Bool {
        if min(p1x, p2x) > max(q1x, q2x) || max(p1x, p2x) < min(q1x, q2x)
            || min(p1y, p2y) > max(q1y, q2y) || max(p1y, p2y) < min(q1y, q2y) { return false }
        let o1 = orientation(p1x, p1y, p2x, p2y, q1x, q1y)
        let o2 = orientation(p1x, p1y, p2x, p2y, q2x, q2y)
        if o1 * o2 > 0 { return false }
        let o3 = orientation(q1x, q1y, q2x, q2y, p1x, p1y)
        let o4 = orientation(q1x, q1y, q2x, q2y, p2x, p2y)
        if o3 * o4 > 0 { return false }
        // Collinear: the bounding boxes overlap, and on a line that means the segments do.
        return true
    }

    /// The distance between the segments a–b and c–d, by GEOS's formula.
    static func segmentSegmentDistance(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                       _ cx: Double, _ cy: Double, _ dx: Double, _ dy: Double) -> Double {
        if ax == bx && ay == by { return pointSegmentDistance(ax, ay, cx, cy, dx, dy) }
        if cx == dx && cy == dy { return pointSegmentDistance(dx, dy, ax, ay, bx, by) }
        var noIntersection = false
        if min(ax, bx) > max(cx, dx) || max(ax, bx) < min(cx, dx) || min(ay, by) > max(cy, dy) || max(ay, by) < min(cy, dy) {
            noIntersection = true
        } else {
            let denominator = (bx - ax) * (dy - cy) - (by - ay) * (dx - cx)
            if denominator == 0 {
                noIntersection = true
            } else {
                let rNumerator = (ay - cy) * (dx - cx) - (ax - cx) * (dy - cy)
                let sNumerator = (ay - cy) * (bx - ax) - (ax - cx) * (by - ay)
                let s = sNumerator / denominator
                let r = rNumerator / denominator
                if r < 0 || r > 1 || s < 0 || s > 1 { noIntersection = true }
            }
        }
        if !noIntersection { return 0 }
        return min(pointSegmentDistance(ax, ay, cx, cy, dx, dy),
                   min(pointSegmentDistance(bx, by, cx, cy, dx, dy),
                       min(pointSegmentDistance(cx, cy, ax, ay, bx, by), pointSegmentDistance(dx, dy, ax, ay, bx, by))))
    }

    /// Where along a–b the point p projects, 0 at a and 1 at b; exact at the endpoints.
    @inline(__always)
    static func projectionFactor(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        if px == ax && py == ay { return 0 }
        if px == bx && py == by { return 1 }
        let dx = bx - ax, dy = by - ay
        return ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
    }
}
