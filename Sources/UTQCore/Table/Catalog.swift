/// A table of an attached database as the session knows it: its name (`db.rides`), the
/// database, and its columns, which are all that is here: its rows stay there.
public struct RemoteTable: Sendable {
    public var name: String
    public var database: String
    public var schema: Schema
    /// What one row is called in summaries.
    public var rowNoun: String

    public init(name: String, database: String, schema: Schema, rowNoun: String = "rows") {
        self.name = name; self.database = database; self.schema = schema; self.rowNoun = rowNoun
    }
}

/// What a name of the catalog stands for: a table loaded into memory, one whose columns are
/// read when a question first needs them, or one in a database.
public enum CatalogEntry: Sendable {
    case loaded(Table)
    case remote(RemoteTable)
    case deferred(DeferredTable)

    public var name: String {
        switch self {
        case .loaded(let t): return t.name
        case .remote(let r): return r.name
        case .deferred(let d): return d.name
        }
    }

    /// The columns, with the zone and time column: known without reading any rows.
    public var schema: Schema {
        switch self {
        case .loaded(let t): return Schema(t)
        case .remote(let r): return r.schema
        case .deferred(let d): return d.schema
        }
    }

    /// The attached database the table lives in, or nil for a table here.
    public var database: String? {
        if case .remote(let r) = self { return r.database }
        return nil
    }

    /// The rows, when they are here, every column read (a deferred table's columns not read
    /// yet are read now; nil when they cannot be: `rows()` says why).
    public var table: Table? { try? rows() }

    /// The rows with every column, reading a deferred table's missing columns; nil for a
    /// database's table.
    public func rows(notes: RunNotes? = nil, cancel: CancellationFlag? = nil) throws -> Table? {
        switch self {
        case .loaded(let t): return t
        case .deferred(let d): return try d.whole(notes: notes, cancel: cancel)
        case .remote: return nil
        }
    }

    /// The rows a scan gives: a deferred table with only the columns of these names read
    /// (lowercased; nil: all of them), the others empty in their places.
    func rows(reading names: Set<String>?, notes: RunNotes?, cancel: CancellationFlag?, phase: (@Sendable (Bool) -> Void)? = nil) throws -> Table? {
        if case .deferred(let d) = self { return try d.table(reading: names, notes: notes, cancel: cancel, phase: phase) }
        return try rows(notes: notes, cancel: cancel)
    }

    /// The entry as the binder sees it: a name, a place and a schema, no rows.
    public var tableSchema: TableSchema { TableSchema(name: name, schema: schema, database: database) }
}

/// The named tables of a session, in the order they were loaded: loaded tables and the
/// tables of attached databases.
public struct Catalog: Sendable {
    private var entries: [String: CatalogEntry] = [:]
    private var naming = TableNames()

    public init() {}

    /// The names in the order the tables came.
    public var names: [String] { naming.order }
    public var order: [String] { naming.order }

    /// The entry of a name, matched exactly or without regard to case.
    public subscript(name: String) -> CatalogEntry? {
        if let e = entries[name] { return e }
        return naming.exact(name).flatMap { entries[$0] }
    }

    /// The table of a name with every column read; nil for none, or for a database's table.
    public func table(_ name: String) -> Table? { self[name]?.table }

    /// The tables here (not in a database), in order, every column read.
    public var loadedTables: [Table] { order.compactMap { entries[$0]?.table } }

    public func resolve(_ name: String) -> String? { naming.resolve(name) }
    public func candidates(endingWith name: String) -> [String] { naming.candidates(endingWith: name) }

    public mutating func put(_ table: Table) { put(.loaded(table)) }

    public mutating func put(_ entry: CatalogEntry) {
        if entries[entry.name] == nil { naming.order.append(entry.name) }
        entries[entry.name] = entry
    }

    public mutating func remove(_ name: String) {
        entries[name] = nil
        naming.order.removeAll { $0 == name }
    }

    /// What the binder may see of the catalog: each table's schema, no rows.
    public var schemas: SchemaCatalog {
        SchemaCatalog(entries: entries.mapValues(\.tableSchema), naming: naming)
    }
}

/// A table as the binder sees it: its name, where it lives, and its columns.
public struct TableSchema: Sendable {
    public var name: String
    public var schema: Schema
    /// The attached database it lives in, or nil for a table loaded into memory.
    public var database: String?
}

/// The schemas of the catalog's tables: what binding looks names up in.
public struct SchemaCatalog: Sendable {
    private var entries: [String: TableSchema]
    private let naming: TableNames

    init(entries: [String: TableSchema], naming: TableNames) { self.entries = entries; self.naming = naming }

    public var names: [String] { naming.order }

    public subscript(name: String) -> TableSchema? {
        if let e = entries[name] { return e }
        return naming.exact(name).flatMap { entries[$0] }
    }

    public func resolve(_ name: String) -> String? { naming.resolve(name) }
    public func candidates(endingWith name: String) -> [String] { naming.candidates(endingWith: name) }

    /// The same, with some names standing for copies of their tables elsewhere in the catalog
    /// (`market` for the copy saved as `db.market`): a pipeline bound so reads the copies, as
    /// the tables they copy (their columns, zone and time column).
    public func substituting(_ replacements: [String: String]) -> SchemaCatalog {
        var copy = self
        for (name, other) in replacements {
            guard let original = naming.exact(name), let table = self[original], let replacement = self[other] else { continue }
            copy.entries[original] = TableSchema(name: replacement.name, schema: table.schema, database: replacement.database)
        }
        return copy
    }
}

/// The names of a catalog in order, and how a name as a user wrote it finds one.
public struct TableNames: Sendable {
    public internal(set) var order: [String] = []

    /// The name itself, or the one that differs only in case.
    func exact(_ name: String) -> String? {
        if order.contains(name) { return name }
        let lower = name.lowercased()
        return order.first { $0.lowercased() == lower }
    }

    /// The exact name a user meant: the name itself, a case-insensitive match, or a unique
    /// last part (`trips` for `feed.trips`).
    public func resolve(_ name: String) -> String? {
        if let exact = exact(name) { return exact }
        let suffix = candidates(endingWith: name)
        return suffix.count == 1 ? suffix[0] : nil
    }

    /// Names that end in `.name` (for an "ambiguous" message when there are several).
    public func candidates(endingWith name: String) -> [String] {
        order.filter { $0.lowercased().hasSuffix("." + name.lowercased()) }
    }
}
