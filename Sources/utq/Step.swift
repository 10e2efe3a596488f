import Foundation
import UTQCore

/// Presenter mode (`utq --step lesson.utq`): shows each heading and paragraph of a script,
/// then each command, and runs the command only when Enter is pressed, so a teacher can
/// talk through a lesson one result at a time. `q` and Enter (or the end of input) stops.
/// Errors are shown and the lesson goes on, as in class.
struct Stepper {
    let session: Session
    let printer: Printer

    enum End { case finished, quit }

    var color: Bool { Terminal.stdoutIsTTY && Terminal.colorAllowed }
    func bold(_ s: String) -> String { color ? "\u{1B}[1m" + s + "\u{1B}[0m" : s }
    func dim(_ s: String) -> String { color ? "\u{1B}[2m" + s + "\u{1B}[0m" : s }

    /// Runs one script a step at a time; `failed` becomes true when a command fails.
    func run(_ text: String, name: String, failed: inout Bool) -> End {
        let blocks = LiterateScript.blocks(in: SourceText(name: name, text: text))
        let total = blocks.reduce(0) { n, b in
            switch b {
            case .command, .answer: return n + 1
            default: return n
            }
        }
        var step = 0
        var afterHeading = false
        for block in blocks {
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
            case .wrong:
                continue
            case .command(let command), .answer(let command):
                step += 1
                Terminal.out("utq> " + command.text.replacingOccurrences(of: "\n", with: "\n ...> ") + "\n")
                guard waitForEnter(step: step, of: total) else { return .quit }
                let outcome = session.execute(command)
                printer.print(outcome)
                if !outcome.succeeded { failed = true }
                if outcome.quit { return .quit }
            }
        }
        return .finished
    }

    /// Shows what the keys do and waits; false when asked to stop.
    func waitForEnter(step: Int, of total: Int) -> Bool {
        let errColor = Terminal.stderrIsTTY && Terminal.colorAllowed
        // A Ctrl-C that stopped the command before is spent; only one pressed now stops.
        interruptFlag.reset()
        let hint = "  step \(step) of \(total) · Enter runs it · q and Enter quits "
        Terminal.err(errColor ? "\u{1B}[2m" + hint + "\u{1B}[0m" : hint)
        guard let answer = Stepper.readKeys() else {
            Terminal.err("\n")
            return false  // no more input, or Ctrl-C: no Enter will come
        }
        if Terminal.stdinIsTTY && Terminal.stderrIsTTY {
            // The Enter moved to a new line: go back up and clear the hint, so the screen
            // shows only the command and its output.
            Terminal.err("\u{1B}[1A\r\u{1B}[2K")
        } else if !Terminal.stdinIsTTY {
            Terminal.err("\n")  // keys read from a pipe are not echoed
        }
        let word = answer.trimmingCharacters(in: .whitespaces).lowercased()
        return !(word == "q" || word == "quit" || word == "exit")
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
