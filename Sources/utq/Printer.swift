import Foundation
import UTQCore

/// Sends a command's outputs where they belong: results to standard output, notes to
/// standard error when standard output is a file or a pipe (so `> out.csv` stays clean).
struct Printer {
    let session: Session
    /// Show FILE:LINE:COL before errors (scripts), or only the caret (the REPL).
    let showLocation: Bool
    /// A script or `-c` run: tables kept with `let` are not printed, only their note.
    var batch = false
    /// The prompt: help taller than the window goes through the pager (Pager).
    var pages = false

    var infoToStdout: Bool { Terminal.stdoutIsTTY }

    func print(_ outcome: CommandOutcome) {
        if outcome.isHelp {
            printHelp(outcome)
        } else {
            for output in outcome.outputs { print(output) }
        }
        if let error = outcome.error { print(error) }
    }

    /// Help is fitted to the terminal's width (80 columns in a pipe) between words, and at
    /// the prompt a text taller than the window is paged.
    func printHelp(_ outcome: CommandOutcome) {
        let width = Terminal.textWidth
        let outputs = outcome.outputs.map { output -> Output in
            if case .text(let s) = output { return .text(TextWrap.fit(s, width: width)) }
            return output
        }
        if pages {
            let text = outputs.compactMap { output -> String? in
                if case .text = output { return OutputText.text(output, settings: session.settings) }
                return nil
            }.joined()
            if Pager.wanted(for: text, session: session) {
                Pager.show(text)
                for output in outputs { if case .text = output {} else { print(output) } }
                return
            }
        }
        for output in outputs { print(output) }
    }

    func print(_ output: Output) {
        var settings = session.settings
        let text: String
        if batch, case .table(let r) = output, r.keptAs != nil { return }
        switch output {
        case .table, .text, .chart:
            var text = OutputText.text(output, settings: settings)
            // CSV and TSV carry cells as they are, which a file should; a terminal must not
            // get the control characters of a cell (an escape sequence would take it over).
            if case .table = output, settings.output != .table, Terminal.stdoutIsTTY {
                text = TextWidth.printableLines(text, keepingTabs: true)
            }
            Terminal.out(text)
        case .info:
            // At a terminal a long note breaks between words, not where the window ends.
            if infoToStdout { Terminal.out(TextWrap.hanging(OutputText.text(output, settings: settings), width: Terminal.width, indent: 2)) }
            else {
                settings.render.color = false
                Terminal.err(OutputText.text(output, settings: settings))
            }
        case .warning:
            let color = Terminal.stderrIsTTY && Terminal.colorAllowed
            settings.render.color = false
            text = OutputText.text(output, settings: settings)
            guard Terminal.stderrIsTTY else { Terminal.err(text); return }
            // Its lines under its text, and the label coloured after the breaking, which
            // counts what shows.
            let wrapped = TextWrap.hanging(text, width: Terminal.width, indent: "warning: ".count)
            Terminal.err(color ? "\u{1B}[33mwarning:\u{1B}[0m" + wrapped.dropFirst("warning:".count) : wrapped)
        }
    }

    func print(_ error: Diagnostic) {
        let color = Terminal.stderrIsTTY && Terminal.colorAllowed
        Terminal.err(DiagnosticRenderer.render(error, showLocation: showLocation, color: color,
                                               width: Terminal.stderrIsTTY ? Terminal.width : nil))
    }
}
