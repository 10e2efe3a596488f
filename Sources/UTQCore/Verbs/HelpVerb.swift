/// `help [TOPIC]`: lists the verbs, or explains one thing with examples.
enum HelpVerb {
    static let spec = VerbSpec(
        name: "help", aliases: ["?"], category: .session, role: .statement,
        usage: "help [VERB | TOPIC]",
        summary: "List the verbs, or explain one with examples.",
        examples: ["help", "help count"],
        completes: .topic,
        usageHelps: false,
        parse: { p, _ in Syntax(topic: p.restOfCommand()?.0) })

    struct Syntax: StatementSyntax {
        var topic: String?

        var syntax: String { topic ?? "" }

        func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws {
            outcome.outputs.append(.text(try Help.text(for: topic)))
            outcome.isHelp = true
        }
    }
}
