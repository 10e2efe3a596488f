import Foundation

extension Planar {
    /// Where the point (x, y) lies relative to a geometry: in its interior, on its boundary
    /// (a polygon's rings, a line's end points by the mod-2 rule) or outside it. A point of a
    /// point geometry is interior, as DE-9IM has it.
    public static func locate(_ x: Double, _ y: Double, in g: Geometry) -> Location {
        guard !g.isEmpty else { return .exterior }
        return g.xs.withUnsafeBufferPointer { xs in
            g.ys.withUnsafeBufferPointer { ys in
                switch g.kind.dimension {
                case 0: return locateOnPoints(x, y, xs, ys)
                case 1: return locateOnLines(x, y, g, xs, ys)
                default: return locateInArea(x, y, g, xs, ys)
                }
            }
        }
    }

    static func locateOnPoints(_ x: Double, _ y: Double, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>) -> Location {
        for i in 0..<xs.count where xs[i] == x && ys[i] == y { return .interior }
        return .exterior
    }

    /// A point on a line or multi-line: boundary when it is the end of an odd number of its
    /// members (a closed member's two ends cancel), interior when otherwise on one.
    static func locateOnLines(_ x: Double, _ y: Double, _ g: Geometry, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>) -> Location {
        var endCount = 0
        var onLine = false
        for r in 0..<g.ringCount {
            let first = Int(g.rings[r]), end = Int(g.rings[r + 1])
            guard end > first else { continue }
            if xs[first] == x && ys[first] == y { endCount += 1 }
            if xs[end - 1] == x && ys[end - 1] == y { endCount += 1 }
            if onLine { continue }
            if end - first == 1 { onLine = xs[first] == x && ys[first] == y; continue }
            for i in first..<(end - 1) where pointOnSegment(x, y, xs[i], ys[i], xs[i + 1], ys[i + 1]) {
                onLine = true; break
            }
        }
        if endCount % 2 == 1 { return .boundary }
        return onLine || endCount > 0 ? .interior : .exterior
    }

    /// Whether p lies on the closed segment a–b, decided exactly.
    @inline(__always)
    static func pointOnSegment(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Bool {
        if px < min(ax, bx) || px > max(ax, bx) || py < min(ay, by) || py > max(ay, by) { return false }
        return orientation(ax, ay, bx, by, px, py) == 0
    }

    /// A point against a polygon or multi-polygon: interior of any member makes it interior,
    /// any ring it lies on makes it boundary.
    static func locateInArea(_ x: Double, _ y: Double, _ g: Geometry, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>) -> Location {
        var onBoundary = false
        for part in 0..<g.partCount {
            switch locateInPolygon(x, y, g, part: part, xs, ys) {
            case .interior: return .interior
            case .boundary: onBoundary = true
            case .exterior: break
            }
        }
        return onBoundary ? .boundary : .exterior
    }

    /// A point against one polygon: its shell, then its holes (inside a hole is outside).
    @inline(__always)
    static func locateInPolygon(_ x: Double, _ y: Double, _ g: Geometry, part: Int,
                                _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>) -> Location {
        let firstRing = Int(g.parts[part]), endRing = Int(g.parts[part + 1])
        guard endRing > firstRing else { return .exterior }
        let shell = locateInRing(x, y, xs, ys, Int(g.rings[firstRing]), Int(g.rings[firstRing + 1]))
        if shell != .interior { return shell }
        for r in (firstRing + 1)..<endRing {
            switch locateInRing(x, y, xs, ys, Int(g.rings[r]), Int(g.rings[r + 1])) {
            case .interior: return .exterior
            case .boundary: return .boundary
            case .exterior: continue
            }
        }
        return .interior
    }

    /// A point against one closed ring by counting crossings of a ray towards +x, as GEOS's
    /// RayCrossingCounter does: an upward edge counts its lower end and not its upper, a
    /// downward one the other way round, so a ray through a vertex counts once; horizontal
    /// edges never count but do catch points lying on them; the side of the ray an edge
    /// passes is decided by the exact orientation, so points on edges are found wherever.
    @inline(__always)
    static func locateInRing(_ x: Double, _ y: Double, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
                             _ start: Int, _ end: Int) -> Location {
        guard end - start >= 2 else { return end > start && xs[start] == x && ys[start] == y ? .boundary : .exterior }
        var crossings = 0
        for i in start..<(end - 1) {
            switch crossing(x, y, xs[i], ys[i], xs[i + 1], ys[i + 1]) {
            case .crosses: crossings += 1
            case .onEdge: return .boundary
            case .misses: break
            }
        }
        // An unclosed ring is closed here, as a polygon's ring always is.
        if xs[end - 1] != xs[start] || ys[end - 1] != ys[start] {
            switch crossing(x, y, xs[end - 1], ys[end - 1], xs[start], ys[start]) {
            case .crosses: crossings += 1
            case .onEdge: return .boundary
            case .misses: break
            }
        }
        return crossings % 2 == 1 ? .interior : .exterior
    }
}
