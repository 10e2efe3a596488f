extension ScanNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        switch relation {
        case .table(let name):
            // A table whose columns are read when first needed reads those the plan can read.
            guard let entry = executor.catalog[name],
                  let t = try entry.rows(reading: executor.reads?.names(of: name), notes: executor.context.notes, cancel: executor.cancel,
                                         phase: executor.context.loadPhase) else {
                throw Diagnostic("table \(name) is no longer loaded")
            }
            return t
        case .result(let n):
            guard let t = executor.context.results[n] else { throw Diagnostic("result $\(n) is no longer kept") }
            return t
        case .probe(let key, let n):
            guard let t = executor.context.probed[key] else { throw Diagnostic("probe \(n) kept no rows") }
            return t
        }
    }
}

extension TablesNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        TablesListing.table(executor.catalog, current: current)
    }
}
