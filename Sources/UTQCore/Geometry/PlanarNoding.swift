import Foundation

/// Directed edges of weighted rings over shared vertices, split where they meet so that no two
/// edges cross and none passes through a vertex: the arrangement union works on. An edge's
/// weight is how much the winding number grows when crossing it from its right to its left.
struct PlanarArrangement {
    /// An edge; `layer` is 0 for raw input, or the number of an input already noded in
    /// itself (a union's result), whose edges need not be tested against each other.
    struct Edge { var from: Int32; var to: Int32; var weight: Int32; var layer: Int32 = 0 }

    /// Vertex coordinates; until `node()` the same point may appear under several numbers.
    var xs: [Double] = [], ys: [Double] = []
    var edges: [Edge] = []
    /// The snap-rounding grid; unions that will be united later share one, so that a vertex
    /// they have in common stays one vertex. Nil: from this arrangement's own coordinates.
    var gridCell: Double?

    init(gridCell: Double? = nil) { self.gridCell = gridCell }

    /// Adds a ring (closed or not) whose interior is on its left, when `weight` is 1, or on its
    /// right, when -1; repeated points are dropped.
    mutating func addRing(_ points: [(x: Double, y: Double)], weight: Int32, layer: Int32 = 0) {
        var count = points.count
        if count > 1 && points[0] == points[count - 1] { count -= 1 }
        let first = Int32(xs.count)
        for k in 0..<count where k == 0 || points[k] != points[k - 1] {
            xs.append(points[k].x); ys.append(points[k].y)
        }
        let added = Int32(xs.count) - first
        guard added >= 3 else { xs.removeLast(Int(added)); ys.removeLast(Int(added)); return }
        for k in 0..<added {
            edges.append(Edge(from: first + k, to: first + (k + 1) % added, weight: weight, layer: layer))
        }
    }

    /// Splits edges so that no two cross and no vertex lies inside an edge, by snap rounding:
    /// every vertex goes to a fine grid (2^-40 of the largest coordinate, about 1e-12 of it),
    /// crossing points are rounded to the grid too, and each edge is routed through every grid
    /// cell holding a vertex that it passes. Rounded crossings then cannot start a cascade of
    /// new crossings one rounding error apart (as nearly parallel edges otherwise do), and
    /// points a hair apart become one.
    mutating func node() {
        guard !edges.isEmpty else { return }
        let cell = gridCell ?? Self.gridCell(largestCoordinate: xs.indices.reduce(0) { max($0, abs(xs[$1]), abs(ys[$1])) })
        gridCell = cell
        for k in xs.indices { xs[k] = (xs[k] / cell).rounded() * cell; ys[k] = (ys[k] / cell).rounded() * cell }
        let crossings = roundedCrossings(cell: cell)
        // Which inputs each vertex comes from (bit 1 << layer), crossings as bit 8.
        var sources = [UInt8](repeating: 0, count: xs.count + crossings.count)
        for e in edges {
            sources[Int(e.from)] |= 1 << UInt8(e.layer); sources[Int(e.to)] |= 1 << UInt8(e.layer)
        }
        for k in crossings.indices { sources[xs.count + k] = 8 }
        for (x, y) in crossings { xs.append(x); ys.append(y) }
        sources = mergeEqualVertices(sources)
        routeThroughVertexCells(cell: cell, sources: sources)
    }

    /// A power of two about 2^-40 of the largest coordinate: far above rounding noise, far
    /// below any feature worth keeping.
    static func gridCell(largestCoordinate largest: Double) -> Double {
        guard largest > 0, largest.isFinite else { return .ulpOfOne }
        return Double(sign: .plus, exponent: largest.exponent - 40, significand: 1)
    }

    /// The grid for everything these geometries (grown by `margin`) will be part of.
    static func gridCell(for geometries: [Geometry], margin: Double = 0) -> Double {
        var largest = 0.0
        for g in geometries {
            guard let b = g.bounds else { continue }
            largest = max(largest, abs(b.minX) + margin, abs(b.maxX) + margin, abs(b.minY) + margin, abs(b.maxY) + margin)
        }
        return gridCell(largestCoordinate: largest)
    }

    /// Gives equal points one number (sorting, not hashing: it is faster here) and drops edges
    /// that shrank to a point; returns the sources of the merged vertices.
    private mutating func mergeEqualVertices(_ sources: [UInt8]) -> [UInt8] {
        var mergedSources: [UInt8] = []
        mergedSources.reserveCapacity(xs.count)
        let order = xs.indices.sorted { (xs[$0], ys[$0]) < (xs[$1], ys[$1]) }
        var renumbered = [Int32](repeating: 0, count: xs.count)
        var newXs: [Double] = [], newYs: [Double] = []
        newXs.reserveCapacity(xs.count); newYs.reserveCapacity(xs.count)
        for k in order {
            if let lastX = newXs.last, lastX == xs[k], newYs[newYs.count - 1] == ys[k] {
                renumbered[k] = Int32(newXs.count - 1)
                mergedSources[mergedSources.count - 1] |= sources[k]
            } else {
                renumbered[k] = Int32(newXs.count)
                newXs.append(xs[k] + 0); newYs.append(ys[k] + 0)
                mergedSources.append(sources[k])
            }
        }
        xs = newXs; ys = newYs
        edges = edges.compactMap { e in
            let from = renumbered[Int(e.from)], to = renumbered[Int(e.to)]
            return from == to ? nil : Edge(from: from, to: to, weight: e.weight, layer: e.layer)
        }
        return mergedSources
    }

    /// The grid points of every proper crossing of two edges.
    private func roundedCrossings(cell: Double) -> [(Double, Double)] {
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
                if let (x, y) = properCrossing(e, f) { crossings.append(((x / cell).rounded() * cell, (y / cell).rounded() * cell)) }
                return true
            }
        }
        return crossings
    }

    /// Where edges e and f cross at a point inside both, if they do.
    private func properCrossing(_ e: Int, _ f: Int) -> (Double, Double)? {
        let p1 = Int(edges[e].from), p2 = Int(edges[e].to), q1 = Int(edges[f].from), q2 = Int(edges[f].to)
        let o1 = Planar.orientation(xs[p1], ys[p1], xs[p2], ys[p2], xs[q1], ys[q1])
        let o2 = Planar.orientation(xs[p1], ys[p1], xs[p2], ys[p2], xs[q2], ys[q2])
        guard o1 * o2 < 0 else { return nil }
        let o3 = Planar.orientation(xs[q1], ys[q1], xs[q2], ys[q2], xs[p1], ys[p1])
        let o4 = Planar.orientation(xs[q1], ys[q1], xs[q2], ys[q2], xs[p2], ys[p2])
        guard o3 * o4 < 0 else { return nil }
        return PlanarClosestPoints.properIntersection(xs[p1], ys[p1], xs[p2], ys[p2], xs[q1], ys[q1], xs[q2], ys[q2])
    }

    /// Replaces every edge by the chain through the vertices whose grid cells it passes
    /// through, in order along it. A chain's piece can still pass exactly through another
    /// vertex (whose cell the edge itself missed); such pieces are split there in turn.
    ///
    /// When two unions are united, an edge of one was already routed through the cells of
    /// that union's own vertices: only the other union's vertices and the new crossings can
    /// lie in its way.
    private mutating func routeThroughVertexCells(cell: Double, sources: [UInt8]) {
        let half = cell / 2
        let reachSquared = (half * 1.5) * (half * 1.5)
        let twoLayers = edges.allSatisfy { $0.layer == 1 || $0.layer == 2 }
        func vertexTree(_ wanted: UInt8) -> (PlanarBoxTree, [Int]) {
            let ids = wanted == 0xff ? Array(xs.indices) : xs.indices.filter { sources[$0] & wanted != 0 }
            return (PlanarBoxTree(count: ids.count) { k in (self.xs[ids[k]], self.ys[ids[k]], self.xs[ids[k]], self.ys[ids[k]]) }, ids)
        }
        let all = vertexTree(0xff)
        let forLayer1 = twoLayers ? vertexTree(4 | 8) : all, forLayer2 = twoLayers ? vertexTree(2 | 8) : all
        var stack: [Int] = []
        var routed: [Edge] = []
        routed.reserveCapacity(edges.count * 2)
        var passed: [(t: Double, v: Int32)] = []
        var pending = edges[...]
        var rounds = 0
        while !pending.isEmpty {
            var rerouted: [Edge] = []
            for edge in pending {
                let a = Int(edge.from), b = Int(edge.to)
                let ax = xs[a], ay = ys[a], bx = xs[b], by = ys[b]
                passed.removeAll(keepingCapacity: true)
                let reach = rounds == 0 ? half : 0
                let (tree, ids) = rounds > 0 ? all : (edge.layer == 1 ? forLayer1 : edge.layer == 2 ? forLayer2 : all)
                tree.query(min(ax, bx) - reach, min(ay, by) - reach, max(ax, bx) + reach, max(ay, by) + reach, stack: &stack) { k in
                    let v = ids[k]
                    guard v != a && v != b else { return true }
                    if rounds == 0 {
                        // Far from the line (beyond the cell's half diagonal, with room for
                        // rounding) no corner can be on the other side: skip the exact tests.
                        let cross = (bx - ax) * (ys[v] - ay) - (by - ay) * (xs[v] - ax)
                        if cross * cross > reachSquared * ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)) { return true }
                        // The segment meets the cell unless all four corners lie on one side.
                        let x0 = xs[v] - half, x1 = xs[v] + half, y0 = ys[v] - half, y1 = ys[v] + half
                        let o1 = Planar.orientation(ax, ay, bx, by, x0, y0), o2 = Planar.orientation(ax, ay, bx, by, x1, y0)
                        let o3 = Planar.orientation(ax, ay, bx, by, x1, y1), o4 = Planar.orientation(ax, ay, bx, by, x0, y1)
                        if (o1 > 0 && o2 > 0 && o3 > 0 && o4 > 0) || (o1 < 0 && o2 < 0 && o3 < 0 && o4 < 0) { return true }
                    } else if Planar.orientation(ax, ay, bx, by, xs[v], ys[v]) != 0 {
                        return true
                    }
                    passed.append(((xs[v] - ax) * (bx - ax) + (ys[v] - ay) * (by - ay), Int32(v)))
                    return true
                }
                guard !passed.isEmpty else { routed.append(edge); continue }
                passed.sort { $0.t < $1.t }
                var previous = edge.from
                for p in passed + [(t: .infinity, v: edge.to)] where p.v != previous {
                    rerouted.append(Edge(from: previous, to: p.v, weight: edge.weight, layer: 0))
                    previous = p.v
                }
            }
            rounds += 1
            // Later rounds only split at vertices exactly on a piece, which ends quickly; the
            // cap guards against a cycle that exact arithmetic should never allow.
            if rounds >= 8 { routed.append(contentsOf: rerouted); break }
            pending = rerouted[...]
        }
        edges = routed
    }

    private func box(_ e: Int) -> (Double, Double, Double, Double) {
        let a = Int(edges[e].from), b = Int(edges[e].to)
        return (min(xs[a], xs[b]), min(ys[a], ys[b]), max(xs[a], xs[b]), max(ys[a], ys[b]))
    }
}
