/// A database attached to the session (`attach URI as NAME`): its tables appear in the
/// catalog as `NAME.table`, with their columns, and the steps of a plan over them that it can
/// run are sent to it (placement decides which, step by step, asking `compile`).
/// The database says a table or column utq read at attach is no longer as it was (dropped,
/// renamed, changed type): the session reads its tables again and runs the command once more.
public struct DatabaseChanged: Error {
    public let database: String
    public let reason: String
    public init(database: String, reason: String) { self.database = database; self.reason = reason }
}

public protocol AttachedDatabase: AnyObject, Sendable {
    /// The name the tables are prefixed with (`db` in `db.rides`).
    var name: String { get }
    /// What kind of database it is, for explain: "PostgreSQL".
    var kind: String { get }
    /// Where it is, for messages: host, port and database, never a password.
    var location: String { get }
    /// The tables and views, named `NAME.table`, each with its columns.
    func tables() throws -> [RemoteTable]
    /// What the last listing of tables has to say (columns of types utq reads as text).
    var notes: [String] { get }
    /// Copies a table in (`save to NAME.table`).
    func save(_ table: Table, as tableName: String, replace: Bool, cancel: CancellationFlag?) throws -> Int
    /// Adds the rows to an existing table (`save append to NAME.table`), all or none.
    func append(_ table: Table, to tableName: String, cancel: CancellationFlag?) throws -> Int
    /// What the last save or append has to say (a column kept in another type than utq's).
    var saveNotes: [String] { get }
    /// Lets go of the connection.
    func close()

    /// Loaded tables of at most this many rows are copied in when a pipeline reads them with
    /// the database's tables; a larger one stays in memory.
    var copyLimit: Int { get }
    /// One step in the database's own form (SQL) over its inputs' forms, or `NotInDatabase`
    /// with the reason it cannot be: then it runs in memory. `orderMatters`: whether the order
    /// of the step's rows matters above it.
    func compile(_ step: LogicalPlan, inputs: [any DatabaseStep], orderMatters: Bool) throws -> any DatabaseStep
    /// A loaded table as the database would read it once copied in for this pipeline (the
    /// `index`-th table this pipeline copies).
    func compileCopy(of table: Table, named name: String, index: Int) -> any DatabaseStep
    /// What sends a compiled part of a plan to the database and brings its rows back.
    func fragment(_ step: any DatabaseStep, schema: Schema) -> any RemoteFragment
}

extension AttachedDatabase {
    public var notes: [String] { [] }
    public var saveNotes: [String] { [] }

    public func append(_ table: Table, to tableName: String, cancel: CancellationFlag?) throws -> Int {
        throw Diagnostic("\(kind) databases take no appended rows here", hint: "save to \(name).NEW_TABLE creates a table")
    }
}

/// A step, or a part of a plan, in a database's own form: opaque to all but that database.
public protocol DatabaseStep: Sendable {
    /// Whether its rows come in the key order its schema names (a summary the database
    /// sorts), so they need not be put in it when they come back.
    var givesKeyOrder: Bool { get }
}

/// Why a step stays in memory rather than being sent to the database: said by explain.
public struct NotInDatabase: Error, Sendable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// A part of a plan that runs in a database as one query: what explain shows of it, and
/// what runs it and reads its rows into columns.
public protocol RemoteFragment: Sendable {
    /// The database it runs in (its name in the session).
    var database: String { get }
    /// What is sent, as explain shows it (laid-out SQL).
    var explainText: String { get }
    /// Loaded tables copied in before it runs, with their rows.
    var copies: [(name: String, rows: Int)] { get }
    func run(_ context: ExecutionContext) throws -> Table
}

/// Makes attached databases from URIs; the command line installs one for PostgreSQL.
public protocol DatabaseConnector: Sendable {
    /// `zone`: the session's, in which the tables' times show and their wall-clock times are
    /// read, unless a table keeps its own.
    func attach(uri: String, name: String, zone: ZoneRules, cancel: CancellationFlag?) throws -> any AttachedDatabase
}
