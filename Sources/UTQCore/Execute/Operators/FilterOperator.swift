extension FilterNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        let t = inputs[0]
        let rows = try Evaluator(table: t, notes: executor.context.notes, cancel: executor.context.cancel).selection(predicate)
        if rows.count == t.rowCount { return t }
        return t.gather(rows, needed: executor.outputNeeded)
    }
}
