extension AggregateNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try GroupBy(table: inputs[0], cancel: executor.cancel, notes: executor.context.notes).run(keys: keys, aggregates: aggregates, schema: schema)
    }
}
