extension WindowNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try Window(table: inputs[0], notes: executor.context.notes, cancel: executor.cancel).run(partition: partition, calls: calls)
    }
}
