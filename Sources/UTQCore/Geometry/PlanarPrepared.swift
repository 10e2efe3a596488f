import Foundation

extension Planar {
    /// A polygon or multi-polygon indexed for locating many points in it (a zone in a spatial
    /// join): its edges are sorted into horizontal bands, so a point is tested only against the
    /// few edges whose height range holds it — the only ones a ray towards +x can meet —
    /// instead of every edge. Answers exactly as `Planar.locate`, vertices and edges included.
    public struct PreparedArea: Sendable {
        public let geometry: Geometry
        /// The box around every coordinate; nil when the geometry is empty.
        public let bounds: Bounds?
        private let bandBottom: Double, bandHeight: Double
        /// Where each band's edges start in `bandEdges`, then the end.
        private let bandStarts: [Int32]
        /// Each band's edges (the index of an edge's first point), sorted by polygon.
        private let bandEdges: [Int32]
        /// The polygon each coordinate belongs to.
        private let partOfPoint: [Int32]

        /// Indexes a polygon or multi-polygon; any other geometry locates nothing in it.
        public init(_ g: Geometry) {
            geometry = g
            bounds = g.kind.dimension == 2 ? g.bounds : nil
            var partOfPoint = [Int32](repeating: 0, count: g.pointCount)
            var edges: [(first: Int32, minY: Double, maxY: Double)] = []
            if bounds != nil {
                for part in 0..<g.partCount {
                    for r in g.ringRange(part: part) {
                        let points = g.pointRange(ring: r)
                        for i in points { partOfPoint[i] = Int32(part) }
                        guard points.count > 1 else { continue }
                        for i in points.lowerBound..<(points.upperBound - 1) {
                            edges.append((Int32(i), min(g.ys[i], g.ys[i + 1]), max(g.ys[i], g.ys[i + 1])))
                        }
                    }
                }
            }
            self.partOfPoint = partOfPoint
            // About four edges a band: a ray then meets a handful of edges, not hundreds.
            let bandCount = max(1, edges.count / 4)
            let bottom = bounds?.minY ?? 0
            let height = max((bounds?.height ?? 0) / Double(bandCount), .leastNormalMagnitude)
            bandBottom = bottom
            bandHeight = height
            var starts = [Int32](repeating: 0, count: bandCount + 1)
            func bands(_ e: (first: Int32, minY: Double, maxY: Double)) -> ClosedRange<Int> {
                Self.band(e.minY, bottom, height, bandCount)...Self.band(e.maxY, bottom, height, bandCount)
            }
            for e in edges { for b in bands(e) { starts[b + 1] += 1 } }
            for b in 0..<bandCount { starts[b + 1] += starts[b] }
            var fill = starts
            var entries = [Int32](repeating: 0, count: Int(starts[bandCount]))
            // Edges go in ring order, which keeps each band's edges grouped by polygon.
            for e in edges {
                for b in bands(e) { entries[Int(fill[b])] = e.first; fill[b] += 1 }
            }
            bandStarts = starts
            bandEdges = entries
        }

        @inline(__always)
        private static func band(_ y: Double, _ bottom: Double, _ height: Double, _ count: Int) -> Int {
            let b = ((y - bottom) / height).rounded(.down)
            return b < 0 ? 0 : (b >= Double(count) ? count - 1 : Int(b))
        }

        /// Where (x, y) lies: inside a polygon, on a ring, or outside.
        public func locate(_ x: Double, _ y: Double) -> Location {
            guard let b = bounds, b.contains(x, y) else { return .exterior }
            let band = Self.band(y, bandBottom, bandHeight, bandStarts.count - 1)
            return geometry.xs.withUnsafeBufferPointer { xs in
                geometry.ys.withUnsafeBufferPointer { ys in
                    var onBoundary = false, boundaryInPart = false
                    var part: Int32 = -1, crossings = 0
                    for k in Int(bandStarts[band])..<Int(bandStarts[band + 1]) {
                        let i = Int(bandEdges[k])
                        if partOfPoint[i] != part {
                            // A polygon is done: an odd count of crossings over all its rings
                            // (shell and holes) puts the point inside it.
                            if crossings % 2 == 1 && !boundaryInPart { return .interior }
                            part = partOfPoint[i]; crossings = 0; boundaryInPart = false
                        }
                        if boundaryInPart { continue }
                        switch Planar.crossing(x, y, xs[i], ys[i], xs[i + 1], ys[i + 1]) {
                        case .crosses: crossings += 1
                        case .onEdge: boundaryInPart = true; onBoundary = true
                        case .misses: break
                        }
                    }
                    if crossings % 2 == 1 && !boundaryInPart { return .interior }
                    return onBoundary ? .boundary : .exterior
                }
            }
        }
    }

    /// What one edge does to a ray from a point towards +x.
    enum RayCrossing { case crosses, onEdge, misses }

    /// One step of GEOS's RayCrossingCounter (see `locateInRing`), for one edge p1–p2.
    @inline(__always)
    static func crossing(_ x: Double, _ y: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> RayCrossing {
        if x1 < x && x2 < x { return .misses }
        if x == x2 && y == y2 { return .onEdge }
        if y1 == y && y2 == y {
            return x >= min(x1, x2) && x <= max(x1, x2) ? .onEdge : .misses
        }
        guard (y1 > y && y2 <= y) || (y2 > y && y1 <= y) else { return .misses }
        var sign = orientation(x1, y1, x2, y2, x, y)
        if sign == 0 { return .onEdge }
        if y2 < y1 { sign = -sign }
        return sign > 0 ? .crosses : .misses
    }
}
