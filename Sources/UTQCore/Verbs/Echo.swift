/// `echo TEXT`: prints a line, so a script or a notebook cell can say what comes next.
enum EchoVerb {
    static let spec = VerbSpec(
        name: "echo", category: .session, role: .statement,
        usage: "echo TEXT",
        summary: "Print a line of text (a script saying what comes next).",
        details: """
        The text is printed as written; quotes around the whole of it are dropped, so \
        echo "a, b" prints a, b. In a script, ${name} in it is the value given with --set.
        """,
        examples: ["echo Counting the market square", "echo \"hello, world\""],
        completes: .none,
        usageHelps: false,
        parse: { p, _ in Syntax(text: p.restOfCommand()?.0 ?? "") })

    struct Syntax: StatementSyntax {
        var text: String

        var syntax: String { text }

        func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws {
            var line = text
            if line.count >= 2, line.hasPrefix("\""), line.hasSuffix("\"") { line = String(line.dropFirst().dropLast()) }
            outcome.outputs.append(.text(line + "\n"))
        }
    }
}
