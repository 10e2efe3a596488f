/// `load FILE [as NAME] [at PATH]`: reads a file into tables and makes the first current.
enum LoadVerb {
    static let spec = VerbSpec(
        name: "load", aliases: ["open", "read"], category: .source, role: .statement,
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
        usageHelps: false,
        parse: { p, _ in
            let (path, _) = try p.path()
            var syntax = Syntax(path: path)
            while !p.atEnd && !p.current.isSymbol(.pipe) {
                if p.eatKeyword("as") { syntax.alias = try p.name("a table name after as").0 }
                else if p.eatKeyword("at") { syntax.at = try p.path("a path such as data.items after at").0 }
                else { throw Diagnostic("unexpected \(p.current.describe)", at: p.current.span, hint: "load takes a file, then optionally: as NAME, at PATH") }
            }
            return syntax
        })

    struct Syntax: StatementSyntax {
        var path: String
        var alias: String?
        var at: String?

        var syntax: String {
            "path=\(path.quoted)" + (alias.map { " as=\($0)" } ?? "") + (at.map { " at=\($0)" } ?? "")
        }

        func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws {
            try interpreter.load(path: path, alias: alias, at: at, into: &outcome)
        }
    }
}
