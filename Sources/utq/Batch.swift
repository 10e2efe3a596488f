import Foundation
import UTQCore

/// Runs scripts and `-c` text without a prompt: stops at the first error (FILE:LINE:COL on
/// standard error, exit status 1) unless told to keep going.
struct Batch {
    let session: Session
    var keepGoing: Bool
    var echo: Bool

    /// Runs one script; returns whether it ran without errors.
    func run(_ text: String, name: String) -> Bool {
        let printer = Printer(session: session, showLocation: true, batch: true)
        var failed = false
        var bar = ProgressBar.watch(session)
        session.run(Batch.stripShebang(text), name: name, keepGoing: keepGoing) { command, outcome in
            bar?.finish()
            bar = ProgressBar.watch(session)
            if echo { Terminal.out("utq> " + command.shownText.replacingOccurrences(of: "\n", with: "\n ...> ") + "\n") }
            printer.print(outcome)
            if !outcome.succeeded { failed = true }
        }
        bar?.finish()
        return !failed
    }

    /// A `#!` first line is a comment already; keep line numbers by leaving it in place.
    static func stripShebang(_ text: String) -> String { text }
}
