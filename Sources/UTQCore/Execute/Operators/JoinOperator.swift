extension JoinNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try HashJoin.run(inputs[0], inputs[1], kind: kind, leftKeys: leftKeys, rightKeys: rightKeys, ranges: ranges, rightColumns: rightColumns,
                         schema: schema, cancel: executor.cancel, memoryLimit: executor.context.memoryLimit, notes: executor.context.notes)
    }
}
