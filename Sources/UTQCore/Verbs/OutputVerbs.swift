/// Verbs that write results and change settings.

enum SaveVerb {
    static let spec = VerbSpec(
        name: "save", aliases: [], category: .output,
        usage: "save FILE   (save! FILE replaces an existing file)",
        summary: "Write the result to a file: .csv, .tsv, .json, .ndjson or .md by its extension.",
        details: """
        The file is written to a temporary name and renamed, so it is never left half written.
        An existing file is kept unless you write save! FILE. Numbers are written in full
        precision without separators, times as ISO 8601 with their offset.
        """,
        examples: ["count by legend | save! legend_counts.csv"],
        completes: .file,
        parse: { p, verb in
            var force = false
            if p.current.isSymbol(.bang) && !p.current.spaceBefore { p.advance(); force = true }
            let (path, _) = try p.path()
            if p.eatKeyword("force") { force = true }
            return .save(path: path, force: force)
        })
}

enum SetVerb {
    static let spec = VerbSpec(
        name: "set", category: .session,
        usage: "set NAME VALUE",
        summary: "Change a setting: output, timezone, time, width, height, timer, maxrows, charset.",
        details: """
        set output table|csv|tsv|json|ndjson|markdown — how results print.
        set timezone Europe/Oslo — the current table's time zone (buckets follow it).
        set time COLUMN — the column hour, day, every 15m … read.
        set width 100 — the width results and charts are drawn to.
        set height 40 — the lines charts size their plots to.
        set timer on — print how long each command took.
        set maxrows 40 — the most rows a result prints before it is cut.
        """,
        examples: ["set timezone Europe/Oslo", "set output csv", "set output table"],
        completes: .setting,
        parse: { p, _ in
            // Read like a path, so names with a dash (csv-safe) are one word.
            let (name, _) = try p.path("a setting name (output, timezone, time, width, height, timer, maxrows)")
            guard let (value, span) = p.restOfCommand() else {
                throw Diagnostic("set \(name) needs a value", at: p.current.span)
            }
            return .set(name: name.lowercased(), value: value, valueSpan: span)
        })
}

enum HelpVerb {
    static let spec = VerbSpec(
        name: "help", aliases: ["?"], category: .session,
        usage: "help [VERB | TOPIC]",
        summary: "List the verbs, or explain one with examples.",
        examples: ["help", "help count"],
        completes: .none,
        parse: { p, _ in .help(p.restOfCommand()?.0) })
}
