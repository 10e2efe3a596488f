/// A command as the history keeps it, for `history` and `:save`: help is left out (it
/// changes nothing a script needs), and a file the session wrote is written with `!` so the
/// saved script replaces it when it runs again instead of stopping at the file it made.
enum HistoryText {
    static func of(_ command: ScriptCommand, _ statement: Statement) -> String? {
        switch statement {
        case .session: return nil
        case .command(let stage) where stage.verb == HelpVerb.spec.name: return nil
        case .query(let pipeline):
            guard let sink = pipeline.sink else { return command.text }
            let tokens = command.tokens.filter { $0.span.start >= sink.span.start && $0.span.end <= sink.span.end }
            var at: Token? = nil
            if sink.verb == SaveVerb.spec.name { at = tokens.first }
            if sink.verb == ChartVerb.spec.name { at = tokens.first { $0.isKeyword("to") } }
            guard let at, let k = tokens.firstIndex(of: at) else { return command.text }
            if k + 1 < tokens.count, tokens[k + 1].isSymbol(.bang), !tokens[k + 1].spaceBefore { return command.text }
            // Only a sink that writes a file (save FILE, chart … to FILE) gets here with a token.
            if sink.verb == ChartVerb.spec.name || k + 1 < tokens.count {
                let source = command.source
                return source.slice(SourceSpan(command.span.start, at.span.end)) + "!" + source.slice(SourceSpan(at.span.end, command.span.end))
            }
            return command.text
        default: return command.text
        }
    }
}
