extension SortNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        let t = inputs[0]
        let ev = Evaluator(table: t, notes: executor.context.notes, cancel: executor.context.cancel)
        let columns = try keys.map { try ev.column($0.expr) }
        // Only the rows wanted are put in order: a heap pass when a limit keeps a few.
        let order = try Sorting.order(columns, descending: keys.map(\.descending), count: t.rowCount, limit: wanted, cancel: executor.cancel)
        if wanted == nil || order.count == t.rowCount, order.elementsEqual(0..<Int32(t.rowCount)) { return t }
        return t.gather(order, needed: executor.outputNeeded)
    }
}
