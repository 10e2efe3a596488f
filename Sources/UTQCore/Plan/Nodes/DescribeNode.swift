/// A table about its input's columns: type, values, nulls, distinct values and range.
public struct DescribeNode: PlanNode {
    public var input: LogicalPlan

    public init(_ input: LogicalPlan) { self.input = input }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> DescribeNode { DescribeNode(inputs[0]) }
    public var schema: Schema { Schema.describe(zone: input.schema.zone) }
    public var stepName: String { "describe" }
    public var explainLine: String { "describe" }
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { [false] }
}
