/// `fill [SPAN]`: adds the missing time buckets of a summary.
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
            try p.refuseTooLong()
            if case .duration(let d) = p.current.kind { p.advance(); return Syntax(step: d) }
            return Syntax(step: nil)
        })

    struct Syntax: StageSyntax {
        /// The span between buckets, when given (`fill 15m`).
        var step: Int64?

        var syntax: String { step.map { TimeText.duration($0) } ?? "" }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            try FillBinder.bind(input, step: step)
        }
    }
}
