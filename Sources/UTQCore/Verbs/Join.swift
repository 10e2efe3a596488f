/// `[left] join TABLE on KEY, …`: adds another table's columns where keys match.
enum JoinVerb {
    static let spec = VerbSpec(
        name: "join", aliases: ["left", "cross"], category: .columns,
        usage: "[left] join TABLE on KEY [, KEY …] | on A = B | on X between LOW and HIGH | on A < B [and …] · cross join TABLE · join TABLE on within | within 400 m | nearest [K]",
        summary: "Add the columns of another table where the keys match or a value falls in a range (left join keeps unmatched rows).",
        details: """
        The rows of the pipeline are matched to the rows of TABLE by equal keys: on stop_id when
        both tables call it so, on driver = username when they do not. Ranges match too: on time
        between start and end gives each entry the session whose window holds its time, and
        conditions with <, <=, >, >= join with and (on road = road and km >= from and km < to).
        Any other condition is tested on each pair of rows (on distance(lat, lng, stop_lat,
        stop_lon) < 400: the stops within 400 m), up to 50 million pairs. A join keeps only rows
        with a match; left join keeps every row and fills the other table's columns with null.
        cross join TABLE pairs every row with every row of TABLE (up to 50 million pairs). TABLE
        may be a pipeline in parentheses: join (stops | where zone = "A") on stop_id. Columns
        whose names clash get the other table's name as a prefix.

        Rows join by where they are too: join zones on within gives each row the zone its
        position lies in (on contains, on intersects likewise); join stops within 400 m gives
        each row every stop within 400 metres, with their distance; join stops nearest 3 the
        three nearest (nearest alone: the one). A position is the table's geometry column, else
        its x and y (a plan), else its latitude and longitude columns (stop_lat, stop_lon);
        lng/lat distances are geodesic metres (write m or km), a plan's are in its own units.
        The right side's boxes go into an R-tree, so a million rows join in seconds.
        """,
        examples: ["join market.legends on legend | select time, legend, icon, entries | limit 3",
                   "load datasets/market-weather.csv as weather; market | join weather on time between start and end | count by session, sky"],
        completes: .table, keywords: ["on", "within", "contains", "intersects", "nearest"],
        parse: { p, verb in
            var kind = JoinKind.inner
            if verb.isKeyword("left") {
                kind = .left
                _ = p.eatKeyword("outer")
                guard p.eatKeyword("join") else { throw Diagnostic("expected join after left", at: p.current.span) }
            } else if verb.isKeyword("cross") {
                guard p.eatKeyword("join") else { throw Diagnostic("expected join after cross, as in: cross join weather", at: p.current.span) }
                let source = try p.parseTableSource("the table to join")
                if p.current.isKeyword("on") {
                    throw Diagnostic("a cross join pairs every row with every row, so it takes no on", at: p.current.span,
                                     hint: "to join where keys match, write: join TABLE on KEY")
                }
                return Syntax(table: source, kind: .cross, conditions: [])
            } else if p.eatKeyword("inner") {
                kind = .inner
            }
            let source = try p.parseTableSource("the table to join")
            if let spatial = try SpatialJoinSyntax.parse(&p) {
                return Syntax(table: source, kind: kind, conditions: [], spatial: spatial)
            }
            guard p.eatKeyword("on") else {
                if p.atEnd {
                    throw Diagnostic("expected on and the key, as in: join users on username", at: p.current.span,
                                     hint: "to pair every row with every row of \(source.syntax.replacingOccurrences(of: "table ", with: "")), write: cross join \(source.syntax.replacingOccurrences(of: "table ", with: ""))")
                }
                throw Diagnostic("expected on and the key, as in: join users on username", at: p.current.span)
            }
            var conditions: [Expr] = []
            repeat { conditions.append(try p.parseExpr()) } while p.eatSymbol(.comma)
            return Syntax(table: source, kind: kind, conditions: conditions)
        })

    struct Syntax: StageSyntax {
        var table: PipelineSource
        var kind: JoinKind
        /// Keys (`stop_id`), equalities (`driver = username`) and ranges (`time between start
        /// and end`, `km < to`), joined by commas or and.
        var conditions: [Expr]
        /// `on within`, `within 400 m`, `nearest 3`: rows matched by where they are.
        var spatial: SpatialJoinSyntax? = nil

        var syntax: String {
            if kind == .cross { return "cross \(table.syntax)" }
            if let spatial { return "\(kind.rawValue) \(table.syntax) \(spatial.syntax)" }
            return "\(kind.rawValue) \(table.syntax) on " + conditions.map(\.syntax).joined(separator: ", ")
        }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            if let spatial { return try JoinBinder(binder: binder).bind(input, table, kind, spatial) }
            return try JoinBinder(binder: binder).bind(input, table, kind, conditions)
        }
    }
}
