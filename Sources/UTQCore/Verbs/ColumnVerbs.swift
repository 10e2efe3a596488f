/// Verbs that choose, add and combine columns.

enum SelectVerb {
    static let spec = VerbSpec(
        name: "select", aliases: [], category: .columns,
        usage: "select COL [as NAME] | NAME = EXPR | -COL | * [, …]",
        summary: "Keep some columns (in this order), compute new ones, or drop some with -COL.",
        examples: ["select time, legend, x, y", "select legend, px = round(x), py = round(y)", "select -note | limit 3"],
        keywords: ["as"],
        parse: { p, _ in
            var items: [SelectItem] = []
            repeat {
                let start = p.current.span
                if p.current.isSymbol(.star) {
                    p.advance()
                    items.append(SelectItem(kind: .all, span: start))
                } else if p.current.isSymbol(.minus), case .identifier(let n, _) = p.peek().kind {
                    p.advance()
                    let end = p.advance().span
                    items.append(SelectItem(kind: .exclude(n), span: start.union(end)))
                } else if case .identifier(let n, _) = p.current.kind, p.peek().isSymbol(.equal) {
                    p.advance(); p.advance()
                    let e = try p.parseExpr()
                    items.append(SelectItem(kind: .expr(e, alias: n), span: start.union(e.span)))
                } else {
                    let e = try p.parseExpr()
                    var alias: String? = nil
                    if p.eatKeyword("as") { alias = try p.name("a column name after as").0 }
                    items.append(SelectItem(kind: .expr(e, alias: alias), span: start.union(e.span)))
                }
            } while p.eatSymbol(.comma)
            return .select(items)
        })
}

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
        keywords: [],
        parse: { p, _ in
            var items: [(name: String, expr: Expr)] = []
            repeat {
                let (name, _) = try p.name("a name for the new column")
                try p.expectSymbol(.equal, "'=' after the column name, as in: let speed = miles / hours")
                items.append((name, try p.parseExpr()))
            } while p.eatSymbol(.comma)
            return .derive(items)
        })
}

enum RenameVerb {
    static let spec = VerbSpec(
        name: "rename", category: .columns,
        usage: "rename OLD as NEW [, …]",
        summary: "Give columns new names.",
        examples: ["rename legend as behaviour | count by behaviour"],
        keywords: ["as"],
        parse: { p, _ in
            var pairs: [(from: String, to: String)] = []
            repeat {
                let (from, _) = try p.name("a column to rename")
                guard p.eatKeyword("as") || p.eatKeyword("to") else {
                    throw Diagnostic("expected as after the column name, as in: rename legend as behaviour", at: p.current.span)
                }
                let (to, _) = try p.name("the new name")
                pairs.append((from, to))
            } while p.eatSymbol(.comma)
            return .rename(pairs)
        })
}

enum JoinVerb {
    static let spec = VerbSpec(
        name: "join", aliases: ["left"], category: .columns,
        usage: "[left] join TABLE on KEY [, KEY …] | on A = B",
        summary: "Add the columns of another table where the keys match (left join keeps unmatched rows).",
        details: """
        The rows of the pipeline are matched to the rows of TABLE by equal keys: on stop_id when
        both tables call it so, on driver = username when they do not. A join keeps only rows with
        a match; left join keeps every row and fills the other table's columns with null.
        Columns whose names clash get the other table's name as a prefix.
        """,
        examples: ["join market.legends on legend | select time, legend, icon, entries | limit 3"],
        completes: .table, keywords: ["on"],
        parse: { p, verb in
            var kind = JoinKind.inner
            if verb.isKeyword("left") {
                kind = .left
                _ = p.eatKeyword("outer")
                guard p.eatKeyword("join") else { throw Diagnostic("expected join after left", at: p.current.span) }
            } else if p.eatKeyword("inner") {
                kind = .inner
            }
            let t = p.current
            let source: PipelineSource
            switch t.kind {
            case .resultRef(let n): p.advance(); source = .result(n, t.span)
            case .identifier(let s, _) where s == "_": p.advance(); source = .last(t.span)
            default:
                let (name, span) = try p.name("the table to join")
                source = .table(name, span)
            }
            guard p.eatKeyword("on") else {
                throw Diagnostic("expected on and the key, as in: join users on username", at: p.current.span)
            }
            var keys: [(Expr, Expr)] = []
            repeat {
                let left = try p.parseAdditive()
                if p.eatSymbol(.equal) || p.eatSymbol(.doubleEqual) {
                    keys.append((left, try p.parseAdditive()))
                } else {
                    keys.append((left, left))
                }
            } while p.eatSymbol(.comma)
            return .join(table: source, kind: kind, on: keys)
        })
}

enum FillVerb {
    static let spec = VerbSpec(
        name: "fill", category: .columns,
        usage: "fill [SPAN]",
        summary: "Add the missing time buckets of a summary with zero counts, so charts show the gaps.",
        details: """
        After count by hour, fill adds the hours between the first and last that have no rows;
        after count by every 15m it adds the missing quarter hours (or give the span: fill 15m).
        With a second key, every combination gets its row.
        """,
        examples: ["count by hour | fill", "count by every 30m | fill"],
        completes: .none,
        parse: { p, _ in
            if case .duration(let d) = p.current.kind { p.advance(); return .fill(step: d) }
            return .fill(step: nil)
        })
}
