/// `[left] join TABLE on KEY, …`: adds another table's columns where keys match.
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
            var keys: [KeyPair] = []
            repeat {
                let left = try p.parseAdditive()
                if p.eatSymbol(.equal) || p.eatSymbol(.doubleEqual) {
                    keys.append(KeyPair(left: left, right: try p.parseAdditive()))
                } else {
                    keys.append(KeyPair(left: left, right: left))
                }
            } while p.eatSymbol(.comma)
            return Syntax(table: source, kind: kind, keys: keys)
        })

    struct KeyPair: Sendable {
        var left: Expr
        var right: Expr
    }

    struct Syntax: StageSyntax {
        var table: PipelineSource
        var kind: JoinKind
        var keys: [KeyPair]

        var syntax: String {
            "\(kind.rawValue) \(table.syntax) on " + keys.map { "\($0.left.syntax) = \($0.right.syntax)" }.joined(separator: ", ")
        }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            try JoinBinder(binder: binder).bind(input, table, kind, keys.map { ($0.left, $0.right) })
        }
    }
}
