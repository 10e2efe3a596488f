/// The rows of its input for which a condition holds (`where`).
public struct FilterNode: PlanNode {
    public var input: LogicalPlan
    public var predicate: BoundExpr

    public init(_ input: LogicalPlan, predicate: BoundExpr) { self.input = input; self.predicate = predicate }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> FilterNode { FilterNode(inputs[0], predicate: predicate) }
    public var schema: Schema { input.schema }
    public var stepName: String { "where" }
    public var explainLine: String { "where " + predicate.describeBare }
    public var keepsInputOrder: Bool { true }
}
