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
