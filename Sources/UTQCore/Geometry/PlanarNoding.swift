import Foundation

/// Directed edges of weighted rings over shared vertices, split where they meet so that no two
/// edges cross and none passes through a vertex: the arrangement union works on. An edge's
/// weight is how much the winding number grows when crossing it from its right to its left.
struct PlanarArrangement {
    /// An edge; `layer` is 0 for raw input, or the number of an input already noded in
    /// itself (a union's result), whose edges need not be tested against each other.
    struct Edge { var from: Int32; var to: Int32; var weight: Int32; var layer: Int32 = 0 }

    var xs: [Double] = [], ys: [Double] = []
    var edges: [Edge] = []
    private var vertexIndex: [SIMD2<UInt64>: Int32] = [:]

    /// The vertex at (x, y), made if new; equal coordinates always give the same vertex.
    mutating func vertex(_ x: Double, _ y: Double) -> Int32 {
        // +0 and -0 are one coordinate.
        let key = SIMD2((x + 0).bitPattern, (y + 0).bitPattern)
        if let v = vertexIndex[key] { return v }
        let v = Int32(xs.count)
        xs.append(x + 0); ys.append(y + 0)
        vertexIndex[key] = v
        return v
    }

    /// Adds a ring (closed or not) whose interior is on its left, when `weight` is 1, or on its
    /// right, when -1; repeated points are dropped.
    mutating func addRing(_ points: [(x: Double, y: Double)], weight: Int32, layer: Int32 = 0) {
        guard points.count >= 3 else { return }
        var ids: [Int32] = []
        ids.reserveCapacity(points.count + 1)
        for p in points {
            let v = vertex(p.x, p.y)
            if ids.last != v { ids.append(v) }
        }
        if ids.count > 1 && ids.first == ids.last { ids.removeLast() }
        guard ids.count >= 3 else { return }
        for k in 0..<ids.count {
            edges.append(Edge(from: ids[k], to: ids[(k + 1) % ids.count], weight: weight, layer: layer))
        }
    }

    /// Splits edges so that no two cross and no vertex lies inside an edge, by snap rounding:
    /// every vertex goes to a fine grid (2^-40 of the largest coordinate, about 1e-12 of it),
    /// crossing points are rounded to the grid too, and each edge is routed through every grid
    /// cell holding a vertex that it passes. Rounded crossings then cannot start a cascade of
    /// new crossings one rounding error apart (as nearly parallel edges otherwise do), and
    /// points a hair apart become one. A last pass splits edges at vertices still lying exactly
    /// on them.
    mutating func node() {
        guard !edges.isEmpty else { return }
        let cell = gridCell()
        snapVertices(to: cell)
        addRoundedCrossings(cell: cell)
        routeThroughVertexCells(cell: cell)
        splitAtVertices(maxRounds: 4)
    }

    /// A power of two about 2^-40 of the largest coordinate: far above rounding noise, far
    /// below any feature worth keeping.
    private func gridCell() -> Double {
        var largest = 0.0
        for k in xs.indices { largest = max(largest, abs(xs[k]), abs(ys[k])) }
        guard largest > 0, largest.isFinite else { return .ulpOfOne }
        return Double(sign: .plus, exponent: largest.exponent - 40, significand: 1)
    }

    /// Moves every vertex to its grid point, merging those that meet, and drops edges that
    /// shrink to a point.
    private mutating func snapVertices(to cell: Double) {
        let oldXs = xs, oldYs = ys
        xs.removeAll(keepingCapacity: true); ys.removeAll(keepingCapacity: true)
        vertexIndex.removeAll(keepingCapacity: true)
        var moved = [Int32](repeating: 0, count: oldXs.count)
        for k in oldXs.indices {
            moved[k] = vertex((oldXs[k] / cell).rounded() * cell, (oldYs[k] / cell).rounded() * cell)
        }
        edges = edges.compactMap { e in
            let from = moved[Int(e.from)], to = moved[Int(e.to)]
            return from == to ? nil : Edge(from: from, to: to, weight: e.weight, layer: e.layer)
        }
    }

    /// Adds the grid point of every proper crossing of two edges as a vertex.
    private mutating func addRoundedCrossings(cell: Double) {
        var crossings: [(Double, Double)] = []
        var stack: [Int] = []
        // Two unions being united: their own edges are already noded, only the other's count.
        let twoLayers = edges.allSatisfy { $0.layer == 1 || $0.layer == 2 }
        let targets = twoLayers ? edges.indices.filter { edges[$0].layer == 2 } : Array(edges.indices)
        let tree = PlanarBoxTree(count: targets.count) { k in self.box(targets[k]) }
        for e in edges.indices where !twoLayers || edges[e].layer == 1 {
            let (x0, y0, x1, y1) = box(e)
            tree.query(x0, y0, x1, y1, stack: &stack) { k in
                let f = targets[k]
                if !twoLayers && f <= e { return true }
                if let point = properCrossing(e, f) { crossings.append(point) }
                return true
            }
        }
        for (x, y) in crossings { _ = vertex((x / cell).rounded() * cell, (y / cell).rounded() * cell) }
    }

    /// Where edges e and f cross at a point inside both, if they do.
    private func properCrossing(_ e: Int, _ f: Int) -> (Double, Double)? {
        let p1 = Int(edges[e].from), p2 = Int(edges[e].to), q1 = Int(edges[f].from), q2 = Int(edges[f].to)
        if p1 == q1 || p1 == q2 || p2 == q1 || p2 == q2 { return nil }
        let o1 = Planar.orientation(xs[p1], ys[p1], xs[p2], ys[p2], xs[q1], ys[q1])
        let o2 = Planar.orientation(xs[p1], ys[p1], xs[p2], ys[p2], xs[q2], ys[q2])
        guard o1 * o2 < 0 else { return nil }
        let o3 = Planar.orientation(xs[q1], ys[q1], xs[q2], ys[q2], xs[p1], ys[p1])
        let o4 = Planar.orientation(xs[q1], ys[q1], xs[q2], ys[q2], xs[p2], ys[p2])
        guard o3 * o4 < 0 else { return nil }
        return SegmentClosestPoints.properIntersection(xs[p1], ys[p1], xs[p2], ys[p2], xs[q1], ys[q1], xs[q2], ys[q2])
    }

    /// Replaces every edge by the chain through the vertices whose grid cells it passes
    /// through, in order along it.
    private mutating func routeThroughVertexCells(cell: Double) {
        let half = cell / 2
        let tree = PlanarBoxTree(count: xs.count) { k in (self.xs[k], self.ys[k], self.xs[k], self.ys[k]) }
        var stack: [Int] = []
        var routed: [Edge] = []
        routed.reserveCapacity(edges.count * 2)
        var passed: [(t: Double, v: Int32)] = []
        for edge in edges {
            let a = Int(edge.from), b = Int(edge.to)
            let ax = xs[a], ay = ys[a], bx = xs[b], by = ys[b]
            passed.removeAll(keepingCapacity: true)
            tree.query(min(ax, bx) - half, min(ay, by) - half, max(ax, bx) + half, max(ay, by) + half, stack: &stack) { v in
                guard v != a && v != b else { return true }
                let x0 = xs[v] - half, x1 = xs[v] + half, y0 = ys[v] - half, y1 = ys[v] + half
                // The segment meets the cell unless all four corners lie on one side of it.
                let o1 = Planar.orientation(ax, ay, bx, by, x0, y0), o2 = Planar.orientation(ax, ay, bx, by, x1, y0)
                let o3 = Planar.orientation(ax, ay, bx, by, x1, y1), o4 = Planar.orientation(ax, ay, bx, by, x0, y1)
                if (o1 > 0 && o2 > 0 && o3 > 0 && o4 > 0) || (o1 < 0 && o2 < 0 && o3 < 0 && o4 < 0) { return true }
                passed.append(((xs[v] - ax) * (bx - ax) + (ys[v] - ay) * (by - ay), Int32(v)))
                return true
            }
            guard !passed.isEmpty else { routed.append(edge); continue }
            passed.sort { $0.t < $1.t }
            var previous = edge.from
            for p in passed + [(t: .infinity, v: edge.to)] where p.v != previous {
                routed.append(Edge(from: previous, to: p.v, weight: edge.weight, layer: 0))
                previous = p.v
            }
        }
        edges = routed
    }

    /// Splits edges where they cross, touch or overlap, repeating on the pieces next to newly
    /// computed crossing points (a rounded crossing can sit a hair off its edges and so meet a
    /// third edge nearby) until no edge meets another except at shared end points. After snap
    /// rounding only vertices lying exactly inside an edge remain to be found.
    private mutating func splitAtVertices(maxRounds: Int) {
        var candidates = Array(0..<edges.count)
        var isCandidate = [Bool](repeating: true, count: edges.count)
        let twoLayers = false
        for round in 0..<maxRounds {
            guard !candidates.isEmpty else { return }
            let firstNewVertex = Int32(xs.count)
            var splits: [(edge: Int32, vertex: Int32)] = []
            var stack: [Int] = []
            if round == 0 && twoLayers {
                let second = edges.indices.filter { edges[$0].layer == 2 }
                let tree = PlanarBoxTree(count: second.count) { k in self.box(second[k]) }
                for e in edges.indices where edges[e].layer == 1 {
                    let (x0, y0, x1, y1) = box(e)
                    tree.query(x0, y0, x1, y1, stack: &stack) { k in
                        split(e, second[k], into: &splits)
                        return true
                    }
                }
            } else {
                let tree = PlanarBoxTree(count: edges.count) { k in self.box(k) }
                for e in candidates {
                    let (x0, y0, x1, y1) = box(e)
                    tree.query(x0, y0, x1, y1, stack: &stack) { f in
                        if f == e || (isCandidate[f] && f < e) { return true }
                        split(e, f, into: &splits)
                        return true
                    }
                }
            }
            guard !splits.isEmpty else { return }
            splits.sort { ($0.edge, $0.vertex) < ($1.edge, $1.vertex) }
            var rebuilt: [Edge] = []
            rebuilt.reserveCapacity(edges.count + splits.count)
            var nextCandidates: [Int] = []
            var s = 0
            for e in 0..<edges.count {
                let edge = edges[e]
                guard s < splits.count && Int(splits[s].edge) == e else { rebuilt.append(edge); continue }
                var points: [(t: Double, v: Int32)] = []
                let ax = xs[Int(edge.from)], ay = ys[Int(edge.from)]
                let dx = xs[Int(edge.to)] - ax, dy = ys[Int(edge.to)] - ay
                while s < splits.count && Int(splits[s].edge) == e {
                    let v = splits[s].vertex
                    if points.last?.v != v {
                        points.append(((xs[Int(v)] - ax) * dx + (ys[Int(v)] - ay) * dy, v))
                    }
                    s += 1
                }
                points.sort { $0.t < $1.t }
                var previous = edge.from
                for p in points + [(t: .infinity, v: edge.to)] where p.v != previous {
                    if previous >= firstNewVertex || p.v >= firstNewVertex { nextCandidates.append(rebuilt.count) }
                    rebuilt.append(Edge(from: previous, to: p.v, weight: edge.weight, layer: edge.layer))
                    previous = p.v
                }
            }
            edges = rebuilt
            candidates = nextCandidates
            isCandidate = [Bool](repeating: false, count: edges.count)
            for c in candidates { isCandidate[c] = true }
        }
    }

    private func box(_ e: Int) -> (Double, Double, Double, Double) {
        let a = Int(edges[e].from), b = Int(edges[e].to)
        return (min(xs[a], xs[b]), min(ys[a], ys[b]), max(xs[a], xs[b]), max(ys[a], ys[b]))
    }

    /// Records where edges e and f meet: each end point of one lying inside the other, or
    /// their crossing point, as a vertex to split at.
    private mutating func split(_ e: Int, _ f: Int, into splits: inout [(edge: Int32, vertex: Int32)]) {
        let p1 = edges[e].from, p2 = edges[e].to, q1 = edges[f].from, q2 = edges[f].to
        if (p1 == q1 && p2 == q2) || (p1 == q2 && p2 == q1) { return }
        let p1x = xs[Int(p1)], p1y = ys[Int(p1)], p2x = xs[Int(p2)], p2y = ys[Int(p2)]
        let q1x = xs[Int(q1)], q1y = ys[Int(q1)], q2x = xs[Int(q2)], q2y = ys[Int(q2)]
        if min(p1x, p2x) > max(q1x, q2x) || max(p1x, p2x) < min(q1x, q2x)
            || min(p1y, p2y) > max(q1y, q2y) || max(p1y, p2y) < min(q1y, q2y) { return }
        let o1 = q1 == p1 || q1 == p2 ? 0 : Planar.orientation(p1x, p1y, p2x, p2y, q1x, q1y)
        let o2 = q2 == p1 || q2 == p2 ? 0 : Planar.orientation(p1x, p1y, p2x, p2y, q2x, q2y)
        if o1 * o2 > 0 { return }
        let o3 = p1 == q1 || p1 == q2 ? 0 : Planar.orientation(q1x, q1y, q2x, q2y, p1x, p1y)
        let o4 = p2 == q1 || p2 == q2 ? 0 : Planar.orientation(q1x, q1y, q2x, q2y, p2x, p2y)
        if o3 * o4 > 0 { return }
        let eIndex = Int32(e), fIndex = Int32(f)
        if o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0 {
            // Collinear: each end strictly between the other's ends splits it.
            if strictlyBetween(q1, p1, p2) { splits.append((eIndex, q1)) }
            if strictlyBetween(q2, p1, p2) { splits.append((eIndex, q2)) }
            if strictlyBetween(p1, q1, q2) { splits.append((fIndex, p1)) }
            if strictlyBetween(p2, q1, q2) { splits.append((fIndex, p2)) }
            return
        }
        if o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0 {
            if o1 == 0 && q1 != p1 && q1 != p2 { splits.append((eIndex, q1)) }
            if o2 == 0 && q2 != p1 && q2 != p2 { splits.append((eIndex, q2)) }
            if o3 == 0 && p1 != q1 && p1 != q2 { splits.append((fIndex, p1)) }
            if o4 == 0 && p2 != q1 && p2 != q2 { splits.append((fIndex, p2)) }
            return
        }
        let (x, y) = SegmentClosestPoints.properIntersection(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y)
        let v = vertex(x, y)
        if v != p1 && v != p2 { splits.append((eIndex, v)) }
        if v != q1 && v != q2 { splits.append((fIndex, v)) }
    }

    /// Whether vertex v, collinear with a–b, lies strictly between them.
    private func strictlyBetween(_ v: Int32, _ a: Int32, _ b: Int32) -> Bool {
        if v == a || v == b { return false }
        let vx = xs[Int(v)], vy = ys[Int(v)], ax = xs[Int(a)], ay = ys[Int(a)], bx = xs[Int(b)], by = ys[Int(b)]
        if ax != bx { return (vx > min(ax, bx) && vx < max(ax, bx)) }
        return vy > min(ay, by) && vy < max(ay, by)
    }
}
