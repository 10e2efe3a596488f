import Foundation

/// Group numbers for one whole-number key of many values (riders, trips, vehicles by id)
/// whose values lie within a span of at most twice the rows. The general numbering takes the
/// groups as they first appear: one pass on one core, each row a look-up in a table of the
/// whole span (40 MB for ten million ids), past the cache. Here the values present are marked
/// in a bitmap of the span (a bit a value: 1.25 MB for ten million), each core marking its
/// share of the rows, and a group is the rank of its value among those present: a row's
/// number is a count of bits, read from the bitmap and one count per 64 values, both within
/// the cache, on every core at once. The groups come out in key order, nulls last, which is
/// the order a summary shows, so no sort follows.
struct DenseIntGroups {
    let groupOf: [Int32]
    /// The key's values, one a group in the groups' order (nulls last).
    let keys: Column
    var groups: Int { keys.count }

    /// Worth it for many values over many rows; nil when the key is not such a column.
    init?(_ key: Column, rows n: Int, cancel: CancellationFlag?) throws {
        guard case .int(let values) = key.storage, n == values.count, n >= 1 << 18 else { return nil }
        let parts = Swift.max(1, Swift.min(Workers.available, n >> 17))
        let validity = key.validity
        // The span, over every cell (a null's cell holds a value too: it only widens it).
        var lows = [Int64](repeating: .max, count: parts), highs = [Int64](repeating: .min, count: parts)
        values.withUnsafeBufferPointer { v in
            lows.withUnsafeMutableBufferPointer { lo in highs.withUnsafeMutableBufferPointer { hi in
                Parallel.each(parts) { p in
                    (lo[p], hi[p]) = CountByIds.bounds(UnsafeBufferPointer(rebasing: v[n * p / parts..<n * (p + 1) / parts]))
                }
            } }
        }
        let low = lows.min()!, high = highs.max()!
        guard high &- low >= 0, high &- low < Int64(2 * n), high - low >= 1 << 16 else { return nil }
        let range = Int(high - low) + 1, words = (range + 63) >> 6
        // Each part marks its rows' values in a bitmap of its own; the first gathers them.
        let marks = (0..<parts).map { _ in UnsafeMutablePointer<UInt64>(OpaquePointer(calloc(words, 8)!)) }
        defer { marks.forEach { free($0) } }
        values.withUnsafeBufferPointer { v in
            Parallel.each(parts) { p in
                let m = marks[p]
                for r in n * p / parts..<n * (p + 1) / parts where validity?[r] ?? true {
                    let d = Int(v[r] &- low)
                    m[d >> 6] |= 1 << UInt64(d & 63)
                }
            }
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        let bits = marks[0]
        for p in 1..<parts { for w in 0..<words { bits[w] |= marks[p][w] } }
        // Ranks: the values present before each word.
        var before = [Int32](repeating: 0, count: words + 1)
        for w in 0..<words { before[w + 1] = before[w] + Int32(bits[w].nonzeroBitCount) }
        let present = Int(before[words])
        let nullGroup = Int32(present)
        var groupOf = [Int32](unsafeUninitializedCapacity: n) { _, k in k = n }
        groupOf.withUnsafeMutableBufferPointer { g in
            values.withUnsafeBufferPointer { v in before.withUnsafeBufferPointer { rank in
                Parallel.each(parts) { p in
                    for r in n * p / parts..<n * (p + 1) / parts {
                        guard validity?[r] ?? true else { g[r] = nullGroup; continue }
                        let d = Int(v[r] &- low), w = d >> 6
                        let below = bits[w] & ((1 << UInt64(d & 63)) &- 1)
                        g[r] = rank[w] &+ Int32(below.nonzeroBitCount)
                    }
                }
            } }
        }
        if cancel?.isCancelled == true { throw CancellationError() }
        // The values present, in order, then the null group if any row has no value.
        let hasNull = key.nullCount > 0
        var keyValues = [Int64](repeating: 0, count: present + (hasNull ? 1 : 0))
        var at = 0
        for w in 0..<words {
            var word = bits[w]
            while word != 0 {
                keyValues[at] = low &+ Int64(w << 6 | word.trailingZeroBitCount)
                at += 1
                word &= word &- 1
            }
        }
        var keys = key
        keys.storage = .int(keyValues)
        keys.validity = nil
        if hasNull {
            keys.validity = Bitmap(count: keyValues.count, value: true)
            keys.validity![present] = false
        }
        self.groupOf = groupOf
        self.keys = keys
    }
}
