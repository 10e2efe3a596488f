/// `describe [TABLE]`: a table about the columns of the rows that reach it.
enum DescribeVerb {
    static let spec = VerbSpec(
        name: "describe", aliases: ["schema"], category: .source,
        usage: "describe [TABLE]",
        summary: "Show each column's type, how many values it has, and its range.",
        examples: ["describe", "describe market", "where legend = \"Bike\" | describe"],
        completes: .table,
        parse: { p, _ in
            if p.atEnd || p.current.isSymbol(.pipe) { return Syntax(table: nil) }
            let (name, span) = try p.name("a table name")
            return Syntax(table: .table(name, span))
        })

    struct Syntax: StageSyntax {
        /// `describe market`: the table to describe, instead of the rows before.
        var table: PipelineSource?

        var syntax: String {
            if case .table(let name, _) = table { return name }
            return ""
        }

        var namedInput: PipelineSource? { table }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            LogicalPlan(DescribeNode(input))
        }
    }
}
