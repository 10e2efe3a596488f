import Foundation

/// A CSV or JSON records file loaded by a script that names the columns it uses: the load reads those
/// (and the table's time), and the others when a question first needs them, as a large
/// Parquet file's are. `load rides.csv; count by weekday, hour` reads one column of twenty.
///
/// The columns not read are typed by the file's first rows (the sample every CSV load
/// votes its types on). When one is read and its rows say otherwise (a column of numbers
/// with a word on line 90,000), the question that read it is bound again on the new type
/// (`SchemaRevised`), so no answer rests on a guess.
enum NamedColumns {
    /// Which of a file's columns to read now, given the names the script uses (lowercased):
    /// those, the first column of times (the table's time, for hour, day and the other
    /// buckets) and the columns before it that the sample left undecided (one of them could
    /// be a time further on), and columns named `column_N` (a header cell left empty, which
    /// the reader drops when the column is empty too). Nil: every column, when the sample
    /// shows no times (the table's time may then be made of a date and a clock column).
    static func choose(_ names: [String], _ types: [CellType], named: Set<String>) -> [Bool]? {
        guard let first = types.firstIndex(where: { if case .timestamp = $0 { return true } else { return false } }) else { return nil }
        return names.indices.map { k in
            named.contains(names[k].lowercased()) || k == first || (k < first && types[k] == .undetermined)
                || names[k].lowercased().hasPrefix("column_")
        }
    }

    /// The table of a load that read only some of its file's columns; nil when it must be
    /// read whole after all (its time is not among the columns read: the sample's column of
    /// times turned out to be dates only, or text).
    /// `clocks`: whether the format's load reads clock times and dates from text (CSV does,
    /// JSON does not). `reread` reads the file again for the columns of the given names, for
    /// a table whose time column is the one given.
    static func table(_ loaded: LoadedTable, request: LoadRequest, name: String, clocks: Bool, identity: FileIdentity,
                      reread: @escaping @Sendable (_ names: Set<String>, _ timeColumn: String) throws -> LoadedTable) -> (DeferredTable, [LoadWarning])? {
        guard let positions = loaded.readPositions, let fileColumns = loaded.fileColumns else { return nil }
        var (table, notes) = clocks ? ClockColumns.recognise(loaded.table, path: request.path) : (loaded.table, [])
        guard let time = table.timeColumn, let c = table.column(time), c.type == .timestamp, c.unit != .day else { return nil }
        let geometry: [LoadWarning]
        (table, geometry) = GeometryColumns.recognise(table, path: request.path, crs: request.options.crs)
        notes += geometry + LoadNotes.wholeNumbersKeptAsText(table, path: request.path)
        var read: [Int: Column] = [:]
        for (k, p) in positions.enumerated() { read[p] = table.columns[k] }
        let fields = fileColumns.indices.map { p in
            read[p].map(Field.init)
                ?? loaded.unread[p].map { Field(recognise($0, zone: table.zone, crs: request.options.crs, clocks: clocks, path: "").column) }
                ?? Field(name: fileColumns[p], type: .null)
        }
        let source = FileColumnSource(path: request.path, names: fileColumns, reread: reread, tableZone: table.zone, crs: request.options.crs,
                                      clocks: clocks, timeColumn: time, rows: table.rowCount, identity: identity, read: read)
        let schema = Schema(fields: fields, zone: table.zone, timeColumn: time)
        let deferred = DeferredTable(name: name, schema: schema, rowCount: table.rowCount, path: request.path,
                                     timeRange: table.timeRange(), source: source)
        return (deferred, loaded.warnings + notes)
    }

    /// A column read on its own as a load reads it: clock times and dates written as text or
    /// numbers, geometries, and the note on whole numbers kept as text.
    static func recognise(_ c: Column, zone: ZoneRules, crs: GeoSpace?, clocks: Bool, path: String) -> (column: Column, notes: [LoadWarning]) {
        var t = Table(name: "", columns: [c], zone: zone, timeColumn: nil)
        var notes: [LoadWarning] = []
        if clocks { (t, notes) = ClockColumns.recognise(t, path: path) }
        let geometry: [LoadWarning]
        (t, geometry) = GeometryColumns.recognise(t, path: path, crs: crs)
        return (t.columns[0], notes + geometry + LoadNotes.wholeNumbersKeptAsText(t, path: path))
    }
}

/// Where the columns of a file that a load did not read come from: the file, read again for
/// those columns only (every record is read through, only their values are kept), each
/// column once. The file must be the one loaded: its size and time of change are compared
/// first, and its rows counted again.
final class FileColumnSource: ColumnSource, @unchecked Sendable {
    let path: String
    /// The file's columns in order (the table's schema).
    private let names: [String]
    private let reread: @Sendable (Set<String>, String) throws -> LoadedTable
    private let tableZone: ZoneRules
    private let crs: GeoSpace?
    private let clocks: Bool
    private let timeColumn: String
    private let rows: Int
    private let identity: FileIdentity
    private let lock = NSLock()
    private var columns: [Int: Column]
    private var reads = 0

    init(path: String, names: [String], reread: @escaping @Sendable (Set<String>, String) throws -> LoadedTable, tableZone: ZoneRules,
         crs: GeoSpace?, clocks: Bool, timeColumn: String, rows: Int, identity: FileIdentity, read: [Int: Column]) {
        self.path = path; self.names = names; self.reread = reread; self.tableZone = tableZone; self.crs = crs; self.clocks = clocks
        self.timeColumn = timeColumn; self.rows = rows; self.identity = identity; self.columns = read
    }

    var guessesTypes: Bool { true }
    var readPositions: Set<Int> { lock.withLock { Set(columns.keys) } }
    var readCount: Int { lock.withLock { reads } }

    func columns(_ positions: [Int], cancel: CancellationFlag?, phase: (@Sendable (Bool) -> Void)?) throws -> (columns: [Column], warnings: [LoadWarning]) {
        lock.lock()
        defer { lock.unlock() }
        let missing = Set(positions.filter { columns[$0] == nil })
        var warnings: [LoadWarning] = []
        if !missing.isEmpty {
            try identity.check(path: path)
            phase?(true)
            defer { phase?(false) }
            let wanted = Set(missing.map { names[$0] })
            let loaded = try reread(wanted, timeColumn)
            guard loaded.table.rowCount == rows else {
                throw SourceChanged(message: "it now has \(NumberText.grouped(loaded.table.rowCount)) rows where it had \(NumberText.grouped(rows)) when it was loaded")
            }
            var found: [String] = []
            for c in loaded.table.columns where wanted.contains(c.name) {
                guard let p = names.firstIndex(of: c.name), missing.contains(p) else { continue }
                let (column, notes) = NamedColumns.recognise(c, zone: tableZone, crs: crs, clocks: clocks, path: path)
                columns[p] = column
                found.append(c.name)
                warnings += notes
            }
            // The file's other warnings (rows, encoding) were said when it was loaded: only
            // those about these columns are new.
            warnings = loaded.warnings.filter { w in w.column.map(found.contains) ?? false } + warnings
            reads += missing.count
        }
        return (try positions.map { p in
            guard let c = columns[p] else { throw SourceChanged(message: "its column \(names[p]) is no longer there") }
            return c
        }, warnings)
    }

    func timeRange(of position: Int, cancel: CancellationFlag?) throws -> (Int64, Int64)? {
        let column = try columns([position], cancel: cancel, phase: nil).columns[0]
        return Table(name: "", columns: [column], zone: tableZone, timeColumn: column.name).timeRange()
    }

    func release(_ positions: [Int]) {
        lock.withLock { for p in positions { columns[p] = nil } }
    }
}

/// A deferred table's columns, read, are not of the types its schema guessed (a CSV file's
/// columns typed by their first rows): the table with the schema they have, and what reading
/// them said. The session puts the table back and runs the command again, binding it anew.
struct SchemaRevised: Error {
    let table: DeferredTable
    let warnings: [String]
}
