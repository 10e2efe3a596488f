import Foundation

/// `describe`: a table about a table's columns.
public enum Describe {
    /// What describe says of one column, besides its smallest and largest value.
    public struct Counts: Sendable {
        public var values: Int
        public var nulls: Int
        public var distinct: Int
        public init(values: Int, nulls: Int, distinct: Int) { self.values = values; self.nulls = nulls; self.distinct = distinct }
    }

    /// Each column's counts and extremes, the columns shared among the cores up to 16M rows.
    /// Past that, a column at a time: counting a column's distinct values holds its key codes
    /// and a table of its values (4.7 GB for 100M times), and two at once took the 100M rides'
    /// peak from 13 GB to 21 of this machine's 24.
    static func table(for t: Table) -> Table {
        let columns = t.columns
        let parts = ParallelParts<(Counts, (lo: Int, hi: Int)?)>(count: columns.count)
        let work: @Sendable (Int) -> Void = { k in
            let c = columns[k]
            let nullCount = c.nullCount
            parts.set(k, .success((Counts(values: c.count - nullCount, nulls: nullCount, distinct: distinctValues(c)), extremes(of: c))))
        }
        if t.rowCount <= 1 << 24 {
            DispatchQueue.concurrentPerform(iterations: columns.count, execute: work)
        } else {
            for k in columns.indices { work(k) }
        }
        let found = (0..<columns.count).map { (try? parts.get($0)) ?? (Counts(values: 0, nulls: 0, distinct: 0), nil) }
        return table(t, counts: found.map(\.0), extremes: found.map(\.1))
    }

    /// How many different values the column holds, nulls not counted: its key codes marked
    /// in a bit set (the codes of a whole-number or decimal column also number the values
    /// under its nulls).
    static func distinctValues(_ c: Column) -> Int {
        guard let keys = try? KeyCodes(c) else { return 0 }
        var seen = [UInt64](repeating: 0, count: (keys.cardinality + 63) / 64)
        let validity = c.validity
        seen.withUnsafeMutableBufferPointer { s in
            func mark<C: FixedWidthInteger>(_ codes: UnsafeBufferPointer<C>) {
                if let validity {
                    for i in 0..<codes.count where validity[i] { let v = Int(codes[i]); s[v >> 6] |= 1 << UInt64(v & 63) }
                } else {
                    for v in codes { s[Int(v) >> 6] |= 1 << UInt64(Int(v) & 63) }
                }
            }
            keys.codes.withLanes(mark, mark, mark)
        }
        return seen.reduce(0) { $0 + $1.nonzeroBitCount }
    }

    /// The rows of a column's smallest and largest value in utq's order (natural for text,
    /// a column's own for ordered text; NaN above every number), the first of each when
    /// several hold it, or nil when it has none. Numbers, times and text are read in a loop
    /// of their own; the other kinds through the sort's comparator.
    public static func extremes(of c: Column) -> (lo: Int, hi: Int)? {
        let n = c.count, validity = c.validity
        switch c.storage {
        case .int(let a), .timestamp(let a), .duration(let a):
            return a.withUnsafeBufferPointer { p in scan(n, validity, { p[$0] }, less: <) }
        case .double(let a):
            return a.withUnsafeBufferPointer { p in scan(n, validity, { p[$0] }, less: { x, y in x < y || (y.isNaN && !x.isNaN) }) }
        case .bool(let a):
            return a.withUnsafeBufferPointer { p in scan(n, validity, { p[$0] }, less: { !$0 && $1 }) }
        case .string(let s):
            let ranks = s.ranks()
            return ranks.withUnsafeBufferPointer { r in
                func ranked<C: FixedWidthInteger>(_ codes: UnsafeBufferPointer<C>) -> (lo: Int, hi: Int)? {
                    scan(n, validity, { r[Int(codes[$0])] }, less: <)
                }
                return s.codes.withLanes(ranked, ranked, ranked)
            }
        default:
            let valid = (0..<n).filter { c.isValid($0) }
            guard !valid.isEmpty else { return nil }
            let cmp = Sorting.comparator(c)
            var lo = valid[0], hi = valid[0]
            for i in valid { if cmp(i, lo) < 0 { lo = i }; if cmp(i, hi) > 0 { hi = i } }
            return (lo, hi)
        }
    }

    /// The first rows of the least and the greatest of `value` over the rows that hold one.
    @inline(__always)
    static func scan<T>(_ n: Int, _ validity: Bitmap?, _ value: (Int) -> T, less: (T, T) -> Bool) -> (lo: Int, hi: Int)? {
        var i = 0
        if let validity { while i < n && !validity[i] { i += 1 } }
        guard i < n else { return nil }
        var lo = i, hi = i
        var least = value(i), greatest = least
        i += 1
        while i < n {
            if validity?[i] ?? true {
                let v = value(i)
                if less(v, least) { lo = i; least = v } else if less(greatest, v) { hi = i; greatest = v }
            }
            i += 1
        }
        return (lo, hi)
    }

    /// The describe table of `t`'s columns from counts computed elsewhere (by a database) and
    /// the rows of `t` that hold each column's smallest and largest value (nil: none).
    public static func table(_ t: Table, counts: [Counts], extremes: [(lo: Int, hi: Int)?]) -> Table {
        var names: [String] = [], types: [String] = [], values: [Int64] = [], nulls: [Int64] = []
        var distinct: [Int64] = [], mins: [String] = [], maxs: [String] = []
        for (k, c) in t.columns.enumerated() {
            names.append(c.name + (c.name == t.timeColumn ? " (time)" : ""))
            var type = c.type.displayName
            if case .string(let s) = c.storage, s.ordered { type = "text (ordered)" }
            types.append(type)
            nulls.append(Int64(counts[k].nulls))
            values.append(Int64(counts[k].values))
            distinct.append(Int64(counts[k].distinct))
            guard let (lo, hi) = extremes[k], c.type != .bool else {
                let any = extremes[k] != nil
                mins.append(c.type == .bool && any ? "false" : ""); maxs.append(c.type == .bool && any ? "true" : "")
                continue
            }
            let fmt = CellFormat(c, zone: t.zone, nullText: "", rows: [lo, hi])
            func shown(_ row: Int) -> String {
                let text = fmt.text(row)
                return text.isEmpty && c.type == .string ? "\"\"" : TextWidth.truncate(text, to: 30)
            }
            mins.append(shown(lo))
            maxs.append(shown(hi))
        }
        return Table(name: "describe", columns: [
            textColumn("column", names), textColumn("type", types),
            Column(name: "values", storage: .int(values)), Column(name: "nulls", storage: .int(nulls)),
            Column(name: "distinct", storage: .int(distinct)),
            textColumn("min", mins), textColumn("max", maxs),
        ], zone: t.zone)
    }

    /// A text column from strings; empty strings are null unless told otherwise.
    static func textColumn(_ name: String, _ values: [String], emptyIsNull: Bool = true) -> Column {
        var interner = ByteInterner()
        let codes = values.map { interner.intern($0) }
        let valid = emptyIsNull ? BehaviourMapper.bitmap(values.map { !$0.isEmpty }) : nil
        return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: interner.strings().isEmpty ? [""] : interner.strings())), validity: valid)
    }
}

