extension DeparturesNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        try FrequencyExpansion.expand(inputs[0], frequencies: inputs.count > 1 ? inputs[1] : nil, schema: schema, cancel: executor.cancel)
    }
}
