/// Rows of two plans for which a condition holds, each pair of rows tested (`join stops on
/// distance(lat, lng, stop_lat, stop_lon) < 400`): the left rows in their order, each one's
/// matches in the right side's order; a left join keeps a left row without a match, with
/// nulls. Every column of both sides is kept, a clashing name taking the right table's as a
/// prefix.
public struct PredicateJoinNode: PlanNode {
    public var left: LogicalPlan
    public var right: LogicalPlan
    public var kind: JoinKind
    /// The condition over the joined row's columns (the left's, then the right's).
    public var predicate: BoundExpr
    public var schema: Schema

    /// The most pairs of rows a join tests one by one.
    public static let maxPairs = 50_000_000

    public init(_ left: LogicalPlan, _ right: LogicalPlan, kind: JoinKind, predicate: BoundExpr, schema: Schema) {
        self.left = left; self.right = right; self.kind = kind; self.predicate = predicate; self.schema = schema
    }

    public var inputs: [LogicalPlan] { [left, right] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> PredicateJoinNode {
        PredicateJoinNode(inputs[0], inputs[1], kind: kind, predicate: predicate, schema: schema)
    }
    public var stepName: String { "join" }
    public var explainLine: String {
        kind == .cross ? "cross join (every row with every row)" : "\(kind.rawValue) join on \(predicate.describeBare) (each pair of rows tested)"
    }
}
