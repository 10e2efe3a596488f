/// The syntax tree as text: what the parser understood, before any name is checked. Syntax
/// snapshots (Tests/Corpus) keep it, so a change to the parser shows as a readable diff.
/// Binary operations are parenthesised, so the text shows how an expression grouped.
public enum SyntaxPrinter {
    public static func text(_ statement: Statement) -> String {
        switch statement {
        case .query(let p):
            return "query " + text(p)
        case .command(let stage):
            return "command " + line(stage)
        case .assign(let name, let p, _):
            return "assign \(name) = " + text(p)
        case .session(let command, let argument, _):
            return "session :\(command.name)" + (argument.map { " " + $0.quoted } ?? "")
        }
    }

    public static func text(_ p: Pipeline) -> String {
        var lines = ["from " + p.source.syntax]
        for stage in p.stages { lines.append("| " + line(stage)) }
        if let sink = p.sink { lines.append("→ " + line(sink)) }
        return lines.joined(separator: "\n  ")
    }

    /// A pipeline on one line, as it is written: `market | where legend = "Jogging"`.
    static func inline(_ p: Pipeline) -> String {
        var parts: [String] = []
        switch p.source {
        case .current: break
        case .table(let name, _): parts.append(name.isPlainName ? name : "`\(name)`")
        case .verb: break
        default: parts.append(p.source.syntax)
        }
        parts += p.stages.map(line)
        return parts.joined(separator: " | ")
    }

    static func line(_ stage: Stage) -> String {
        let args = stage.syntax.syntax
        // A summary's words start with its verb: `avg angle, count by legend`.
        if stage.spec.category == .summary { return args }
        return stage.verb + (args.isEmpty ? "" : " " + args)
    }
}

extension Expr {
    /// The expression as the syntax snapshots show it.
    public var syntax: String {
        switch self {
        case .column(let name, _): return name.isPlainName ? name : "`\(name)`"
        case .literal(let v, _): return v.literalSyntax
        case .unary(let op, let e, _): return op == .not ? "not " + e.syntax : "-" + e.syntax
        case .binary(let op, let l, let r, _): return "(\(l.syntax) \(op.rawValue) \(r.syntax))"
        case .call(let f, let args, _) where f == Expr.overName && args.count == 2:
            return args[0].syntax + " over " + Expr.frameSyntax(args[1])
        case .call(let f, let args, _): return "\(f)(" + args.map(\.syntax).joined(separator: ", ") + ")"
        case .inList(let e, let items, let negated, _):
            return "\(e.syntax) \(negated ? "not in" : "in") (" + items.map(\.syntax).joined(separator: ", ") + ")"
        case .isNull(let e, let negated, _): return "\(e.syntax) is \(negated ? "not " : "")null"
        case .between(let x, let lo, let hi, let negated, _):
            return "\(x.syntax) \(negated ? "not between" : "between") \(lo.syntax) and \(hi.syntax)"
        }
    }
}

extension Expr {
    /// The name of the call `f(x) over FRAME` is kept as: not a name a user can write.
    static let overName = "over "

    /// A rolling window's frame as written: `3 rows`, `7d`.
    static func frameSyntax(_ e: Expr) -> String {
        switch e {
        case .literal(.int(let n), _): return "\(n) row" + (n == 1 ? "" : "s")
        case .literal(.duration(let d), _): return RollingFrame.spanText(d)
        default: return e.syntax
        }
    }
}

extension Value {
    /// A value as it would be written in a command.
    var literalSyntax: String {
        switch self {
        case .null: return "null"
        case .string(let s): return s.quoted
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return NumberText.double(d)
        case .duration(let d): return TimeText.duration(d)
        case .timestamp(let t): return TimeText.iso(t, zone: .utc)
        case .geometry(let g): return "geometry(\(WKT.text(g).quoted))"
        }
    }
}

extension SortKey {
    var syntax: String { expr.syntax + (descending ? " desc" : "") }
}

extension GroupKey {
    var syntax: String {
        var text: String
        switch kind {
        case .expr(let e): text = e.syntax
        case .every(let step, let column): text = "every " + TimeText.duration(step) + (column.map { " of " + $0.syntax } ?? "")
        }
        if let alias { text += " as " + alias }
        return text
    }
}

extension AggregateItem {
    var syntax: String {
        var text = function.name
        if distinct { text += " distinct" }
        // Two columns are shown as a call, whichever way they were written: they are one pair.
        if let argument, let second { text += "(" + argument.syntax + ", " + second.syntax + ")" }
        else if let argument { text += " " + argument.syntax }
        if let alias { text += " as " + alias }
        return text
    }
}

extension PipelineSource {
    var syntax: String {
        switch self {
        case .current: return "current"
        case .table(let name, _): return "table " + name
        case .result(let n, _): return "$\(n)"
        case .last: return "_"
        case .verb(let stage): return SyntaxPrinter.line(stage)
        case .pipeline(let p): return "(" + SyntaxPrinter.inline(p) + ")"
        }
    }
}

extension String {
    /// In double quotes, with quotes inside doubled, as the language writes text.
    var quoted: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Whether the name can be written without backquotes.
    var isPlainName: Bool {
        guard let first = unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return unicodeScalars.allSatisfy { $0 == "_" || $0 == "." || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

extension Token {
    /// The token as the token snapshots show it: its kind and what it holds.
    public var snapshot: String {
        switch kind {
        case .identifier(let s, let quoted): return quoted ? "name(`\(s)`)" : "word(\(s))"
        case .string(let s): return "text(\(s.quoted))"
        case .integer(let m): return "int(\(m))"
        case .number(let d): return "number(\(NumberText.double(d)))"
        case .duration(let m): return "duration(\(TimeText.duration(m)))"
        case .resultRef(let n): return "result($\(n))"
        case .symbol(let s): return s.rawValue
        case .newline: return "newline"
        case .semicolon: return ";"
        case .unknown(let c): return "unknown(\(c))"
        case .tooLong(let text): return "tooLong(\(text))"
        case .end: return "end"
        }
    }
}
