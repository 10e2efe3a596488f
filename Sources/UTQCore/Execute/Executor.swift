/// Runs a logical plan on tables in memory: each step's operator (Operators/) over the tables
/// its inputs give. Only `MemoryBackend` makes one.
struct Executor {
    let context: ExecutionContext
    var catalog: Catalog { context.catalog }
    var cancel: CancellationFlag? { context.cancel }
    /// The columns the plan being run can read, by name: a table whose columns are read when
    /// first needed reads these for its scans. Set from the whole plan before it runs.
    private(set) var reads: ColumnReads?

    init(context: ExecutionContext) { self.context = context }

    func checkCancelled() throws {
        if cancel?.isCancelled == true { throw CancellationError() }
    }

    func run(_ plan: LogicalPlan) throws -> Table {
        var executor = self
        if executor.reads == nil { executor.reads = ColumnReads(plan) }
        return try executor.runStep(plan)
    }

    private func runStep(_ plan: LogicalPlan) throws -> Table {
        try checkCancelled()
        guard let op = plan.node as? any MemoryOperator else {
            throw Diagnostic("\(plan.stepName) has no way to run in memory")
        }
        return try op.run(try plan.inputs.map(runStep), self)
    }
}

/// How a step of a plan runs in memory: over the tables of its inputs, in their order.
protocol MemoryOperator: PlanNode {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table
}

public struct CancellationError: Error {
    public init() {}
}

extension Executor {
    /// Runs a placed plan: the parts placed in a database are sent there, each as one query,
    /// and the steps placed in memory run here over the rows that come back.
    func run(_ placed: PlacedPlan) throws -> Table {
        var executor = self
        if executor.reads == nil { executor.reads = ColumnReads(placed.plan) }
        return try executor.runPlaced(placed)
    }

    private func runPlaced(_ placed: PlacedPlan) throws -> Table {
        try checkCancelled()
        if case .database(let name, let fragment?) = placed.site {
            // The fragment's SQL is its steps': each is sent with it.
            for step in placed.steps { context.trace?.ran("\(step.plan.explainLine) — in \(name)") }
            return try fragment.run(context)
        }
        if case .undecided = placed.site { throw Diagnostic("\(placed.plan.stepName) waits for probes that have not run") }
        if case .memory(let reason) = placed.site {
            context.trace?.ran("\(placed.plan.explainLine) — in memory" + (reason.map { ": \($0)" } ?? ""))
            // Why a table the database's rows meet is read here (it is too large to copy in).
            if let reason, let scan = placed.plan.as(ScanNode.self), case .table = scan.relation {
                context.notes?.add("read here: \(scan.relation.label)", reason, as: .placement)
            }
        }
        var tables: [Table] = []
        for (i, input) in placed.inputs.enumerated() {
            let rows = try runPlaced(input)
            if case .database(let name, _?) = input.site, !placed.restoresKeyOrder {
                context.notes?.add("pulled \(i) from \(name)", "\(placed.plan.stepName) runs in memory on \(NumberText.grouped(rows.rowCount)) rows from \(name)",
                                   as: .placement)
            }
            tables.append(rows)
        }
        guard let op = placed.plan.node as? any MemoryOperator else {
            throw Diagnostic("\(placed.plan.stepName) has no way to run in memory")
        }
        return try op.run(tables, self)
    }
}

extension LogicalPlan {
    /// Runs the plan in memory, every step here: for tests and for work on loaded tables only.
    public func runInMemory(_ context: ExecutionContext) throws -> Table {
        try Executor(context: context).run(Placement.inMemory(self))
    }
}
