/// Runs a logical plan on tables in memory: each step's operator (Operators/) over the tables
/// its inputs give. Only `MemoryBackend` makes one.
struct Executor {
    let context: ExecutionContext
    var catalog: Catalog { context.catalog }
    var cancel: CancellationFlag? { context.cancel }
    /// The columns the plan being run can read, by name: a table whose columns are read when
    /// first needed reads these for its scans. Set from the whole plan before it runs.
    private(set) var reads: ColumnReads?
    /// The names of the running step's columns that the steps above it read (nil: all of
    /// them): a step may leave the others empty (a join does not gather them).
    private(set) var outputNeeded: Set<String>?

    init(context: ExecutionContext) { self.context = context }

    func checkCancelled() throws {
        if cancel?.isCancelled == true { throw CancellationError() }
    }

    func run(_ plan: LogicalPlan) throws -> Table {
        try run(plan, needing: nil)
    }

    /// The plan's rows when the steps after it read only the columns `needed` names (nil: all);
    /// the others may come back empty.
    func run(_ plan: LogicalPlan, needing needed: Set<String>?) throws -> Table {
        var executor = self
        if executor.reads == nil { executor.reads = ColumnReads(plan) }
        return try executor.runStep(plan, needing: needed)
    }

    private func runStep(_ plan: LogicalPlan, needing wanted: Set<String>?) throws -> Table {
        try checkCancelled()
        guard let op = plan.node as? any MemoryOperator else {
            throw Diagnostic("\(plan.stepName) has no way to run in memory")
        }
        let needs = ColumnReads.needs(of: plan, needing: wanted)
        if case let (inPlace, filter)? = SummaryInPlace.over(plan) {
            let rows = try runStep(filter.input, needing: ColumnReads.needs(of: plan.inputs[0], needing: needs[0])[0])
            return try inPlace.run(rows, predicate: filter.predicate, notes: context.notes, cancel: context.cancel)
        }
        if let (summary, below) = SummaryOfLet.over(plan) {
            let rows = try runStep(below, needing: ColumnReads.needs(of: plan.inputs[0], needing: needs[0])[0])
            return try summary.run([rows], self)
        }
        let inputs = try plan.inputs.enumerated().map { k, input in
            try runStep(input, needing: needs.indices.contains(k) ? needs[k] : nil)
        }
        var executor = self
        executor.outputNeeded = wanted
        return try op.run(inputs, executor)
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
        return try executor.runPlaced(placed, needing: nil)
    }

    private func runPlaced(_ placed: PlacedPlan, needing wanted: Set<String>?) throws -> Table {
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
        let needs = placed.inputs.count == placed.plan.inputs.count ? ColumnReads.needs(of: placed.plan, needing: wanted) : []
        // A summary of the rows a `where` keeps reads them in place, when both run here on
        // rows that are here.
        if case .memory = placed.site, case let (inPlace, filter)? = SummaryInPlace.over(placed.plan), placed.inputs.count == 1,
           case .memory(let reason) = placed.inputs[0].site, placed.inputs[0].inputs.count == 1 {
            let source = placed.inputs[0].inputs[0]
            if case .database = source.site {} else {
                context.trace?.ran("\(filter.explainLine) — in memory" + (reason.map { ": \($0)" } ?? ""))
                let rows = try runPlaced(source, needing: ColumnReads.needs(of: placed.inputs[0].plan, needing: needs[0])[0])
                return try inPlace.run(rows, predicate: filter.predicate, notes: context.notes, cancel: context.cancel)
            }
        }
        // A summary of a let's arithmetic adds it as it is worked out, when both run here.
        if case .memory = placed.site, let (summary, _) = SummaryOfLet.over(placed.plan), placed.inputs.count == 1,
           case .memory(let reason) = placed.inputs[0].site, placed.inputs[0].inputs.count == 1,
           placed.inputs[0].inputs[0].site.isMemory {
            context.trace?.ran("\(placed.inputs[0].plan.explainLine) — in memory" + (reason.map { ": \($0)" } ?? ""))
            let rows = try runPlaced(placed.inputs[0].inputs[0], needing: ColumnReads.needs(of: placed.inputs[0].plan, needing: needs[0])[0])
            return try summary.run([rows], self)
        }
        for (i, input) in placed.inputs.enumerated() {
            let rows = try runPlaced(input, needing: needs.indices.contains(i) ? needs[i] : nil)
            if case .database(let name, _?) = input.site, !placed.restoresKeyOrder {
                context.notes?.add("pulled \(i) from \(name)", "\(placed.plan.stepName) runs in memory on \(NumberText.grouped(rows.rowCount)) rows from \(name)",
                                   as: .placement)
            }
            tables.append(rows)
        }
        guard let op = placed.plan.node as? any MemoryOperator else {
            throw Diagnostic("\(placed.plan.stepName) has no way to run in memory")
        }
        var executor = self
        executor.outputNeeded = wanted
        return try op.run(tables, executor)
    }
}

extension LogicalPlan {
    /// Runs the plan in memory, every step here: for tests and for work on loaded tables only.
    public func runInMemory(_ context: ExecutionContext) throws -> Table {
        try Executor(context: context).run(Placement.inMemory(self))
    }
}
