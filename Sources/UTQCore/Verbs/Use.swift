/// `use TABLE`: makes a loaded table the current one.
enum UseVerb {
    static let spec = VerbSpec(
        name: "use", category: .source, role: .statement,
        usage: "use TABLE",
        summary: "Make a loaded table the current one, so lines without a table run on it.",
        examples: ["use market"],
        completes: .table,
        parse: { p, _ in
            let (name, span) = try p.name("a table name")
            return Syntax(table: name, span: span)
        })

    struct Syntax: StatementSyntax {
        var table: String
        var span: SourceSpan

        var syntax: String { table }

        func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws {
            let name = try interpreter.binder().resolveTable(table, span)
            interpreter.workspace.use(name)
            outcome.outputs.append(.info(Loaders.summary(interpreter.workspace.catalog[name]!)))
        }
    }
}
