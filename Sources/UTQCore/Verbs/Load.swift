/// `load FILE [as NAME] [at PATH]`: reads a file into tables and makes the first current.
enum LoadVerb {
    static let spec = VerbSpec(
        name: "load", aliases: ["open", "read"], category: .source, role: .statement,
        usage: "load FILE [as NAME] [at PATH] [sheet NAME] [with OPTION=VALUE, …]",
        summary: "Read a file into a table, name it after the file, and make it current.",
        details: """
        The format is detected: a Behaviour Mapper project (.json) or its CSV export, Prishtina
        routes or itineraries, a GTFS feed (folder or .zip), CSV or TSV (the delimiter , ; or tab is
        detected), an Excel workbook (.xlsx: its first sheet, or the one named with
        load survey.xlsx sheet "People Staying"), a JSON array of objects, newline-delimited
        JSON, or a Parquet file (.parquet: its columns keep their types; list and struct columns
        are left out). Nested objects become columns named with dots (position.x). For a JSON
        document with the rows deeper inside, name the array: load data.json at response.items.
        Types are inferred: numbers, true/false, ISO 8601 and day-first date-times, durations
        such as "1 hour 5 mins"; an empty cell is null. A workbook's cells keep Excel's types:
        dates are times (in the session's zone), times of day are clock durations.
        What detection cannot know is said with options, one form for all of them:
        load trips.csv with header=false, columns=(vehicle, lat, lon). A file compressed with
        gzip or zstd (rides.csv.gz, events.ndjson.zst) loads as the file inside, decompressed as
        it is read. A path with wildcards (days/*.csv, "data/2024-*/*.csv.gz"; * ? [abc] and **
        for any folders) loads every file it matches as one table, in the order of their names,
        with a last column file naming each row's file; columns are matched by name, and each
        difference between the files is a warning. A load that fails leaves every table as it was.
        Options:
        """ + "\n" + LoadOptionSpec.all.map { "  \($0.name)=\($0.value)".padding(toLength: 34, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"),
        examples: ["load datasets/market.json", "load datasets/market.json as torget", "load datasets/rides.csv with timezone=Europe/London",
                   "load \"datasets/pldp-sf/civic-center-*.csv\" as civic"],
        completes: .file, keywords: ["as", "at", "sheet", "with"] + LoadOptionSpec.all.map(\.name),
        usageHelps: false,
        parse: { p, _ in
            let (path, _) = try p.path()
            var syntax = Syntax(path: path)
            while !p.atEnd && !p.current.isSymbol(.pipe) {
                if p.eatKeyword("as") { syntax.alias = try p.name("a table name after as").0 }
                else if p.eatKeyword("at") { syntax.at = try p.path("a path such as data.items after at").0 }
                else if p.eatKeyword("sheet") { syntax.options.sheet = try p.name("a sheet's name after sheet").0 }
                else if p.eatKeyword("with") { try parseOptions(&p, into: &syntax.options) }
                else { throw Diagnostic("unexpected \(p.current.describe)", at: p.current.span, hint: "load takes a file, then optionally: as NAME, at PATH, sheet NAME, with OPTION=VALUE") }
            }
            return syntax
        })

    /// `with header=false, columns=(a, b), delimiter=";"`: one or more options, comma-separated.
    static func parseOptions(_ p: inout Parser, into options: inout LoadOptions) throws {
        repeat {
            let (word, span) = try p.name("an option after with (\(LoadOptionSpec.all.map(\.name).joined(separator: ", ")))")
            guard let spec = LoadOptionSpec.named(word) else {
                let names = LoadOptionSpec.all.map(\.name)
                let near = Suggest.closest(word.lowercased(), among: names)
                throw Diagnostic("load has no option \(word)", at: span,
                                 hint: (near.map { "did you mean \($0)? " } ?? "") + "the options are " + names.joined(separator: ", "))
            }
            try p.expectSymbol(.equal, "= after \(spec.name), as in \(spec.name)=\(spec.value)")
            let start = p.current.span
            let value: LoadOptionValue
            switch p.current.kind {
            case .string(let s): p.advance(); value = .text(s)
            case .identifier:
                // A word runs on to the next space or comma: America/Los_Angeles, Etc/GMT+1.
                var end = p.current.span.end
                p.advance()
                while !p.atEnd, !p.current.spaceBefore, !p.current.isSymbol(.comma), !p.current.isSymbol(.pipe) {
                    end = p.current.span.end
                    p.advance()
                }
                value = .word(p.source.slice(SourceSpan(start.start, end)))
            case .integer(let m): p.advance(); value = .number(String(m))
            case .number(let d): p.advance(); value = .number(NumberText.double(d))
            case .symbol(.lparen):
                p.advance()
                var names: [String] = []
                if !p.current.isSymbol(.rparen) {
                    repeat { names.append(try p.name("a column name").0) } while p.eatSymbol(.comma)
                }
                try p.expectSymbol(.rparen, "')' after the names")
                value = .list(names)
            default:
                throw Diagnostic("expected a value after \(spec.name)=, found \(p.current.describe)", at: p.current.span,
                                 hint: "\(spec.name)=\(spec.value)")
            }
            do { try spec.apply(&options, value) } catch let e as LoadOptionValue.Problem {
                throw Diagnostic(e.message, at: start, hint: e.hint)
            }
        } while p.eatSymbol(.comma)
    }

    struct Syntax: StatementSyntax {
        var path: String
        var alias: String?
        var at: String?
        var options = LoadOptions()

        var syntax: String {
            "path=\(path.quoted)" + (alias.map { " as=\($0)" } ?? "") + (at.map { " at=\($0)" } ?? "")
                + (options.isEmpty ? "" : " " + options.syntax)
        }

        func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws {
            try interpreter.load(path: path, alias: alias, at: at, options: options, into: &outcome)
        }
    }
}
