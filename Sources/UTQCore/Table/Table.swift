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
    /// The attached database the table lives in (`db` for `db.rides`): its columns then hold
    /// no rows here, and plans that read it run in the database.
    public var database: String?

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
        t.columns = columns.map { $0.gather(rows) }
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

/// The named tables of a session, in the order they were loaded.
public struct Catalog: Sendable {
    public private(set) var tables: [String: Table] = [:]
    public private(set) var order: [String] = []

    public init() {}

    public var names: [String] { order }

    public subscript(name: String) -> Table? {
        tables[name] ?? tables.first(where: { $0.key.lowercased() == name.lowercased() })?.value
    }

    /// The exact name a user meant: the name itself, a case-insensitive match, or a unique
    /// last part (`trips` for `feed.trips`).
    public func resolve(_ name: String) -> String? {
        if tables[name] != nil { return name }
        let lower = name.lowercased()
        if let exact = order.first(where: { $0.lowercased() == lower }) { return exact }
        let suffix = order.filter { $0.lowercased().hasSuffix("." + lower) }
        return suffix.count == 1 ? suffix[0] : nil
    }

    /// Names that end in `.name` when there are several (for an "ambiguous" message).
    public func candidates(endingWith name: String) -> [String] {
        order.filter { $0.lowercased().hasSuffix("." + name.lowercased()) }
    }

    public mutating func put(_ table: Table) {
        if tables[table.name] == nil { order.append(table.name) }
        tables[table.name] = table
    }

    public mutating func remove(_ name: String) {
        tables[name] = nil
        order.removeAll { $0 == name }
    }
}
