extension LimitNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        let t = inputs[0]
        let start = min(offset, t.rowCount), end = min(t.rowCount, start + min(count, t.rowCount))
        if start == 0 && end == t.rowCount { return t }
        return t.gather((start..<end).map { Int32($0) }, needed: executor.outputNeeded)
    }
}
