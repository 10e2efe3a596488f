import Foundation

extension Planar {
    /// Whether the geometries share at least one point (shapely's `intersects`). False when
    /// either is empty.
    public static func intersects(_ a: Geometry, _ b: Geometry) -> Bool {
        if a.isEmpty || b.isEmpty { return false }
        if a.kind.dimension == 0 { return anyPoint(of: a) { locate($0, $1, in: b) != .exterior } }
        if b.kind.dimension == 0 { return anyPoint(of: b) { locate($0, $1, in: a) != .exterior } }
        guard let boundsA = a.bounds, let boundsB = b.bounds, boundsA.intersects(boundsB) else { return false }
        if linesMeet(a, b) { return true }
        // No edges meet: one can only lie wholly inside a polygon of the other.
        if b.kind.dimension == 2 && anyPart(of: a, inside: b) { return true }
        if a.kind.dimension == 2 && anyPart(of: b, inside: a) { return true }
        return false
    }

    /// Whether the geometries share no point (shapely's `disjoint`): true when either is empty.
    public static func disjoint(_ a: Geometry, _ b: Geometry) -> Bool { !intersects(a, b) }

    /// Whether no point of `b` lies outside `a` (shapely's `covers`): a point on a polygon's
    /// edge is covered by it. False when either is empty.
    public static func covers(_ a: Geometry, _ b: Geometry) -> Bool {
        if a.isEmpty || b.isEmpty { return false }
        if b.kind.dimension == 0 { return !anyPoint(of: b) { locate($0, $1, in: a) == .exterior } }
        if a.kind.dimension < b.kind.dimension { return false }
        guard let boundsA = a.bounds, let boundsB = b.bounds,
              boundsA.minX <= boundsB.minX, boundsA.minY <= boundsB.minY,
              boundsA.maxX >= boundsB.maxX, boundsA.maxY >= boundsB.maxY else { return false }
        return PlanarRelation(a, b).covers
    }

    /// Whether `b` lies in `a` with some interior point of `b` in `a`'s interior (shapely's
    /// `contains`): a polygon does not contain a point on its edge, nor a line along it.
    public static func contains(_ a: Geometry, _ b: Geometry) -> Bool {
        if a.isEmpty || b.isEmpty { return false }
        if b.kind.dimension == 0 {
            var inside = false
            for i in 0..<b.pointCount {
                switch locate(b.xs[i], b.ys[i], in: a) {
                case .exterior: return false
                case .interior: inside = true
                case .boundary: break
                }
            }
            return inside
        }
        if a.kind.dimension < b.kind.dimension { return false }
        guard let boundsA = a.bounds, let boundsB = b.bounds,
              boundsA.minX <= boundsB.minX, boundsA.minY <= boundsB.minY,
              boundsA.maxX >= boundsB.maxX, boundsA.maxY >= boundsB.maxY else { return false }
        let relation = PlanarRelation(a, b)
        return relation.covers && relation.interiorsMeet
    }

    /// Whether `a` lies in `b` (shapely's `within`): `contains` with the roles swapped.
    public static func within(_ a: Geometry, _ b: Geometry) -> Bool { contains(b, a) }

    /// Whether the geometries meet only on their boundaries (shapely's `touches`): they
    /// intersect and no interior point of one is an interior point of the other. Two points
    /// never touch, as points have no boundary.
    public static func touches(_ a: Geometry, _ b: Geometry) -> Bool {
        if a.isEmpty || b.isEmpty { return false }
        if a.kind.dimension == 0 && b.kind.dimension == 0 { return false }
        if a.kind.dimension == 0 { return pointsTouch(a, b) }
        if b.kind.dimension == 0 { return pointsTouch(b, a) }
        guard intersects(a, b) else { return false }
        return !PlanarRelation(a, b).interiorsMeet
    }

    // MARK: helpers

    /// Points touch a geometry when none is in its interior and some is on its boundary.
    private static func pointsTouch(_ points: Geometry, _ g: Geometry) -> Bool {
        var onBoundary = false
        for i in 0..<points.pointCount {
            switch locate(points.xs[i], points.ys[i], in: g) {
            case .interior: return false
            case .boundary: onBoundary = true
            case .exterior: break
            }
        }
        return onBoundary
    }

    private static func anyPoint(of g: Geometry, _ test: (Double, Double) -> Bool) -> Bool {
        for i in 0..<g.pointCount where test(g.xs[i], g.ys[i]) { return true }
        return false
    }

    /// Whether the first vertex of some member of `g` lies in or on a polygon of `area`.
    private static func anyPart(of g: Geometry, inside area: Geometry) -> Bool {
        for part in 0..<g.partCount {
            let rings = g.ringRange(part: part)
            guard let first = rings.first, !g.pointRange(ring: first).isEmpty else { continue }
            let k = g.pointRange(ring: first).lowerBound
            if locate(g.xs[k], g.ys[k], in: area) != .exterior { return true }
        }
        return false
    }

    /// Whether some segment of `a` and some segment of `b` (lines or polygon rings) meet.
    private static func linesMeet(_ a: Geometry, _ b: Geometry) -> Bool {
        let segmentsA = PlanarRelateNoding.segments(a), segmentsB = PlanarRelateNoding.segments(b)
        @inline(__always) func meet(_ i: Int, _ j: Int) -> Bool {
            segmentsIntersect(a.xs[i], a.ys[i], a.xs[i + 1], a.ys[i + 1], b.xs[j], b.ys[j], b.xs[j + 1], b.ys[j + 1])
        }
        if segmentsA.count * segmentsB.count <= 512 {
            for sa in segmentsA { for sb in segmentsB where meet(Int(sa.point), Int(sb.point)) { return true } }
        } else {
            let tree = PlanarBoxTree(count: segmentsA.count) { k in
                let i = Int(segmentsA[k].point)
                return (min(a.xs[i], a.xs[i + 1]), min(a.ys[i], a.ys[i + 1]), max(a.xs[i], a.xs[i + 1]), max(a.ys[i], a.ys[i + 1]))
            }
            var stack: [Int] = []
            for sb in segmentsB {
                let j = Int(sb.point)
                let finished = tree.query(min(b.xs[j], b.xs[j + 1]), min(b.ys[j], b.ys[j + 1]),
                                          max(b.xs[j], b.xs[j + 1]), max(b.ys[j], b.ys[j + 1]), stack: &stack) { k in
                    !meet(Int(segmentsA[k].point), j)
                }
                if !finished { return true }
            }
        }
        // Degenerate members (one repeated point) have no segments: locate them as points.
        return degeneratePointsMeet(a, b) || degeneratePointsMeet(b, a)
    }

    private static func degeneratePointsMeet(_ g: Geometry, _ other: Geometry) -> Bool {
        for r in 0..<g.ringCount {
            let points = g.pointRange(ring: r)
            guard let first = points.first else { continue }
            if points.allSatisfy({ g.xs[$0] == g.xs[first] && g.ys[$0] == g.ys[first] }),
               locate(g.xs[first], g.ys[first], in: other) != .exterior { return true }
        }
        return false
    }
}

/// The DE-9IM facts the predicates need for two geometries of dimension 1 or 2: whether `b`
/// lies in the closure of `a`, and whether their interiors meet.
private struct PlanarRelation {
    var covers = false
    var interiorsMeet = false

    init(_ a: Geometry, _ b: Geometry) {
        let noding = PlanarRelateNoding(a, b)
        let bAgainstA = PlanarRelateSummary(subject: b, other: a, breaks: noding.breaksB, overlaps: noding.overlapsB)
        let dimA = a.kind.dimension, dimB = b.kind.dimension
        switch (dimA, dimB) {
        case (1, 1):
            covers = !bAgainstA.exterior
            interiorsMeet = bAgainstA.interior || noding.properCrossing
            if !interiorsMeet && !noding.vertexNodes.isEmpty {
                let endsA = PlanarRelation.boundaryPoints(a), endsB = PlanarRelation.boundaryPoints(b)
                interiorsMeet = noding.vertexNodes.contains { node in
                    !endsA.contains { $0 == node } && !endsB.contains { $0 == node }
                }
            }
        case (2, 1):
            covers = !bAgainstA.exterior
            interiorsMeet = bAgainstA.interior
        case (1, 2):
            let aAgainstB = PlanarRelateSummary(subject: a, other: b, breaks: noding.breaksA, overlaps: noding.overlapsA)
            covers = false
            interiorsMeet = aAgainstB.interior
        default:
            let aAgainstB = PlanarRelateSummary(subject: a, other: b, breaks: noding.breaksA, overlaps: noding.overlapsA)
            covers = !bAgainstA.exterior && !aAgainstB.interior && !bAgainstA.oppositeSide
            interiorsMeet = bAgainstA.interior || aAgainstB.interior || bAgainstA.sameSide
        }
    }

    /// The boundary of a line geometry by the mod-2 rule: the end points that end an odd
    /// number of its members.
    static func boundaryPoints(_ g: Geometry) -> [(Double, Double)] {
        var ends: [(Double, Double)] = []
        for r in 0..<g.ringCount {
            let points = g.pointRange(ring: r)
            guard let first = points.first else { continue }
            ends.append((g.xs[first], g.ys[first])); ends.append((g.xs[points.upperBound - 1], g.ys[points.upperBound - 1]))
        }
        return ends.filter { end in ends.filter { $0 == end }.count % 2 == 1 }
    }
}
