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

    /// The rows at the given indices.
    public func gather(_ rows: [Int32]) -> Table {
        var t = self
        if rows.count >= 1 << 18 && columns.count > 1 {
            // Millions of rows read at random: each column on a core of its own.
            var out = [Column?](repeating: nil, count: columns.count)
            out.withUnsafeMutableBufferPointer { o in
                Parallel.each(columns.count) { k in o[k] = columns[k].gather(rows) }
            }
            t.columns = out.map { $0! }
        } else {
            t.columns = columns.map { $0.gather(rows) }
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
        var lo = Int64.max, hi = Int64.min
        for (i, v) in values.enumerated() where c.isValid(i) {
            lo = min(lo, v); hi = max(hi, v)
        }
        if let end = timeEndColumn.flatMap(column), case .timestamp(let ends) = end.storage {
            for (i, v) in ends.enumerated() where end.isValid(i) { hi = max(hi, v) }
        }
        return lo <= hi ? (lo, hi) : nil
    }
}
