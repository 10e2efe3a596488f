/// `let NAME = EXPR, …`: adds columns (or replaces those of the same name).
enum LetVerb {
    static let spec = VerbSpec(
        name: "let", aliases: ["derive", "extend"], category: .columns,
        usage: "let NAME = EXPR [, NAME = EXPR …]",
        summary: "Add a column computed from others (or replace one of the same name).",
        details: """
        Expressions use + - * / %, functions such as round(x, 1), lower(legend), len(note),
        hour(time), date(time), if(cond, a, b), coalesce(a, b), and time arithmetic
        (picked_up_at - requested_at is a duration). At the start of a line, let NAME = a
        pipeline keeps that result as a table: let busy = count by hour.
        """,
        examples: ["let moving = angle is not null | count by moving", "let px = round(x / 100) * 100 | count by px"],
        parse: { p, _ in
            var items: [Assignment] = []
            repeat {
                let (name, _) = try p.name("a name for the new column")
                try p.expectSymbol(.equal, "'=' after the column name, as in: let speed = miles / hours")
                items.append(Assignment(name: name, expr: try p.parseExpr()))
                // Each new column is a step of the plan: as many as a pipeline's stages.
                if items.count > Parser.maxStages {
                    throw Diagnostic("let makes at most \(Parser.maxStages) columns at once", at: p.current.span,
                                     hint: "go on in another let after |")
                }
            } while p.eatSymbol(.comma)
            return Syntax(assignments: items)
        })

    struct Assignment: Sendable {
        var name: String
        var expr: Expr
    }

    struct Syntax: StageSyntax {
        var assignments: [Assignment]

        var syntax: String { assignments.map { "\($0.name)=\($0.expr.syntax)" }.joined(separator: ", ") }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            // Each assignment sees the columns made before it: let a = x * 2, b = a + 1.
            var plan = input
            for a in assignments {
                let current = plan.schema
                var items = current.passThrough()
                let named = NamedExpr(name: a.name, expr: try binder.expressions(plan).bind(a.expr))
                if let i = current.index(of: a.name) { items[i] = named } else { items.append(named) }
                plan = binder.project(plan, items)
            }
            return plan
        }
    }
}
