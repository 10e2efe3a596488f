/// What a pipeline computes, independent of how: the in-memory executor runs it on columns,
/// and a SQL backend can translate the same tree. Every node knows its output schema, and
/// nothing in a plan is data: kept results are named, not embedded.
public indirect enum LogicalPlan: Sendable {
    /// A table of the catalog or a kept result, by name.
    case scan(Relation, schema: Schema)
    /// The loaded tables as rows (`tables`).
    case tables(current: String?)
    case filter(LogicalPlan, predicate: BoundExpr)
    /// Compute a list of named expressions (select, let, rename).
    case project(LogicalPlan, [NamedExpr], schema: Schema)
    /// Group by keys and compute aggregates; no aggregates means distinct keys.
    case aggregate(LogicalPlan, keys: [NamedExpr], aggregates: [BoundAggregate], schema: Schema)
    case sort(LogicalPlan, keys: [BoundSortKey])
    case limit(LogicalPlan, count: Int, offset: Int)
    /// Rows of two plans whose keys are equal and whose ranges hold.
    case join(LogicalPlan, LogicalPlan, kind: JoinKind, leftKeys: [BoundExpr], rightKeys: [BoundExpr],
              ranges: [RangeCondition], rightColumns: [Int], schema: Schema)
    /// Add missing buckets of a time key (with zeros in count columns).
    case fill(LogicalPlan, FillSpec)
    /// A table about the input's columns: type, values, nulls, distinct, range.
    case describe(LogicalPlan)
    /// The input with columns added that look at other rows of each row's group (`let … by`).
    case window(LogicalPlan, partition: [NamedExpr], calls: [WindowCall], schema: Schema)
    /// One column per value of a key (`pivot`); the values are learnt when it is bound.
    case pivot(LogicalPlan, PivotSpec, schema: Schema)
    /// Columns into rows (`unpivot`): each row once per column, with its name and value.
    case unpivot(LogicalPlan, columns: [Int], kept: [Int], schema: Schema)
    /// The rows of several plans, columns matched by name (`union`).
    case union([LogicalPlan], schema: Schema)

    public var schema: Schema {
        switch self {
        case .scan(_, let s): return s
        case .tables: return Schema.tables
        case .filter(let p, _): return p.schema
        case .project(_, _, let s): return s
        case .aggregate(_, _, _, let s): return s
        case .sort(let p, _): return p.schema
        case .limit(let p, _, _): return p.schema
        case .join(_, _, _, _, _, _, _, let s): return s
        case .fill(let p, _): return p.schema
        case .describe(let p): return Schema.describe(zone: p.schema.zone)
        case .window(_, _, _, let s): return s
        case .pivot(_, _, let s): return s
        case .unpivot(_, _, _, let s): return s
        case .union(_, let s): return s
        }
    }

    /// The conditions of the filters on the way from the source to this node (first one first),
    /// as a chart's title names them; a join's right side is another table's and not counted.
    public var filters: [String] {
        let below: [String]
        switch self {
        case .join(let l, _, _, _, _, _, _, _): below = l.filters
        case .union: below = []
        default: below = inputs.first?.filters ?? []
        }
        if case .filter(_, let predicate) = self { return below + Self.conditions(predicate) }
        return below
    }

    /// `a and b` as its two conditions, each without parentheses around it.
    private static func conditions(_ e: BoundExpr) -> [String] {
        if case .binary(.and, let l, let r, _) = e { return conditions(l) + conditions(r) }
        return [e.describeBare]
    }

    /// The plans this node reads.
    public var inputs: [LogicalPlan] {
        switch self {
        case .scan, .tables: return []
        case .filter(let p, _), .project(let p, _, _), .aggregate(let p, _, _, _), .sort(let p, _),
             .limit(let p, _, _), .fill(let p, _), .describe(let p), .window(let p, _, _, _),
             .pivot(let p, _, _), .unpivot(let p, _, _, _):
            return [p]
        case .union(let plans, _): return plans
        case .join(let l, let r, _, _, _, _, _, _): return [l, r]
        }
    }
}

/// Where a scan reads: a table of the catalog, or a result kept by the session (`$3`, `_`).
public enum Relation: Sendable, Equatable {
    case table(String)
    case result(Int)

    public var label: String {
        switch self {
        case .table(let name): return name
        case .result(let n): return "$\(n)"
        }
    }
}

/// A whole command's work: the plan of its rows and where they go.
public struct Query: Sendable {
    public var plan: LogicalPlan
    public var sink: Sink
    /// Said when the rows are none: why, as the verb that knows can tell (no service that day).
    public var whyNoRows: [String] = []
    /// Said with the rows, whatever they are: what the answer leaves out.
    public var notes: [String] = []
}

/// Where the rows of a query go.
public enum Sink: Sendable {
    /// Shown, and kept as a numbered result.
    case show
    /// Written to a file (`save`).
    case save(SaveRequest)
    /// Drawn (`chart`), for the terminal or into a file.
    case chart(ChartRequest)
}

public struct NamedExpr: Sendable {
    public var name: String
    public var expr: BoundExpr
}

public struct BoundAggregate: Sendable {
    public var function: AggregateFunction
    public var argument: BoundExpr?
    public var distinct: Bool
    public var name: String
    public var type: DataType
}

public struct BoundSortKey: Sendable {
    public var expr: BoundExpr
    public var descending: Bool

    public init(expr: BoundExpr, descending: Bool) { self.expr = expr; self.descending = descending }
}

/// What `fill` does, decided when it is bound: the key it steps along, how it steps, the
/// other keys every combination is made for, and the columns new rows hold zero in.
public struct FillSpec: Sendable {
    public var key: Int
    public var step: FillStep
    public var otherKeys: [Int]
    public var zeroColumns: Set<Int>
}

/// How `fill` steps between buckets.
public enum FillStep: Sendable, Equatable {
    /// Integer keys such as hour of day: every integer between the first and last.
    case integer
    /// Time keys: a fixed span (`every 15m`, `minute`, `day`).
    case micros(Int64)
    /// Calendar months (`month`).
    case months(Int)
}
