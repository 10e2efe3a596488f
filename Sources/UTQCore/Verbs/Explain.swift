/// `explain PIPELINE`: shows the plan a pipeline runs as, without running it.
enum ExplainVerb {
    static let spec = VerbSpec(
        name: "explain", category: .session, role: .statement,
        usage: "explain PIPELINE",
        summary: "Show the plan a pipeline runs as, step by step, without running it.",
        details: """
        The plan is read from the bottom up: the rows come from the scan, and each step above
        takes the rows of the step below it. Each step names the columns it gives. On a
        database, explain also shows the SQL the pipeline is sent as.
        """,
        examples: ["explain count by legend, hour", "explain where legend = \"Bike\" | count by hour | sort count desc"],
        parse: { p, _ in
            Syntax(pipeline: try p.parsePipeline())
        })

    struct Syntax: StatementSyntax {
        var pipeline: Pipeline

        var syntax: String { SyntaxPrinter.text(pipeline) }

        func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws {
            let query = try interpreter.bind(pipeline)
            outcome.outputs.append(.text(PlanPrinter.text(query, backend: try interpreter.session.backend(for: query.plan))))
        }
    }
}
