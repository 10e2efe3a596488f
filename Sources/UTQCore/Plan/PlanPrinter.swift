/// A query as `explain` shows it: one line per step of the plan, the step that gives the
/// result at the top and the scan it starts from at the bottom, then the columns it gives,
/// where they go, and where it runs.
public enum PlanPrinter {
    public static func text(_ query: Query, backend: any Backend, ascii: Bool = false) -> String {
        var lines: [String] = []
        node(query.plan, prefix: "", childPrefix: "", ascii: ascii, into: &lines)
        let schema = query.plan.schema
        lines.append("")
        lines.append("gives " + schema.fields.map { "\($0.name) (\($0.type.displayName))" }.joined(separator: ", "))
        switch query.sink {
        case .show: break
        case .save(let r): lines.append("then save to \(r.path) as \(r.format.rawValue)")
        case .chart(let r): lines.append("then chart \(r.kind.rawValue)" + (r.file.map { " to \($0)" } ?? ""))
        }
        lines.append("runs " + backend.name)
        if let extra = backend.explain(query.plan) { lines.append(""); lines.append(extra) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The plan alone, one step a line, for snapshots.
    public static func text(_ plan: LogicalPlan) -> String {
        var lines: [String] = []
        node(plan, prefix: "", childPrefix: "", ascii: false, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    static func node(_ plan: LogicalPlan, prefix: String, childPrefix: String, ascii: Bool, into lines: inout [String]) {
        lines.append(prefix + step(plan))
        let inputs = plan.inputs
        for (i, input) in inputs.enumerated() {
            let last = i == inputs.count - 1
            let branch = ascii ? (last ? "`- " : "|- ") : (last ? "└─ " : "├─ ")
            let carry = ascii ? (last ? "   " : "|  ") : (last ? "   " : "│  ")
            node(input, prefix: childPrefix + branch, childPrefix: childPrefix + carry, ascii: ascii, into: &lines)
        }
    }

    /// One step: what it does, in the language's own words where it can.
    static func step(_ plan: LogicalPlan) -> String {
        switch plan {
        case .scan(let relation, let schema):
            return "scan \(relation.label) (\(schema.fields.count) column\(schema.fields.count == 1 ? "" : "s"))"
        case .tables:
            return "tables"
        case .filter(_, let predicate):
            return "where " + predicate.describeBare
        case .project(let input, let items, _):
            // After a window, the columns it added are the let's workings, not columns kept.
            if case .window(let inner, _, _, _) = input { return projection(items, input: inner.schema) }
            return projection(items, input: input.schema)
        case .aggregate(_, let keys, let aggregates, _):
            let aggs = aggregates.map(describe)
            let by = keys.map { k -> String in
                if case .column(_, let f) = k.expr, f.name == k.name { return k.name }
                return "\(k.name) = \(k.expr.describeBare)"
            }
            if aggs.isEmpty { return "distinct " + list(by) }
            return "aggregate " + list(aggs) + (by.isEmpty ? "" : " by " + list(by))
        case .sort(_, let keys):
            return "sort " + keys.map { $0.expr.describe + ($0.descending ? " desc" : "") }.joined(separator: ", ")
        case .limit(_, let count, let offset):
            return "limit \(count)" + (offset > 0 ? " offset \(offset)" : "")
        case .join(_, _, let kind, let lk, let rk, let ranges, _, _):
            let conditions = zip(lk, rk).map { "\($0.describe) = \($1.describe)" } + ranges.map { "\($0.left.describe) \($0.op.rawValue) \($0.right.describe)" }
            return "\(kind.rawValue) join on " + conditions.joined(separator: " and ") + (ranges.isEmpty ? "" : " (a range join)")
        case .fill(let input, let spec):
            let schema = input.schema
            let zeros = spec.zeroColumns.sorted().map { schema.fields[$0].name }
            return "fill \(schema.fields[spec.key].name) every \(step(spec.step))" + (zeros.isEmpty ? "" : ", zero " + zeros.joined(separator: ", "))
        case .describe:
            return "describe"
        case .pivot(let input, let spec, _):
            let schema = input.schema
            return "pivot \(schema.fields[spec.key].name) into " + list(spec.names) + ", values \(schema.fields[spec.value].name)"
                + (spec.fill.map { ", missing \($0.plainText)" } ?? "")
        case .unpivot(let input, let columns, _, let schema):
            let n = schema.fields.count
            return "unpivot " + list(columns.map { input.schema.fields[$0].name }) + " as \(schema.fields[n - 2].name), \(schema.fields[n - 1].name)"
        case .union(let plans, _):
            return "union of \(plans.count), columns by name"
        case .window(_, let partition, let calls, _):
            let by = partition.map { k -> String in
                if case .column(_, let f) = k.expr, f.name == k.name { return k.name }
                return "\(k.name) = \(k.expr.describeBare)"
            }
            return "window " + list(calls.map(\.describe)) + (by.isEmpty ? " over all rows" : " by " + list(by))
        }
    }

    /// A projection in the words of the verb it most resembles: let when it keeps every
    /// column and adds or replaces some, rename when it only renames, else select.
    static func projection(_ items: [NamedExpr], input: Schema) -> String {
        func passes(_ item: NamedExpr, _ i: Int) -> Bool {
            if case .column(let k, _) = item.expr { return k == i }
            return false
        }
        let n = input.fields.count
        let keepsAll = items.count >= n && (0..<n).allSatisfy { i in passes(items[i], i) || items[i].name == input.fields[i].name }
        if keepsAll {
            let renamed = (0..<n).filter { passes(items[$0], $0) && items[$0].name != input.fields[$0].name }
            let computed = items.indices.filter { $0 >= n || !passes(items[$0], $0) }
            if computed.isEmpty && !renamed.isEmpty {
                return "rename " + renamed.map { "\(input.fields[$0].name) as \(items[$0].name)" }.joined(separator: ", ")
            }
            if renamed.isEmpty && !computed.isEmpty {
                return "let " + list(computed.map { "\(items[$0].name) = \(items[$0].expr.describeBare)" })
            }
        }
        let shown = items.map { item -> String in
            if case .column(_, let f) = item.expr { return f.name == item.name ? item.name : "\(f.name) as \(item.name)" }
            return "\(item.name) = \(item.expr.describeBare)"
        }
        return "select " + list(shown)
    }

    static func describe(_ a: BoundAggregate) -> String {
        let call = a.function.name + (a.argument.map { "(" + (a.distinct ? "distinct " : "") + $0.describe + ")" } ?? "")
        return call == a.name ? call : "\(a.name) = \(call)"
    }

    static func step(_ s: FillStep) -> String {
        switch s {
        case .integer: return "1"
        case .micros(let m): return TimeText.duration(m)
        case .months(let n): return "\(n) month\(n == 1 ? "" : "s")"
        }
    }

    /// A list cut after twelve items.
    static func list(_ items: [String]) -> String {
        items.count <= 12 ? items.joined(separator: ", ") : items.prefix(12).joined(separator: ", ") + ", … (\(items.count) in all)"
    }
}
