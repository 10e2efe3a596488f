/// `tables`: the loaded tables as rows, so they can be filtered and sorted like any others.
enum TablesVerb {
    static let spec = VerbSpec(
        name: "tables", aliases: ["ls"], category: .source, role: .source,
        usage: "tables",
        summary: "List the loaded tables with their rows, columns and time span.",
        examples: ["tables", "tables | where rows > 100"],
        completes: .none,
        parse: { _, _ in Syntax() })

    struct Syntax: SourceSyntax {
        var syntax: String { "" }

        func bind(_ binder: Binder) throws -> LogicalPlan {
            LogicalPlan(TablesNode(current: binder.context.currentTable))
        }
    }
}
