import Foundation

/// Where the segments of two geometries (lines or polygons) meet, found exactly: for each
/// segment of either, the parameters (0 at its start, 1 at its end) where the other geometry
/// touches or crosses it, and the stretches where the two run along each other. Cut at those
/// parameters, every piece of a segment lies wholly inside, outside or along the other
/// geometry, which is what the DE-9IM predicates need to know.
struct PlanarRelateNoding {
    struct Break { var segment: Int32; var t: Double }
    /// A stretch [t0, t1] of a segment lying along a segment of the other geometry; `side` is
    /// where the other's interior lies seen along this segment: 1 left, -1 right, 0 unknown
    /// (the other is a line, or its ring has no area).
    struct Overlap { var segment: Int32; var t0: Double; var t1: Double; var side: Int8 }

    let a: Geometry, b: Geometry
    var breaksA: [Break] = [], breaksB: [Break] = []
    var overlapsA: [Overlap] = [], overlapsB: [Overlap] = []
    /// Two segments cross at a point inside both.
    var properCrossing = false
    /// Points where a vertex of one geometry lies on the other (without overlapping).
    var vertexNodes: [(Double, Double)] = []

    init(_ a: Geometry, _ b: Geometry) {
        self.a = a; self.b = b
        let segmentsA = Self.segments(a), segmentsB = Self.segments(b)
        let leftA = Self.interiorLeftOfRings(a), leftB = Self.interiorLeftOfRings(b)
        if segmentsA.count * segmentsB.count <= 512 {
            for sa in segmentsA { for sb in segmentsB { meet(sa, sb, leftA, leftB) } }
        } else {
            let tree = PlanarBoxTree(count: segmentsA.count) { k in
                let i = Int(segmentsA[k].point)
                return (min(a.xs[i], a.xs[i + 1]), min(a.ys[i], a.ys[i + 1]), max(a.xs[i], a.xs[i + 1]), max(a.ys[i], a.ys[i + 1]))
            }
            var stack: [Int] = []
            for sb in segmentsB {
                let j = Int(sb.point)
                tree.query(min(b.xs[j], b.xs[j + 1]), min(b.ys[j], b.ys[j + 1]), max(b.xs[j], b.xs[j + 1]), max(b.ys[j], b.ys[j + 1]),
                           stack: &stack) { k in
                    meet(segmentsA[k], sb, leftA, leftB)
                    return true
                }
            }
        }
        breaksA.sort { ($0.segment, $0.t) < ($1.segment, $1.t) }
        breaksB.sort { ($0.segment, $0.t) < ($1.segment, $1.t) }
        overlapsA.sort { $0.segment < $1.segment }
        overlapsB.sort { $0.segment < $1.segment }
    }

    struct Segment { var point: Int32; var ring: Int32 }

    /// Every segment of non-zero length of a line or polygon geometry.
    static func segments(_ g: Geometry) -> [Segment] {
        guard g.kind.dimension >= 1 else { return [] }
        var out: [Segment] = []
        out.reserveCapacity(g.pointCount)
        for r in 0..<g.ringCount {
            let points = g.pointRange(ring: r)
            guard points.count > 1 else { continue }
            for i in points.lowerBound..<(points.upperBound - 1) where g.xs[i] != g.xs[i + 1] || g.ys[i] != g.ys[i + 1] {
                out.append(Segment(point: Int32(i), ring: Int32(r)))
            }
        }
        return out
    }

    /// For each ring of a polygon geometry, 1 when the polygon's interior lies left of its
    /// direction, -1 when right, 0 when the ring has no area (or the geometry is not a polygon).
    static func interiorLeftOfRings(_ g: Geometry) -> [Int8] {
        guard g.kind.dimension == 2 else { return [] }
        var out = [Int8](repeating: 0, count: g.ringCount)
        for part in 0..<g.partCount {
            let rings = g.ringRange(part: part)
            for r in rings {
                let area = Planar.signedRingArea(g, ring: r)
                guard area != 0 else { continue }
                out[r] = (area > 0) != (r != rings.lowerBound) ? 1 : -1
            }
        }
        return out
    }

    /// Where along a–b the point p (known to lie on its line) falls, by the larger extent.
    @inline(__always)
    static func parameter(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let dx = bx - ax, dy = by - ay
        return abs(dx) >= abs(dy) ? (px - ax) / dx : (py - ay) / dy
    }

    private mutating func meet(_ sa: Segment, _ sb: Segment, _ leftA: [Int8], _ leftB: [Int8]) {
        let i = Int(sa.point), j = Int(sb.point)
        let p1x = a.xs[i], p1y = a.ys[i], p2x = a.xs[i + 1], p2y = a.ys[i + 1]
        let q1x = b.xs[j], q1y = b.ys[j], q2x = b.xs[j + 1], q2y = b.ys[j + 1]
        if min(p1x, p2x) > max(q1x, q2x) || max(p1x, p2x) < min(q1x, q2x)
            || min(p1y, p2y) > max(q1y, q2y) || max(p1y, p2y) < min(q1y, q2y) { return }
        let o1 = Planar.orientation(p1x, p1y, p2x, p2y, q1x, q1y)
        let o2 = Planar.orientation(p1x, p1y, p2x, p2y, q2x, q2y)
        if o1 * o2 > 0 { return }
        let o3 = Planar.orientation(q1x, q1y, q2x, q2y, p1x, p1y)
        let o4 = Planar.orientation(q1x, q1y, q2x, q2y, p2x, p2y)
        if o3 * o4 > 0 { return }
        let segA = Int32(i), segB = Int32(j)
        if o1 == 0 && o2 == 0 {
            let tq1 = Self.parameter(q1x, q1y, p1x, p1y, p2x, p2y), tq2 = Self.parameter(q2x, q2y, p1x, p1y, p2x, p2y)
            let tp1 = Self.parameter(p1x, p1y, q1x, q1y, q2x, q2y), tp2 = Self.parameter(p2x, p2y, q1x, q1y, q2x, q2y)
            let loA = max(0, min(tq1, tq2)), hiA = min(1, max(tq1, tq2))
            let loB = max(0, min(tp1, tp2)), hiB = min(1, max(tp1, tp2))
            if hiA > loA && hiB > loB {
                let sameDirection = (p2x - p1x) * (q2x - q1x) + (p2y - p1y) * (q2y - q1y) > 0
                let sideOfB: Int8 = leftB.isEmpty ? 0 : (sameDirection ? leftB[Int(sb.ring)] : -leftB[Int(sb.ring)])
                let sideOfA: Int8 = leftA.isEmpty ? 0 : (sameDirection ? leftA[Int(sa.ring)] : -leftA[Int(sa.ring)])
                overlapsA.append(Overlap(segment: segA, t0: loA, t1: hiA, side: sideOfB))
                overlapsB.append(Overlap(segment: segB, t0: loB, t1: hiB, side: sideOfA))
                breaksA.append(Break(segment: segA, t: loA)); breaksA.append(Break(segment: segA, t: hiA))
                breaksB.append(Break(segment: segB, t: loB)); breaksB.append(Break(segment: segB, t: hiB))
            } else {
                // End to end on one line: they touch at a shared end point.
                breaksA.append(Break(segment: segA, t: loA)); breaksB.append(Break(segment: segB, t: loB))
                vertexNodes.append(loA == 0 ? (p1x, p1y) : (p2x, p2y))
            }
            return
        }
        if o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0 {
            if o1 == 0 {
                breaksB.append(Break(segment: segB, t: 0))
                breaksA.append(Break(segment: segA, t: Self.parameter(q1x, q1y, p1x, p1y, p2x, p2y)))
                vertexNodes.append((q1x, q1y))
            }
            if o2 == 0 {
                breaksB.append(Break(segment: segB, t: 1))
                breaksA.append(Break(segment: segA, t: Self.parameter(q2x, q2y, p1x, p1y, p2x, p2y)))
                vertexNodes.append((q2x, q2y))
            }
            if o3 == 0 {
                breaksA.append(Break(segment: segA, t: 0))
                breaksB.append(Break(segment: segB, t: Self.parameter(p1x, p1y, q1x, q1y, q2x, q2y)))
                vertexNodes.append((p1x, p1y))
            }
            if o4 == 0 {
                breaksA.append(Break(segment: segA, t: 1))
                breaksB.append(Break(segment: segB, t: Self.parameter(p2x, p2y, q1x, q1y, q2x, q2y)))
                vertexNodes.append((p2x, p2y))
            }
            return
        }
        properCrossing = true
        let d1 = Planar.cross(q1x, q1y, q2x, q2y, p1x, p1y), d2 = Planar.cross(q1x, q1y, q2x, q2y, p2x, p2y)
        let e1 = Planar.cross(p1x, p1y, p2x, p2y, q1x, q1y), e2 = Planar.cross(p1x, p1y, p2x, p2y, q2x, q2y)
        breaksA.append(Break(segment: segA, t: min(1, max(0, d1 / (d1 - d2)))))
        breaksB.append(Break(segment: segB, t: min(1, max(0, e1 / (e1 - e2)))))
    }
}

/// How the pieces of one geometry's segments lie relative to another geometry.
struct PlanarRelateSummary {
    /// Some piece lies in the other's interior (along a line's interior counts for a line).
    var interior = false
    /// Some piece lies outside the other.
    var exterior = false
    /// Some piece runs along the other's boundary with both interiors on the same side.
    var sameSide = false
    /// Some piece runs along the other's boundary with the interiors on opposite sides.
    var oppositeSide = false

    /// Classifies the segments of `subject` against `other`, given the breaks and overlaps
    /// that `PlanarRelateNoding` found on the subject's segments: pieces between breaks are
    /// along the other (an overlap), or inside or outside it, found by locating the piece's
    /// middle. The location only changes where a break is,
    /// so it is carried over unbroken vertices instead of being located again.
    init(subject: Geometry, other: Geometry, breaks: [PlanarRelateNoding.Break], overlaps: [PlanarRelateNoding.Overlap]) {
        let subjectLeft = PlanarRelateNoding.interiorLeftOfRings(subject)
        let otherIsArea = other.kind.dimension == 2
        var breakCursor = 0, overlapCursor = 0
        other.xs.withUnsafeBufferPointer { oxs in
            other.ys.withUnsafeBufferPointer { oys in
                for r in 0..<subject.ringCount {
                    let points = subject.pointRange(ring: r)
                    guard points.count > 0 else { continue }
                    var carried: Planar.Location? = nil
                    var ringHasLength = false
                    for i in points.lowerBound..<max(points.lowerBound, points.upperBound - 1) {
                        let ax = subject.xs[i], ay = subject.ys[i], bx = subject.xs[i + 1], by = subject.ys[i + 1]
                        if ax == bx && ay == by { continue }
                        ringHasLength = true
                        while breakCursor < breaks.count && Int(breaks[breakCursor].segment) < i { breakCursor += 1 }
                        while overlapCursor < overlaps.count && Int(overlaps[overlapCursor].segment) < i { overlapCursor += 1 }
                        var breakEnd = breakCursor
                        while breakEnd < breaks.count && Int(breaks[breakEnd].segment) == i { breakEnd += 1 }
                        var overlapEnd = overlapCursor
                        while overlapEnd < overlaps.count && Int(overlaps[overlapEnd].segment) == i { overlapEnd += 1 }
                        if breakCursor < breakEnd && breaks[breakCursor].t <= 0 { carried = nil }
                        var t0 = 0.0
                        var k = breakCursor
                        while true {
                            while k < breakEnd && breaks[k].t <= t0 { k += 1 }
                            let t1 = k < breakEnd ? min(1, breaks[k].t) : 1
                            if t1 > t0 {
                                let mid = (t0 + t1) / 2
                                // A piece after a break may lie elsewhere than the last one.
                                if t0 > 0 { carried = nil }
                                var along = false
                                for o in overlapCursor..<overlapEnd where overlaps[o].t0 <= mid && mid <= overlaps[o].t1 {
                                    along = true
                                    if !otherIsArea { interior = true; break }
                                    let side = overlaps[o].side, own = subjectLeft.isEmpty ? 0 : subjectLeft[r]
                                    if side != 0 && own != 0 {
                                        if side == own { sameSide = true } else { oppositeSide = true }
                                    }
                                }
                                if along {
                                    carried = nil
                                } else if otherIsArea {
                                    if carried == nil {
                                        carried = Planar.locateInArea(ax + mid * (bx - ax), ay + mid * (by - ay), other, oxs, oys)
                                    }
                                    switch carried! {
                                    case .interior: interior = true
                                    case .exterior: exterior = true
                                    case .boundary: break
                                    }
                                } else {
                                    exterior = true
                                }
                            }
                            if t1 >= 1 { break }
                            t0 = t1
                        }
                        if breakEnd > breakCursor && breaks[breakEnd - 1].t >= 1 { carried = nil }
                        breakCursor = breakEnd; overlapCursor = overlapEnd
                    }
                    if !ringHasLength {
                        // A ring or line of one repeated point: it is that point.
                        let x = subject.xs[points.lowerBound], y = subject.ys[points.lowerBound]
                        switch Planar.locate(x, y, in: other) {
                        case .interior: interior = true
                        case .exterior: exterior = true
                        case .boundary: break
                        }
                    }
                }
            }
        }
    }
}
