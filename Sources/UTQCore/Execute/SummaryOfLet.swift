/// A summary of the whole table over a `let` or `select` (`let z = x * 2 + y | sum z`): the
/// summary reads the let's arithmetic itself over the rows below it, so a sum adds each
/// value as it is worked out (`FusedArithmetic.sum`) instead of the let writing a column of
/// every row first. Only where that is the same work: the summaries are those of
/// `SummaryInPlace` (no group number a row either), each argument a column the step passes
/// on or arithmetic of number columns, and one of them a sum of arithmetic.
enum SummaryOfLet {
    /// The summary with its arguments read from the rows below the let, and that step.
    static func over(_ plan: LogicalPlan) -> (AggregateNode, LogicalPlan)? {
        guard let summary = plan.as(AggregateNode.self), summary.keys.isEmpty, !summary.aggregates.isEmpty,
              let project = summary.input.as(ProjectNode.self) else { return nil }
        var aggregates: [BoundAggregate] = []
        var fused = false
        for var a in summary.aggregates {
            guard a.second == nil else { return nil }
            if let argument = a.argument {
                guard case .column(let i, _) = argument, project.items.indices.contains(i) else { return nil }
                let expr = project.items[i].expr
                switch expr {
                case .column:
                    break
                case .binary(let op, _, _, .double) where [.add, .subtract, .multiply].contains(op):
                    guard a.function == .sum && !a.distinct else { return nil }
                    fused = true
                default:
                    return nil
                }
                a.argument = expr
            }
            aggregates.append(a)
        }
        guard fused, SummaryInPlace(aggregates: aggregates, schema: summary.schema, arithmetic: true) != nil else { return nil }
        return (AggregateNode(project.input, keys: [], aggregates: aggregates, schema: summary.schema), project.input)
    }
}
