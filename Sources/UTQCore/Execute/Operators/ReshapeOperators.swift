extension FillNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try Fill.run(inputs[0], key: spec.key, step: spec.step, otherKeys: spec.otherKeys, zeroColumns: spec.zeroColumns, cancel: executor.cancel)
    }
}

extension PivotNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try Reshape.pivot(inputs[0], spec, schema: schema, cancel: executor.cancel)
    }
}

extension UnpivotNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try Reshape.unpivot(inputs[0], columns: columns, kept: kept, schema: schema)
    }
}

extension UnionNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try Reshape.union(inputs, schema: schema)
    }
}

extension TotalsNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        Totals.add(inputs[0], cells: cells, rule: rule, schema: schema)
    }
}
