import Foundation

extension Planar {
    /// The region within distance `d` of a geometry, with round joins and caps as shapely's
    /// `buffer(d, quad_segs=quadrantSegments)`: a point gives GEOS's very polygon (the same
    /// vertices from the same start, clockwise); lines and polygons give the union of the
    /// geometry with a band around every segment and a disc sector at every vertex, as a
    /// Polygon or MultiPolygon with the holes the region has. Arcs are chords of the circle,
    /// as many as GEOS draws except where one of GEOS's would span more than 1.09 of a quarter
    /// circle over `quadrantSegments`: so every point nearer than
    /// d·cos(π/(4·quadrantSegments))·0.999 is inside, nothing farther than d is, and the area
    /// stays within about 1e-3 of GEOS's.
    ///
    /// A distance of zero gives a polygon's own region (lines and points have none); negative
    /// distances (erosion) are not supported and give an empty polygon.
    public static func buffer(_ g: Geometry, _ d: Double, quadrantSegments: Int = 8) -> Geometry {
        let empty = Geometry(kind: .polygon, space: g.space, xs: [], ys: [], rings: [0], parts: [0])
        guard !g.isEmpty, d.isFinite else { return empty }
        if d <= 0 { return d == 0 && g.kind.dimension == 2 ? union([g]) : empty }
        let pieces = PlanarBufferPieces(distance: d, quadrantSegments: max(1, quadrantSegments))
        if g.kind == .point {
            let ring = pieces.circle(g.xs[0], g.ys[0])
            return Geometry(kind: .polygon, space: g.space, xs: ring.map(\.x), ys: ring.map(\.y),
                            rings: [0, Int32(ring.count)], parts: [0, 1])
        }
        // Pieces go into unions of a few dozen consecutive pieces (near each other along the
        // line), whose results are then united pairwise: a wide buffer, where every piece
        // overlaps dozens of others, never nodes all of them at once.
        var groups: [Geometry] = []
        let cell = PlanarArrangement.gridCell(for: [g], margin: d)
        var group = PlanarArrangement(gridCell: cell), piecesInGroup = 0
        func emit(_ ring: [(x: Double, y: Double)]) {
            addPiece(ring, to: &group)
            piecesInGroup += 1
            if piecesInGroup >= PlanarArrangement.piecesPerGroup {
                groups.append(group.unionPolygons(space: g.space))
                group = PlanarArrangement(gridCell: cell); piecesInGroup = 0
            }
        }
        switch g.kind.dimension {
        case 0:
            for i in 0..<g.pointCount { emit(pieces.circle(g.xs[i], g.ys[i])) }
        case 1:
            for r in 0..<g.ringCount { pieces.addLine(g.ring(r), closedRing: false, emit: emit) }
        default:
            var polygon = PlanarArrangement(gridCell: cell)
            polygon.addPolygons(g)
            groups.append(polygon.unionPolygons(space: g.space))
            for r in 0..<g.ringCount { pieces.addLine(g.ring(r), closedRing: true, emit: emit) }
        }
        if piecesInGroup > 0 { groups.append(group.unionPolygons(space: g.space)) }
        return PlanarArrangement.unitePairwise(groups, space: g.space, gridCell: cell)
    }

    /// Adds a simple piece of the buffer, counted +1 inside whichever way it turns.
    private static func addPiece(_ ring: [(x: Double, y: Double)], to arrangement: inout PlanarArrangement) {
        var twiceArea = 0.0
        for k in 0..<ring.count {
            let p = ring[k], q = ring[(k + 1) % ring.count]
            twiceArea += p.x * q.y - q.x * p.y
        }
        guard twiceArea != 0 else { return }
        arrangement.addRing(ring, weight: twiceArea > 0 ? 1 : -1)
    }
}

/// The pieces whose union is a buffer, with GEOS's offset and arc arithmetic: a rectangle on
/// each segment, a fan of chords on the outer side of each turn, a half disc at each free end.
struct PlanarBufferPieces {
    let distance: Double
    /// The angle one chord of a full quadrant spans.
    let quantum: Double

    init(distance: Double, quadrantSegments: Int) {
        self.distance = distance
        quantum = Double.pi / 2 / Double(quadrantSegments)
    }

    typealias Ring = [(x: Double, y: Double)]

    /// GEOS's circle for a point: from (x + d, y) clockwise, closed.
    func circle(_ x: Double, _ y: Double) -> Ring {
        var ring: Ring = [(x + distance, y)]
        let totalAngle = 2 * Double.pi
        let segments = Int(totalAngle / quantum + 0.5)
        let increment = totalAngle / Double(segments)
        for i in 1..<segments {
            let angle = 0.0 + Double(-i) * increment
            ring.append((x + distance * cos(angle), y + distance * sin(angle)))
        }
        ring.append(ring[0])
        return ring
    }

    /// The offset of segment a–b to its left (side 1) or right (side -1), as GEOS computes it.
    func offset(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), side: Double) -> ((x: Double, y: Double), (x: Double, y: Double)) {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        let ux = side * distance * dx / length, uy = side * distance * dy / length
        return ((a.x - uy, a.y + ux), (b.x - uy, b.y + ux))
    }

    /// The arc around `center` from p0 to p1, clockwise (direction -1) or counterclockwise
    /// (1), both ends included: GEOS's fillet, with a chord more where GEOS's would cut deep
    /// into the circle (it rounds the count of chords, so one can span 1.5 quanta).
    func arc(_ center: (x: Double, y: Double), from p0: (x: Double, y: Double), to p1: (x: Double, y: Double), direction: Int) -> Ring {
        var start = atan2(p0.y - center.y, p0.x - center.x)
        let end = atan2(p1.y - center.y, p1.x - center.x)
        if direction < 0 {
            if start <= end { start += 2 * Double.pi }
        } else if start >= end {
            start -= 2 * Double.pi
        }
        let totalAngle = abs(start - end)
        // GEOS's count of chords (rounded), raised where a chord would span more than 1.09
        // quanta: then no chord dips below d·cos(π/(4·quadrantSegments))·0.999 from the
        // centre, while most turns keep exactly GEOS's chords (and so its area).
        let rounded = Int(totalAngle / quantum + 0.5)
        let bounded = Int((totalAngle / (1.09 * quantum) - 1e-9).rounded(.up))
        let segments = max(1, rounded, bounded)
        let increment = totalAngle / Double(segments)
        var ring: Ring = [p0]
        for i in 1..<segments {
            let angle = start + Double(direction * i) * increment
            ring.append((center.x + distance * cos(angle), center.y + distance * sin(angle)))
        }
        ring.append(p1)
        return ring
    }

    /// The half disc beyond end point b of the segment a–b (`atStart`: before a instead).
    /// The end point itself is a vertex of the ring, as it is of the segment's rectangle, so
    /// the two share their edges exactly instead of nearly.
    func endCap(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), atStart: Bool = false) -> Ring {
        let (left0, left1) = offset(a, b, side: 1), (right0, right1) = offset(a, b, side: -1)
        if atStart { return [a] + arc(a, from: left0, to: right0, direction: 1) }
        return [b] + arc(b, from: left1, to: right1, direction: -1)
    }

    /// Hands every piece of the buffer of a line (or of a polygon's ring, `closedRing`, whose
    /// last point is its first) to `emit`: segment rectangles, fans at turns, end caps.
    func addLine(_ input: Ring, closedRing: Bool, emit: (Ring) -> Void) {
        var points: Ring = []
        points.reserveCapacity(input.count)
        for p in input where points.last.map({ $0.x != p.x || $0.y != p.y }) ?? true { points.append(p) }
        if points.count == 1 {
            emit(circle(points[0].x, points[0].y))
            return
        }
        guard points.count >= 2 else { return }
        let n = points.count
        for k in 0..<(n - 1) {
            let (l0, l1) = offset(points[k], points[k + 1], side: 1)
            let (r0, r1) = offset(points[k], points[k + 1], side: -1)
            // The segment's ends are vertices of its rectangle: fans and caps meet the
            // rectangle's ends there, and so share exact edges with it.
            emit([l0, points[k], r0, r1, points[k + 1], l1])
        }
        let ringIsClosed = closedRing && n > 2 && points[0].x == points[n - 1].x && points[0].y == points[n - 1].y
        if ringIsClosed {
            // The closing vertex turns from the last segment into the first.
            turn(points[n - 2], points[0], points[1], emit: emit)
        } else {
            emit(endCap(points[0], points[1], atStart: true))
            emit(endCap(points[n - 2], points[n - 1]))
        }
        if n > 2 {
            for k in 1..<(n - 1) { turn(points[k - 1], points[k], points[k + 1], emit: emit) }
        }
    }

    /// The fan on the outer side of the turn a→b→c (a half disc when the line doubles back).
    private func turn(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double), emit: (Ring) -> Void) {
        let orientation = Planar.orientation(a.x, a.y, b.x, b.y, c.x, c.y)
        if orientation == 0 {
            if (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) < 0 { emit(endCap(a, b)) }
            return
        }
        // A left turn opens a gap on the right side, a right turn on the left.
        let side: Double = orientation > 0 ? -1 : 1
        let incoming = offset(a, b, side: side).1, outgoing = offset(b, c, side: side).0
        emit([b] + arc(b, from: incoming, to: outgoing, direction: orientation > 0 ? 1 : -1))
    }
}
