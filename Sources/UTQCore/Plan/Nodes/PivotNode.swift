/// One column per value of a key (`pivot`), holding the value of the last row with it; the
/// values are learnt before the plan is bound.
public struct PivotNode: PlanNode {
    public var input: LogicalPlan
    public var spec: PivotSpec
    public var schema: Schema

    public init(_ input: LogicalPlan, _ spec: PivotSpec, schema: Schema) { self.input = input; self.spec = spec; self.schema = schema }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> PivotNode { PivotNode(inputs[0], spec, schema: schema) }
    public var stepName: String { "pivot" }
    /// The last row of each combination fills its cell.
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { [true] }

    public var explainLine: String {
        let schema = input.schema
        return "pivot \(schema.fields[spec.key].name) into " + PlanPrinter.list(spec.names) + ", values \(schema.fields[spec.value].name)"
            + (spec.fill.map { ", missing \($0.plainText)" } ?? "")
    }
}

/// What a pivot does, decided when it is bound.
public struct PivotSpec: Sendable {
    public var key: Int
    public var value: Int
    public var rowKeys: [Int]
    /// The key's values, in its order: one column each.
    public var values: [Value]
    public var names: [String]
    /// What a missing combination holds (0 for counts and sums), else null.
    public var fill: Value?
}
