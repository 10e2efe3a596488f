import Foundation

extension PlanarArrangement {
    /// Chains directed boundary edges into closed rings: each walk turns as sharply left as
    /// possible (it follows the boundary of one face of the result), then is cut where it
    /// passes a vertex twice, so that rings touching at a point come out as separate rings
    /// (two shells, two holes, or a shell and a hole), as GEOS writes them.
    func assembleRings(_ boundary: [(Int32, Int32)]) -> [[Int32]] {
        // The edges leaving each vertex, as one array cut by vertex (compressed rows).
        let vertexCount = xs.count
        var firstOut = [Int32](repeating: 0, count: vertexCount + 1)
        for (from, _) in boundary { firstOut[Int(from) + 1] += 1 }
        for v in 0..<vertexCount { firstOut[v + 1] += firstOut[v] }
        var outgoing = [Int32](repeating: 0, count: boundary.count)
        var fill = firstOut
        for (k, (from, _)) in boundary.enumerated() {
            outgoing[Int(fill[Int(from)])] = Int32(k)
            fill[Int(from)] += 1
        }
        var used = [Bool](repeating: false, count: boundary.count)
        var positionInWalk = [Int32](repeating: -1, count: vertexCount)
        var rings: [[Int32]] = []
        var walk: [Int32] = []
        for start in 0..<boundary.count where !used[start] {
            walk.removeAll(keepingCapacity: true)
            walk.append(boundary[start].0)
            var current = start
            used[start] = true
            var closed = false
            while true {
                let (from, to) = boundary[current]
                let choices = Int(firstOut[Int(to)])..<Int(firstOut[Int(to) + 1])
                let next = sharpestLeft(from: from, at: to, choices: choices, outgoing, boundary) { k in !used[k] || k == start }
                guard let next else { break }
                if next == start { closed = true; break }
                walk.append(to)
                used[next] = true
                current = next
            }
            guard closed else { continue }
            for loop in splitAtRepeatedVertices(walk, &positionInWalk) {
                let ring = removingStraightVertices(loop) { v in firstOut[Int(v) + 1] - firstOut[Int(v)] == 1 }
                if ring.count >= 3 && !isSliver(ring) { rings.append(ring) }
            }
        }
        return rings
    }

    /// Of the edges leaving `vertex` that `available` allows, the first met turning clockwise
    /// from the way back to `from`: the sharpest left turn.
    private func sharpestLeft(from: Int32, at vertex: Int32, choices: Range<Int>, _ outgoing: [Int32],
                              _ boundary: [(Int32, Int32)], available: (Int) -> Bool) -> Int? {
        if choices.count == 1 {
            let only = Int(outgoing[choices.lowerBound])
            return available(only) ? only : nil
        }
        let vx = xs[Int(vertex)], vy = ys[Int(vertex)]
        let back = atan2(ys[Int(from)] - vy, xs[Int(from)] - vx)
        var best: Int?, bestTurn = Double.infinity
        for c in choices {
            let k = Int(outgoing[c])
            guard available(k) else { continue }
            let w = Int(boundary[k].1)
            var turn = back - atan2(ys[w] - vy, xs[w] - vx)
            while turn <= 0 { turn += 2 * .pi }
            while turn > 2 * .pi { turn -= 2 * .pi }
            if turn < bestTurn { bestTurn = turn; best = k }
        }
        return best
    }

    /// A closed walk cut into loops that each pass a vertex once. `positionInWalk` is scratch
    /// space, -1 for every vertex before and after.
    private func splitAtRepeatedVertices(_ walk: [Int32], _ positionInWalk: inout [Int32]) -> [[Int32]] {
        var loops: [[Int32]] = []
        var stack: [Int32] = []
        stack.reserveCapacity(walk.count)
        for v in walk {
            let p = Int(positionInWalk[Int(v)])
            if p >= 0 {
                loops.append(Array(stack[p...]))
                for u in stack[(p + 1)...] { positionInWalk[Int(u)] = -1 }
                stack.removeSubrange((p + 1)...)
            } else {
                positionInWalk[Int(v)] = Int32(stack.count)
                stack.append(v)
            }
        }
        for u in stack { positionInWalk[Int(u)] = -1 }
        loops.append(stack)
        return loops
    }

    /// Whether a ring is a sliver of rounding noise: on average narrower than the snapping
    /// grid's cell (its area below its perimeter times the cell), or negligible against its
    /// perimeter squared.
    private func isSliver(_ ring: [Int32]) -> Bool {
        var twiceArea = 0.0, perimeter = 0.0
        let x0 = xs[Int(ring[0])], y0 = ys[Int(ring[0])]
        for k in 0..<ring.count {
            let a = Int(ring[k]), b = Int(ring[(k + 1) % ring.count])
            twiceArea += (xs[a] - x0) * (ys[b] - y0) - (xs[b] - x0) * (ys[a] - y0)
            perimeter += Planar.hypotenuse(xs[b] - xs[a], ys[b] - ys[a])
        }
        return abs(twiceArea) / 2 <= max(1e-12 * perimeter * perimeter, (gridCell ?? 0) * perimeter)
    }

    /// The ring without vertices that lie exactly on the straight line through their
    /// neighbours (split points that ended up inside a straight edge). Only vertices that
    /// `removable` allows go: where rings touch, the vertex stays in both, or the other ring's
    /// vertex would sit inside this ring's edge.
    private func removingStraightVertices(_ ring: [Int32], removable: (Int32) -> Bool) -> [Int32] {
        guard ring.count > 3 else { return ring }
        var kept: [Int32] = []
        kept.reserveCapacity(ring.count)
        for k in 0..<ring.count {
            let v = ring[k]
            let p = Int(kept.last ?? ring[ring.count - 1]), q = Int(ring[(k + 1) % ring.count]), c = Int(v)
            let straight = removable(v) && Planar.orientation(xs[p], ys[p], xs[c], ys[c], xs[q], ys[q]) == 0
                && (xs[c] - xs[p]) * (xs[q] - xs[c]) + (ys[c] - ys[p]) * (ys[q] - ys[c]) > 0
            if !straight { kept.append(v) }
        }
        // The first vertex was judged against the unpruned last one; judge it again.
        if kept.count > 3 {
            let p = Int(kept[kept.count - 1]), c = Int(kept[0]), q = Int(kept[1])
            if removable(kept[0]) && Planar.orientation(xs[p], ys[p], xs[c], ys[c], xs[q], ys[q]) == 0
                && (xs[c] - xs[p]) * (xs[q] - xs[c]) + (ys[c] - ys[p]) * (ys[q] - ys[c]) > 0 {
                kept.removeFirst()
            }
        }
        return kept
    }

    /// Shells (counterclockwise rings) with the holes (clockwise rings) each lies in, as a
    /// Polygon or MultiPolygon with GEOS's ring orientation.
    func polygons(from rings: [[Int32]], space: GeoSpace) -> Geometry {
        func signedArea(_ ring: [Int32]) -> Double {
            var sum = 0.0
            let x0 = xs[Int(ring[0])], y0 = ys[Int(ring[0])]
            for k in 1..<(ring.count - 1) {
                let a = Int(ring[k]), b = Int(ring[k + 1])
                sum += (xs[a] - x0) * (ys[b] - y0) - (xs[b] - x0) * (ys[a] - y0)
            }
            return sum / 2
        }
        var shells: [(ring: [Int32], area: Double)] = [], holes: [[Int32]] = []
        for ring in rings {
            let area = signedArea(ring)
            if area > 0 { shells.append((ring, area)) } else if area < 0 { holes.append(ring) }
        }
        guard !shells.isEmpty else {
            return Geometry(kind: .polygon, space: space, xs: [], ys: [], rings: [0], parts: [0])
        }
        func bounds(_ ring: [Int32]) -> (Double, Double, Double, Double) {
            var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
            for v in ring {
                b.0 = min(b.0, xs[Int(v)]); b.1 = min(b.1, ys[Int(v)]); b.2 = max(b.2, xs[Int(v)]); b.3 = max(b.3, ys[Int(v)])
            }
            return b
        }
        // Each hole belongs to the smallest shell around it.
        var holesOf = [[Int]](repeating: [], count: shells.count)
        if !holes.isEmpty {
            let shellBounds = shells.map { bounds($0.ring) }
            let tree = PlanarBoxTree(count: shells.count) { shellBounds[$0] }
            var stack: [Int] = []
            // A large shell around many holes is indexed once rather than walked per hole.
            var indexed: [Int: Planar.PreparedArea] = [:]
            var tested = [Int](repeating: 0, count: shells.count)
            for (h, hole) in holes.enumerated() {
                let a = Int(hole[0]), b = Int(hole[1])
                let px = (xs[a] + xs[b]) / 2, py = (ys[a] + ys[b]) / 2
                var owner: Int?
                tree.query(px, py, px, py, stack: &stack) { s in
                    if let o = owner, shells[o].area <= shells[s].area { return true }
                    tested[s] += 1
                    if indexed[s] == nil && tested[s] > 8 && shells[s].ring.count > 64 {
                        let ring = shells[s].ring.map { (x: self.xs[Int($0)], y: self.ys[Int($0)]) }
                        indexed[s] = Planar.PreparedArea(.polygon([ring], space: space))
                    }
                    let inside = indexed[s].map { $0.locate(px, py) == .interior } ?? self.ringContains(shells[s].ring, px, py)
                    if inside { owner = s }
                    return true
                }
                if let o = owner { holesOf[o].append(h) }
            }
        }
        var g = Geometry(kind: shells.count == 1 ? .polygon : .multiPolygon, space: space, xs: [], ys: [], rings: [0], parts: [0])
        func append(_ ring: [Int32], reversed: Bool) {
            let order = reversed ? Array(ring.reversed()) : ring
            for v in order { g.xs.append(xs[Int(v)]); g.ys.append(ys[Int(v)]) }
            g.xs.append(xs[Int(order[0])]); g.ys.append(ys[Int(order[0])])
            g.rings.append(Int32(g.xs.count))
        }
        for (s, shell) in shells.enumerated() {
            append(shell.ring, reversed: true)
            for h in holesOf[s] { append(holes[h], reversed: true) }
            g.parts.append(Int32(g.rings.count - 1))
        }
        return g
    }

    /// Whether (x, y) lies strictly inside the closed ring of vertices, by crossing number.
    private func ringContains(_ ring: [Int32], _ x: Double, _ y: Double) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let xi = xs[Int(ring[i])], yi = ys[Int(ring[i])], xj = xs[Int(ring[j])], yj = ys[Int(ring[j])]
            if (yi > y) != (yj > y) {
                let o = Planar.orientation(xj, yj, xi, yi, x, y)
                if (yi > yj) == (o > 0) { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}
