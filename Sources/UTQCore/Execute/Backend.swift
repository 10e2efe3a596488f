/// What runs a plan. The session hands every bound plan to its backend and to nothing
/// else: the in-memory executor is the first backend, and a database backend implements
/// the same entry point by translating the plan.
public protocol Backend: Sendable {
    /// How `explain` names where the plan runs: "in memory".
    var name: String { get }
    /// Runs a plan and gives its rows.
    func run(_ plan: LogicalPlan, in context: ExecutionContext) throws -> Table
    /// What `explain` shows below the plan (the SQL a database is sent); nil for nothing.
    func explain(_ plan: LogicalPlan) -> String?
}

/// What a plan runs against: the session's tables and kept results, and the flag Ctrl-C sets.
public struct ExecutionContext: Sendable {
    public var catalog: Catalog
    public var results: [Int: Table]
    public var cancel: CancellationFlag?
    /// The session's memory limit (`set memory-limit`); nil: what the system has free.
    public var memoryLimit: Int?
    /// Where warnings raised while running go (a text that is no time becomes null).
    public var notes: RunNotes?
    /// Parts of the plan the command already ran while binding it (a pivot's input).
    public var memo: RunMemo?

    public init(catalog: Catalog, results: [Int: Table] = [:], cancel: CancellationFlag? = nil, memoryLimit: Int? = nil, notes: RunNotes? = nil, memo: RunMemo? = nil) {
        self.catalog = catalog; self.results = results; self.cancel = cancel; self.memoryLimit = memoryLimit; self.notes = notes; self.memo = memo
    }
}

/// Runs plans on the columns in memory.
public struct MemoryBackend: Backend {
    public init() {}

    public var name: String { "in memory" }

    public func run(_ plan: LogicalPlan, in context: ExecutionContext) throws -> Table {
        try Executor(context: context).run(plan)
    }

    public func explain(_ plan: LogicalPlan) -> String? { nil }
}

/// A database attached to the session (`attach URI as NAME`): its tables appear in the
/// catalog as `NAME.table`, with their columns and no rows, and a plan that reads them is
/// run by the database's backend.
public protocol AttachedDatabase: AnyObject, Sendable {
    /// The name the tables are prefixed with (`db` in `db.rides`).
    var name: String { get }
    /// Where it is, for messages: host, port and database, never a password.
    var location: String { get }
    /// The tables and views, named `NAME.table`, each with its columns and no rows.
    func tables() throws -> [Table]
    /// Runs plans that read this database's tables.
    var backend: any Backend { get }
    /// The backend for a plan that may also read these loaded tables (a database can copy
    /// small ones in, and explain says so).
    func backend(catalog: Catalog) -> any Backend
    /// What the last listing of tables has to say (columns of types utq reads as text).
    var notes: [String] { get }
    /// Copies a table in (`save to NAME.table`).
    func save(_ table: Table, as tableName: String, replace: Bool, cancel: CancellationFlag?) throws -> Int
    /// Lets go of the connection.
    func close()
}

extension AttachedDatabase {
    public func backend(catalog: Catalog) -> any Backend { backend }
    public var notes: [String] { [] }
}

/// Makes attached databases from URIs; the command line installs one for PostgreSQL.
public protocol DatabaseConnector: Sendable {
    func attach(uri: String, name: String, cancel: CancellationFlag?) throws -> any AttachedDatabase
}

extension LogicalPlan {
    /// The tables of the catalog this plan reads.
    public var scannedTables: [String] {
        if case .scan(.table(let name), _) = self { return [name] }
        return inputs.flatMap(\.scannedTables)
    }

    /// The same step over other inputs (as many as `inputs` has).
    public func replacingInputs(_ new: [LogicalPlan]) -> LogicalPlan {
        switch self {
        case .scan, .tables: return self
        case .filter(_, let p): return .filter(new[0], predicate: p)
        case .project(_, let e, let s): return .project(new[0], e, schema: s)
        case .aggregate(_, let k, let a, let s): return .aggregate(new[0], keys: k, aggregates: a, schema: s)
        case .sort(_, let k): return .sort(new[0], keys: k)
        case .limit(_, let c, let o): return .limit(new[0], count: c, offset: o)
        case .join(_, _, let kind, let lk, let rk, let ranges, let rc, let s):
            return .join(new[0], new[1], kind: kind, leftKeys: lk, rightKeys: rk, ranges: ranges, rightColumns: rc, schema: s)
        case .fill(_, let f): return .fill(new[0], f)
        case .describe: return .describe(new[0])
        case .window(_, let p, let c, let s): return .window(new[0], partition: p, calls: c, schema: s)
        case .pivot(_, let spec, let s): return .pivot(new[0], spec, schema: s)
        case .unpivot(_, let c, let k, let s): return .unpivot(new[0], columns: c, kept: k, schema: s)
        case .union(_, let s): return .union(new, schema: s)
        }
    }
}
