/// Verbs that choose and order rows.

enum WhereVerb {
    static let spec = VerbSpec(
        name: "where", aliases: ["filter"], category: .rows,
        usage: "where CONDITION",
        summary: "Keep the rows for which the condition holds.",
        details: """
        Conditions compare columns and values: = != < <= > >=, and/or/not, in (…), contains,
        starts with, between … and …, is null. Text compares without regard to case with
        contains; times compare with text such as "2017-03-23 12:00" in the table's time zone.
        Time buckets can be used directly: where hour >= 12, where weekday in ("Sat", "Sun").
        """,
        examples: ["where legend = \"Bike\"", "where legend in (\"Bike\", \"Jogging\") and angle is not null",
                   "where hour between 12 and 16 | count by legend", "where note contains \"phone\""],
        keywords: ["and", "or", "not", "in", "contains", "between", "is", "null"],
        parse: { p, _ in .filter(try p.parseExpr()) })
}

enum SortVerb {
    static let spec = VerbSpec(
        name: "sort", aliases: ["order"], category: .rows,
        usage: "sort KEY [asc|desc] [, KEY [asc|desc] …]",
        summary: "Order the rows; text sorts naturally (Line 2 before Line 10), nulls last.",
        examples: ["count by legend | sort count desc", "sort legend, time desc | limit 5"],
        keywords: ["asc", "desc", "by"],
        parse: { p, _ in
            _ = p.eatKeyword("by")
            return .sort(try parseSortKeys(&p))
        })

    static func parseSortKeys(_ p: inout Parser, defaultDescending: Bool = false) throws -> [SortKey] {
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
                keys = try SortVerb.parseSortKeys(&p, defaultDescending: true)
            }
            return .top(n, by: keys)
        })
}

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
            return .limit(n, offset: offset)
        })
}

enum DistinctVerb {
    static let spec = VerbSpec(
        name: "distinct", aliases: ["unique", "uniq"], category: .rows,
        usage: "distinct COL [, COL …]",
        summary: "One row per different combination of the columns, in sorted order.",
        examples: ["distinct legend", "distinct legend, hour"],
        parse: { p, _ in
            var items: [Expr] = []
            repeat { items.append(try p.parseExpr()) } while p.eatSymbol(.comma)
            return .distinct(items)
        })
}
