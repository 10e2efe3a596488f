import CIntrinsics
import Foundation

/// The whole numbers present in a column, as a bitmap of their span (a bit a value: 1.25 MB
/// for ten million ids), and each one's rank among them: the values before its word, counted
/// once per 64, plus the bits below it in its word. Ranks number the distinct values densely
/// and in order, from tables that stay within the cache, so each core can number its own rows
/// at once — where a table of the span holding a number per value (40 MB for ten million)
/// is filled in row order on one core and read with a miss a row.
final class ValueRanks: @unchecked Sendable {
    let low: Int64
    /// Values low ... low + span - 1.
    let span: Int
    private let words: Int
    private let bits: UnsafeMutablePointer<UInt64>
    private let before: UnsafeMutablePointer<Int32>
    /// Rows ahead whose words are asked for from memory.
    static let ahead = 32

    /// The distinct values present.
    var present: Int { Int(before[words]) }

    /// Marks the valid values of `values` (all within the span), each core its share of the
    /// rows in a bitmap of its own, the bitmaps joined after.
    init(_ values: UnsafeBufferPointer<Int64>, validity: Bitmap?, low: Int64, span: Int, parts: Int) {
        let n = values.count, words = (span + 63) >> 6
        self.low = low
        self.span = span
        self.words = words
        let marks = (0..<parts).map { _ in UnsafeMutablePointer<UInt64>(OpaquePointer(calloc(words, 8)!)) }
        Parallel.each(parts) { p in
            let m = marks[p]
            for r in n * p / parts..<n * (p + 1) / parts where validity?[r] ?? true {
                let d = Int(values[r] &- low)
                m[d >> 6] |= 1 << UInt64(d & 63)
            }
        }
        bits = marks[0]
        for p in 1..<Swift.max(1, parts) {
            for w in 0..<words { bits[w] |= marks[p][w] }
            free(marks[p])
        }
        before = .allocate(capacity: words + 1)
        before[0] = 0
        for w in 0..<words { before[w + 1] = before[w] &+ Int32(bits[w].nonzeroBitCount) }
    }

    deinit {
        free(bits)
        before.deallocate()
    }

    /// Each row's rank, or `missing` for a null row or a value not present (or outside the
    /// span), on the cores by stretches of rows.
    func ranks(of values: UnsafeBufferPointer<Int64>, validity: Bitmap?, missing: Int32, parts: Int) -> [Int32] {
        let n = values.count
        let (bits, before, low, last) = (self.bits, self.before, self.low, Int64(span - 1))
        return [Int32](unsafeUninitializedCapacity: n) { out, made in
            let o = out.baseAddress!
            Parallel.each(parts) { p in
                let end = n * (p + 1) / parts
                for r in n * p / parts..<end {
                    // Past the core's own cache (millions of ids) the two tables are misses:
                    // the words of the row some rows ahead are asked for first.
                    if r + ValueRanks.ahead < end {
                        let a = values[r + ValueRanks.ahead] &- low
                        if a >= 0 && a <= last { utq_prefetch_read(bits + Int(a >> 6)); utq_prefetch_read(before + Int(a >> 6)) }
                    }
                    let d = values[r] &- low
                    guard validity?[r] ?? true, d >= 0, d <= last else { o[r] = missing; continue }
                    let w = Int(d >> 6), bit = UInt64(d & 63)
                    let word = bits[w]
                    o[r] = (word >> bit) & 1 == 0 ? missing : before[w] &+ Int32((word & ((1 << bit) &- 1)).nonzeroBitCount)
                }
            }
            made = n
        }
    }

    /// The values present, ascending.
    func values() -> [Int64] {
        var out = [Int64](repeating: 0, count: present)
        var at = 0
        for w in 0..<words {
            var word = bits[w]
            while word != 0 {
                out[at] = low &+ Int64(w << 6 | word.trailingZeroBitCount)
                at += 1
                word &= word &- 1
            }
        }
        return out
    }
}
