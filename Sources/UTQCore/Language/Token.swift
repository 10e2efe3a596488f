/// What the lexer hands the parser.
public struct Token: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A name: a verb, column, table or keyword. `quoted` when written in backticks.
        case identifier(String, quoted: Bool)
        case string(String)
        /// A whole number written with digits only, up to 2^64 − 1 (so −2^63 can be written).
        case integer(UInt64)
        /// Any other number: with a point or an exponent, or too long for 64 bits.
        case number(Double)
        /// A span of time written with a unit: `15m`, `1h`, `30s`, `2d`, `1w`.
        case duration(Int64)
        /// `$3`: a numbered result.
        case resultRef(Int)
        case symbol(Symbol)
        /// A line break (statements end at line breaks unless a `|` continues them).
        case newline
        case semicolon
        /// A character no token starts with.
        case unknown(Character)
        /// A duration too long to count in microseconds (`1e300d`): an error where a value is
        /// read, but a part of a path like any other (`to /tmp/run-1195E07D/x.svg`).
        case tooLong(String)
        case end
    }

    public enum Symbol: String, Sendable, CaseIterable {
        case pipe = "|", comma = ",", lparen = "(", rparen = ")", lbracket = "[", rbracket = "]"
        case equal = "=", doubleEqual = "==", notEqual = "!=", lessGreater = "<>"
        case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
        case plus = "+", minus = "-", star = "*", slash = "/", percent = "%"
        case colon = ":", bang = "!", dot = ".", tilde = "~"
    }

    public var kind: Kind
    public var span: SourceSpan
    /// Whitespace came right before this token (paths and `save!` care).
    public var spaceBefore: Bool

    public init(_ kind: Kind, _ span: SourceSpan, spaceBefore: Bool = true) {
        self.kind = kind
        self.span = span
        self.spaceBefore = spaceBefore
    }

    public var identifier: String? {
        if case .identifier(let s, _) = kind { return s }
        return nil
    }

    /// An unquoted identifier, compared case-insensitively: keywords like `by`, `as`, `desc`.
    public func isKeyword(_ word: String) -> Bool {
        if case .identifier(let s, let quoted) = kind, !quoted { return s.lowercased() == word }
        return false
    }

    public func isSymbol(_ s: Symbol) -> Bool {
        if case .symbol(let x) = kind { return x == s }
        return false
    }

    public var isEnd: Bool {
        switch kind {
        case .end, .newline, .semicolon: return true
        default: return false
        }
    }

    /// How the token reads in a message.
    public var describe: String {
        switch kind {
        case .identifier(let s, let q): return q ? "`\(s)`" : "\"\(s)\""
        case .string(let s): return "the text \"\(s)\""
        case .integer(let m): return "the number \(m)"
        case .number(let d): return "the number \(NumberText.double(d))"
        case .duration: return "a duration"
        case .resultRef(let n): return "$\(n)"
        case .symbol(let s): return "'\(s.rawValue)'"
        case .newline, .semicolon, .end: return "the end of the command"
        case .unknown(let c): return "'\(c)'"
        case .tooLong(let text): return "the duration \(text)"
        }
    }
}
