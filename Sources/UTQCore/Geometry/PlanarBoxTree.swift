import Foundation

/// A static R-tree over boxes, packed by sort-tile-recursive: built once from all boxes, then
/// queried for the boxes meeting a box. Finding the segment pairs that may meet this way keeps
/// relate, noding and union near O(n log n) instead of testing every pair.
struct PlanarBoxTree {
    static let nodeCapacity = 16

    /// Every node's box, level after level from the leaves (one node per item) up to the root.
    private var minX: [Double] = [], minY: [Double] = [], maxX: [Double] = [], maxY: [Double] = []
    /// Where each level starts in the node arrays, then the end.
    private var levelStarts: [Int] = []
    /// The item each leaf holds.
    private var leafItems: [Int32] = []

    var isEmpty: Bool { leafItems.isEmpty }

    /// A tree of `count` boxes given by `box(i)` as (minX, minY, maxX, maxY).
    init(count: Int, box: (Int) -> (Double, Double, Double, Double)) {
        guard count > 0 else { return }
        var boxes = [(Double, Double, Double, Double)](); boxes.reserveCapacity(count)
        for i in 0..<count { boxes.append(box(i)) }
        // Sort-tile-recursive: slices by x centre, each slice by y centre, so that the leaves
        // a node gathers lie near each other.
        var order = Array(0..<count)
        order.sort { boxes[$0].0 + boxes[$0].2 < boxes[$1].0 + boxes[$1].2 }
        let leafNodes = (count + Self.nodeCapacity - 1) / Self.nodeCapacity
        let slices = max(1, Int(Double(leafNodes).squareRoot().rounded(.up)))
        let sliceSize = slices * Self.nodeCapacity
        var start = 0
        while start < count {
            let end = min(count, start + sliceSize)
            order[start..<end].sort { boxes[$0].1 + boxes[$0].3 < boxes[$1].1 + boxes[$1].3 }
            start = end
        }
        leafItems = order.map { Int32($0) }
        minX.reserveCapacity(count + count / 8 + 8)
        for i in order {
            let b = boxes[i]
            minX.append(b.0); minY.append(b.1); maxX.append(b.2); maxY.append(b.3)
        }
        levelStarts = [0, count]
        while levelStarts[levelStarts.count - 1] - levelStarts[levelStarts.count - 2] > 1 {
            let lower = levelStarts[levelStarts.count - 2], upper = levelStarts[levelStarts.count - 1]
            var child = lower
            while child < upper {
                let last = min(upper, child + Self.nodeCapacity)
                var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
                for c in child..<last {
                    x0 = min(x0, minX[c]); y0 = min(y0, minY[c]); x1 = max(x1, maxX[c]); y1 = max(y1, maxY[c])
                }
                minX.append(x0); minY.append(y0); maxX.append(x1); maxY.append(y1)
                child = last
            }
            levelStarts.append(minX.count)
        }
    }

    /// Calls `visit` with every item whose box meets the query box (touching counts); stops
    /// early when `visit` returns false. `stack` is scratch space reused across queries.
    @discardableResult
    func query(_ qMinX: Double, _ qMinY: Double, _ qMaxX: Double, _ qMaxY: Double,
               stack: inout [Int], _ visit: (Int) -> Bool) -> Bool {
        guard !leafItems.isEmpty else { return true }
        stack.removeAll(keepingCapacity: true)
        // Entries are (level << 40) | node index, so one array holds the walk.
        let rootLevel = levelStarts.count - 2
        stack.append(rootLevel << 40 | levelStarts[rootLevel])
        while let entry = stack.popLast() {
            let level = entry >> 40, node = entry & ((1 << 40) - 1)
            if minX[node] > qMaxX || maxX[node] < qMinX || minY[node] > qMaxY || maxY[node] < qMinY { continue }
            if level == 0 {
                if !visit(Int(leafItems[node])) { return false }
                continue
            }
            let lowerStart = levelStarts[level - 1], lowerEnd = levelStarts[level]
            let first = lowerStart + (node - levelStarts[level]) * Self.nodeCapacity
            let last = min(lowerEnd, first + Self.nodeCapacity)
            for c in first..<last { stack.append((level - 1) << 40 | c) }
        }
        return true
    }
}
