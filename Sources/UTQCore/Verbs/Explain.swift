/// `explain PIPELINE`: shows the plan a pipeline runs as, without running it.
enum ExplainVerb {
    static let spec = VerbSpec(
        name: "explain", category: .session, role: .statement,
        usage: "explain PIPELINE",
        summary: "Show the plan a pipeline runs as, step by step, without running it.",
        details: """
        The plan is read from the bottom up: the rows come from the scan, and each step above
        takes the rows of the step below it. Each step names the columns it gives. On a
        database, each step says where it runs (in the database, or in memory and why), and
        explain shows the SQL sent. A step whose shape depends on the data (pivot's columns, a
        feed's calendar) asks a probe first; explain lists the probes and runs nothing.
        """,
        examples: ["explain count by legend, hour", "explain where legend = \"Bike\" | count by hour | sort count desc"],
        parse: { p, _ in
            Syntax(pipeline: try p.parsePipeline())
        })

    struct Syntax: StatementSyntax {
        var pipeline: Pipeline

        var syntax: String { SyntaxPrinter.text(pipeline) }

        func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws {
            outcome.outputs.append(.text(try interpreter.explain(pipeline)))
        }
    }
}

extension Interpreter {
    /// What `explain` prints for a pipeline: its plan bound once and placed, the probes it
    /// would ask, and nothing run.
    func explain(_ pipeline: Pipeline) throws -> String {
        let query = try plan(pipeline)
        let probes = try query.probes.map { ($0, try session.place($0.plan)) }
        var unbound: String? = nil
        if let first = query.unbound.first, let last = query.unbound.last {
            unbound = source.slice(first.span.union(last.span))
        }
        return PlanPrinter.text(query, placed: try session.place(query.plan), databases: session.databases, probes: probes, unbound: unbound)
            + fileReads([query.plan] + query.probes.map(\.plan))
    }

    /// For each table scanned whose columns are read when first needed (a large Parquet file,
    /// a script's CSV): the columns this pipeline (its plan and its probes') would read from
    /// its file, and those it has. A table scanned more than once (in the plan and in a probe,
    /// or on both sides of a join) reads what all its scans need, so its line names them all.
    func fileReads(_ plans: [LogicalPlan]) -> String {
        var order: [String] = []
        var wanted: [String: Set<String>] = [:]
        func visit(_ p: LogicalPlan, _ reads: ColumnReads) {
            if let scan = p.node as? ScanNode, case .table(let name) = scan.relation,
               case .deferred(let d)? = workspace.catalog[name] {
                if wanted[name] == nil { order.append(name) }
                let names = d.schema.fields.map { $0.name.lowercased() }
                    .filter { reads.names(of: name)?.contains($0) ?? true }
                wanted[name, default: []].formUnion(names)
            }
            for input in p.inputs { visit(input, reads) }
        }
        for plan in plans { visit(plan, ColumnReads(plan)) }
        let lines = order.compactMap { name -> String? in
            guard case .deferred(let d)? = workspace.catalog[name] else { return nil }
            let read = Set(d.columnsRead.map { $0.lowercased() })
            let missing = d.schema.fields.map(\.name).filter {
                wanted[name, default: []].contains($0.lowercased()) && !read.contains($0.lowercased())
            }
            var line = "\(name): " + (missing.isEmpty ? "reads nothing from \(d.path)" : "reads \(PlanPrinter.list(missing)) from \(d.path)")
            if !d.columnsRead.isEmpty { line += " (read already: \(PlanPrinter.list(d.columnsRead)))" }
            return line
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }
}

extension Session {
    /// What `explain` would print for a pipeline of a command, running nothing.
    public func explain(_ pipeline: Pipeline, in source: SourceText) throws -> String {
        try Interpreter(session: self, source: source).explain(pipeline)
    }
}
