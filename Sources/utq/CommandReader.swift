import Foundation
import UTQCore

/// Reads whole commands at a prompt: a line, and more lines while the command is unfinished
/// (a trailing `|`, an open quote or bracket), each at a continuation prompt as wide as the
/// prompt. `utq>` and `lesson>` read the same way: the same editor, keys, history and Tab.
/// Ctrl-C drops what was typed and leaves ^C after it; Ctrl-D on an empty line ends.
struct CommandReader {
    enum Event { case command(String), interrupted, end }

    let editor: LineEditor
    let prompt: String
    let continuation: String

    init(editor: LineEditor, prompt: String, continuation: String? = nil) {
        self.editor = editor
        self.prompt = prompt
        // "lesson> " goes on at "   ...> ": the text lines up under the first line's.
        self.continuation = continuation ?? String(repeating: " ", count: max(0, prompt.count - 5)) + "...> "
    }

    func read() -> Event {
        var pending = ""
        while true {
            switch editor.readLine(prompt: pending.isEmpty ? prompt : continuation) {
            case .end:
                // Ctrl-D inside an unfinished command drops it, as at a shell.
                Terminal.out("\n")
                if !pending.isEmpty { pending = ""; continue }
                return .end
            case .interrupted:
                // ^C after the whole line (the cursor may have been inside it), so what was
                // abandoned stays readable above the new prompt, as bash does.
                interruptFlag.reset()
                editor.moveBelowLine(suffix: "^C")
                return .interrupted
            case .line(let line):
                pending += pending.isEmpty ? line : "\n" + line
                if Script.isIncomplete(pending) { continue }
                if pending.trimmingCharacters(in: .whitespaces).isEmpty { return .command("") }
                editor.add(pending.replacingOccurrences(of: "\n", with: " "))
                return .command(pending)
            }
        }
    }
}
