/// One command cut out of a script: its tokens and where it is.
public struct ScriptCommand: Sendable {
    public let source: SourceText
    public let tokens: [Token]
    public let span: SourceSpan
    /// A lexing error (an unclosed string) found in this command.
    public let lexError: Diagnostic?

    public var text: String { source.slice(span) }
    /// The text as it is shown or written again (echoed, in notebooks and the history): its
    /// secrets written `…`.
    public var shownText: String { SecretText.masked(text) }
    public var line: Int { source.location(of: span.start).line }
}

/// Splits a script into commands: they end at `;` or at a line break, except that a line
/// ending in `|` or `,` (or inside parentheses) goes on, and a line starting with `|`
/// continues the one before.
public enum Script {
    public static func commands(in source: SourceText) -> [ScriptCommand] {
        var lexer = Lexer(source)
        var out: [ScriptCommand] = []
        var current: [Token] = []
        var lexError: Diagnostic? = nil
        var depth = 0
        var pendingNewline = false

        func finish() {
            let significant = current.filter { if case .newline = $0.kind { return false } else { return true } }
            if !significant.isEmpty || lexError != nil {
                var span = significant.isEmpty ? (lexError?.span ?? .none) : significant.first!.span.union(significant.last!.span)
                if let e = lexError?.span { span = span.union(e) }
                var toks = significant
                toks.append(Token(.end, SourceSpan(span.end, span.end)))
                out.append(ScriptCommand(source: source, tokens: toks, span: span, lexError: lexError))
            }
            current = []
            lexError = nil
            depth = 0
        }

        while true {
            let token: Token
            do {
                token = try lexer.next()
            } catch let d as Diagnostic {
                if lexError == nil { lexError = d }
                // Skip to the end of the line and go on with the next command.
                while lexer.pos < lexer.end && lexer.bytes[lexer.pos] != 0x0A { lexer.pos += 1 }
                continue
            } catch {
                continue
            }
            switch token.kind {
            case .end:
                finish()
                return out
            case .semicolon:
                pendingNewline = false
                finish()
            case .newline:
                let last = current.last
                if depth > 0 || last == nil || last!.isSymbol(.pipe) || last!.isSymbol(.comma) {
                    continue  // the command goes on
                }
                pendingNewline = true
            default:
                if pendingNewline {
                    pendingNewline = false
                    // `| …` at the start of a line continues the command above.
                    if !token.isSymbol(.pipe) { finish() }
                }
                if token.isSymbol(.lparen) { depth += 1 }
                if token.isSymbol(.rparen) { depth = max(0, depth - 1) }
                current.append(token)
            }
        }
    }
}

extension Script {
    /// Whether typed text needs another line: it ends in `|` or `,`, or a parenthesis is open.
    public static func isIncomplete(_ text: String) -> Bool {
        var lexer = Lexer(SourceText(name: "", text: text))
        var depth = 0
        var last: Token? = nil
        while true {
            guard let t = try? lexer.next() else { return false }
            switch t.kind {
            case .end:
                if depth > 0 { return true }
                guard let last else { return false }
                return last.isSymbol(.pipe) || last.isSymbol(.comma)
            case .newline: continue
            case .semicolon: depth = 0; last = nil; continue
            default:
                if t.isSymbol(.lparen) { depth += 1 }
                if t.isSymbol(.rparen) { depth = max(0, depth - 1) }
                last = t
            }
        }
    }
}
