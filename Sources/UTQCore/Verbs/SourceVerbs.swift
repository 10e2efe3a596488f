/// Verbs that load tables and tell what is loaded.

enum LoadVerb {
    static let spec = VerbSpec(
        name: "load", aliases: ["open", "read"], category: .source,
        usage: "load FILE [as NAME] [at PATH]",
        summary: "Read a file into a table, name it after the file, and make it current.",
        details: """
        The format is detected: a Behaviour Mapper project (.json) or its CSV export, Prishtina
        routes or itineraries, a GTFS feed (folder or .zip), CSV or TSV (the delimiter , ; or tab is
        detected), a JSON array of objects, or newline-delimited JSON. Nested objects become
        columns named with dots (position.x). For a JSON document with the rows deeper inside,
        name the array: load data.json at response.items. Types are inferred: numbers, true/false,
        ISO 8601 and day-first date-times, durations such as "1 hour 5 mins"; an empty cell is null.
        A load that fails leaves every table as it was.
        """,
        examples: ["load datasets/market.json", "load datasets/market.json as torget"],
        completes: .file, keywords: ["as", "at"],
        parse: { p, _ in
            let (path, _) = try p.path()
            var alias: String? = nil
            var at: String? = nil
            while !p.atEnd && !p.current.isSymbol(.pipe) {
                if p.eatKeyword("as") { alias = try p.name("a table name after as").0 }
                else if p.eatKeyword("at") { at = try p.path("a path such as data.items after at").0 }
                else { throw Diagnostic("unexpected \(p.current.describe)", at: p.current.span, hint: "load takes a file, then optionally: as NAME, at PATH") }
            }
            return .load(path: path, alias: alias, at: at)
        })
}

enum UseVerb {
    static let spec = VerbSpec(
        name: "use", category: .source,
        usage: "use TABLE",
        summary: "Make a loaded table the current one, so lines without a table run on it.",
        examples: ["use market"],
        completes: .table,
        parse: { p, _ in .use(try p.name("a table name").0) })
}

enum TablesVerb {
    static let spec = VerbSpec(
        name: "tables", aliases: ["ls"], category: .source,
        usage: "tables",
        summary: "List the loaded tables with their rows, columns and time span.",
        examples: ["tables"],
        completes: .none,
        parse: { _, _ in .tables })
}

enum DescribeVerb {
    static let spec = VerbSpec(
        name: "describe", aliases: ["schema"], category: .source,
        usage: "describe [TABLE]",
        summary: "Show each column's type, how many values it has, and its range.",
        examples: ["describe", "where legend = \"Bike\" | describe"],
        completes: .table,
        parse: { p, _ in
            if p.atEnd || p.current.isSymbol(.pipe) { return .describe(nil) }
            return .describe(try p.name("a table name").0)
        })
}
