/// Columns into rows (`unpivot`): each row once per column, with the column's name and value.
public struct UnpivotNode: PlanNode {
    public var input: LogicalPlan
    public var columns: [Int]
    public var kept: [Int]
    public var schema: Schema

    public init(_ input: LogicalPlan, columns: [Int], kept: [Int], schema: Schema) {
        self.input = input; self.columns = columns; self.kept = kept; self.schema = schema
    }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> UnpivotNode { UnpivotNode(inputs[0], columns: columns, kept: kept, schema: schema) }
    public var stepName: String { "unpivot" }

    public var explainLine: String {
        let n = schema.fields.count
        return "unpivot " + PlanPrinter.list(columns.map { input.schema.fields[$0].name }) + " as \(schema.fields[n - 2].name), \(schema.fields[n - 1].name)"
    }
}
