/// `describe`: a table about a table's columns.
enum Describe {
    static func table(for t: Table) -> Table {
        var names: [String] = [], types: [String] = [], values: [Int64] = [], nulls: [Int64] = []
        var distinct: [Int64] = [], mins: [String] = [], maxs: [String] = []
        for c in t.columns {
            names.append(c.name + (c.name == t.timeColumn ? " (time)" : ""))
            var type = c.type.displayName
            if case .string(let s) = c.storage, s.ordered { type = "text (ordered)" }
            types.append(type)
            let nullCount = c.nullCount
            nulls.append(Int64(nullCount))
            values.append(Int64(c.count - nullCount))
            distinct.append(Int64((try? KeyCodes(c))?.codesUsed(excludingNull: c) ?? 0))
            let valid = (0..<c.count).filter { c.isValid($0) }
            let format = CellFormat(c, zone: t.zone, nullText: "", rows: valid.isEmpty ? [] : [valid.first!])
            if valid.isEmpty || c.type == .bool {
                mins.append(c.type == .bool && !valid.isEmpty ? "false" : ""); maxs.append(c.type == .bool && !valid.isEmpty ? "true" : "")
                continue
            }
            let cmp = Sorting.comparator(c)
            var lo = valid[0], hi = valid[0]
            for i in valid { if cmp(i, lo) < 0 { lo = i }; if cmp(i, hi) > 0 { hi = i } }
            let fmt = CellFormat(c, zone: t.zone, nullText: "", rows: [lo, hi])
            _ = format
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
