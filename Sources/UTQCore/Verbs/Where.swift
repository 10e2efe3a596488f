/// `where CONDITION`: keeps the rows for which the condition holds.
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
        parse: { p, _ in Syntax(condition: try p.parseExpr()) })

    struct Syntax: StageSyntax {
        var condition: Expr

        var syntax: String { condition.syntax }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            let b = try binder.expressions(input).bind(condition)
            guard b.type == .bool || b.type == .null else {
                throw Diagnostic("where needs a condition, but this is \(b.type.displayName)", at: condition.span,
                                 hint: "compare it with something, as in: where legend = \"Bike\"")
            }
            return LogicalPlan(FilterNode(input, predicate: b))
        }
    }
}
