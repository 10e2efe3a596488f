import Foundation
import UTQCore

/// Presenter mode (`utq --step lesson.utq`): shows each heading and paragraph of a script,
/// then each command, and runs the command only when Enter is pressed, so a teacher can
/// talk through a lesson one result at a time. A command typed at a step runs first (a
/// student's question, tried there and then); `back` shows the step before again; `q` and
/// Enter (or the end of input) stops.
/// Errors are shown and the lesson goes on, as in class.
struct Stepper {
    let session: Session
    let printer: Printer

    enum End { case finished, quit }

    var color: Bool { Terminal.stdoutIsTTY && Terminal.colorAllowed }
    func bold(_ s: String) -> String { color ? "\u{1B}[1m" + s + "\u{1B}[0m" : s }
    func dim(_ s: String) -> String { color ? "\u{1B}[2m" + s + "\u{1B}[0m" : s }

    /// Runs one script a step at a time; `failed` becomes true when a command fails. What
    /// the presenter types at a step runs instead (and is kept in the history), then the
    /// step waits again; `back` goes to the step before.
    func run(_ text: String, name: String, failed: inout Bool) -> End {
        let blocks = LiterateScript.blocks(in: SourceText(name: name, text: text))
        let steps = blocks.indices.filter { k in
            switch blocks[k] {
            case .command, .answer: return true
            default: return false
            }
        }
        let total = steps.count
        var step = 0
        var afterHeading = false
        var k = 0
        while k < blocks.count {
            let block = blocks[k]
            k += 1
            defer { if case .heading = block { afterHeading = true } else { afterHeading = false } }
            switch block {
            case .heading(let level, let text):
                Terminal.out("\n" + bold(String(repeating: "#", count: level) + " " + text) + "\n")
                session.remark(block)
            case .prose(let text):
                // A paragraph stands apart from the output above it, as on a page.
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { dim(String($0)) }
                Terminal.out((afterHeading ? "" : "\n") + lines.joined(separator: "\n") + "\n")
                session.remark(block)
            case .hint(let text):
                Terminal.out(dim("Hint: " + text) + "\n")
                session.remark(block)
            case .wrong, .alternative, .rule:
                continue
            case .command(let command), .answer(let command):
                step = (steps.firstIndex(of: k - 1) ?? 0) + 1
                var decided = false
                let shown = "utq> " + command.shownText.replacingOccurrences(of: "\n", with: "\n ...> ")
                while !decided {
                    Terminal.out(shown + "\n")
                    switch waitForEnter(step: step, of: total) {
                    case .run:
                        decided = true
                    case .quit:
                        return .quit
                    case .back:
                        // The step before: its command shows again and runs on Enter; this
                        // one, not run, leaves the screen.
                        if step > 1 { erase(shown); k = steps[step - 2]; decided = true }
                        else { Terminal.err("this is the first step\n") }
                    case .typed(let line):
                        // What was typed stays on screen above its output, in place of the
                        // step's command, which shows again after it.
                        erase(shown)
                        Terminal.out("utq> " + line + "\n")
                        session.run(line, name: "<step>", keepGoing: true) { _, outcome in printer.print(outcome) }
                    }
                }
                if k != steps[step - 1] + 1 { continue }
                let outcome = session.execute(command)
                printer.print(outcome)
                if !outcome.succeeded { failed = true }
                if outcome.quit { return .quit }
            }
        }
        return .finished
    }

    enum Key { case run, quit, back, typed(String) }

    /// Takes lines just shown off a terminal's screen (nothing elsewhere: a pipe keeps all).
    func erase(_ text: String) {
        guard Terminal.stdinIsTTY && Terminal.stderrIsTTY && Terminal.stdoutIsTTY else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        Terminal.err("\u{1B}[\(lines)A\r\u{1B}[J")
    }

    /// Shows what the keys do and waits; false when asked to stop.
    func waitForEnter(step: Int, of total: Int) -> Key {
        let errColor = Terminal.stderrIsTTY && Terminal.colorAllowed
        // A Ctrl-C that stopped the command before is spent; only one pressed now stops.
        interruptFlag.reset()
        let hint = "  step \(step) of \(total) · Enter runs it · type a command to try it · back · q quits "
        Terminal.err(errColor ? "\u{1B}[2m" + hint + "\u{1B}[0m" : hint)
        guard let answer = Stepper.readKeys() else {
            Terminal.err("\n")
            return .quit  // no more input, or Ctrl-C: no Enter will come
        }
        if Terminal.stdinIsTTY && Terminal.stderrIsTTY {
            // The Enter moved to a new line: go back up and clear the hint, so the screen
            // shows only the command and its output.
            Terminal.err("\u{1B}[1A\r\u{1B}[2K")
        } else if !Terminal.stdinIsTTY {
            Terminal.err("\n")  // keys read from a pipe are not echoed
        }
        let typed = answer.trimmingCharacters(in: .whitespaces)
        switch typed.lowercased() {
        case "": return .run
        case "q", "quit", "exit": return .quit
        case "back", "b": return .back
        default: return .typed(typed)
        }
    }

    /// A line typed on standard input, or nil at its end or when Ctrl-C interrupts the wait.
    /// It waits with poll and looks at the Ctrl-C flag between waits, rather than blocking
    /// in readLine: an interrupted read may be tried again (readLine spun on it at a real
    /// terminal), and a Ctrl-C that lands just before the read, or on another thread,
    /// interrupts nothing.
    static func readKeys() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            if interruptFlag.isCancelled { return nil }
            var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, 100)
            if polled == 0 || (polled < 0 && errno == EINTR) { continue }
            if polled < 0 { return nil }
            let n = read(STDIN_FILENO, &byte, 1)
            if n == 1 {
                if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(byte)
            } else if n == 0 {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            } else if errno != EINTR {
                return nil
            }
        }
    }
}
