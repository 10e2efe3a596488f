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
