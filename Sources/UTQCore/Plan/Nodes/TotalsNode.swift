/// `pivot … with totals`: a `total` column that combines each row's cells, and a `total` row
/// that combines each column's, as a spreadsheet's pivot table shows them. Counts and sums
/// add up, a minimum takes the least and a maximum the greatest; nulls are left out.
public struct TotalsNode: PlanNode {
    public var input: LogicalPlan
    /// The columns that are combined (the pivot's value columns), by index in the input.
    public var cells: [Int]
    public var rule: TotalsRule
    public var schema: Schema

    public init(_ input: LogicalPlan, cells: [Int], rule: TotalsRule, schema: Schema) {
        self.input = input; self.cells = cells; self.rule = rule; self.schema = schema
    }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> TotalsNode { TotalsNode(inputs[0], cells: cells, rule: rule, schema: schema) }
    public var stepName: String { "pivot" }
    public var keepsInputOrder: Bool { true }
    public var explainLine: String { "totals: a total column and a total row (\(rule.rawValue) of the cells)" }
}

/// How the cells of a row or a column make its total.
public enum TotalsRule: String, Sendable {
    case sum, min, max

    /// The rule for a summary's column: counts and sums add, min and max keep theirs; nil for
    /// a summary whose total is not found from its cells (the mean of means is not the mean).
    static func of(_ function: AggregateFunction?) -> TotalsRule? {
        switch function {
        case .count?, .sum?, nil: return .sum
        case .min?: return .min
        case .max?: return .max
        default: return nil
        }
    }
}
