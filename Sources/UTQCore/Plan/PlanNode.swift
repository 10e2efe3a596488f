/// One step of a plan: what it computes from the rows of its inputs. Each kind of step is a
/// struct of its own (Plan/Nodes/) that carries its inputs, gives the schema of its rows,
/// rebuilds itself over other inputs and says what it does in a line of `explain`. How it
/// runs lives beside it: its operator in memory (Execute/Operators/) and its SQL form in a
/// database backend, each found by the node's type. A new step is its struct, its operator,
/// its SQL form and the verb that makes it.
public protocol PlanNode: Sendable {
    /// The plans this step reads.
    var inputs: [LogicalPlan] { get }
    /// The same step over other inputs (as many as `inputs` has).
    func replacingInputs(_ inputs: [LogicalPlan]) -> Self
    /// The columns of its rows, with their zone, time column and summary keys.
    var schema: Schema { get }
    /// What the step does, in the language's own words: its line in `explain`.
    var explainLine: String { get }
    /// The verb the step comes from, for notes ("where", "summary").
    var stepName: String { get }
    /// Whether the order of each input's rows can change this step's rows, when the order of
    /// this step's own rows matters (`orderMatters`) or not: a summary puts its groups in key
    /// order whatever order its rows came in, unless a first or last looks at that order.
    func inputOrderMatters(_ orderMatters: Bool) -> [Bool]
    /// Whether the step gives its input's rows in their order (some of them, or with columns
    /// changed): what a sort below it decided still holds above it.
    var keepsInputOrder: Bool { get }
}

extension PlanNode {
    public func inputOrderMatters(_ orderMatters: Bool) -> [Bool] { inputs.map { _ in orderMatters } }
    public var keepsInputOrder: Bool { false }
}

/// What a pipeline computes, independent of how: a tree of steps, each a `PlanNode`. The
/// in-memory executor runs it on columns, and a database backend translates the parts it can.
/// Every step knows its output schema, and nothing in a plan is data: kept results are named,
/// not embedded.
public struct LogicalPlan: Sendable {
    public let node: any PlanNode

    public init(_ node: some PlanNode) { self.node = node }

    public var inputs: [LogicalPlan] { node.inputs }
    public var schema: Schema { node.schema }
    public var explainLine: String { node.explainLine }
    public var stepName: String { node.stepName }

    /// The step as the given kind, if it is one: `plan.as(FilterNode.self)?.predicate`.
    public func `as`<T: PlanNode>(_ type: T.Type) -> T? { node as? T }

    /// Whether the step is of the given kind.
    public func `is`<T: PlanNode>(_ type: T.Type) -> Bool { node is T }

    /// The same step over other inputs.
    public func replacingInputs(_ new: [LogicalPlan]) -> LogicalPlan {
        precondition(new.count == inputs.count, "a step rebuilt over \(new.count) inputs where it has \(inputs.count)")
        return LogicalPlan(node.replacingInputs(new))
    }

    /// The plan with every step below and including this one rebuilt by `transform`, inputs
    /// first.
    public func rewritten(_ transform: (LogicalPlan) throws -> LogicalPlan) rethrows -> LogicalPlan {
        let rebuilt = inputs.isEmpty ? self : replacingInputs(try inputs.map { try $0.rewritten(transform) })
        return try transform(rebuilt)
    }

    /// The tables of the catalog this plan reads.
    public var scannedTables: [String] {
        if let scan = self.as(ScanNode.self), case .table(let name) = scan.relation { return [name] }
        return inputs.flatMap(\.scannedTables)
    }

    /// The conditions of the filters on the way from the source to this step (first one
    /// first), as a chart's title names them; a join's right side is another table's, and a
    /// union's rows are several tables', so neither is counted.
    public var filters: [String] {
        if self.is(UnionNode.self) { return [] }
        let below = inputs.first?.filters ?? []
        if let f = self.as(FilterNode.self) { return below + Self.conditions(f.predicate) }
        return below
    }

    /// `a and b` as its two conditions, each without parentheses around it.
    private static func conditions(_ e: BoundExpr) -> [String] {
        if case .binary(.and, let l, let r, _) = e { return conditions(l) + conditions(r) }
        return [e.describeBare]
    }

    /// Whether the plan's last steps fix the order of its rows: a sort, under steps that keep
    /// the order.
    public var sortsOutput: Bool {
        if self.is(SortNode.self) { return true }
        return node.keepsInputOrder && inputs.count == 1 && inputs[0].sortsOutput
    }
}

/// Where a scan reads: a table of the catalog, or a result kept by the session (`$3`, `_`).
public enum Relation: Sendable, Equatable {
    case table(String)
    case result(Int)
    /// The rows of a probe's input, kept by the probe for the step that asked (by its key).
    case probe(String, number: Int)

    public var label: String {
        switch self {
        case .table(let name): return name
        case .result(let n): return "$\(n)"
        case .probe(_, let n): return "the rows probe \(n) kept"
        }
    }
}
