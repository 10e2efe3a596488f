/// The rows of several plans one after another, columns matched by name (`union`).
public struct UnionNode: PlanNode {
    public var parts: [LogicalPlan]
    public var schema: Schema

    public init(_ parts: [LogicalPlan], schema: Schema) { self.parts = parts; self.schema = schema }

    public var inputs: [LogicalPlan] { parts }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> UnionNode { UnionNode(inputs, schema: schema) }
    public var stepName: String { "union" }
    public var explainLine: String { "union of \(parts.count), columns by name" }
}
