import CIntrinsics

/// A whole-number, time or duration column's values as 32-bit steps from the least, each step
/// a microsecond, a millisecond or a second (the largest that every value lands on): ids of
/// ten million, or times of whole seconds over a century, in half the bytes. For the same
/// gathers at random as ScaledDoubles, where the copy stays in the last cache and the column
/// would not.
struct OffsetInts: NarrowValues {
    let values: [UInt32]
    let base: Int64
    /// How much one step is worth: 1, 1,000 or 1,000,000 (microseconds: a millisecond, a second).
    let unit: Int64

    /// `c`'s values (those at `order`, in its order, when given) as steps, or nil when their
    /// span in the finest unit that holds them all does not fit in 32 bits.
    static func make(_ c: Column, order: [Int32]? = nil, parts: Int) -> OffsetInts? {
        guard case .int(let a) = c.storage.wholeNumbers, let (low, high) = c.intBounds, low <= high else { return nil }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        guard !overflow else { return nil }
        // The coarsest unit a sample of the values lands on first; a value off it, a finer one.
        let sample = stride(from: 0, to: a.count, by: max(1, a.count / 512)).map { a[$0] &- low }
        for unit: Int64 in [1_000_000, 1_000, 1] where span / unit <= Int64(UInt32.max) && sample.allSatisfy({ $0 % unit == 0 }) {
            if let values = steps(a, order: order, base: low, unit: unit, parts: parts) {
                return OffsetInts(values: values, base: low, unit: unit)
            }
        }
        return nil
    }

    /// Each value's steps from `base`, or nil when one does not land on a step.
    private static func steps(_ a: [Int64], order: [Int32]?, base: Int64, unit: Int64, parts: Int) -> [UInt32]? {
        let n = order?.count ?? a.count
        guard n > 0 else { return nil }
        let (values, off) = a.withUnsafeBufferPointer { src in
            filledOnCores(n, parts: parts, none: false) { (out: UnsafeMutableBufferPointer<UInt32>, range) in
                // The three units spelled out, so each division is by a constant.
                switch unit {
                case 1_000_000: fill(out, src, order, range, base, 1_000_000)
                case 1_000: fill(out, src, order, range, base, 1_000)
                default: fill(out, src, order, range, base, 1)
                }
            }
        }
        return off.contains(true) ? nil : values
    }

    /// Fills `out[range]`; whether a value fell between steps.
    @inline(__always)
    private static func fill(_ out: UnsafeMutableBufferPointer<UInt32>, _ src: UnsafeBufferPointer<Int64>, _ order: [Int32]?,
                             _ range: Range<Int>, _ base: Int64, _ unit: Int64) -> Bool {
        var between: Int64 = 0
        if let order {
            order.withUnsafeBufferPointer { order in
                let ahead = Prefetch.rows
                for i in range {
                    if i + ahead < range.upperBound { utq_prefetch_read(src.baseAddress! + Int(order[i + ahead])) }
                    let d = src[Int(order[i])] &- base
                    out[i] = UInt32(truncatingIfNeeded: d / unit)
                    between |= d % unit
                }
            }
        } else {
            for i in range {
                let d = src[i] &- base
                out[i] = UInt32(truncatingIfNeeded: d / unit)
                between |= d % unit
            }
        }
        return between != 0
    }

    /// Values of `c`'s kind (whole numbers, times or durations).
    func storage(_ values: [Int64], like c: Column) -> Column.Storage { c.storage.withWholeNumbers(values) }

    /// The column's value of a stored one.
    @inline(__always)
    func decode(_ stored: UInt32) -> Int64 { base &+ Int64(stored) &* unit }
}

extension Column.Storage {
    /// The values of a whole-number, time or duration column as `.int`; other kinds as they are.
    var wholeNumbers: Column.Storage {
        switch self {
        case .timestamp(let a), .duration(let a): return .int(a)
        default: return self
        }
    }

    /// Values of this storage's kind (whole numbers, times or durations).
    func withWholeNumbers(_ values: [Int64]) -> Column.Storage {
        switch self {
        case .timestamp: return .timestamp(values)
        case .duration: return .duration(values)
        default: return .int(values)
        }
    }
}

extension Bitmap {
    /// The rows of a gather that name no row (-1) unset; nil when every row names one.
    static func missing(_ rows: [Int32]) -> Bitmap? {
        guard let first = rows.firstIndex(where: { $0 < 0 }) else { return nil }
        var v = Bitmap(count: rows.count, value: true)
        for i in first..<rows.count where rows[i] < 0 { v[i] = false }
        return v
    }
}
