import Foundation

extension PlanarArrangement {
    /// Whether vertex a comes before vertex b in sweep order (x, then y).
    @inline(__always)
    func precedes(_ a: Int32, _ b: Int32) -> Bool {
        let ax = xs[Int(a)], bx = xs[Int(b)]
        return ax < bx || (ax == bx && ys[Int(a)] < ys[Int(b)])
    }

    /// Merged edges, each from its sweep-first end (`left`) to the other, with its weight in
    /// that direction and the winding number of the region just below (right of) it.
    struct SweptEdges {
        var lefts: [Int32] = [], rights: [Int32] = [], weights: [Int32] = [], windingBelow: [Int32] = []
    }

    /// The directed edges with the positive-winding region on their left and the rest on
    /// their right.
    func boundaryEdges() -> [(Int32, Int32)] {
        let swept = sweepWindings()
        var out: [(Int32, Int32)] = []
        for e in swept.lefts.indices {
            let insideBelow = swept.windingBelow[e] > 0, insideAbove = swept.windingBelow[e] + swept.weights[e] > 0
            if insideAbove && !insideBelow { out.append((swept.lefts[e], swept.rights[e])) }
            if insideBelow && !insideAbove { out.append((swept.rights[e], swept.lefts[e])) }
        }
        return out
    }

    /// Merges coincident edges (their weights add up), then sweeps in (x, y) order: each edge
    /// entering the sweep takes its winding below from the edge just under it.
    func sweepWindings() -> SweptEdges {
        var oriented: [(l: Int32, r: Int32, w: Int32)] = edges.map { e in
            precedes(e.from, e.to) ? (e.from, e.to, e.weight) : (e.to, e.from, -e.weight)
        }
        oriented.sort { ($0.l, $0.r) < ($1.l, $1.r) }
        var swept = SweptEdges()
        var k = 0
        while k < oriented.count {
            var w: Int32 = 0
            let (l, r) = (oriented[k].l, oriented[k].r)
            while k < oriented.count && oriented[k].l == l && oriented[k].r == r { w += oriented[k].w; k += 1 }
            if w != 0 { swept.lefts.append(l); swept.rights.append(r); swept.weights.append(w) }
        }
        let lefts = swept.lefts, rights = swept.rights, weights = swept.weights
        let n = lefts.count
        var windingBelow = [Int32](repeating: 0, count: n)
        var status: [Int] = []

        /// Whether edge e, starting now, passes below edge s already in the sweep.
        func below(_ e: Int, _ s: Int) -> Bool {
            let sl = Int(lefts[s]), sr = Int(rights[s]), el = Int(lefts[e]), er = Int(rights[e])
            let o = lefts[e] == lefts[s] ? 0 : Planar.orientation(xs[sl], ys[sl], xs[sr], ys[sr], xs[el], ys[el])
            if o != 0 { return o < 0 }
            let o2 = Planar.orientation(xs[sl], ys[sl], xs[sr], ys[sr], xs[er], ys[er])
            if o2 != 0 { return o2 < 0 }
            return e < s
        }

        // Edges leaving one point go in from the bottom up, so each finds the one under it
        // already in place.
        let byStart = (0..<n).sorted { a, b in
            if lefts[a] != lefts[b] { return precedes(lefts[a], lefts[b]) }
            return below(a, b)
        }
        let byEnd = (0..<n).sorted { precedes(rights[$0], rights[$1]) || (rights[$0] == rights[$1] && $0 < $1) }
        var si = 0, ei = 0
        while si < n {
            // Edges ending at or before the next start leave the sweep first.
            while ei < n && !precedes(lefts[byStart[si]], rights[byEnd[ei]]) {
                let e = byEnd[ei]
                if let k = status.firstIndex(of: e) { status.remove(at: k) }
                ei += 1
            }
            let e = byStart[si]
            var lo = 0, hi = status.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if below(e, status[mid]) { hi = mid } else { lo = mid + 1 }
            }
            windingBelow[e] = lo == 0 ? 0 : windingBelow[status[lo - 1]] + weights[status[lo - 1]]
            status.insert(e, at: lo)
            si += 1
        }
        swept.windingBelow = windingBelow
        return swept
    }
}
