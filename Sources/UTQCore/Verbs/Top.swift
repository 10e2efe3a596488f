/// `top N [by KEY]`: the first N rows by a key, largest first.
enum TopVerb {
    static let spec = VerbSpec(
        name: "top", category: .rows,
        usage: "top N [by KEY [asc|desc], …]",
        summary: "The first N rows by a key (largest first); after a sort, the first N in that order.",
        details: """
        Without by, top keeps the order a sort before it gave, or else takes the largest
        values of the last numeric column (usually the count).
        """,
        examples: ["count by legend | top 3", "avg angle, count by legend | sort count desc | top 3", "top 5 by x desc"],
        keywords: ["by", "asc", "desc"],
        parse: { p, _ in
            let n = try p.integer("how many rows")
            var keys: [SortKey] = []
            if p.eatKeyword("by") {
                // `top 3 by count` means the largest counts unless asc is written.
                keys = try SortVerb.parseKeys(&p, defaultDescending: true)
            } else if case .identifier(let word, _) = p.current.kind, !p.current.isSymbol(.pipe) {
                // `top 5 count`: the key needs its by.
                throw Diagnostic("top takes its key after by", at: p.current.span, hint: "write: top \(n) by \(word)")
            }
            return Syntax(count: n, keys: keys)
        })

    struct Syntax: StageSyntax {
        var count: Int
        var keys: [SortKey]

        var syntax: String { "\(count)" + (keys.isEmpty ? "" : " by " + keys.map(\.syntax).joined(separator: ", ")) }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            if !keys.isEmpty {
                return LimitNode.over(LogicalPlan(SortNode(input, keys: try binder.sortKeys(keys, input))), count: count)
            }
            if input.is(SortNode.self) { return LimitNode.over(input, count: count) }
            let schema = input.schema
            guard let i = schema.fields.lastIndex(where: { $0.type.isNumeric || $0.type == .duration }) else {
                throw Diagnostic("top needs a key when there is no numeric column", hint: "write top \(count) by COLUMN")
            }
            return LimitNode.over(LogicalPlan(SortNode(input, keys: [BoundSortKey(expr: .column(i, schema.fields[i]), descending: true)])), count: count)
        }
    }
}
