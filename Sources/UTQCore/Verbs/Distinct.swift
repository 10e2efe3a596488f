/// `distinct COL, …`: one row per different combination.
enum DistinctVerb {
    static let spec = VerbSpec(
        name: "distinct", aliases: ["unique", "uniq"], category: .rows,
        usage: "distinct COL [, COL …]",
        summary: "One row per different combination of the columns, in sorted order.",
        examples: ["distinct legend", "distinct legend, hour"],
        parse: { p, _ in
            var items: [Expr] = []
            repeat { items.append(try p.parseExpr()) } while p.eatSymbol(.comma)
            return Syntax(columns: items)
        })

    struct Syntax: StageSyntax {
        var columns: [Expr]

        var syntax: String { columns.map(\.syntax).joined(separator: ", ") }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            let keys = columns.map { GroupKey(kind: .expr($0), alias: nil, span: $0.span) }
            return try AggregateBinder(schema: input.schema).bind([], keys, input: input)
        }
    }
}
