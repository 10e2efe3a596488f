extension DescribeNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        Describe.table(for: inputs[0])
    }
}
