/// `sort KEY [asc|desc], …`: orders the rows.
enum SortVerb {
    static let spec = VerbSpec(
        name: "sort", aliases: ["order"], category: .rows,
        usage: "sort KEY [asc|desc] [, KEY [asc|desc] …]",
        summary: "Order the rows; text sorts naturally (Line 2 before Line 10), nulls last.",
        examples: ["count by legend | sort count desc", "sort legend, time desc | limit 5"],
        keywords: ["asc", "desc", "by"],
        parse: { p, _ in
            _ = p.eatKeyword("by")
            return Syntax(keys: try parseKeys(&p))
        })

    struct Syntax: StageSyntax {
        var keys: [SortKey]

        var syntax: String { keys.map(\.syntax).joined(separator: ", ") }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            LogicalPlan(SortNode(input, keys: try binder.sortKeys(keys, input)))
        }
    }

    static func parseKeys(_ p: inout Parser, defaultDescending: Bool = false) throws -> [SortKey] {
        var keys: [SortKey] = []
        repeat {
            let e = try p.parseExpr()
            var desc = defaultDescending
            var span = e.span
            if p.current.isKeyword("desc") || p.current.isKeyword("descending") { desc = true; span = span.union(p.advance().span) }
            else if p.current.isKeyword("asc") || p.current.isKeyword("ascending") { desc = false; span = span.union(p.advance().span) }
            keys.append(SortKey(expr: e, descending: desc, span: span))
        } while p.eatSymbol(.comma)
        return keys
    }
}
