import CIntrinsics

/// A right column of a join read at random many times over, copied first in half the bytes
/// where its values allow (numbers as ScaledDoubles, whole numbers and times as OffsetInts):
/// past the machine's last cache, the copy mostly stays in it. Columns with nulls, text and
/// small right sides are gathered as they are.
enum NarrowCopy {
    case doubles(ScaledDoubles)
    case ints(OffsetInts)

    /// Columns of more values than this are past a share of the last cache worth halving.
    static let fewestValues = 2 << 20

    /// Whether a gather of `reads` rows at random from `values` values gains by a copy.
    static func worthMaking(values: Int, reads: Int) -> Bool {
        values >= fewestValues && reads >= 2 * values
    }

    /// The copy of `c` (its values at `order`, in its order, when given) for `reads` rows,
    /// when worth making and its values allow.
    static func make(_ c: Column, order: [Int32]?, reads: Int, parts: Int) -> NarrowCopy? {
        guard c.validity == nil, worthMaking(values: c.count, reads: reads) else { return nil }
        switch c.storage {
        case .double(let a): return ScaledDoubles.make(a, order: order, parts: parts).map(NarrowCopy.doubles)
        case .int, .timestamp, .duration: return OffsetInts.make(c, order: order, parts: parts).map(NarrowCopy.ints)
        default: return nil
        }
    }

    /// Column `c` (whose values these are) at the keys less `low`; every key names a row.
    func gather(_ c: Column, keys: [Int64], low: Int64, parts: Int) -> Column {
        switch self {
        case .doubles(let copy): return copy.gather(c, keys: keys, low: low, parts: parts)
        case .ints(let copy): return copy.gather(c, keys: keys, low: low, parts: parts)
        }
    }

    /// Column `c` (whose values these are) at the row numbers, a row of -1 giving a null.
    func gather(_ c: Column, rows: [Int32], parts: Int) -> Column {
        switch self {
        case .doubles(let copy): return copy.gather(c, rows: rows, parts: parts)
        case .ints(let copy): return copy.gather(c, rows: rows, parts: parts)
        }
    }
}

/// The values of a copy made on the cores once there are a million rows, a stretch of rows a
/// core, with what each stretch's `fill` said of its values (one that would not go, say).
func filledOnCores<T, R>(_ n: Int, parts: Int, none: R, _ fill: (UnsafeMutableBufferPointer<T>, Range<Int>) -> R) -> ([T], [R]) {
    var said = [R](repeating: none, count: max(1, parts))
    let values = [T](unsafeUninitializedCapacity: n) { out, made in
        said.withUnsafeMutableBufferPointer { said in
            let shares = n >= 1 << 20 ? said.count : 1
            Parallel.each(shares) { w in said[w] = fill(out, n * w / shares..<n * (w + 1) / shares) }
        }
        made = n
    }
    return (values, said)
}

/// A copy of a column in 32 bits whose stored values are made the column's again one at a time.
protocol NarrowValues {
    associatedtype Stored
    associatedtype Value: ExpressibleByIntegerLiteral
    var values: [Stored] { get }
    /// The column's value of a stored one.
    func decode(_ stored: Stored) -> Value
    /// Values of column `c`'s kind.
    func storage(_ values: [Value], like c: Column) -> Column.Storage
}

extension NarrowValues {
    /// Column `c` (whose values these are) at the keys less `low`; every key names a row.
    func gather(_ c: Column, keys: [Int64], low: Int64, parts: Int) -> Column {
        let values = keys.withUnsafeBufferPointer { gathered($0, less: low, parts: parts) }
        return Column(name: c.name, storage: storage(values, like: c), unit: c.unit)
    }

    /// Column `c` (whose values these are) at the row numbers, a row of -1 giving a null.
    func gather(_ c: Column, rows: [Int32], parts: Int) -> Column {
        let values = rows.withUnsafeBufferPointer { gathered($0, less: 0, parts: parts) }
        return Column(name: c.name, storage: storage(values, like: c), validity: Bitmap.missing(rows), unit: c.unit)
    }

    /// Each output row's value at its index less `low`, an index below zero giving 0; each
    /// value asked for from memory some rows ahead, on `parts` cores from a million rows.
    private func gathered<I: FixedWidthInteger>(_ index: UnsafeBufferPointer<I>, less low: I, parts: Int) -> [Value] {
        let n = index.count
        guard n > 0 else { return [] }
        return [Value](unsafeUninitializedCapacity: n) { out, made in
            HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), bytes: n * MemoryLayout<Value>.stride)
            values.withUnsafeBufferPointer { src in
                let from = src.baseAddress!, to = out.baseAddress!
                let shares = n >= 1 << 20 ? max(1, parts) : 1
                Parallel.each(shares) { w in
                    let lo = n * w / shares, hi = n * (w + 1) / shares
                    let ahead = Prefetch.rows
                    for i in lo..<hi {
                        if i + ahead < hi {
                            let k = Int(index[i + ahead] &- low)
                            if k >= 0 { utq_prefetch_read(from + k) }
                        }
                        let k = Int(index[i] &- low)
                        (to + i).initialize(to: k < 0 ? 0 : decode(from[k]))
                    }
                }
            }
            made = n
        }
    }
}
