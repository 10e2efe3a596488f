extension JoinNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        // The columns no step above reads are left empty, not gathered: at millions of rows a
        // gather is a cache miss a row.
        let needed = executor.outputNeeded.map { wanted in schema.fields.map { wanted.contains($0.name.lowercased()) } }
        return try HashJoin.run(inputs[0], inputs[1], kind: kind, leftKeys: leftKeys, rightKeys: rightKeys, ranges: ranges, rightColumns: rightColumns,
                                schema: schema, needed: needed, cancel: executor.cancel, memoryLimit: executor.context.memoryLimit, notes: executor.context.notes)
    }
}
