/// The columns a plan can read from each table it scans, by name: what a table whose columns
/// are read when first needed (a large Parquet file) must read for it. Worked out from the
/// top: the plan's result needs all its columns, and each step says which columns of its
/// inputs the ones needed of it come from, plus those it reads itself (a condition, keys,
/// a summary's arguments). A column keeps its name through the steps that pass it on
/// unchanged (where, sort, limit, fill, a window's input columns, a join's left side), so a
/// name needed above is needed below. A step whose reads are not modelled here, and describe,
/// union and a join tested pair by pair, need every column of their inputs. Names are
/// compared without regard to case, as binding finds them, which may only read more.
struct ColumnReads {
    /// Per table, the lowercased names its scans need; nil: every column.
    private(set) var tables: [String: Set<String>?] = [:]

    init(_ plan: LogicalPlan) {
        visit(plan, needing: nil)
    }

    /// The names a table's scan is to read (nil: all).
    func names(of table: String) -> Set<String>? {
        tables[table] ?? nil
    }

    /// Names of a step's input that an expression over it reads.
    private static func reads(_ e: BoundExpr?, over input: Schema, into names: inout Set<String>) {
        guard let e else { return }
        switch e {
        case .column(let i, let f):
            names.insert(f.name.lowercased())
            if input.fields.indices.contains(i) { names.insert(input.fields[i].name.lowercased()) }
        case .literal: break
        case .unary(_, let a, _), .bucket(_, let a, _), .inList(let a, _, _), .isNull(let a, _), .cast(let a, _):
            reads(a, over: input, into: &names)
        case .binary(_, let a, let b, _):
            reads(a, over: input, into: &names)
            reads(b, over: input, into: &names)
        case .call(_, let args, _):
            for a in args { reads(a, over: input, into: &names) }
        }
    }

    /// The names at positions of an input; nil (every column) when a position is not one.
    private static func names(at positions: [Int], of input: Schema) -> Set<String>? {
        var out = Set<String>()
        for i in positions {
            guard input.fields.indices.contains(i) else { return nil }
            out.insert(input.fields[i].name.lowercased())
        }
        return out
    }

    /// `needed` and more, nil (every column) staying nil.
    private static func adding(_ needed: Set<String>?, _ more: Set<String>?) -> Set<String>? {
        guard let needed, let more else { return nil }
        return needed.union(more)
    }

    /// What a step that passes its input's columns on under their names needs of that input:
    /// the names needed of it, unless its first columns are not its input's (then all).
    private static func passed(_ needed: Set<String>?, from input: Schema, to output: Schema) -> Set<String>? {
        guard input.fields.count <= output.fields.count,
              zip(input.fields, output.fields).allSatisfy({ $0.name.lowercased() == $1.name.lowercased() }) else { return nil }
        return needed
    }

    private mutating func visit(_ plan: LogicalPlan, needing wanted: Set<String>?) {
        if let n = plan.node as? ScanNode {
            if case .table(let name) = n.relation {
                let needed = Self.needs(of: plan, needing: wanted).first ?? wanted
                // Scanned twice (a union of a table with itself): what either needs.
                let both = tables[name].map { Self.adding($0, needed) } ?? needed
                tables.updateValue(both, forKey: name)
            }
            return
        }
        for (input, needed) in zip(plan.inputs, Self.needs(of: plan, needing: wanted)) { visit(input, needing: needed) }
    }

    /// What a step needs of each of its inputs, by name, when `wanted` is needed of it (nil:
    /// every column); for a scan, what it needs of its table.
    static func needs(of plan: LogicalPlan, needing wanted: Set<String>?) -> [Set<String>?] {
        let inputs = plan.inputs
        let input = inputs.first?.schema
        // For the steps that pass their (first) input's columns on.
        let needed = input.map { Self.passed(wanted, from: $0, to: plan.schema) } ?? wanted
        func reading(_ exprs: [BoundExpr?], over schema: Schema? = input) -> Set<String> {
            var names = Set<String>()
            if let schema { for e in exprs { Self.reads(e, over: schema, into: &names) } }
            return names
        }
        switch plan.node {
        case is ScanNode:
            return [needed]
        case is TablesNode:
            return []
        case is LimitNode:
            return [needed]
        case let n as FilterNode:
            return [Self.adding(needed, reading([n.predicate]))]
        case let n as SortNode:
            return [Self.adding(needed, reading(n.keys.map(\.expr)))]
        case let n as ProjectNode:
            // Only the items needed above read their columns.
            let fields = n.schema.fields
            let used = n.items.enumerated().filter { k, item in
                guard let wanted, fields.count == n.items.count else { return true }
                return wanted.contains(item.name.lowercased()) || wanted.contains(fields[k].name.lowercased())
            }
            return [reading(used.map(\.element.expr))]
        case let n as AggregateNode:
            // Both columns of a two-column summary (covar, regr_…).
            return [reading(n.keys.map(\.expr) + n.aggregates.flatMap { [$0.argument, $0.second] })]
        case let n as WindowNode:
            // A rolling window over a time reads that time as well as its arguments.
            let times = n.calls.compactMap { call -> Int? in
                if case .rolling(_, .time(_, let column)) = call.kind { return column }
                return nil
            }
            let read = Self.adding(reading(n.partition.map(\.expr) + n.calls.flatMap { [$0.argument, $0.second] }),
                                   Self.names(at: times, of: n.input.schema))
            return [Self.adding(needed, read)]
        case let n as FillNode:
            return [Self.adding(needed, Self.names(at: [n.spec.key] + n.spec.otherKeys + Array(n.spec.zeroColumns), of: n.input.schema))]
        case let n as PivotNode:
            return [Self.names(at: [n.spec.key, n.spec.value] + n.spec.rowKeys, of: n.input.schema)]
        case let n as UnpivotNode:
            return [Self.names(at: n.columns + n.kept, of: n.input.schema)]
        case let n as JoinNode:
            // The left side's columns come through under their names; the right side's that
            // are added may be renamed, so each is read.
            let left = reading(n.leftKeys + n.ranges.map(\.left), over: n.left.schema)
            let right = reading(n.rightKeys + n.ranges.map(\.right), over: n.right.schema)
            // Of the right side's columns the join adds, those needed above under their names here.
            let added = n.rightColumns.enumerated().filter { k, _ in
                let at = n.schema.fields.count - n.rightColumns.count + k
                guard let wanted, n.schema.fields.indices.contains(at) else { return true }
                return wanted.contains(n.schema.fields[at].name.lowercased())
            }.map(\.element)
            return [Self.adding(needed, left), Self.adding(right, Self.names(at: added, of: n.right.schema))]
        default:
            return inputs.map { _ in nil }
        }
    }
}
