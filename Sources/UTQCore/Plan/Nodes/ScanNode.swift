/// The rows of a table of the catalog, or of a result the session keeps (`$3`, `_`).
public struct ScanNode: PlanNode {
    public var relation: Relation
    public var schema: Schema

    public init(_ relation: Relation, schema: Schema) { self.relation = relation; self.schema = schema }

    public var inputs: [LogicalPlan] { [] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> ScanNode { self }
    public var stepName: String { "scan" }
    public var explainLine: String {
        "scan \(relation.label) (\(schema.fields.count) column\(schema.fields.count == 1 ? "" : "s"))"
    }
}

/// The loaded tables as rows (`tables`).
public struct TablesNode: PlanNode {
    /// The current table, marked in its row.
    public var current: String?

    public init(current: String?) { self.current = current }

    public var inputs: [LogicalPlan] { [] }
    public func replacingInputs(_ inputs: [LogicalPlan]) -> TablesNode { self }
    public var schema: Schema { Schema.tables }
    public var stepName: String { "tables" }
    public var explainLine: String { "tables" }
}
