/// The summarising verbs: `count`, `sum`, `avg`, `min`, `max`, `median`, `pNN`, `stddev`,
/// `first`, `last`, `circmean`, and those of two columns (PairedSummaryVerbs.swift). One
/// stage may hold several (`avg angle, count by legend`).
enum AggregateVerb {
    static let keyHelp = """
    by lists the keys: columns, or time buckets of the table's time column — minute, hour
    (hour of day 0–23), weekday (Mon…Sun), day, week (ISO), month, year, every 15m — or of a
    named column: hour(dropped_off_at). There is one row per combination present.
    """

    static func make(_ name: String, usage: String, summary: String, examples: [String]) -> VerbSpec {
        VerbSpec(name: name, aliases: AggregateFunction.aliases(of: name), category: .summary, usage: usage, summary: summary,
                 details: keyHelp, examples: examples, keywords: ["by", "as", "distinct", "every"], parse: parse)
    }

    static let specs: [VerbSpec] = [
        make("count", usage: "count [distinct COL] [, AGG …] [by KEY, …]",
             summary: "Count rows (or different values) per group.",
             examples: ["count", "count by legend", "count by legend, hour", "count distinct legend by hour",
                        "count by every 15m", "count by weekday"]),
        make("sum", usage: "sum COL [as NAME] [, AGG …] [by KEY, …]",
             summary: "Add up a numeric column per group.", examples: ["sum x by legend"]),
        make("avg", usage: "avg COL [as NAME] [, AGG …] [by KEY, …]",
             summary: "The mean of a numeric column per group (nulls are left out).",
             examples: ["avg angle by legend", "avg angle, count by legend"]),
        make("min", usage: "min COL [, AGG …] [by KEY, …]", summary: "The smallest value per group.",
             examples: ["min time, max time by hour"]),
        make("max", usage: "max COL [, AGG …] [by KEY, …]", summary: "The largest value per group.",
             examples: ["max x by legend"]),
        make("median", usage: "median COL [, AGG …] [by KEY, …]", summary: "The middle value per group.",
             examples: ["median y by legend"]),
        make("stddev", usage: "stddev COL [, AGG …] [by KEY, …]",
             summary: "The sample standard deviation per group.", examples: ["stddev angle by legend"]),
        make("first", usage: "first COL [, AGG …] [by KEY, …]", summary: "The first value per group, in row order.",
             examples: ["first time by legend"]),
        make("last", usage: "last COL [, AGG …] [by KEY, …]", summary: "The last value per group, in row order.",
             examples: ["last time by legend"]),
        make("circmean", usage: "circmean ANGLE [, AGG …] [by KEY, …]",
             summary: "The mean direction of angles in degrees (−180 to 180), by the vector mean: the mean of 179 and −179 is 180, not 0.",
             examples: ["where angle is not null | circmean angle by legend", "where angle is not null | circmean angle, count by legend"]),
        make("path", usage: "path POINT [, AGG …] [by KEY, …]",
             summary: "The group's points joined into a line in the rows' order (a shape, a vehicle's track); sort first.",
             examples: ["sort time | path xy(x, y) by legend | let long = length(path)"]),
        make("collect", usage: "collect GEOMETRY [, AGG …] [by KEY, …]",
             summary: "The group's geometries as one (multi-point, multi-line or multi-polygon).",
             examples: ["collect xy(x, y), count by legend"]),
        make("dissolve", usage: "dissolve POLYGON [, AGG …] [by KEY, …]",
             summary: "The group's polygons merged into one, their shared edges gone (a district from its blocks; the area within a walk of several stops).",
             examples: ["dissolve buffer(xy(x, y), 40), count by legend | let size = round(area(dissolve))"]),
    ]

    static let percentileSpec = make("pNN", usage: "pNN COL [, AGG …] [by KEY, …]",
                                     summary: "A percentile per group: p50 is the median, p90 the value 90 % of rows are at or below.",
                                     examples: ["p90 x by legend", "p10 y, p90 y by legend"])

    struct Syntax: StageSyntax {
        var items: [AggregateItem]
        var keys: [GroupKey]

        var syntax: String {
            items.map(\.syntax).joined(separator: ", ") + (keys.isEmpty ? "" : " by " + keys.map(\.syntax).joined(separator: ", "))
        }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            try AggregateBinder(schema: input.schema).bind(items, keys, input: input)
        }
    }

    static let parse: @Sendable (inout Parser, Token) throws -> any VerbSyntax = { p, verb in
        var items: [AggregateItem] = []
        var first: Token? = verb
        while true {
            let t: Token
            if let f = first { t = f; first = nil } else { t = p.advance() }
            guard let word = t.identifier, let function = AggregateFunction.named(word) else {
                throw Diagnostic("expected a summary such as count, sum, avg, min, max, median, p90, found \(t.describe)", at: t.span)
            }
            if function.isPaired {
                let (y, x, end) = try parsePair(&p, word)
                var alias: String? = nil
                if p.eatKeyword("as") { alias = try p.name("a name for the result column").0 }
                items.append(AggregateItem(function: function, argument: y, second: x, distinct: false, alias: alias, span: t.span.union(end)))
                if p.eatSymbol(.comma) { continue }
                break
            }
            var distinct = false
            var argument: Expr? = nil
            var span = t.span
            if p.eatKeyword("distinct") { distinct = true }
            let startsArgument = !(p.atEnd || p.current.isSymbol(.pipe) || p.current.isSymbol(.comma)
                                   || p.current.isKeyword("by") || p.current.isKeyword("as"))
            if startsArgument {
                let e = try p.parseExpr()
                argument = e
                span = span.union(e.span)
            } else if function.needsArgument || distinct {
                throw Diagnostic("\(word) needs a column, as in: \(word) x", at: p.current.span)
            }
            var alias: String? = nil
            if p.eatKeyword("as") { alias = try p.name("a name for the result column").0 }
            items.append(AggregateItem(function: function, argument: argument, distinct: distinct, alias: alias, span: span))
            if p.eatSymbol(.comma) { continue }
            break
        }
        var keys: [GroupKey] = []
        if p.eatKeyword("by") {
            repeat { keys.append(try parseKey(&p)) } while p.eatSymbol(.comma)
        }
        return Syntax(items: items, keys: keys)
    }

    /// The two columns of `corr(a, b)` or `corr a, b`: a call right after the name, or two
    /// expressions split by a comma. A comma there always starts the second column, since the
    /// summary takes exactly two; `corr (a + b) * 2, c` is read as the verb form.
    static func parsePair(_ p: inout Parser, _ word: String) throws -> (Expr, Expr, SourceSpan) {
        let usage = "\(word) takes two columns: \(word)(a, b) or \(word) a, b"
        if p.current.isSymbol(.lparen) {
            let start = p.index
            p.advance()
            let first = try p.parseExpr()
            if p.eatSymbol(.comma) {
                let second = try p.parseExpr()
                let close = p.current.span
                try p.expectSymbol(.rparen, "')' after the two columns of \(word)")
                return (first, second, close)
            }
            // `corr (a + b) * 2, c`: the parenthesis began the first column.
            p.index = start
        }
        if p.atEnd || p.current.isSymbol(.pipe) || p.current.isSymbol(.comma) || p.current.isKeyword("by") || p.current.isKeyword("as")
            || p.current.isKeyword("distinct") {
            throw Diagnostic(usage, at: p.current.span)
        }
        let first = try p.parseExpr()
        guard p.eatSymbol(.comma) else { throw Diagnostic(usage, at: p.current.span) }
        let second = try p.parseExpr()
        return (first, second, second.span)
    }

    static func parseKey(_ p: inout Parser) throws -> GroupKey {
        let start = p.current.span
        if p.current.isKeyword("every") {
            p.advance()
            try p.refuseTooLong()
            guard case .duration(let step) = p.current.kind else {
                throw Diagnostic("expected a span after every, such as 15m, 1h or 1d", at: p.current.span)
            }
            guard step > 0 else { throw Diagnostic("the span after every must be more than zero", at: p.current.span) }
            var span = start.union(p.advance().span)
            var column: Expr? = nil
            if p.eatKeyword("of") || p.eatKeyword("on") {
                let c = try p.parseExpr()
                column = c
                span = span.union(c.span)
            }
            var alias: String? = nil
            if p.eatKeyword("as") { alias = try p.name("a name for the key").0 }
            return GroupKey(kind: .every(step, column: column), alias: alias, span: span)
        }
        let e = try p.parseExpr()
        var alias: String? = nil
        if p.eatKeyword("as") { alias = try p.name("a name for the key").0 }
        return GroupKey(kind: .expr(e), alias: alias, span: e.span)
    }
}
