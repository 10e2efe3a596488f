/// A list of named expressions over its input's rows (select, let, rename).
public struct ProjectNode: PlanNode {
    public var input: LogicalPlan
    public var items: [NamedExpr]
    public var schema: Schema

    public init(_ input: LogicalPlan, _ items: [NamedExpr], schema: Schema) { self.input = input; self.items = items; self.schema = schema }

    public var inputs: [LogicalPlan] { [input] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> ProjectNode { ProjectNode(inputs[0], items, schema: schema) }
    public var stepName: String { "select/let" }
    public var keepsInputOrder: Bool { true }

    public var explainLine: String {
        // After a window, the columns it added are the let's workings, not columns kept.
        if let window = input.as(WindowNode.self) { return PlanPrinter.projection(items, input: window.input.schema) }
        return PlanPrinter.projection(items, input: input.schema)
    }
}

public struct NamedExpr: Sendable {
    public var name: String
    public var expr: BoundExpr

    public init(name: String, expr: BoundExpr) { self.name = name; self.expr = expr }
}
