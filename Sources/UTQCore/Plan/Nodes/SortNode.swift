/// Its input's rows in the order of some keys; rows that tie keep their order.
public struct SortNode: PlanNode {
    public var input: LogicalPlan
    public var keys: [BoundSortKey]
    /// How many of the first rows are wanted, when a limit above keeps only those: only they
    /// need to be put in order (`top 3 by x` of a million rows is a heap pass).
    public var wanted: Int?

    public init(_ input: LogicalPlan, keys: [BoundSortKey], wanted: Int? = nil) { self.input = input; self.keys = keys; self.wanted = wanted }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> SortNode { SortNode(inputs[0], keys: keys, wanted: wanted) }
    /// The rows are in the sort's order now, not a summary's.
    public var schema: Schema {
        var s = input.schema
        s.keyOrder = nil
        return s
    }
    public var stepName: String { "sort" }
    public var explainLine: String {
        "sort " + keys.map { $0.expr.describe + ($0.descending ? " desc" : "") }.joined(separator: ", ")
    }
}

public struct BoundSortKey: Sendable {
    public var expr: BoundExpr
    public var descending: Bool

    public init(expr: BoundExpr, descending: Bool) { self.expr = expr; self.descending = descending }
}
