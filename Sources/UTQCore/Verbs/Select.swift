/// `select …`: keeps, computes, renames or drops columns.
enum SelectVerb {
    static let spec = VerbSpec(
        name: "select", category: .columns,
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
            return Syntax(items: items)
        })

    struct Syntax: StageSyntax {
        var items: [SelectItem]

        var syntax: String {
            items.map { item in
                switch item.kind {
                case .all: return "*"
                case .exclude(let n): return "-" + n
                case .expr(let e, let alias): return (alias.map { "\($0)=" } ?? "") + e.syntax
                }
            }.joined(separator: ", ")
        }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            let schema = input.schema
            let exprs = binder.expressions(input)
            var out: [NamedExpr] = []
            // Where each output column came from: a `*` (which a later item may replace) or an
            // item of its own (which no other may take the name of).
            var named: Set<String> = []
            let all = schema.passThrough()
            func twice(_ name: String, _ span: SourceSpan) -> Diagnostic {
                Diagnostic("there would be two columns called \(name)", at: span,
                           hint: "give one another name: select …, \(name)_2 = …")
            }
            for (k, item) in items.enumerated() {
                switch item.kind {
                case .all:
                    // The columns not named yet: `select legend, *` puts legend first. A name
                    // taken by another column (`select legend as y, *` over a table with y)
                    // would lose this one.
                    for c in all {
                        let key = c.name.lowercased()
                        guard let j = out.firstIndex(where: { $0.name.lowercased() == key }) else { out.append(c); continue }
                        if case .column(let i, _) = out[j].expr, i == schema.index(of: c.name) { continue }
                        throw twice(c.name, item.span)
                    }
                case .exclude(let name):
                    if k == 0 || out.isEmpty { out = all }
                    guard schema.index(of: name) != nil else { throw exprs.unknownColumn(name, item.span) }
                    out.removeAll { $0.name.lowercased() == name.lowercased() }
                case .expr(let e, let alias):
                    let b = try exprs.bind(e)
                    let name = alias ?? ExprNaming.name(e)
                    let key = name.lowercased()
                    if named.contains(key) {
                        // The same column named twice is once; two values under one name are refused.
                        if case .column(let i, _) = b, let j = out.firstIndex(where: { $0.name.lowercased() == key }),
                           case .column(let i2, _) = out[j].expr, i == i2 { continue }
                        throw twice(name, item.span)
                    }
                    // A column from `*` gives way to one named: `select *, price = round(price)`.
                    out.removeAll { $0.name.lowercased() == key }
                    out.append(NamedExpr(name: name, expr: b))
                    named.insert(key)
                }
            }
            return try binder.project(input, out)
        }
    }
}
