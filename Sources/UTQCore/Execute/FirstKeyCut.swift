/// For `top N` and `sort … | limit N`: the rows that can be among the first N by their first
/// key alone. One pass keeps the N best first-key values in a heap (no key column is made);
/// a second takes the rows whose value is not worse than the N-th. For `top 3 by x` that is
/// three rows or a few more; for `sort legend, x | limit 3` it is the rows of the first legend.
enum FirstKeyCut {
    /// The candidate rows in ascending order, or nil when the cut would keep too many rows to
    /// be worth it, or nulls could be among the first N.
    static func rows(_ c: Column, descending: Bool, count n: Int, wanted k: Int, cancel: CancellationFlag?) throws -> [Int32]? {
        guard k > 0 else { return nil }
        if let v = c.validity, !v.allSet { return nil }
        let flip: UInt64 = descending ? ~0 : 0
        switch c.storage {
        case .int(let a), .timestamp(let a), .duration(let a):
            return try a.withUnsafeBufferPointer { p in
                try cut(n, k, cancel) { (UInt64(bitPattern: p[$0]) ^ (1 << 63)) ^ flip }
            }
        case .double(let a):
            return try a.withUnsafeBufferPointer { p in
                try cut(n, k, cancel) { i in
                    let d = p[i]
                    // As SortKey orders them: one NaN above every number, -0 equal to 0.
                    let bits = (d.isNaN ? Double.nan : (d == 0 ? 0 : d)).bitPattern
                    return (bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)) ^ flip
                }
            }
        case .string(let s):
            let ranks = try s.ranks(cancel: cancel)
            func ranked<C: FixedWidthInteger>(_ codes: UnsafeBufferPointer<C>) throws -> [Int32]? {
                try ranks.withUnsafeBufferPointer { r in
                    try cut(n, k, cancel) { UInt64(UInt32(bitPattern: r[Int(codes[$0])])) ^ flip }
                }
            }
            return try s.codes.withLanes(ranked, ranked, ranked)
        default:
            return nil
        }
    }

    @inline(__always)
    static func cut(_ n: Int, _ k: Int, _ cancel: CancellationFlag?, _ key: (Int) -> UInt64) throws -> [Int32]? {
        // The k smallest keys, in a heap whose top is the largest of them. Rows that reach
        // the heap (or tie with its top) as they come are noted: the heap's top only falls,
        // so every row of the answer is among them.
        var heap: [UInt64] = []
        heap.reserveCapacity(k)
        let most = max(4 * k, n / 8)
        var noted: [Int32]? = []
        var i = 0
        while i < n {
            let end = min(n, i + 65536)
            if cancel?.isCancelled == true { throw CancellationError() }
            while i < end {
                let x = key(i)
                if heap.count < k {
                    noted?.append(Int32(i))
                    heap.append(x)
                    var j = heap.count - 1
                    while j > 0, heap[(j - 1) / 2] < heap[j] { heap.swapAt(j, (j - 1) / 2); j = (j - 1) / 2 }
                } else if x <= heap[0] {
                    noted?.append(Int32(i))
                    if noted?.count ?? 0 > most { noted = nil }
                    if x < heap[0] {
                        heap[0] = x
                        var j = 0
                        while true {
                            let l = 2 * j + 1, r = l + 1
                            var big = j
                            if l < k && heap[l] > heap[big] { big = l }
                            if r < k && heap[r] > heap[big] { big = r }
                            if big == j { break }
                            heap.swapAt(j, big)
                            j = big
                        }
                    }
                }
                i += 1
            }
        }
        guard let limit = heap.first else { return nil }
        if let noted { return noted.filter { key(Int($0)) <= limit } }
        var rows: [Int32] = []
        rows.reserveCapacity(k)
        for r in 0..<n where key(r) <= limit {
            rows.append(Int32(r))
            // Ties on the first key keep too many rows: the general heap does better there.
            if rows.count > max(4 * k, n / 8) { return nil }
        }
        return rows
    }
}
