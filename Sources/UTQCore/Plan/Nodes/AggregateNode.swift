/// Groups by keys and computes summaries of each group; no summaries means the distinct keys.
/// The groups come out in key order.
public struct AggregateNode: PlanNode {
    public var input: LogicalPlan
    public var keys: [NamedExpr]
    public var aggregates: [BoundAggregate]
    public var schema: Schema

    public init(_ input: LogicalPlan, keys: [NamedExpr], aggregates: [BoundAggregate], schema: Schema) {
        self.input = input; self.keys = keys; self.aggregates = aggregates; self.schema = schema
    }

    /// The different values of one column of a plan's rows, in the column's order.
    public static func distinct(_ input: LogicalPlan, column k: Int) -> LogicalPlan {
        let field = input.schema.fields[k]
        return LogicalPlan(AggregateNode(input, keys: [NamedExpr(name: field.name, expr: .column(k, field))], aggregates: [],
                                         schema: Schema(fields: [field], zone: input.schema.zone, timeColumn: nil,
                                                        groupKeys: [field.name], keyOrder: [field.name])))
    }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> AggregateNode {
        AggregateNode(inputs[0], keys: keys, aggregates: aggregates, schema: schema)
    }
    public var stepName: String { "summary" }

    /// Only first and last look at the order of a group's rows.
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] {
        [aggregates.contains { $0.function == .first || $0.function == .last }]
    }

    public var explainLine: String {
        let aggs = aggregates.map(PlanPrinter.describe)
        let by = keys.map(PlanPrinter.describe)
        if aggs.isEmpty { return "distinct " + PlanPrinter.list(by) }
        return "aggregate " + PlanPrinter.list(aggs) + (by.isEmpty ? "" : " by " + PlanPrinter.list(by))
    }
}

public struct BoundAggregate: Sendable {
    public var function: AggregateFunction
    public var argument: BoundExpr?
    public var distinct: Bool
    public var name: String
    public var type: DataType
    /// The second column of a two-column summary: x in `regr_slope(y, x)`.
    public var second: BoundExpr? = nil

    /// The columns it reads, in the order written.
    public var arguments: [BoundExpr] { [argument, second].compactMap { $0 } }
}
