/// A column as the plan sees it: name, type and how it is shown.
public struct Field: Sendable, Equatable {
    public var name: String
    public var type: DataType
    public var unit: DisplayUnit
    /// For text: values have a declared order (weekdays, legends) rather than alphabetical.
    public var ordered: Bool

    public init(name: String, type: DataType, unit: DisplayUnit = .automatic, ordered: Bool = false) {
        self.name = name; self.type = type; self.unit = unit; self.ordered = ordered
    }

    init(_ c: Column) {
        var ordered = false
        if case .string(let s) = c.storage { ordered = s.ordered }
        self.init(name: c.name, type: c.type, unit: c.unit, ordered: ordered)
    }
}

/// The columns a plan node produces, with the time zone and time column they carry.
public struct Schema: Sendable {
    public var fields: [Field]
    public var zone: ZoneRules
    public var timeColumn: String?

    public init(fields: [Field], zone: ZoneRules, timeColumn: String?) {
        self.fields = fields; self.zone = zone; self.timeColumn = timeColumn
    }

    init(_ t: Table) {
        self.init(fields: t.columns.map(Field.init), zone: t.zone, timeColumn: t.timeColumn)
    }

    public var names: [String] { fields.map(\.name) }

    public func index(of name: String) -> Int? {
        if let i = fields.firstIndex(where: { $0.name == name }) { return i }
        let lower = name.lowercased()
        return fields.firstIndex(where: { $0.name.lowercased() == lower })
    }
}

/// What a pipeline computes, independent of how: the executor runs it on columns in memory,
/// and a SQL backend can translate the same tree. Every node knows its output schema.
public indirect enum LogicalPlan: Sendable {
    /// A table of the catalog, by name.
    case scan(table: String, schema: Schema)
    /// A result kept by the session (`$3`, `_`), already computed.
    case values(Table, label: String)
    case filter(LogicalPlan, predicate: BoundExpr)
    /// Compute a list of named expressions (select, let, rename).
    case project(LogicalPlan, [NamedExpr], schema: Schema)
    /// Group by keys and compute aggregates; no aggregates means distinct keys.
    case aggregate(LogicalPlan, keys: [NamedExpr], aggregates: [BoundAggregate], schema: Schema)
    case sort(LogicalPlan, keys: [BoundSortKey])
    case limit(LogicalPlan, count: Int, offset: Int)
    case join(LogicalPlan, LogicalPlan, kind: JoinKind, leftKeys: [BoundExpr], rightKeys: [BoundExpr],
              rightColumns: [Int], schema: Schema)
    /// Add missing buckets of a time key (with zeros in count columns).
    case fill(LogicalPlan, key: Int, step: FillStep, schema: Schema)

    public var schema: Schema {
        switch self {
        case .scan(_, let s): return s
        case .values(let t, _): return Schema(t)
        case .filter(let p, _): return p.schema
        case .project(_, _, let s): return s
        case .aggregate(_, _, _, let s): return s
        case .sort(let p, _): return p.schema
        case .limit(let p, _, _): return p.schema
        case .join(_, _, _, _, _, _, let s): return s
        case .fill(_, _, _, let s): return s
        }
    }

    /// One line per node, for `explain` and tests.
    public func describe(indent: String = "") -> String {
        switch self {
        case .scan(let t, _): return indent + "scan \(t)"
        case .values(_, let label): return indent + "values \(label)"
        case .filter(let p, let e): return indent + "filter \(e.describe)\n" + p.describe(indent: indent + "  ")
        case .project(let p, let items, _):
            return indent + "project " + items.map { "\($0.name)=\($0.expr.describe)" }.joined(separator: ", ") + "\n" + p.describe(indent: indent + "  ")
        case .aggregate(let p, let keys, let aggs, _):
            return indent + "aggregate " + aggs.map(\.name).joined(separator: ", ") + " by " + keys.map(\.name).joined(separator: ", ")
                + "\n" + p.describe(indent: indent + "  ")
        case .sort(let p, let keys):
            return indent + "sort " + keys.map { $0.expr.describe + ($0.descending ? " desc" : "") }.joined(separator: ", ") + "\n" + p.describe(indent: indent + "  ")
        case .limit(let p, let n, let o): return indent + "limit \(n) offset \(o)\n" + p.describe(indent: indent + "  ")
        case .join(let l, let r, let kind, _, _, _, _):
            return indent + "\(kind.rawValue) join\n" + l.describe(indent: indent + "  ") + "\n" + r.describe(indent: indent + "  ")
        case .fill(let p, let key, _, _): return indent + "fill #\(key)\n" + p.describe(indent: indent + "  ")
        }
    }
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
