/// `rename OLD as NEW, …`: gives columns new names.
enum RenameVerb {
    static let spec = VerbSpec(
        name: "rename", category: .columns,
        usage: "rename OLD as NEW [, …]",
        summary: "Give columns new names.",
        examples: ["rename legend as behaviour | count by behaviour"],
        keywords: ["as"],
        parse: { p, _ in
            var pairs: [Pair] = []
            repeat {
                let (from, span) = try p.name("a column to rename")
                guard p.eatKeyword("as") || p.eatKeyword("to") else {
                    throw Diagnostic("expected as after the column name, as in: rename legend as behaviour", at: p.current.span)
                }
                let (to, _) = try p.name("the new name")
                pairs.append(Pair(from: from, to: to, span: span))
            } while p.eatSymbol(.comma)
            return Syntax(pairs: pairs)
        })

    struct Pair: Sendable {
        var from: String
        var to: String
        var span: SourceSpan
    }

    struct Syntax: StageSyntax {
        var pairs: [Pair]

        var syntax: String { pairs.map { "\($0.from) as \($0.to)" }.joined(separator: ", ") }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            let schema = input.schema
            var items = schema.passThrough()
            for pair in pairs {
                guard let i = schema.index(of: pair.from) else { throw binder.expressions(input).unknownColumn(pair.from, pair.span) }
                items[i].name = pair.to
            }
            // A name means one column: renaming onto one that stays is refused.
            for pair in pairs {
                let clashes = items.filter { $0.name.lowercased() == pair.to.lowercased() }
                if clashes.count > 1 {
                    throw Diagnostic("there would be two columns called \(pair.to)", at: pair.span,
                                     hint: "rename the other first, or drop it: select -\(pair.to)")
                }
            }
            var plan = try binder.project(input, items)
            if let t = schema.timeColumn, let renamed = pairs.first(where: { $0.from.lowercased() == t.lowercased() }) {
                plan = plan.withTimeColumn(renamed.to)
            }
            return plan
        }
    }
}
