/// Each kind of output as the text a person sees. The shell routes these strings to
/// standard output or error; transcripts, notebooks and golden tests use them as they are.
public enum OutputText {
    public static func text(_ output: Output, settings: Settings) -> String {
        let options = settings.render
        switch output {
        case .table(let r):
            if settings.output == .table {
                return TableRenderer.render(r.table, options: options, footer: r.number.map { "[\($0)]" })
            }
            return TableWriter.text(r.table, format: settings.output, options: options)
        case .text(let s):
            let safe = options.plain(TextWidth.printableLines(s))
            return safe.hasSuffix("\n") ? safe : safe + "\n"
        case .chart(let c):
            guard let footer = c.footer else { return c.text }
            return c.text + options.dim(footer) + "\n"
        case .info(let s):
            // Notes and warnings quote file and column names: escape what they carry.
            let safe = options.plain(TextWidth.printableLines(s))
            return (options.color ? "\u{1B}[2m" + safe + "\u{1B}[0m" : safe) + "\n"
        case .warning(let s):
            return (options.color ? "\u{1B}[33mwarning:\u{1B}[0m " : "warning: ") + options.plain(TextWidth.printableLines(s)) + "\n"
        }
    }

    /// A whole command as a transcript: the prompt and command, then everything it printed.
    public static func transcript(_ command: ScriptCommand, _ outcome: CommandOutcome, settings: Settings) -> String {
        var out = "utq> " + command.shownText.replacingOccurrences(of: "\n", with: "\n ...> ") + "\n"
        for o in outcome.outputs { out += text(o, settings: settings) }
        if let e = outcome.error { out += DiagnosticRenderer.render(e, showLocation: true, color: false) }
        return out
    }
}
