import Foundation

/// `set NAME VALUE`: changes a setting; `set NAME` shows it, `set` shows them all.
enum SetVerb {
    static let spec = VerbSpec(
        name: "set", category: .session, role: .statement,
        usage: "set [NAME [VALUE]]",
        summary: "Change a setting; set NAME shows one, set alone shows them all.",
        details: details,
        examples: ["set timezone Europe/Oslo", "set output csv", "set output table", "set output", "set"],
        completes: .setting,
        parse: { p, _ in
            if p.atEnd { return Syntax(name: nil, value: nil) }
            // Read like a path, so names with a dash (csv-safe) are one word.
            let (name, nameSpan) = try p.path("a setting name")
            let value = p.restOfCommand()
            return Syntax(name: name.lowercased(), nameSpan: nameSpan, value: value?.0, valueSpan: value?.1)
        })

    /// The settings, from their registry; each has its own help (help timezone).
    static var details: String {
        let width = SettingsRegistry.all.map(\.name.count).max() ?? 0
        return SettingsRegistry.all.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
            .joined(separator: "\n") + "\n\nEach setting has its own help: help timezone."
    }

    struct Syntax: StatementSyntax {
        var name: String?
        var nameSpan: SourceSpan = .none
        var value: String?
        var valueSpan: SourceSpan?

        var syntax: String { [name, value].compactMap { $0 }.joined(separator: " ") }

        func perform(_ interpreter: Interpreter, into outcome: inout CommandOutcome) throws {
            guard let name else {
                outcome.outputs.append(.text(SettingsRegistry.listing(interpreter.session)))
                return
            }
            guard let setting = SettingsRegistry.spec(name) else {
                throw Diagnostic(.unknownSetting(name, suggestion: Suggest.closest(name, among: SettingsRegistry.names)), at: nameSpan)
            }
            guard let value else {
                outcome.outputs.append(.text("\(setting.name) \(setting.current(interpreter.session))"))
                return
            }
            let change = SettingChange(name: name, value: value, span: valueSpan ?? nameSpan, session: interpreter.session)
            if let note = try setting.apply(change) { outcome.outputs.append(.info(note)) }
        }
    }
}
