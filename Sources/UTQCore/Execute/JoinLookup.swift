import CIntrinsics
import Foundation

/// A lookup join on whole numbers (stops, trips, riders by their id): each key at most once
/// on the right, the keys within a few times their count of each other. A table indexed by
/// the key holds its right row, and each left row finds its right row there; no ids in
/// between, so no counting sort of the right rows and no second pass to turn ids into rows.
/// Both sides run on the cores. At ten million rows a side the ids' way was most of the
/// join, on one core.
extension JoinKeys {
    /// Rows asked for from memory ahead of the one being read: enough to cover a miss's wait.
    static let ahead = Prefetch.rows

    /// What a lookup found: each left row's right row (-1 for none) and how many have none.
    /// `order` set: the right keys fill their span (ids 1 to n, each once), and the rows given
    /// are of the right table put in that order (`order`, its rows by ascending key). A left
    /// row's key less the least is then its row, found without a read at random: the one read
    /// at random left is each right column's value (at a hundred million rows of ten million
    /// ids, the table's read was one miss a row of two). `keys` set as well: every left row
    /// has its row, at its key less `low`, and `rows` is empty (at a hundred million rows
    /// they were 400 MB of fresh memory to write and read once).
    struct Lookup {
        var rows: [Int32]
        var order: [Int32]? = nil
        var misses: Int
        var keys: (values: [Int64], low: Int64)? = nil
    }

    /// Each left row's right row; nil when the keys are not whole numbers of one kind, a key
    /// repeats on the right, or the right keys spread too far for a table.
    static func lookup(_ a: Column, _ b: Column, leftCount: Int, rightCount: Int) -> Lookup? {
        switch (a.storage, b.storage) {
        case (.int(let x), .int(let y)), (.timestamp(let x), .timestamp(let y)), (.duration(let x), .duration(let y)):
            // Each side's least and greatest, found once for the column and kept (ColumnFacts).
            return lookup(x, a.validity, y, b.validity, leftCount: leftCount, rightCount: rightCount,
                          leftBounds: { a.intBounds! }, rightBounds: b.validity == nil ? b.intBounds : nil)
        default:
            return nil
        }
    }

    /// `leftBounds` gives the least and greatest of every cell of `x`, asked for only when
    /// the right keys fill their span (the column's kept bounds, or found here); `rightBounds`
    /// are those of the valid values of `y`.
    static func lookup(_ x: [Int64], _ xValid: Bitmap?, _ y: [Int64], _ yValid: Bitmap?, leftCount: Int, rightCount: Int,
                       leftBounds: (() -> (Int64, Int64))? = nil, rightBounds: (Int64, Int64)? = nil) -> Lookup? {
        guard rightCount > 0, rightCount < Int(Int32.max) else { return nil }
        let (lo, hi) = rightBounds ?? bounds(y, yValid)
        guard lo <= hi else { return nil }
        let (span, overflow) = hi.subtractingReportingOverflow(lo)
        guard !overflow, span < Int64(max(1 << 16, 4 * rightCount)) else { return nil }
        let size = Int(span) + 1
        // Row + 1 per key, 0 for none: pages the kernel hands over zeroed.
        let table = UnsafeMutablePointer<UInt32>(OpaquePointer(calloc(size, 4)!))
        defer { free(table) }
        // Each core writes its rows' keys, and stops at a key its own rows wrote before. Two
        // rows of one key on different cores leave one key written for two rows, whichever
        // core wrote last: the count of keys written then falls short of the rows. Either way
        // the join takes the way of ids instead.
        let parts = Workers.parts(rows: rightCount)
        var repeats = [Bool](repeating: false, count: parts)
        y.withUnsafeBufferPointer { y in
            repeats.withUnsafeMutableBufferPointer { repeats in
                Parallel.each(parts) { p in
                    let from = rightCount * p / parts, to = rightCount * (p + 1) / parts
                    for j in from..<to where yValid?[j] ?? true {
                        if j + ahead < to {
                            // A null row's value may lie outside the keys' span.
                            let a = y[j + ahead] &- lo
                            if a >= 0 && a <= span { utq_prefetch_write(table + Int(a)) }
                        }
                        let k = Int(y[j] &- lo)
                        if table[k] != 0 { repeats[p] = true; return }
                        table[k] = UInt32(j + 1)
                    }
                }
            }
        }
        guard !repeats.contains(true), written(table, size) == (yValid?.setCount ?? rightCount) else { return nil }
        if size == rightCount && yValid == nil {
            let order = [Int32](unsafeUninitializedCapacity: size) { order, made in
                let parts = Workers.parts(rows: size)
                Parallel.each(parts) { p in
                    for k in size * p / parts..<size * (p + 1) / parts { order[k] = Int32(bitPattern: table[k]) &- 1 }
                }
                made = size
            }
            if xValid == nil {
                // Every left key within the span, as the left's least and greatest say: each
                // left row's right row is its key less the least.
                let (least, greatest) = leftBounds?() ?? CountByIds.bounds(x)
                if least >= lo && greatest <= hi { return Lookup(rows: [], order: order, misses: 0, keys: (x, lo)) }
            }
            let found = positions(x, xValid, lo: lo, span: span, leftCount: leftCount)
            return Lookup(rows: found.rows, order: order, misses: found.misses)
        }
        let found = onCores(x, xValid, leftCount: leftCount) { x, out, range in
            var misses = 0
            for i in range {
                if i + ahead < range.upperBound {
                    let k = x[i + ahead] &- lo
                    if k >= 0 && k <= span { utq_prefetch_read(table + Int(k)) }
                }
                let k = x[i] &- lo
                let row = k >= 0 && k <= span ? Int32(bitPattern: table[Int(k)]) &- 1 : -1
                out[i] = row
                misses &+= Int(UInt32(bitPattern: row) >> 31)
            }
            return misses
        }
        return Lookup(rows: found.rows, misses: found.misses)
    }

    /// Each left row's key less the least, -1 when null or outside the span, and how many
    /// are -1.
    static func positions(_ x: [Int64], _ xValid: Bitmap?, lo: Int64, span: Int64, leftCount: Int) -> (rows: [Int32], misses: Int) {
        onCores(x, xValid, leftCount: leftCount) { x, out, range in
            var misses = 0
            for i in range {
                let k = x[i] &- lo
                let inside = k >= 0 && k <= span
                out[i] = inside ? Int32(truncatingIfNeeded: k) : -1
                misses &+= inside ? 0 : 1
            }
            return misses
        }
    }

    /// A row number for each left row, -1 for none, each core a stretch of rows: `find` fills
    /// a stretch and says how many it left at -1; the rows of null keys are made -1 after.
    private static func onCores(_ x: [Int64], _ xValid: Bitmap?, leftCount: Int,
                                _ find: (UnsafeBufferPointer<Int64>, UnsafeMutableBufferPointer<Int32>, Range<Int>) -> Int) -> (rows: [Int32], misses: Int) {
        let parts = Workers.parts(rows: leftCount)
        var missed = [Int](repeating: 0, count: parts)
        let rows = x.withUnsafeBufferPointer { x in
            [Int32](unsafeUninitializedCapacity: leftCount) { out, made in
                missed.withUnsafeMutableBufferPointer { missed in
                    Parallel.each(parts) { p in
                        let range = leftCount * p / parts..<leftCount * (p + 1) / parts
                        missed[p] = find(x, out, range) + nulled(out, xValid, range)
                    }
                }
                made = leftCount
            }
        }
        return (rows, missed.reduce(0, +))
    }

    /// Marks the rows of null keys as without a match: how many were marked that had one.
    private static func nulled(_ out: UnsafeMutableBufferPointer<Int32>, _ valid: Bitmap?, _ range: Range<Int>) -> Int {
        guard let valid else { return 0 }
        var marked = 0
        for i in range where !valid[i] && out[i] >= 0 { out[i] = -1; marked += 1 }
        return marked
    }

    /// The least and greatest of the valid values (max, min when there are none); on the cores
    /// when every value is valid.
    static func bounds(_ y: [Int64], _ yValid: Bitmap?) -> (Int64, Int64) {
        guard let yValid else { return CountByIds.bounds(y) }
        var lo = Int64.max, hi = Int64.min
        for j in 0..<y.count where yValid[j] { lo = min(lo, y[j]); hi = max(hi, y[j]) }
        return (lo, hi)
    }

    /// The keys written in the table, counted on the cores.
    private static func written(_ table: UnsafeMutablePointer<UInt32>, _ size: Int) -> Int {
        let parts = Workers.parts(rows: size)
        var counts = [Int](repeating: 0, count: parts)
        counts.withUnsafeMutableBufferPointer { c in
            Parallel.each(parts) { p in
                var k = 0
                for i in size * p / parts..<size * (p + 1) / parts where table[i] != 0 { k += 1 }
                c[p] = k
            }
        }
        return counts.reduce(0, +)
    }
}
