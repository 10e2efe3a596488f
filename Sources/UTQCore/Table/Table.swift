/// A named table: typed columns of equal length, a time zone, and the column that
/// time buckets (`hour`, `day`, …) read when no column is named.
public struct Table: Sendable {
    public var name: String
    public var columns: [Column]
    public var rowCount: Int
    public var zone: ZoneRules
    /// The column `hour`, `day`, `every 15m` … use; by default the first timestamp column.
    public var timeColumn: String?
    /// Where each row's span ends, when its rows are spans (calendar.txt's end_date): the
    /// table's time span runs to the latest of these rather than the latest start.
    public var timeEndColumn: String?
    /// What one row is called in summaries ("entries", "rides", "rows").
    public var rowNoun: String
    /// The key columns when the table holds a summary's rows (`let busy = count by hour`),
    /// so a chart of it later still knows which columns name the bars.
    public var groupKeys: [String]?

    public init(name: String, columns: [Column], zone: ZoneRules = .utc, timeColumn: String? = nil, rowNoun: String = "rows") {
        self.name = name
        self.columns = columns
        self.rowCount = columns.first?.count ?? 0
        self.zone = zone
        self.rowNoun = rowNoun
        self.timeColumn = timeColumn ?? columns.first(where: { $0.type == .timestamp })?.name
    }

    public var columnNames: [String] { columns.map(\.name) }

    public func columnIndex(_ name: String) -> Int? {
        if let i = columns.firstIndex(where: { $0.name == name }) { return i }
        let lower = name.lowercased()
        return columns.firstIndex(where: { $0.name.lowercased() == lower })
    }

    public func column(_ name: String) -> Column? {
        columnIndex(name).map { columns[$0] }
    }

    /// The rows at the given indices. `needed`: the lowercased names of the columns the steps
    /// above read (nil: all); the others stay in their places empty, not gathered, as a join
    /// leaves them: a `where` over 100M rows of 20 columns followed by `sum price` would
    /// otherwise copy every column of the rows it keeps.
    public func gather(_ rows: [Int32], needed: Set<String>? = nil) -> Table {
        var t = self
        func isNeeded(_ k: Int) -> Bool { needed.map { $0.contains(columns[k].name.lowercased()) } ?? true }
        if rows.count >= 1 << 18 && columns.count > 1 {
            // Millions of rows read at random: each column on a core of its own.
            var out = [Column?](repeating: nil, count: columns.count)
            let wanted = columns.indices.filter(isNeeded)
            for k in columns.indices where !isNeeded(k) { out[k] = .nulls(columns[k].name, count: rows.count) }
            out.withUnsafeMutableBufferPointer { o in
                Parallel.each(wanted.count) { w in o[wanted[w]] = columns[wanted[w]].gather(rows) }
            }
            t.columns = out.map { $0! }
        } else {
            t.columns = columns.indices.map { k in isNeeded(k) ? columns[k].gather(rows) : .nulls(columns[k].name, count: rows.count) }
        }
        t.rowCount = rows.count
        return t
    }

    public func prefix(_ n: Int) -> Table {
        n >= rowCount ? self : gather((0..<n).map { Int32($0) })
    }

    /// The unit the time span is best written in: days for a column of dates, else minutes.
    public var timeSpanUnit: DisplayUnit {
        timeColumn.flatMap { column($0) }?.unit == .day ? .day : .minute
    }

    /// The first and last instant of the time column, if it has any values.
    public func timeRange() -> (Int64, Int64)? {
        guard let name = timeColumn, let c = column(name), case .timestamp(let values) = c.storage else { return nil }
        var (lo, hi) = Self.span(values, c.validity)
        if let end = timeEndColumn.flatMap(column), case .timestamp(let ends) = end.storage {
            hi = max(hi, Self.span(ends, end.validity).1)
        }
        return lo <= hi ? (lo, hi) : nil
    }

    /// The least and greatest of the valid values (Int64.max and .min for none): without nulls
    /// a loop the compiler makes vector instructions of, else a word of the validity at a time.
    static func span(_ values: [Int64], _ valid: Bitmap?) -> (Int64, Int64) {
        var lo = Int64.max, hi = Int64.min
        values.withUnsafeBufferPointer { v in
            guard let valid else {
                for x in v { lo = min(lo, x); hi = max(hi, x) }
                return
            }
            valid.words.withUnsafeBufferPointer { words in
                for k in 0..<words.count {
                    var m = words[k]
                    if m == ~0 && (k << 6) + 64 <= v.count {
                        for x in v[(k << 6)..<((k << 6) + 64)] { lo = min(lo, x); hi = max(hi, x) }
                        continue
                    }
                    while m != 0 {
                        let x = v[k << 6 | m.trailingZeroBitCount]
                        lo = min(lo, x); hi = max(hi, x)
                        m &= m &- 1
                    }
                }
            }
        }
        return (lo, hi)
    }
}
