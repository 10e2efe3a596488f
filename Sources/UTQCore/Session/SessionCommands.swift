/// A session command as written: which one, and whether `!` asked it to replace a file.
public struct SessionCommand: Sendable {
    public let spec: SessionCommandSpec
    public var replace: Bool

    public var name: String { spec.name + (replace ? "!" : "") }
}

/// What a session command gets when it runs.
struct SessionCommandCall {
    let interpreter: Interpreter
    let replace: Bool
    let argument: String?
    let span: SourceSpan

    var session: Session { interpreter.session }
}

/// A command about the session rather than the data: `:save`, `:record`, `history` …
/// The one list of them (`SessionCommands.all`) feeds the parser, `help`, completion and
/// the docs.
public struct SessionCommandSpec: Sendable {
    public let name: String
    public let aliases: [String]
    public let usage: String
    public let summary: String
    /// Also written without the colon, alone on a line (`history`, `quit`).
    public let bare: Bool
    let run: @Sendable (SessionCommandCall, inout CommandOutcome) throws -> Void
}

public enum SessionCommands {
    public static let all: [SessionCommandSpec] = [
        SessionCommandSpec(name: "help", aliases: ["h"], usage: ":help [TOPIC]", summary: "The same as help.", bare: false) { call, outcome in
            outcome.outputs.append(.text(try Help.text(for: call.argument)))
            outcome.isHelp = true
        },
        SessionCommandSpec(name: "history", aliases: [], usage: "history", summary: "The commands of this session that worked.", bare: true) { call, outcome in
            let lines = call.session.history.enumerated().map { "\(String($0.offset + 1).leftPadded(4))  \($0.element)" }
            outcome.outputs.append(.text(lines.isEmpty ? "(no commands yet)\n" : lines.joined(separator: "\n") + "\n"))
        },
        SessionCommandSpec(name: "save", aliases: [], usage: ":save FILE.utq   (:save! replaces a file)",
                           summary: "Write this session's commands as a script that runs again to the same results.", bare: false) { call, outcome in
            guard let file = call.argument, !file.isEmpty else {
                throw Diagnostic(":save needs a file name, as in :save lesson.utq", at: call.span)
            }
            let history = call.session.history
            // The commands ran as they are; in a script `${` would ask for a value, so it is
            // written `$${`, which a script reads as `${` again.
            let text = "# utq session\n" + history.map { $0.replacingOccurrences(of: "${", with: "$${") }.joined(separator: "\n") + "\n"
            if let skipped = try call.session.files.write(Array(text.utf8), to: file, replace: call.replace || call.session.settings.replaceFiles,
                                                          span: call.span, replaceHint: "write :save! \(file) to replace it") {
                outcome.outputs.append(.info(skipped))
                return
            }
            outcome.outputs.append(.info("saved \(history.count) commands to \(file)"))
        },
        SessionCommandSpec(name: "record", aliases: [], usage: ":record FILE.md | FILE.html | FILE.ipynb | off",
                           summary: "Keep a notebook of everything from now on; :record off stops.", bare: false) { call, outcome in
            try call.session.record(call.argument, replace: call.replace, span: call.span, into: &outcome)
        },
        SessionCommandSpec(name: "lesson", aliases: [], usage: ":lesson FILE.utq",
                           summary: "In a notebook: grade the cells that start with check N against the lesson's exercise N.", bare: false) { call, outcome in
            try call.session.startLessonChecks(call.argument, span: call.span, into: &outcome)
        },
        SessionCommandSpec(name: "clear", aliases: [], usage: ":clear",
                           summary: "Forget the numbered results and number from [1] again.", bare: false) { call, outcome in
            call.session.workspace.clearResults()
            // A saved script must clear too, or its $n would name other results when it runs again.
            call.session.appendHistory(":clear")
            outcome.outputs.append(.info("results cleared"))
        },
        SessionCommandSpec(name: "quit", aliases: ["exit"], usage: "quit", summary: "Leave utq (Ctrl-D does too).", bare: true) { _, outcome in
            outcome.quit = true
        },
    ]

    /// Names and aliases, for suggestions and completion.
    public static var names: [String] { all.flatMap { [$0.name] + $0.aliases } }

    public static func spec(_ word: String) -> SessionCommand? {
        let w = word.lowercased()
        guard let spec = all.first(where: { $0.name == w || $0.aliases.contains(w) }) else { return nil }
        return SessionCommand(spec: spec, replace: false)
    }
}

extension SessionCommand {
    func replacing(_ replace: Bool) -> SessionCommand {
        var c = self
        c.replace = replace
        return c
    }
}
