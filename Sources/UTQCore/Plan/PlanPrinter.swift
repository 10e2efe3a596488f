/// A query as `explain` shows it: one line per step of the plan, the step that gives the
/// result at the top and the scan it starts from at the bottom, then the columns it gives,
/// where they go, and where it runs.
public enum PlanPrinter {
    /// The query placed: its steps, where each runs (when a database takes part: in it, or in
    /// memory and why not there), what it gives and where that goes, then what is sent to the
    /// database, and the probes the plan waits for. This is the plan `run` executes, step for
    /// step. `probes` are the query's probes, placed; `unbound` the text of the stages that
    /// wait for them.
    public static func text(_ query: Query, placed: PlacedPlan, databases: [String: any AttachedDatabase],
                            probes: [(Probe, PlacedPlan)] = [], unbound: String? = nil, ascii: Bool = false) -> String {
        var (lines, fragments) = tree(placed, ascii: ascii)
        if let unbound { lines.append("then, once the probes have answered: \(unbound)") }
        lines.append("")
        if query.plan.containsPending {
            lines.append("gives the columns the probes decide")
        } else {
            let schema = query.plan.schema
            lines.append("gives " + schema.fields.map { "\($0.name) (\($0.type.displayName))" }.joined(separator: ", "))
        }
        switch query.sink {
        case .show: break
        case .save(let r): lines.append("then save to \(r.path) as \(r.format.rawValue)")
        case .chart(let r): lines.append("then chart \(r.kind.rawValue)" + (r.file.map { " to \($0)" } ?? ""))
        }
        let database = fragments.first.flatMap { databases[$0.database] }
        if let database {
            let whole = "\(database.kind) (\(database.name): \(database.location))"
            lines.append(placed.site.isMemory ? "runs in \(whole), then in memory" : "runs in \(whole)")
        } else {
            lines.append("runs in memory")
        }
        lines += sent(fragments)
        if !probes.isEmpty {
            lines.append("")
            lines.append(probes.count == 1 ? "a probe runs first (explain runs none):" : "probes run first (explain runs none):")
            for (k, (probe, placed)) in probes.enumerated() {
                let (steps, fragments) = tree(placed, ascii: ascii)
                lines.append("  \(k + 1). \(probe.purpose):")
                lines += (steps + sent(fragments)).map { $0.isEmpty ? "" : "     " + $0 }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A placed plan's steps, one a line, with where each runs when a database takes part; and
    /// the parts sent to databases, numbered from the top of the tree down.
    static func tree(_ placed: PlacedPlan, ascii: Bool) -> (lines: [String], fragments: [any RemoteFragment]) {
        let numbered = placed.fragments.count > 1
        var fragments: [any RemoteFragment] = []
        var rows: [(line: String, site: Site, fragment: Int?)] = []
        func walk(_ p: PlacedPlan, _ prefix: String, _ childPrefix: String) {
            var number: Int? = nil
            if case .database(_, let f?) = p.site {
                fragments.append(f)
                if numbered { number = fragments.count }
            }
            rows.append((prefix + p.plan.explainLine, p.site, number))
            for (i, input) in p.inputs.enumerated() {
                let last = i == p.inputs.count - 1
                let branch = ascii ? (last ? "`- " : "|- ") : (last ? "└─ " : "├─ ")
                let carry = ascii ? (last ? "   " : "|  ") : (last ? "   " : "│  ")
                walk(input, childPrefix + branch, childPrefix + carry)
            }
        }
        walk(placed, "", "")
        guard placed.steps.contains(where: { !$0.site.isMemory }) else { return (rows.map(\.line), fragments) }
        let width = rows.map { TextWidth.of($0.line) }.max() ?? 0
        let lines = rows.map { step -> String in
            let pad = String(repeating: " ", count: width - TextWidth.of(step.line))
            switch step.site {
            case .memory(let reason): return step.line + pad + "  in memory" + (reason.map { ": " + $0 } ?? "")
            case .database(let name, _): return step.line + pad + "  in \(name)" + (step.fragment.map { " [\($0)]" } ?? "")
            case .undecided: return step.line + pad + "  decided once the probes have answered"
            }
        }
        return (lines, fragments)
    }

    /// What is sent to databases, a block a part.
    static func sent(_ fragments: [any RemoteFragment]) -> [String] {
        fragments.enumerated().flatMap { k, f in
            [""] + ((fragments.count > 1 ? "[\(k + 1)] " : "") + f.explainText).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The plan alone, one step a line, for snapshots.
    public static func text(_ plan: LogicalPlan) -> String {
        var lines: [String] = []
        node(plan, prefix: "", childPrefix: "", ascii: false, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    static func node(_ plan: LogicalPlan, prefix: String, childPrefix: String, ascii: Bool, into lines: inout [String]) {
        lines.append(prefix + plan.explainLine)
        let inputs = plan.inputs
        for (i, input) in inputs.enumerated() {
            let last = i == inputs.count - 1
            let branch = ascii ? (last ? "`- " : "|- ") : (last ? "└─ " : "├─ ")
            let carry = ascii ? (last ? "   " : "|  ") : (last ? "   " : "│  ")
            node(input, prefix: childPrefix + branch, childPrefix: childPrefix + carry, ascii: ascii, into: &lines)
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
        let arguments = a.arguments.map(\.describe).joined(separator: ", ")
        let call = a.function.name + (arguments.isEmpty ? "" : "(" + (a.distinct ? "distinct " : "") + arguments + ")")
        return call == a.name ? call : "\(a.name) = \(call)"
    }

    /// A key of a summary or a window's group: its name, and what it is when that is not a
    /// column of the same name.
    static func describe(_ k: NamedExpr) -> String {
        if case .column(_, let f) = k.expr, f.name == k.name { return k.name }
        return "\(k.name) = \(k.expr.describeBare)"
    }

    /// A list cut after twelve items.
    static func list(_ items: [String]) -> String {
        items.count <= 12 ? items.joined(separator: ", ") : items.prefix(12).joined(separator: ", ") + ", … (\(items.count) in all)"
    }
}
