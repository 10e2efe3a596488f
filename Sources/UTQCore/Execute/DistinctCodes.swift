/// `count distinct` over the whole table (no `by`) of a text column, or of a whole-number
/// column of ids (riders, trips, vehicles): how many of the values the rows use, nulls not
/// counted. The general path first makes a code a row (copying a text column's codes to give
/// the nulls one of their own) and numbers every row's group (one group, 10M zeros at 10M
/// rows), then tests a bit a row on one core: 125 ms for a 4-value column of 10M rows. Here
/// each core marks the values of its share of the rows in a bitmap of its own (a text
/// column's codes; ids less the least), reading the null bitmap a word (64 rows) at a time,
/// and the bitmaps are joined and counted.
enum DistinctCodes {
    /// A text column's codes, when the dictionary's bitmap is at most 64 MB.
    static func count(_ s: StringStorage, validity: Bitmap?, rows n: Int) -> Int64? {
        let card = s.dictionary.count
        guard card <= 1 << 29, s.codes.count >= n else { return nil }
        func mark<C: FixedWidthInteger>(_ codes: UnsafeBufferPointer<C>) -> Int64 {
            marked(rows: n, validity: validity, values: card) { Int(codes[$0]) }
        }
        return s.codes.withLanes(mark, mark, mark)
    }

    /// Whole numbers spanning at most twice the rows (ids, not measurements).
    /// `bounds`: the least and greatest of every cell of `a`, if known (ColumnFacts).
    static func count(ints a: [Int64], validity: Bitmap?, rows n: Int, bounds: (Int64, Int64)? = nil) -> Int64? {
        guard n > 0, a.count >= n else { return n == 0 ? 0 : nil }
        // Cells under nulls hold a value too; counting them in the span only widens it.
        let (lo, hi) = bounds ?? CountByIds.bounds(a)
        guard hi &- lo >= 0, hi &- lo < Int64(Swift.min(1 << 29, Swift.max(1 << 16, 2 * n))) else { return nil }
        return a.withUnsafeBufferPointer { v in
            marked(rows: n, validity: validity, values: Int(hi - lo) + 1) { Int(v[$0] &- lo) }
        }
    }

    /// How many of `values` bits the valid rows among `n` mark, `code` giving a row's bit.
    private static func marked(rows n: Int, validity: Bitmap?, values: Int, code: (Int) -> Int) -> Int64 {
        if values == 0 || n == 0 { return 0 }
        let words = (values + 63) >> 6
        // Parts of whole words of the null bitmap, so a part reads its words alone.
        let parts = Swift.min(Workers.parts(rows: n), Swift.max(1, n >> 6))
        var marks = [[UInt64]](repeating: [], count: parts)
        marks.withUnsafeMutableBufferPointer { out in
            Parallel.each(parts) { p in
                var seen = [UInt64](repeating: 0, count: words)
                let from = ((n >> 6) * p / parts) << 6
                let to = p == parts - 1 ? n : ((n >> 6) * (p + 1) / parts) << 6
                seen.withUnsafeMutableBufferPointer { b in
                    if let validity {
                        validity.words.withUnsafeBufferPointer { v in
                            var w = from >> 6
                            while w << 6 < to {
                                var m = v[w]
                                let base = w << 6
                                if base + 64 > to { m &= (UInt64(1) << UInt64(to - base)) &- 1 }
                                while m != 0 {
                                    let c = code(base + m.trailingZeroBitCount)
                                    b[c >> 6] |= 1 << UInt64(c & 63)
                                    m &= m &- 1
                                }
                                w += 1
                            }
                        }
                    } else if words == 1 {
                        // A few values (legends, statuses): the bits in a register, not a word
                        // of memory each row waits on the row before to write.
                        var m: UInt64 = 0
                        for i in from..<to { m |= 1 << UInt64(code(i) & 63) }
                        b[0] = m
                    } else {
                        for i in from..<to {
                            let c = code(i)
                            b[c >> 6] |= 1 << UInt64(c & 63)
                        }
                    }
                }
                out[p] = seen
            }
        }
        var total = 0
        for w in 0..<words {
            var m: UInt64 = 0
            for p in marks { m |= p[w] }
            total += m.nonzeroBitCount
        }
        return Int64(total)
    }
}
