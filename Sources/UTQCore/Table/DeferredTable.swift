/// Where a deferred table's columns come from: each is read once, when a question first
/// needs it, and kept for the questions after. A final class, shared by every copy of the
/// catalog (a lesson's saved states, the context a question runs in), that locks itself.
protocol ColumnSource: AnyObject, Sendable {
    /// The columns at these positions of the table's schema, in that order, reading those
    /// not read yet. The warnings are what reading them found (said once, by the question
    /// that read them).
    /// `phase` is told true before the file is read and false after (the shell tunes its
    /// allocator for reading).
    func columns(_ positions: [Int], cancel: CancellationFlag?, phase: (@Sendable (Bool) -> Void)?) throws -> (columns: [Column], warnings: [LoadWarning])
    /// The first and last instant of a timestamp column (nil when it has no values): from
    /// what the file says of the column where that is exact, else from its values.
    func timeRange(of position: Int, cancel: CancellationFlag?) throws -> (Int64, Int64)?
    /// The positions read so far.
    var readPositions: Set<Int> { get }
    /// How many columns have been read from the file, each counted once per read (a column
    /// read twice would count twice: tests see that none is).
    var readCount: Int { get }
    /// Whether the schema's types for columns not read yet are guesses (a CSV file's, from
    /// its first rows) that a read may correct.
    var guessesTypes: Bool { get }
    /// Whether its warnings and errors name the file they are about (a pattern's files),
    /// rather than the table's one file.
    var namesFiles: Bool { get }
    /// Lets go of the columns at these positions: what holds them now is another table (a
    /// pattern's, which joined them). Asked for again, they are read again.
    func release(_ positions: [Int])
}

extension ColumnSource {
    var guessesTypes: Bool { false }
    var namesFiles: Bool { false }
    func release(_ positions: [Int]) {}
}

/// Why a deferred table's columns cannot be read any more: its file is not the one loaded.
struct SourceChanged: Error {
    let message: String
}

/// A table whose columns are read when a question first needs them (a large Parquet file):
/// its schema, row count and time span are known from the file's footer at load, so binding
/// and summaries need no column. A scan asks for the columns its plan can read; every other
/// use takes the whole table (`whole()`), reading what is missing.
public struct DeferredTable: Sendable {
    public var name: String
    /// The columns as the binder sees them, with the table's zone and time column.
    public internal(set) var schema: Schema
    public let rowCount: Int
    public var rowNoun = "rows"
    /// The file as the user named it, for messages.
    public var path: String
    /// The first and last instant of the time column; nil when there is none, or no values.
    public internal(set) var timeRange: (Int64, Int64)?
    /// Columns changed since load (`set timezone` moves wall-clock times): these are the
    /// table's, not the file's.
    var changed: [Int: Column] = [:]
    /// Columns of wall-clock times not read yet when the table's zone changed: the zone they
    /// were read in. They are moved when a question reads them, not read to be moved (a
    /// script's `set timezone` after its load would read every such column).
    var movedFrom: [Int: ZoneRules] = [:]
    let source: any ColumnSource

    init(name: String, schema: Schema, rowCount: Int, path: String, timeRange: (Int64, Int64)?, source: any ColumnSource) {
        self.name = name; self.schema = schema; self.rowCount = rowCount; self.path = path; self.timeRange = timeRange
        self.source = source
    }

    /// The names of the columns read so far (tests ask, to see that a question read only
    /// what it needed).
    public var columnsRead: [String] {
        let read = source.readPositions.union(changed.keys)
        return schema.fields.indices.filter(read.contains).map { schema.fields[$0].name }
    }

    /// The table with every column, reading those not read yet.
    public func whole(notes: RunNotes? = nil, cancel: CancellationFlag? = nil) throws -> Table {
        try table(positions: Array(schema.fields.indices), notes: notes, cancel: cancel)
    }

    /// The table with the columns of the given names read (nil: every column). The others
    /// hold no values (`.null` of the table's length) and keep their places, since a plan
    /// names columns by position: only a plan that never reads them may ask for this.
    func table(reading names: Set<String>?, notes: RunNotes?, cancel: CancellationFlag?, phase: (@Sendable (Bool) -> Void)? = nil) throws -> Table {
        let positions = schema.fields.indices.filter { names?.contains(schema.fields[$0].name.lowercased()) ?? true }
        return try table(positions: positions, notes: notes, cancel: cancel, phase: phase)
    }

    func table(positions: [Int], notes: RunNotes?, cancel: CancellationFlag?, phase: (@Sendable (Bool) -> Void)? = nil) throws -> Table {
        let fromFile = positions.filter { changed[$0] == nil }
        let read = try reading { try source.columns(fromFile, cancel: cancel, phase: phase) }
        if source.guessesTypes { try checkGuesses(fromFile, read) }
        for w in read.warnings {
            var w = w
            if !source.namesFiles { w.path = path }
            notes?.add("read \(path) \(w.message)", w.description)
        }
        var columns = schema.fields.map { Column.nulls($0.name, count: rowCount) }
        for (k, p) in fromFile.enumerated() {
            columns[p] = read.columns[k]
            // Only wall-clock times move (a CSV column's schema may have guessed so wrongly).
            if let from = movedFrom[p], columns[p].floating { columns[p] = Self.moved(columns[p], from: from, to: schema.zone) }
        }
        for p in positions { if let c = changed[p] { columns[p] = c } }
        var t = Table(name: name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: rowNoun)
        t.rowCount = rowCount
        if schema.timeColumn == nil { t.timeColumn = nil }
        return t
    }

    /// Columns read whose types are not those the schema guessed: the question was bound on
    /// the guess, so it is bound again on the table as it is (`SchemaRevised`).
    private func checkGuesses(_ positions: [Int], _ read: (columns: [Column], warnings: [LoadWarning])) throws {
        var revised = self
        for (k, p) in positions.enumerated() {
            var field = Field(read.columns[k])
            field.name = schema.fields[p].name
            if field != schema.fields[p] { revised.schema.fields[p] = field }
        }
        guard revised.schema.fields != schema.fields else { return }
        if let time = schema.timeColumn, let p = schema.index(of: time), revised.schema.fields[p].type != .timestamp {
            revised.schema.timeColumn = revised.schema.fields.first { $0.type == .timestamp }?.name
        }
        throw SchemaRevised(table: revised, warnings: read.warnings.map { w in
            var w = w
            if !source.namesFiles { w.path = path }
            return w.description
        })
    }

    /// The same table with its times in another zone: wall-clock columns keep their reading
    /// (their instants move), as a loaded table's do.
    func inZone(_ zone: ZoneRules, cancel: CancellationFlag? = nil) throws -> DeferredTable {
        var t = self
        let floating = schema.fields.indices.filter { schema.fields[$0].floating && schema.fields[$0].type == .timestamp }
        let read = source.readPositions
        let now = floating.filter { read.contains($0) || changed[$0] != nil }
        let current = try table(positions: now, notes: nil, cancel: cancel)
        for p in now { t.changed[p] = Self.moved(current.columns[p], from: schema.zone, to: zone) }
        for p in floating where !now.contains(p) { t.movedFrom[p] = movedFrom[p] ?? schema.zone }
        t.schema.zone = zone
        t.timeRange = try t.rangeOfTimeColumn(cancel: cancel)
        return t
    }

    /// A column of wall-clock times read in one zone, as read in another: the same readings,
    /// other instants. A column not of times is as it is.
    static func moved(_ c: Column, from old: ZoneRules, to zone: ZoneRules) -> Column {
        guard case .timestamp(let a) = c.storage else { return c }
        var out = Column(name: c.name, storage: .timestamp(a.map { zone.instant(wallMicros: old.wallMicros($0)) }), validity: c.validity, unit: c.unit)
        out.floating = true
        return out
    }

    /// The same table with buckets reading another column.
    func withTimeColumn(_ name: String, cancel: CancellationFlag? = nil) throws -> DeferredTable {
        var t = self
        t.schema.timeColumn = name
        t.timeRange = try t.rangeOfTimeColumn(cancel: cancel)
        return t
    }

    /// The span of the time column, as `Table.timeRange` gives it.
    func rangeOfTimeColumn(cancel: CancellationFlag?) throws -> (Int64, Int64)? {
        guard let name = schema.timeColumn, let p = schema.index(of: name), schema.fields[p].type == .timestamp else { return nil }
        if changed[p] != nil || movedFrom[p] != nil { return try table(positions: [p], notes: nil, cancel: cancel).timeRange() }
        return try reading { try source.timeRange(of: p, cancel: cancel) }
    }

    /// Errors of reading as a question tells them: the file, and where in it.
    func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var e as LoadError {
            if !source.namesFiles { e.path = path }
            throw Diagnostic("cannot read \(e.description)",
                             hint: "\(name) stays loaded: questions that do not need this column still run")
        } catch let e as SourceChanged {
            throw Diagnostic("cannot read \(path): \(e.message)", hint: "load it again to read it as it is now")
        }
    }
}
