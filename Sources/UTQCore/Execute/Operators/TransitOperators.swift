extension DeparturesNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try FrequencyExpansion.expand(inputs[0], frequencies: inputs.count > 1 ? inputs[1] : nil, schema: schema, cancel: executor.cancel)
    }
}

extension SegmentsNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try SegmentRows.make(inputs[0], stops: inputs[1], shapes: inputs.count > 2 ? inputs[2] : nil, schema: schema,
                             notes: executor.context.notes, cancel: executor.cancel)
    }
}

extension TravelTimesNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try TravelTimeRows.make(inputs[0], stops: inputs[1], transfers: inputs.count > 2 ? inputs[2] : nil, question: question,
                                schema: schema, notes: executor.context.notes, cancel: executor.cancel)
    }
}

extension FeedDiffNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try FeedComparison.rows(self, inputs, notes: executor.context.notes, cancel: executor.cancel)
    }
}
