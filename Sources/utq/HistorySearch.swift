import CLineEdit
import Foundation
import UTQCore

/// Ctrl-R: find an earlier line by typing part of it, as bash's reverse-i-search does, with
/// a prompt that says what is happening — `(reverse-i-search)`load': load datasets/market.json`.
/// libedit's own search shows only "bck:", which tells a newcomer nothing, and its prompt
/// cannot be named, so the search is utq's: it reads the keys itself and lets libedit draw.
///
/// Typing narrows the search (ignoring case); Ctrl-R again finds the next older line, Ctrl-S
/// a newer one; Backspace takes a letter back. Enter runs the line found; any other key
/// (arrows, Ctrl-A, Ctrl-E, Esc) leaves it to be edited and then does what it does; Ctrl-G
/// gives back the line as it was; Ctrl-C abandons the line, as at the prompt.
extension LineEditor {
    /// Every line of the history, newest first: this session's and the file's.
    func historyLines() -> [String] {
        var lines: [String] = []
        var entry = utq_history_first(history)
        while let p = entry {
            lines.append(String(cString: p))
            entry = utq_history_next(history)
        }
        return lines
    }

    func searchHistory(_ editLine: OpaquePointer, backwards: Bool) -> UInt8 {
        let lines = historyLines().map { Array($0.unicodeScalars) }
        let original = editedLine
        let ownPrompt = prompt
        var query: [Unicode.Scalar] = []
        var found: (index: Int, at: Int)? = nil
        var failing = false
        var forwards = !backwards
        var row = cursorRow(prompt: ownPrompt, text: original.text, cursor: original.cursor)

        // The line at or past `start` (older when going back) that holds the query.
        func search(from start: Int, older: Bool) -> (index: Int, at: Int)? {
            var i = start
            let needle = String(String.UnicodeScalarView(query))
            while i >= 0 && i < lines.count {
                let line = String(String.UnicodeScalarView(lines[i]))
                if let range = line.range(of: needle, options: .caseInsensitive),
                   found.map({ lines[$0.index] != lines[i] || $0.index == i }) ?? true {
                    return (i, line.unicodeScalars.distance(from: line.startIndex, to: range.lowerBound))
                }
                i += older ? 1 : -1
            }
            return nil
        }
        func show() {
            let label = (failing ? "(failing " : "(") + (forwards ? "i-search)`" : "reverse-i-search)`")
                + String(String.UnicodeScalarView(query)) + "': "
            let text = found.map { lines[$0.index] } ?? original.text
            row = redraw(prompt: label, text: text, cursor: found?.at ?? original.cursor, fromRow: row)
        }
        func finish(_ text: [Unicode.Scalar], cursor: Int) {
            redraw(prompt: ownPrompt, text: text, cursor: cursor, fromRow: row)
        }

        show()
        while true {
            var key: wchar_t = 0
            guard el_wgetc(editLine, &key) == 1 else {
                // Ctrl-C (a signal ends the read) or the end of input: the line as it was,
                // and the prompt decides (a fresh line after ^C).
                finish(original.text, cursor: original.cursor)
                return UInt8(CC_EOF)
            }
            let code = UInt32(bitPattern: key)
            switch code {
            case 0x12, 0x13:  // Ctrl-R, Ctrl-S: the next match that way
                forwards = code == 0x13
                if query.isEmpty { break }
                let from = found.map { $0.index + (forwards ? -1 : 1) } ?? 0
                if let next = search(from: from, older: !forwards) { found = next; failing = false } else { failing = true }
            case 0x7F, 0x08:  // Backspace
                guard !query.isEmpty else { break }
                query.removeLast()
                if query.isEmpty { failing = false; break }
                if let match = search(from: found?.index ?? 0, older: true) ?? search(from: 0, older: true) {
                    found = match
                    failing = false
                }
            case 0x07:  // Ctrl-G: as it was before the search
                finish(original.text, cursor: original.cursor)
                return UInt8(CC_NORM)
            case 0x0D, 0x0A:  // Enter: run the line found
                let line = found.map { lines[$0.index] } ?? original.text
                finish(line, cursor: line.count)
                el_push(editLine, "\n")
                return UInt8(CC_NORM)
            default:
                if code >= 0x20 && code != 0x7F, let scalar = Unicode.Scalar(code) {
                    query.append(scalar)
                    if let match = search(from: found?.index ?? 0, older: !forwards) {
                        found = match
                        failing = false
                    } else {
                        failing = true
                    }
                } else {
                    // Any other key edits the line found: it stays, and the key does its work.
                    if let found { finish(lines[found.index], cursor: found.at) } else { finish(original.text, cursor: original.cursor) }
                    if let scalar = Unicode.Scalar(code) { el_push(editLine, String(Character(scalar))) }
                    return UInt8(CC_NORM)
                }
            }
            show()
        }
    }
}
