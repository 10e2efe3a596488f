/// Geometries as keys: the same geometry (every coordinate equal) is one group, and groups
/// have an order, so `count by cell(position, 50)` gives its cells in a fixed order: west to
/// east, then south to north (by their first coordinate), as a reader scans a grid.
extension GeometryStorage {
    /// A code per row, equal for equal geometries, numbered as first met; and how many.
    /// Null rows get a code too (the caller overrides them).
    func keyCodes() -> (codes: [UInt32], distinct: [Int]) {
        var codes = [UInt32](repeating: 0, count: count)
        var firstRows: [Int] = []
        if rows == nil {
            var map: [PointKey: UInt32] = [:]
            for i in 0..<count {
                let k = PointKey(xs[i], ys[i])
                if let c = map[k] { codes[i] = c; continue }
                let c = UInt32(firstRows.count)
                map[k] = c
                firstRows.append(i)
                codes[i] = c
            }
            return (codes, firstRows)
        }
        var map: [Geometry: UInt32] = [:]
        for i in 0..<count {
            let g = self[i]
            if let c = map[g] { codes[i] = c; continue }
            let c = UInt32(firstRows.count)
            map[g] = c
            firstRows.append(i)
            codes[i] = c
        }
        return (codes, firstRows)
    }

    /// The rank of each row's geometry in geometry order (equal geometries, equal ranks).
    func ranks() -> [UInt32] {
        let (codes, firstRows) = keyCodes()
        let order = firstRows.indices.sorted { GeometryOrder.less(self, firstRows[$0], firstRows[$1]) }
        var rankOfCode = [UInt32](repeating: 0, count: firstRows.count)
        for (rank, code) in order.enumerated() { rankOfCode[code] = UInt32(rank) }
        return codes.map { rankOfCode[Int($0)] }
    }
}

/// A point's coordinates as bits, so -0 and 0 are one key and NaN (a null's) is one.
struct PointKey: Hashable {
    let x: UInt64, y: UInt64
    init(_ x: Double, _ y: Double) {
        self.x = x.isNaN ? Double.nan.bitPattern : (x == 0 ? 0 : x.bitPattern)
        self.y = y.isNaN ? Double.nan.bitPattern : (y == 0 ? 0 : y.bitPattern)
    }
}

/// The order of geometries: by x, then y, of each coordinate in turn, then by kind and size.
enum GeometryOrder {
    static func less(_ s: GeometryStorage, _ i: Int, _ j: Int) -> Bool {
        let a = s.coordinateRange(i), b = s.coordinateRange(j)
        for (p, q) in zip(a, b) {
            if s.xs[p] != s.xs[q] { return s.xs[p] < s.xs[q] }
            if s.ys[p] != s.ys[q] { return s.ys[p] < s.ys[q] }
        }
        if a.count != b.count { return a.count < b.count }
        return s.kinds[i].rawValue < s.kinds[j].rawValue
    }
}
