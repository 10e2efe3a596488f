import Foundation
import UTQCore

/// The interactive prompt: reads a line (more while a pipeline is unfinished), runs it,
/// prints the outputs, and never ends on an error. Ctrl-C clears the line or cancels the
/// running command; Ctrl-D (or quit) ends the session.
struct REPL {
    let session: Session

    static var historyPath: String? {
        if let custom = Environment.value("UTQ_HISTORY") { return custom.isEmpty ? nil : custom }
        let home = Environment.value("HOME") ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(".utq_history")
    }

    func run(banner: Bool = true) {
        let editor = LineEditor(historyFile: HistoryFile.checked(REPL.historyPath), complete: { [session] line in session.complete(line) })
        Signals.onTerminate = { editor.saveHistory() }
        var printer = Printer(session: session, showLocation: false)
        printer.pages = true
        if banner {
            Terminal.out("utq — type help for the verbs, Tab to complete, Ctrl-D to leave.\n")
        }
        let reader = CommandReader(editor: editor, prompt: "utq> ", continuation: " ...> ")
        while true {
            switch reader.read() {
            case .end:
                editor.saveHistory()
                return
            case .interrupted:
                continue
            case .command(let text):
                if text.isEmpty { continue }
                // Written after every command (whole, through a temporary file), so a crash
                // or a kill loses none of it.
                editor.saveHistory()
                var quit = false
                var bar = ProgressBar.watch(session)
                session.run(text, name: "<input>", keepGoing: true) { _, outcome in
                    bar?.finish()
                    bar = ProgressBar.watch(session)
                    printer.print(outcome)
                    if outcome.quit { quit = true }
                }
                bar?.finish()
                interruptFlag.reset()
                if quit {
                    editor.saveHistory()
                    return
                }
            }
        }
    }
}
