/// `chart KIND [COLUMN] [options] [to FILE]`: draws the rows that reach it.

enum ChartVerb {
    static let spec = VerbSpec(
        name: "chart", aliases: ["plot"], category: .output, role: .sink,
        usage: "chart KIND [COLUMN] [options] [to FILE]   (to! FILE replaces an existing file)",
        summary: "Draw the result: bar, column, line, spark, hist, heatmap or map.",
        details: details,
        examples: ChartKind.allCases.map(\.example) + [
            "count by hour, legend | chart bar",
            "count by legend | chart bar top 3",
            "count by weekday, hour | chart heatmap",
            "count by legend, hour | chart bar grouped",
        ],
        completes: .keyword(ChartKind.allCases.map(\.rawValue)),
        keywords: ChartKind.words + ChartOptions.specs.map(\.name) + ["to"],
        parse: { p, verb in try parse(&p, verb) })

    static var details: String {
        var out = """
        A chart reads the table that reaches it: the keys of a summary (count by hour) name the
        bars or the x axis, and the last number column is measured unless COLUMN names another.
        Time keys keep their meaning: hour draws as 08, 12 …; day, week, every 15m as times;
        weekday in order Mon … Sun. After fill, empty buckets show as zeros.

        Kinds

        """
        for k in ChartKind.allCases {
            out += "  " + k.usage + "\n" + wrap(k.summary, indent: "      ") + "\n"
        }
        out += "\nOptions\n"
        for o in ChartOptions.specs {
            let kinds = o.kinds.isEmpty ? "" : " (" + o.kinds.map(\.rawValue).joined(separator: ", ") + ")"
            let text = wrap(o.summary + kinds, indent: String(repeating: " ", count: 16))
            out += "  " + o.usage.padding(toLength: 14, withPad: " ", startingAt: 0) + text.dropFirst(16) + "\n"
        }
        out += """

        Charts fit the terminal (set width, set height); set charset ascii draws with ASCII only,
        and colour is used when the output is a terminal. to FILE.svg writes a picture for slides
        and reports, to FILE.txt the drawing as it prints; an existing file is kept unless you
        write to! FILE.
        """
        return out
    }

    static func wrap(_ text: String, indent: String, width: Int = 88) -> String {
        TextWrap.words(text, width: width - indent.count).map { indent + $0 }.joined(separator: "\n")
    }

    static func parse(_ p: inout Parser, _ verb: Token) throws -> ChartRequest {
        var replace = false
        if p.current.isSymbol(.bang) && !p.current.spaceBefore { p.advance(); replace = true }
        let kinds = ChartKind.allCases.map(\.rawValue).joined(separator: ", ")
        let t = p.current
        guard case .identifier(let word, _) = t.kind else {
            throw Diagnostic("expected a kind of chart, found \(t.describe)", at: t.span, hint: "kinds: " + kinds)
        }
        guard let kind = ChartKind.named(word) else {
            if ["pie", "donut", "doughnut"].contains(word.lowercased()) {
                throw Diagnostic("utq draws no \(word.lowercased()) charts", at: t.span,
                                 hint: "bars compare shares more exactly: count by legend | chart bar (kinds: \(kinds))")
            }
            throw Diagnostic("unknown kind of chart \"\(word)\"" + Suggest.didYouMean(word, among: ChartKind.words),
                             at: t.span, hint: "kinds: " + kinds)
        }
        p.advance()
        var request = ChartRequest(kind: kind, replace: replace, span: verb.span.union(t.span))
        while !p.atEnd && !p.current.isSymbol(.pipe) {
            let token = p.current
            if token.isKeyword("to") {
                p.advance()
                if p.current.isSymbol(.bang) && !p.current.spaceBefore { p.advance(); request.replace = true }
                let (path, span) = try p.path("a file to write the chart to (.svg or .txt)")
                request.file = path
                request.fileSpan = span
                if p.eatKeyword("force") { request.replace = true }
                continue
            }
            if case .identifier(let name, let quoted) = token.kind, !quoted, let option = ChartOptions.spec(name) {
                guard option.applies(to: kind) else {
                    let fits = option.kinds.map { "chart \($0.rawValue)" }.joined(separator: ", ")
                    throw Diagnostic("\(option.name) is not an option of chart \(kind.rawValue)", at: token.span,
                                     hint: "\(option.name) belongs to " + fits)
                }
                p.advance()
                try read(option, into: &request.options, &p, at: token.span)
                continue
            }
            switch token.kind {
            case .identifier(let name, _) where request.column == nil, .string(let name) where request.column == nil:
                p.advance()
                request.column = name
                request.columnSpan = token.span
            default:
                let names = ChartOptions.specs.filter { $0.applies(to: kind) }.map(\.usage)
                var message = "unexpected \(token.describe) in chart \(kind.rawValue)"
                if case .identifier(let name, false) = token.kind {
                    message += Suggest.didYouMean(name, among: ChartOptions.specs.map(\.name) + ["to"])
                }
                throw Diagnostic(message, at: token.span, hint: "options: " + names.joined(separator: ", ") + ", to FILE")
            }
        }
        return request
    }

    static func read(_ option: ChartOptions.Spec, into options: inout ChartOptions, _ p: inout Parser, at span: SourceSpan) throws {
        var whole = span
        switch option.argument {
        case .none:
            switch option.name {
            case "stacked": options.layout = .stacked
            case "grouped": options.layout = .grouped
            case "arrows": options.arrows = true
            default: break
            }
        case .count(let range):
            let t = p.current
            // Read the number here rather than with Parser.integer: a huge literal must be
            // a message, never an overflow.
            let d: Double
            switch t.kind {
            case .integer(let m): d = Double(m)
            case .number(let x) where x == x.rounded(): d = x
            default:
                throw Diagnostic("\(option.name) needs a whole number, found \(t.describe)", at: t.span,
                                 hint: "for example: \(option.name) \(range.lowerBound == 1 ? 10 : range.lowerBound * 2)")
            }
            guard d >= Double(range.lowerBound) && d <= Double(range.upperBound) else {
                throw Diagnostic("\(option.name) is a whole number from \(range.lowerBound) to \(range.upperBound)", at: t.span)
            }
            p.advance()
            whole = span.union(t.span)
            let n = Int(d)
            switch option.name {
            case "top": options.top = n
            case "bins": options.bins = n
            case "width": options.width = n
            case "height": options.height = n
            default: break
            }
        case .text:
            let t = p.current
            switch t.kind {
            case .string(let s), .identifier(let s, _): options.title = s
            default: throw Diagnostic("\(option.name) needs text, as in: title \"Counts by hour\"", at: t.span)
            }
            p.advance()
            whole = span.union(t.span)
        }
        options.spans[option.name] = whole
    }
}

/// `chart KIND [COLUMN] [options] [to FILE]`: which chart to draw from the rows that reach
/// it, and where to put it. The kinds and options are listed in `ChartKind` and `ChartOptions`.
public struct ChartRequest: SinkSyntax {
    public var kind: ChartKind
    /// The column to measure (hist: the column to bin; map: the column that picks the glyph).
    public var column: String?
    public var options: ChartOptions
    /// `to FILE`: .svg for a picture, .txt for the drawing as it prints.
    public var file: String?
    /// `to! FILE` (or `chart! …`): replace a file that exists.
    public var replace: Bool
    public var span: SourceSpan
    public var columnSpan: SourceSpan?
    public var fileSpan: SourceSpan?

    public init(kind: ChartKind, column: String? = nil, options: ChartOptions = ChartOptions(), file: String? = nil,
                replace: Bool = false, span: SourceSpan = SourceSpan(0, 0), columnSpan: SourceSpan? = nil, fileSpan: SourceSpan? = nil) {
        self.kind = kind; self.column = column; self.options = options; self.file = file; self.replace = replace
        self.span = span; self.columnSpan = columnSpan; self.fileSpan = fileSpan
    }

    public var syntax: String {
        var parts = [kind.rawValue]
        if let column { parts.append(column) }
        for name in options.spans.keys.sorted() { parts.append(name) }
        if let file { parts.append((replace ? "to! " : "to ") + file.quoted) }
        return parts.joined(separator: " ")
    }

    func bind(_ input: LogicalPlan, _ binder: Binder) throws -> Sink {
        if let file {
            let lower = file.lowercased()
            guard lower.hasSuffix(".svg") || lower.hasSuffix(".txt") else {
                throw Diagnostic("cannot tell what to write to \(file) from its name", at: fileSpan ?? span,
                                 hint: "end it with .svg (a picture) or .txt (the drawing as it prints)")
            }
        }
        return .chart(self)
    }
}
