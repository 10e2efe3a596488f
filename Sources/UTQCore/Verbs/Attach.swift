/// `attach URI [as NAME]`: a database's tables become `NAME.table`; pipelines that start
/// there run in the database.
enum AttachVerb {
    static let spec = VerbSpec(
        name: "attach", aliases: [], category: .source, role: .statement,
        usage: "attach URI [as NAME]",
        summary: "Attach a PostgreSQL database: its tables become NAME.table and run there as SQL.",
        details: """
        The URI is libpq's (postgresql://user@host:port/dbname, or postgresql:///dbname?host=/tmp
        for a local socket); what it leaves out comes from the PG* variables (PGHOST, PGUSER,
        PGPASSWORD …). The name defaults to db. The tables and views appear with their columns
        and types without reading a row; a pipeline that starts from one is sent to the database
        as one SQL query and only its result comes back (explain shows the SQL). Ctrl-C cancels
        the query on the server. Attaching the same name again replaces the connection.
        """,
        examples: ["attach postgresql:///mobility?host=/tmp/pg as db", "db.rides | count by hour"],
        completes: .file, keywords: ["as"],
        usageHelps: false,
        parse: { p, _ in
            let (uri, span) = try p.path("a database URI such as postgresql:///mobility")
            if uri == "as" {
                throw Diagnostic("attach needs a database URI before as", at: span, hint: "as in attach postgresql:///mobility as db")
            }
            var syntax = Syntax(uri: uri)
            while !p.atEnd && !p.current.isSymbol(.pipe) {
                if p.eatKeyword("as") { syntax.alias = try p.name("a name after as").0 }
                else { throw Diagnostic("unexpected \(p.current.describe)", at: p.current.span, hint: "attach takes a URI, then optionally: as NAME") }
            }
            return syntax
        })

    struct Syntax: StatementSyntax {
        var uri: String
        var alias: String?

        var syntax: String { "uri=\(uri.quoted)" + (alias.map { " as=\($0)" } ?? "") }

        func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws {
            try interpreter.attach(uri: uri, name: alias ?? "db", into: &outcome)
        }
    }
}

extension Interpreter {
    func attach(uri: String, name: String, into outcome: inout CommandOutcome) throws {
        guard let connector = session.databaseConnector else {
            throw Diagnostic("this utq was built without database support", hint: "tables can be loaded from files: load FILE")
        }
        // Times show in the session's zone, as a loaded file's do, or in the zone a table
        // saved by utq keeps.
        let database = try connector.attach(uri: uri, name: name, zone: session.defaultZone, cancel: session.cancel)
        let tables = try database.tables().map { CatalogEntry.remote($0) }
        if let old = session.databases[name] { old.close() }
        workspace.dropTables { $0.database == name }
        session.databases[name] = database
        workspace.put(tables, makeCurrent: false)
        let names = tables.map { String($0.name.dropFirst(name.count + 1)) }
        let listed = names.count <= 8 ? names.joined(separator: ", ") : names.prefix(8).joined(separator: ", ") + ", …"
        outcome.outputs.append(.info("attached \(database.location) as \(name): \(names.count) \(names.count == 1 ? "table" : "tables")" + (names.isEmpty ? "" : " (\(listed))")))
        outcome.outputs += database.notes.map { .info($0) }
    }
}
