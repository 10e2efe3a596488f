/// `let NAME = EXPR, …`: adds columns (or replaces those of the same name).
enum LetVerb {
    static let spec = VerbSpec(
        name: "let", aliases: ["derive", "extend"], category: .columns,
        usage: "let NAME = EXPR [, NAME = EXPR …] [by KEY, …] · let NAME = SUMMARY(x) over N rows | over SPAN [by KEY, …]",
        summary: "Add a column computed from others (or replace one of the same name); with by, from the rows of each group.",
        details: """
        Expressions use + - * / %, functions such as round(x, 1), lower(legend), len(note),
        hour(time), date(time), if(cond, a, b), coalesce(a, b), and time arithmetic
        (picked_up_at - requested_at is a duration). At the start of a line, let NAME = a
        pipeline keeps that result as a table: let busy = count by hour; a summary written as
        a call (let m = max(x) by legend) is a column, as below.

        Functions that look at other rows: prev(x [, n]) and next(x [, n]) (the value n rows
        before or after), row_number(), rank(x) (1 = largest), running_sum(x); and every
        summary (sum, avg, min, max, count, median, pNN, stddev, circmean, and of two columns
        corr, covar, covar_pop, regr_slope, regr_intercept, regr_r2) over all the rows,
        repeated on each. by KEY, … splits the rows into groups and each row looks only at its
        own group, in the order the rows are in (sort first). Where there is no such row the
        value is null.

        Rolling windows: a summary (count, sum, avg, min, max) followed by over N rows or over
        a span of time looks only at the rows near each one. over 3 rows is the row and the 2
        before it in its group, in the rows' order; the first rows have fewer (a partial
        window, never null for lack of rows). over 7 days (or 2h, 90 minutes) is the rows of
        the group whose time — the table's time column — lies within the span before this
        row's, the row's own time included and the time exactly 7 days before left out: a day
        with no rows is a gap the window still spans, so it may hold fewer than 7 rows. A span
        of whole days (1d, 7 days, 24h) counts days on the calendar of the table's zone, so on
        the day the clocks change a day back is the same clock time the day before. Rows at
        the same time are in each other's windows; a row without a time has none (null).
        """,
        examples: ["let moving = angle is not null | count by moving", "let px = round(x / 100) * 100 | count by px",
                   "count by legend | let share = count / sum(count)", "count by legend, hour | let share = count / sum(count) by hour",
                   "sort time | let gap = time - prev(time) by legend | avg gap by legend",
                   "sort time | let nth = row_number() by legend | where nth <= 2",
                   "count by day | let week = avg(count) over 7 days", "sort time | let recent = count() over 10 rows by legend",
                   "let r = corr(x, y) by legend | distinct legend, r"],
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
            var keys: [GroupKey] = []
            if p.eatKeyword("by") {
                repeat { keys.append(try AggregateVerb.parseKey(&p)) } while p.eatSymbol(.comma)
            }
            return Syntax(assignments: items, keys: keys)
        })

    struct Assignment: Sendable {
        var name: String
        var expr: Expr
    }

    struct Syntax: StageSyntax {
        var assignments: [Assignment]
        /// `by KEY, …`: the groups functions such as prev and sum look in.
        var keys: [GroupKey] = []

        var syntax: String {
            assignments.map { "\($0.name)=\($0.expr.syntax)" }.joined(separator: ", ")
                + (keys.isEmpty ? "" : " by " + keys.map(\.syntax).joined(separator: ", "))
        }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            // Each assignment sees the columns made before it: let a = x * 2, b = a + 1.
            var plan = input
            var looked = false
            for a in assignments {
                let current = plan.schema
                let windows = WindowCollector(base: current.fields.count)
                var exprs = binder.expressions(plan)
                exprs.windows = windows
                let bound = try exprs.bind(a.expr)
                if !windows.calls.isEmpty {
                    looked = true
                    let partition = try keys.map { try AggregateBinder(schema: current).boundKey($0) }
                    let fields = current.fields + windows.calls.map { Field(name: $0.name, type: $0.type, unit: $0.unit) }
                    plan = LogicalPlan(WindowNode(plan, partition: partition, calls: windows.calls,
                                                  schema: Schema(fields: fields, zone: current.zone, timeColumn: current.timeColumn,
                                                                 groupKeys: current.groupKeys, keyOrder: current.keyOrder)))
                }
                var items = current.passThrough()
                let named = NamedExpr(name: a.name, expr: bound)
                if let i = current.index(of: a.name) { items[i] = named } else { items.append(named) }
                plan = try binder.project(plan, items)
            }
            if !keys.isEmpty && !looked {
                throw Diagnostic("let … by needs a function that looks at the group, such as prev(x), row_number() or sum(x)",
                                 at: keys[0].span.union(keys[keys.count - 1].span),
                                 hint: "without one every row is computed alone: leave out by")
            }
            return plan
        }
    }
}
