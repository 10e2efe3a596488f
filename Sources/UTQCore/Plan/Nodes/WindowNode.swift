/// Its input with columns added that look at other rows of each row's group (`let … by`), in
/// the order the rows are in.
public struct WindowNode: PlanNode {
    public var input: LogicalPlan
    public var partition: [NamedExpr]
    public var calls: [WindowCall]
    public var schema: Schema

    public init(_ input: LogicalPlan, partition: [NamedExpr], calls: [WindowCall], schema: Schema) {
        self.input = input; self.partition = partition; self.calls = calls; self.schema = schema
    }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> WindowNode { WindowNode(inputs[0], partition: partition, calls: calls, schema: schema) }
    public var stepName: String { "let … by" }
    public var keepsInputOrder: Bool { true }
    /// prev, next, row_number and running sums count along the rows' order.
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { [true] }

    public var explainLine: String {
        let by = partition.map(PlanPrinter.describe)
        return "window " + PlanPrinter.list(calls.map(\.describe)) + (by.isEmpty ? " over all rows" : " by " + PlanPrinter.list(by))
    }
}
