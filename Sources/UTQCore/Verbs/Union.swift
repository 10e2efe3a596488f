/// `union TABLE, …`: the rows of other tables after these, columns matched by name.
enum UnionVerb {
    static let spec = VerbSpec(
        name: "union", aliases: ["append"], category: .rows,
        usage: "union TABLE [, TABLE …] | union (PIPELINE)",
        summary: "Add the rows of other tables after these, matching columns by name (a column one lacks is null there).",
        details: """
        A pipeline in parentheses stands for a table: where legend = "Bike" | union (market |
        where legend = "Jogging"). Columns keep the order of the first table, then come those only the others have. A
        column of whole numbers in one table and numbers in another gives numbers; columns of
        the same name and different kinds are an error that names both.
        """,
        examples: ["where legend = \"Bike\" | union market.legends | count", "count by legend; where legend = \"Bike\" | count by legend | union $1"],
        completes: .table,
        parse: { p, _ in
            var sources: [PipelineSource] = []
            repeat { sources.append(try p.parseTableSource("a table to add")) } while p.eatSymbol(.comma)
            return Syntax(tables: sources)
        })

    struct Syntax: StageSyntax {
        var tables: [PipelineSource]

        var syntax: String { tables.map(\.syntax).joined(separator: ", ") }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            var plans = [input]
            for t in tables {
                let plan = try binder.source(t)
                // A pipeline in parentheses that waits for a probe makes the union wait too.
                if plan.is(PendingNode.self) { return plan }
                plans.append(plan)
            }
            return try UnionVerb.union(plans) { k in k == 0 ? "the rows before union" : tables[k - 1].syntax.replacingOccurrences(of: "table ", with: "") }
        }
    }

    /// Rows of plans one after another, columns matched by name; `label` names plan k in a message.
    static func union(_ plans: [LogicalPlan], label: (Int) -> String) throws -> LogicalPlan {
        let input = plans[0]
        var fields = input.schema.fields
        var from = fields.map { _ in 0 }
        for (k, plan) in plans.enumerated().dropFirst() {
            for f in plan.schema.fields {
                guard let i = fields.firstIndex(where: { $0.name.lowercased() == f.name.lowercased() }) else {
                    fields.append(f); from.append(k); continue
                }
                let g = fields[i]
                if g.type == f.type || f.type == .null { continue }
                if g.type == .null { fields[i].type = f.type; fields[i].unit = f.unit; continue }
                if g.type.isNumeric && f.type.isNumeric { fields[i].type = .double; continue }
                throw Diagnostic("union cannot put \(f.name) together: it is \(g.type.displayName) in \(label(from[i])) and \(f.type.displayName) in \(label(k))",
                                 hint: "make them one kind first, as in: let \(f.name) = text(\(f.name))")
            }
        }
        let first = input.schema
        return LogicalPlan(UnionNode(plans, schema: Schema(fields: fields, zone: first.zone, timeColumn: first.timeColumn)))
    }
}
