/// `describe`: a table about a table's columns.
public enum Describe {
    /// What describe says of one column, besides its smallest and largest value.
    public struct Counts: Sendable {
        public var values: Int
        public var nulls: Int
        public var distinct: Int
        public init(values: Int, nulls: Int, distinct: Int) { self.values = values; self.nulls = nulls; self.distinct = distinct }
    }

    static func table(for t: Table) -> Table {
        var counts: [Counts] = [], extremes: [(lo: Int, hi: Int)?] = []
        for c in t.columns {
            let nullCount = c.nullCount
            counts.append(Counts(values: c.count - nullCount, nulls: nullCount,
                                 distinct: (try? KeyCodes(c))?.codesUsed(excludingNull: c) ?? 0))
            extremes.append(Self.extremes(of: c))
        }
        return table(t, counts: counts, extremes: extremes)
    }

    /// The rows of a column's smallest and largest value in utq's order (natural for text,
    /// a column's own for ordered text), or nil when it has none.
    public static func extremes(of c: Column) -> (lo: Int, hi: Int)? {
        let valid = (0..<c.count).filter { c.isValid($0) }
        guard !valid.isEmpty else { return nil }
        let cmp = Sorting.comparator(c)
        var lo = valid[0], hi = valid[0]
        for i in valid { if cmp(i, lo) < 0 { lo = i }; if cmp(i, hi) > 0 { hi = i } }
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

extension KeyCodes {
    /// How many different non-null values the column holds.
    func codesUsed(excludingNull c: Column) -> Int {
        var seen = Set<UInt32>()
        for i in 0..<codes.count where c.isValid(i) { seen.insert(codes[i]) }
        return seen.count
    }
}
