/// Parses one command's tokens into a `Statement`. Verbs parse their own arguments
/// through the registry (`Verbs`), so the parser, `help` and completion share one list.
public struct Parser {
    public let source: SourceText
    var tokens: [Token]
    var index = 0
    /// How deep the parser is in parentheses, calls and prefixes, so that no input can
    /// exhaust the stack (7,000 nested parentheses are a message, not a crash).
    var nesting = 0
    /// How many pipelines in parentheses the parser is in: there a `)` ends the pipeline.
    var subPipelines = 0

    /// The deepest expression, and the most stages in a pipeline, utq takes. Deeper ones
    /// are refused when parsed, before binding and running walk them.
    public static let maxDepth = 256
    public static let maxStages = 256

    public init(source: SourceText, tokens: [Token]) {
        self.source = source
        var t = tokens
        if t.last.map({ if case .end = $0.kind { return false } else { return true } }) ?? true {
            let endPos = t.last?.span.end ?? 0
            t.append(Token(.end, SourceSpan(endPos, endPos)))
        }
        self.tokens = t
    }

    // MARK: token access

    public var current: Token { tokens[index] }
    public func peek(_ k: Int = 1) -> Token { tokens[min(index + k, tokens.count - 1)] }
    public var atEnd: Bool { current.isEnd || (subPipelines > 0 && current.isSymbol(.rparen)) }

    /// Whether a token ends the pipeline it stands in.
    func endsPipeline(_ t: Token) -> Bool { t.isEnd || (subPipelines > 0 && t.isSymbol(.rparen)) }

    @discardableResult
    public mutating func advance() -> Token {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    public mutating func eatKeyword(_ word: String) -> Bool {
        if current.isKeyword(word) { advance(); return true }
        return false
    }

    public mutating func eatSymbol(_ s: Token.Symbol) -> Bool {
        if current.isSymbol(s) { advance(); return true }
        return false
    }

    public mutating func expectSymbol(_ s: Token.Symbol, _ what: String) throws {
        guard eatSymbol(s) else { throw Diagnostic("expected \(what), found \(current.describe)", at: current.span) }
    }

    /// A name: identifier or backquoted identifier (or a string, for names with spaces).
    public mutating func name(_ what: String) throws -> (String, SourceSpan) {
        let t = current
        switch t.kind {
        case .identifier(let s, _): advance(); return (s, t.span)
        case .string(let s): advance(); return (s, t.span)
        default: throw Diagnostic("expected \(what), found \(t.describe)", at: t.span)
        }
    }

    public mutating func integer(_ what: String) throws -> Int {
        let t = current
        if case .integer(let m) = t.kind {
            guard m <= UInt64(Int32.max) else {
                throw Diagnostic("\(m) is too large for \(what)", at: t.span, hint: "the most is \(NumberText.grouped(Int(Int32.max)))")
            }
            advance()
            return Int(m)
        }
        throw Diagnostic("expected \(what) (a whole number), found \(t.describe)", at: t.span)
    }

    /// A table's name, dotted: `db.rides`, ``db.`Odd Name` `` or `` `db.Odd Name` `` (a quoted
    /// part is the name as written, without its quotes).
    public mutating func tableName(_ what: String) throws -> (String, SourceSpan) {
        var (name, span) = try self.name(what)
        while current.isSymbol(.dot), !current.spaceBefore {
            advance()
            guard !current.spaceBefore else { throw Diagnostic("expected a name after the dot, found \(current.describe)", at: current.span) }
            let (part, partSpan) = try self.name("a name after the dot")
            name += "." + part
            span = SourceSpan(span.start, partSpan.end)
        }
        return (name, span)
    }

    /// A file path: a quoted string, or the characters up to the next space (`datasets/market.json`).
    public mutating func path(_ what: String = "a file name") throws -> (String, SourceSpan) {
        let t = current
        if case .string(let s) = t.kind { advance(); return (s, t.span) }
        if t.isEnd || t.isSymbol(.pipe) {
            throw Diagnostic("expected \(what), found \(t.describe)", at: t.span)
        }
        let start = t.span.start
        var end = t.span.end
        advance()
        while !current.isEnd, !current.spaceBefore, !current.isSymbol(.pipe) {
            end = current.span.end
            advance()
        }
        return (source.slice(SourceSpan(start, end)), SourceSpan(start, end))
    }

    /// Where a duration is read: one too long to count is said so.
    func refuseTooLong() throws {
        if case .tooLong(let text) = current.kind {
            throw Diagnostic("the duration \(text) is too long", at: current.span, hint: "durations reach about 292,000 years")
        }
    }

    /// The rest of the command as raw text (for `set` values and `help` topics).
    public mutating func restOfCommand() -> (String, SourceSpan)? {
        guard !atEnd else { return nil }
        let start = current.span.start
        var end = start
        while !atEnd && !current.isSymbol(.pipe) { end = current.span.end; advance() }
        let text = source.slice(SourceSpan(start, end)).trimmingCharacters(in: .whitespaces)
        return (text, SourceSpan(start, end))
    }

    // MARK: statements

    public mutating func parseStatement() throws -> Statement {
        let start = current.span
        // Session commands: `:help`, `:save FILE`, `:record FILE`, and `history`, `quit` alone.
        if current.isSymbol(.colon), case .identifier(let word, _) = peek().kind {
            advance(); advance()
            let nameSpan = start.union(tokens[index - 1].span)
            guard let command = SessionCommands.spec(word) else {
                throw Diagnostic(.unknownSessionCommand(word, suggestion: Suggest.closest(word.lowercased(), among: SessionCommands.names)), at: nameSpan)
            }
            // `:save! FILE` and `:record! FILE` replace a file that exists, as `save!` does.
            var replace = false
            if current.isSymbol(.bang) && !current.spaceBefore { advance(); replace = true }
            let argument = restOfCommand()?.0
            return .session(command.replacing(replace), argument: argument, start.union(tokens[max(0, index - 1)].span))
        }
        if case .identifier(let word, false) = current.kind, peek().isEnd, let command = SessionCommands.spec(word), command.spec.bare {
            advance()
            return .session(command, argument: nil, start)
        }
        // `let NAME = <pipeline>` names a result; `let NAME = <expression>` adds a column.
        if current.isKeyword("let"), case .identifier(let name, _) = peek().kind, peek(2).isSymbol(.equal),
           startsPipeline(at: index + 3) {
            advance(); advance(); advance()
            let p = try parsePipeline()
            return .assign(name: name, p, start.union(p.span))
        }
        // A statement verb stands on a line of its own.
        if case .identifier(let word, false) = current.kind, let spec = Verbs.spec(for: word), spec.role == .statement {
            let stage = try parseStage(spec)
            try expectEnd()
            return .command(stage)
        }
        return .query(try parsePipeline())
    }

    /// Whether the tokens at `i` start a pipeline (a verb, `$n`, `_`, or a table followed by `|`).
    func startsPipeline(at i: Int) -> Bool {
        guard i < tokens.count else { return false }
        let t = tokens[i]
        switch t.kind {
        case .resultRef: return true
        case .identifier(let s, let quoted):
            if quoted { return false }
            if s == "_" { return true }
            if let spec = Verbs.spec(for: s) {
                // `count * 2` is an expression over a column called count.
                let next = tokens[min(i + 1, tokens.count - 1)]
                if case .symbol(let sym) = next.kind, sym != .pipe, sym != .comma, sym != .lparen { return false }
                // `let m = max(x) by g`, `let r = corr(x, y) by g`: a summary written as a call
                // is a column over each row's group, as it is after a pipe; a summary's table
                // is kept by writing it as a verb (`let busy = count by hour`).
                if spec.category == .summary, next.isSymbol(.lparen), !next.spaceBefore { return false }
                // `sum(price) over 1d`: a rolling window, an expression over each row.
                if next.isSymbol(.lparen) {
                    var depth = 0, k = i + 1
                    while k < tokens.count, !tokens[k].isEnd {
                        if tokens[k].isSymbol(.lparen) { depth += 1 }
                        if tokens[k].isSymbol(.rparen) { depth -= 1; if depth == 0 { break } }
                        k += 1
                    }
                    if k + 1 < tokens.count, tokens[k + 1].isKeyword("over") { return false }
                }
                return true
            }
            let next = tokens[min(i + 1, tokens.count - 1)]
            return next.isSymbol(.pipe)
        default:
            return false
        }
    }

    public mutating func expectEnd() throws {
        guard atEnd else {
            // `count by legend sort count`: a verb where the command should end was meant as the next stage.
            if case .identifier(let word, false) = current.kind, let spec = Verbs.spec(for: word) {
                throw Diagnostic("unexpected \(current.describe)", at: current.span,
                                 hint: "to go on with \(spec.name), put | before it: … | \(word) …")
            }
            // SQL's HAVING: a summary's rows are filtered by the next stage.
            if case .identifier(let word, false) = current.kind, word.lowercased() == "having" {
                throw Diagnostic("unexpected \(current.describe)", at: current.span,
                                 hint: "keep some groups with a where after the summary: count by driver | where count > 100")
            }
            throw Diagnostic("unexpected \(current.describe)", at: current.span, hint: "a command ends here; start another with ';' or a new line")
        }
    }

    /// A pipeline: a source, stages, and optionally a sink at the end. Where each verb may
    /// stand is checked here, before anything runs.
    public mutating func parsePipeline() throws -> Pipeline {
        let start = current.span
        var source = PipelineSource.current
        let t = current
        switch t.kind {
        case .resultRef(let n):
            advance()
            source = .result(n, t.span)
        case .identifier(let s, let quoted) where s == "_" && !quoted:
            advance()
            source = .last(t.span)
        case .identifier(let s, let quoted) where quoted || Verbs.spec(for: s) == nil:
            // A table name, alone or followed by `|`.
            if peek().isSymbol(.pipe) || endsPipeline(peek()) {
                advance()
                source = .table(s, t.span)
            }
        default:
            break
        }
        var stages: [Stage] = []
        var sink: Stage? = nil
        func end() -> SourceSpan { start.union(tokens[max(0, index - 1)].span) }
        if case .current = source {
        } else if atEnd {
            return Pipeline(source: source, stages: [], sink: nil, span: end())
        } else {
            try expectSymbol(.pipe, "'|' after the table")
        }
        repeat {
            if let sink {
                throw Diagnostic(.sinkNotLast(verb: sink.verb), at: current.isEnd ? sink.span : current.span)
            }
            let first = stages.isEmpty && { if case .current = source { return true } else { return false } }()
            let stage = try parseStage(nil)
            switch stage.spec.role {
            case .statement:
                throw Diagnostic(.statementInPipeline(verb: stage.verb), at: stage.span)
            case .source:
                guard first else { throw Diagnostic(.sourceNotFirst(verb: stage.verb), at: stage.span) }
                source = .verb(stage)
            case .sink:
                sink = stage
            case .stage:
                if let named = (stage.syntax as? any StageSyntax)?.namedInput {
                    // `describe market` starts from market; after other rows it would be ambiguous.
                    guard first else {
                        throw Diagnostic("\(stage.verb) TABLE starts a pipeline", at: stage.span,
                                         hint: "to \(stage.verb) the rows before it, leave out the table: … | \(stage.verb)")
                    }
                    source = named
                }
                stages.append(stage)
            }
            if stages.count > Parser.maxStages {
                throw Diagnostic("this pipeline has more than \(Parser.maxStages) stages", at: stage.span,
                                 hint: "keep a part of it with let NAME = …, then go on from NAME")
            }
        } while eatSymbol(.pipe)
        try expectEnd()
        return Pipeline(source: source, stages: stages, sink: sink, span: end())
    }

    /// What `union` and `join` take: a table, `$N`, `_`, or a pipeline in parentheses.
    public mutating func parseTableSource(_ what: String) throws -> PipelineSource {
        let t = current
        switch t.kind {
        case .resultRef(let n): advance(); return .result(n, t.span)
        case .identifier(let s, _) where s == "_": advance(); return .last(t.span)
        case .symbol(.lparen): return .pipeline(try parseSubPipeline())
        default:
            let (name, span) = try name(what)
            return .table(name, span)
        }
    }

    /// `SELECT legend, count(*) FROM market GROUP BY legend`: SQL, answered with the utq that
    /// asks the same, when the words after select include FROM.
    func sqlQuery() -> Diagnostic? {
        var k = index + 1
        var from: String? = nil, groups: [String] = [], counts = false
        var inGroup = false
        while k < tokens.count, !tokens[k].isEnd {
            if case .identifier(let w, false) = tokens[k].kind {
                let lower = w.lowercased()
                if lower == "from", case .identifier(let t, _) = tokens[min(k + 1, tokens.count - 1)].kind { from = t }
                if lower == "count" { counts = true }
                if lower == "by", k > 0, tokens[k - 1].isKeyword("group") { inGroup = true; k += 1; continue }
                if ["order", "having", "limit"].contains(lower) { inGroup = false }
                if inGroup { groups.append(w) }
            }
            k += 1
        }
        guard let from else { return nil }
        let ask = counts ? "count" + (groups.isEmpty ? "" : " by " + groups.joined(separator: ", ")) : "select COLUMNS"
        return Diagnostic("utq is not SQL: a line starts from a table and goes through verbs joined by |", at: current.span,
                          hint: "write: \(from) | \(ask)")
    }

    /// `(market | where legend = "Jogging")`: a pipeline in parentheses, where a verb takes
    /// a table. Its rows are shown by the verb around it, so it has no sink of its own.
    public mutating func parseSubPipeline() throws -> Pipeline {
        let open = current
        try expectSymbol(.lparen, "'(' before the pipeline")
        subPipelines += 1
        defer { subPipelines -= 1 }
        if current.isSymbol(.rparen) {
            throw Diagnostic("expected a pipeline inside ( )", at: open.span.union(current.span),
                             hint: "for example: union (market | where legend = \"Jogging\")")
        }
        var p = try parsePipeline()
        if let sink = p.sink {
            throw Diagnostic("\(sink.verb) cannot end a pipeline in parentheses", at: sink.span,
                             hint: "put \(sink.verb) at the end of the whole line")
        }
        guard current.isSymbol(.rparen) else {
            throw Diagnostic("expected ')' to close the pipeline opened here", at: open.span)
        }
        p.span = open.span.union(current.span)
        advance()
        return p
    }

    /// One verb and its arguments. A statement verb is parsed by the caller (`spec`);
    /// otherwise the verb is read here.
    mutating func parseStage(_ known: VerbSpec?) throws -> Stage {
        let t = current
        guard case .identifier(let word, let quoted) = t.kind, !quoted else {
            if t.isEnd { throw Diagnostic("expected a verb after '|'", at: t.span, hint: "for example: count by hour") }
            throw Diagnostic("expected a verb, found \(t.describe)", at: t.span, hint: "type help to see the verbs")
        }
        guard let spec = known ?? Verbs.spec(for: word) else {
            if let advice = OtherLanguages.advice(for: word) {
                throw Diagnostic("unknown verb \"\(word)\"", at: t.span, hint: advice.hint, usage: Verbs.spec(for: advice.verb)?.usage)
            }
            // The verb meant, most likely: show how it is written.
            let meant = Suggest.closest(word, among: Verbs.names)
            throw Diagnostic(.unknownVerb(word, suggestion: meant), at: t.span, usage: meant.flatMap { Verbs.spec(for: $0)?.usage })
        }
        // A statement in a pipeline is refused before its arguments are read.
        if spec.role == .statement && known == nil {
            throw Diagnostic(.statementInPipeline(verb: spec.name), at: t.span)
        }
        if spec.name == "select", let sql = sqlQuery() { throw sql }
        let verbToken = advance()
        do {
            let syntax = try spec.parse(&self, verbToken)
            return Stage(spec: spec, span: t.span.union(tokens[max(0, index - 1)].span), syntax: syntax)
        } catch var d as Diagnostic {
            if d.usage == nil { d.usage = spec.usage }
            throw d
        }
    }

    // MARK: expressions

    public mutating func parseExpr() throws -> Expr {
        let start = current.span
        let e = try parseOr()
        // Chains of operators build trees without recursion here; binding and running will
        // recurse, so the whole tree is measured once, at the outermost expression.
        if nesting == 0, e.depth > Parser.maxDepth {
            throw Diagnostic("this expression is nested too deeply (more than \(Parser.maxDepth) levels)", at: start.union(e.span),
                             hint: "split it into steps with let; for many alternatives, use x in (a, b, …)")
        }
        return e
    }

    /// Enters one level of parentheses, call or prefix.
    mutating func enter() throws {
        nesting += 1
        if nesting > Parser.maxDepth {
            throw Diagnostic("this expression is nested too deeply (more than \(Parser.maxDepth) levels)", at: current.span,
                             hint: "split it into steps with let")
        }
    }

    mutating func parseOr() throws -> Expr {
        var lhs = try parseAnd()
        var depth = lhs.depth
        while current.isKeyword("or") {
            advance()
            let rhs = try parseAnd()
            depth = try deeper(depth, rhs)
            lhs = .binary(.or, lhs, rhs, lhs.span.union(rhs.span))
        }
        return lhs
    }

    /// The depth of a chain after one more operator, refused past the limit while the tree
    /// is still small: a tree of 100,000 levels could not even be freed without recursion.
    func deeper(_ depth: Int, _ rhs: Expr) throws -> Int {
        let d = max(depth, rhs.depth) + 1
        if d > Parser.maxDepth {
            throw Diagnostic("this expression is nested too deeply (more than \(Parser.maxDepth) levels)", at: rhs.span,
                             hint: "split it into steps with let; for many alternatives, use x in (a, b, …)")
        }
        return d
    }

    mutating func parseAnd() throws -> Expr {
        var lhs = try parseNot()
        var depth = lhs.depth
        while current.isKeyword("and") {
            advance()
            let rhs = try parseNot()
            depth = try deeper(depth, rhs)
            lhs = .binary(.and, lhs, rhs, lhs.span.union(rhs.span))
        }
        return lhs
    }

    mutating func parseNot() throws -> Expr {
        if current.isKeyword("not") || current.isSymbol(.bang) {
            try enter()
            defer { nesting -= 1 }
            let t = advance()
            let e = try parseNot()
            return .unary(.not, e, t.span.union(e.span))
        }
        return try parseComparison()
    }

    mutating func parseComparison() throws -> Expr {
        let lhs = try parseAdditive()
        var negated = false
        if current.isKeyword("not"), peek().isKeyword("in") || peek().isKeyword("contains") || peek().isKeyword("between")
            || peek().isKeyword("like") {
            advance()
            negated = true
        }
        let t = current
        if case .symbol(let s) = t.kind {
            let op: BinaryOp?
            switch s {
            case .equal, .doubleEqual: op = .equal
            case .notEqual, .lessGreater: op = .notEqual
            case .less: op = .less
            case .lessEqual: op = .lessEqual
            case .greater: op = .greater
            case .greaterEqual: op = .greaterEqual
            case .tilde: op = .matches
            default: op = nil
            }
            if let op {
                advance()
                let rhs = try parseAdditive()
                return .binary(op, lhs, rhs, lhs.span.union(rhs.span))
            }
        }
        if t.isKeyword("in") {
            advance()
            try expectSymbol(.lparen, "'(' after in, as in: legend in (\"Bike\", \"Walking\")")
            var items: [Expr] = []
            if !current.isSymbol(.rparen) {
                repeat { items.append(try parseAdditive()) } while eatSymbol(.comma)
            }
            let close = current.span
            try expectSymbol(.rparen, "')' to close the list")
            return .inList(lhs, items, negated: negated, lhs.span.union(close))
        }
        if t.isKeyword("contains") || t.isKeyword("like") {
            advance()
            let rhs = try parseAdditive()
            let e = Expr.binary(.contains, lhs, rhs, lhs.span.union(rhs.span))
            return negated ? .unary(.not, e, e.span) : e
        }
        if t.isKeyword("starts") || t.isKeyword("ends") {
            let op: BinaryOp = t.isKeyword("starts") ? .startsWith : .endsWith
            advance()
            _ = eatKeyword("with")
            let rhs = try parseAdditive()
            return .binary(op, lhs, rhs, lhs.span.union(rhs.span))
        }
        if t.isKeyword("between") {
            advance()
            let lo = try parseAdditive()
            guard eatKeyword("and") else { throw Diagnostic("expected and in between … and …", at: current.span) }
            let hi = try parseAdditive()
            return .between(lhs, lo, hi, negated: negated, lhs.span.union(hi.span))
        }
        if t.isKeyword("is") {
            advance()
            let not = eatKeyword("not")
            guard current.isKeyword("null") || current.isKeyword("empty") || current.isKeyword("missing") else {
                throw Diagnostic("expected null after is, as in: angle is null", at: current.span)
            }
            let end = advance().span
            return .isNull(lhs, negated: not, lhs.span.union(end))
        }
        return lhs
    }

    mutating func parseAdditive() throws -> Expr {
        var lhs = try parseMultiplicative()
        var depth = lhs.depth
        while true {
            let op: BinaryOp
            if current.isSymbol(.plus) { op = .add } else if current.isSymbol(.minus) { op = .subtract } else { break }
            advance()
            let rhs = try parseMultiplicative()
            depth = try deeper(depth, rhs)
            lhs = .binary(op, lhs, rhs, lhs.span.union(rhs.span))
        }
        return lhs
    }

    mutating func parseMultiplicative() throws -> Expr {
        var lhs = try parseUnary()
        var depth = lhs.depth
        while true {
            let op: BinaryOp
            if current.isSymbol(.star) { op = .multiply } else if current.isSymbol(.slash) { op = .divide }
            else if current.isSymbol(.percent) { op = .modulo } else { break }
            advance()
            let rhs = try parseUnary()
            depth = try deeper(depth, rhs)
            lhs = .binary(op, lhs, rhs, lhs.span.union(rhs.span))
        }
        return lhs
    }

    mutating func parseUnary() throws -> Expr {
        if current.isSymbol(.minus) {
            try enter()
            defer { nesting -= 1 }
            let t = advance()
            // −9223372036854775808, the least whole number, has no positive to negate.
            if case .integer(let m) = current.kind, m == UInt64(Int64.max) + 1 {
                let s = advance().span
                return .literal(.int(.min), t.span.union(s))
            }
            let e = try parseUnary()
            if case .literal(.int(let v), let s) = e, let n = Checked.negate(v) { return .literal(.int(n), t.span.union(s)) }
            if case .literal(.double(let v), let s) = e { return .literal(.double(-v), t.span.union(s)) }
            if case .literal(.duration(let v), let s) = e, let n = Checked.negate(v) { return .literal(.duration(n), t.span.union(s)) }
            return .unary(.negate, e, t.span.union(e.span))
        }
        return try parsePrimary()
    }

    /// `avg(count) over 7 days`, `sum(x) over 3 rows`: a summary over a rolling window, kept
    /// as a call of `over` whose second argument is the frame (rows: a whole number, time: a
    /// duration).
    mutating func parseOver(_ call: Expr) throws -> Expr {
        let at = advance().span
        let t = current
        let example = "as in: avg(count) over 7 days, or sum(x) over 3 rows"
        switch t.kind {
        case .duration(let micros):
            advance()
            return .call(Expr.overName, [call, .literal(.duration(micros), t.span)], call.span.union(t.span))
        case .integer(let n):
            advance()
            guard case .identifier(let word, false) = current.kind else {
                throw Diagnostic("expected rows or a unit of time after over \(n)", at: current.span, hint: example)
            }
            let unit = current.span
            advance()
            let span = call.span.union(unit)
            if ["row", "rows"].contains(word.lowercased()) {
                guard n >= 1, n <= 1_000_000_000 else { throw Diagnostic("a window holds 1 row or more", at: t.span) }
                return .call(Expr.overName, [call, .literal(.int(Int64(n)), t.span.union(unit))], span)
            }
            guard let (micros, _) = DurationParser.parse("\(n) \(word)"), micros > 0 else {
                throw Diagnostic("expected rows or a unit of time (days, hours, minutes) after over \(n), found \(word)", at: unit, hint: example)
            }
            return .call(Expr.overName, [call, .literal(.duration(micros), t.span.union(unit))], span)
        default:
            throw Diagnostic("expected how far the window reaches after over", at: t.isEnd ? at : t.span, hint: example)
        }
    }

    mutating func parsePrimary() throws -> Expr {
        let t = current
        switch t.kind {
        case .integer(let m):
            advance()
            // 9223372036854775808 and more do not fit a whole number: they are numbers.
            return .literal(m <= UInt64(Int64.max) ? .int(Int64(m)) : .double(Double(m)), t.span)
        case .number(let d):
            advance()
            return .literal(.double(d), t.span)
        case .duration(let micros):
            advance()
            return .literal(.duration(micros), t.span)
        case .string(let s):
            advance()
            return .literal(.string(s), t.span)
        case .symbol(.lparen):
            try enter()
            defer { nesting -= 1 }
            advance()
            let e = try parseExpr()
            try expectSymbol(.rparen, "')'")
            return e
        case .identifier(let name, let quoted):
            advance()
            if !quoted {
                let lower = name.lowercased()
                if lower == "true" { return .literal(.bool(true), t.span) }
                if lower == "false" { return .literal(.bool(false), t.span) }
                if lower == "null" { return .literal(.null, t.span) }
                if current.isSymbol(.lparen) && !current.spaceBefore || (current.isSymbol(.lparen) && Functions.isKnown(lower)) {
                    try enter()
                    defer { nesting -= 1 }
                    advance()
                    var args: [Expr] = []
                    if !current.isSymbol(.rparen) {
                        repeat { args.append(try parseExpr()) } while eatSymbol(.comma)
                    }
                    let close = current.span
                    try expectSymbol(.rparen, "')' after the arguments of \(name)")
                    let call = Expr.call(lower, args, t.span.union(close))
                    if current.isKeyword("over") { return try parseOver(call) }
                    return call
                }
            }
            return .column(name, t.span)
        case .unknown(let c):
            throw Diagnostic("unexpected character '\(c)'", at: t.span)
        case .tooLong:
            try refuseTooLong()
            throw Diagnostic("expected a value", at: t.span)
        default:
            if t.isEnd { throw Diagnostic("expected a value or a column name, found the end of the command", at: t.span) }
            throw Diagnostic("expected a value or a column name, found \(t.describe)", at: t.span)
        }
    }
}

import Foundation
