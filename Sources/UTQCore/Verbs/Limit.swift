/// `limit N [offset M]`: the first N rows.
enum LimitVerb {
    static let spec = VerbSpec(
        name: "limit", aliases: ["head", "take"], category: .rows,
        usage: "limit N [offset M]",
        summary: "Keep the first N rows (after skipping M).",
        examples: ["limit 5", "sort time | limit 3 offset 10"],
        completes: .none, keywords: ["offset"],
        parse: { p, _ in
            let n = try p.integer("how many rows")
            var offset = 0
            if p.eatKeyword("offset") { offset = try p.integer("how many rows to skip") }
            return Syntax(count: n, offset: offset)
        })

    struct Syntax: StageSyntax {
        var count: Int
        var offset: Int

        var syntax: String { "\(count)" + (offset == 0 ? "" : " offset \(offset)") }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            LimitNode.over(input, count: count, offset: offset)
        }
    }
}
