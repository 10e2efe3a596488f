/// Rows of two plans whose keys are equal and whose ranges hold: the left rows in their
/// order, each one's matches in the right side's order.
public struct JoinNode: PlanNode {
    public var left: LogicalPlan
    public var right: LogicalPlan
    public var kind: JoinKind
    public var leftKeys: [BoundExpr]
    public var rightKeys: [BoundExpr]
    public var ranges: [RangeCondition]
    /// The right side's columns that are added (a key both sides name alike is kept once).
    public var rightColumns: [Int]
    public var schema: Schema

    public init(_ left: LogicalPlan, _ right: LogicalPlan, kind: JoinKind, leftKeys: [BoundExpr], rightKeys: [BoundExpr],
                ranges: [RangeCondition], rightColumns: [Int], schema: Schema) {
        self.left = left; self.right = right; self.kind = kind; self.leftKeys = leftKeys; self.rightKeys = rightKeys
        self.ranges = ranges; self.rightColumns = rightColumns; self.schema = schema
    }

    public var inputs: [LogicalPlan] { [left, right] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> JoinNode {
        var j = self
        j.left = inputs[0]; j.right = inputs[1]
        return j
    }
    public var stepName: String { "join" }

    public var explainLine: String {
        let conditions = zip(leftKeys, rightKeys).map { "\($0.describe) = \($1.describe)" }
            + ranges.map { "\($0.left.describe) \($0.op.rawValue) \($0.right.describe)" }
        return "\(kind.rawValue) join on " + conditions.joined(separator: " and ") + (ranges.isEmpty ? "" : " (a range join)")
    }
}

/// A condition of a range join: a value of the rows before join, compared with one of the
/// table joined (`time >= start`).
public struct RangeCondition: Sendable {
    public var left: BoundExpr
    public var op: BinaryOp
    public var right: BoundExpr
}
