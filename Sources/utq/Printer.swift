import Foundation
import UTQCore

/// Sends a command's outputs where they belong: results to standard output, notes to
/// standard error when standard output is a file or a pipe (so `> out.csv` stays clean).
struct Printer {
    let session: Session
    /// Show FILE:LINE:COL before errors (scripts), or only the caret (the REPL).
    let showLocation: Bool
    var interactive: Bool

    var infoToStdout: Bool { Terminal.stdoutIsTTY }

    func print(_ outcome: CommandOutcome) {
        for output in outcome.outputs { print(output) }
        if let error = outcome.error { print(error) }
    }

    func print(_ output: Output) {
        let options = session.settings.render
        switch output {
        case .table(let r):
            let format = session.settings.output
            if format == .table {
                let footer = r.number.map { "[\($0)]" }
                Terminal.out(TableRenderer.render(r.table, options: options, footer: footer))
            } else {
                Terminal.out(TableWriter.text(r.table, format: format, options: options))
            }
        case .text(let s):
            Terminal.out(s.hasSuffix("\n") ? s : s + "\n")
        case .info(let s):
            let line = (options.color ? "\u{1B}[2m" + s + "\u{1B}[0m" : s) + "\n"
            if infoToStdout { Terminal.out(line) } else { Terminal.err(line) }
        case .warning(let s):
            let color = Terminal.stderrIsTTY && Terminal.colorAllowed
            Terminal.err((color ? "\u{1B}[33mwarning:\u{1B}[0m " : "warning: ") + s + "\n")
        }
    }

    func print(_ error: Diagnostic) {
        let color = Terminal.stderrIsTTY && Terminal.colorAllowed
        Terminal.err(DiagnosticRenderer.render(error, showLocation: showLocation, color: color))
    }
}
