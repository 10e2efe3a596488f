import CLineEdit
import Foundation
import UTQCore

/// Drawing around libedit's line: below it (a list of completions, a ^C), and over it (the
/// history search's own prompt). libedit keeps a picture of what it drew; these keep the
/// screen and that picture the same.
extension LineEditor {
    /// The line being edited, as libedit holds it: one entry per character.
    var editedLine: (text: [Unicode.Scalar], cursor: Int) {
        guard let info = el_wline(el)?.pointee, let start = info.buffer else { return ([], 0) }
        let count = info.lastchar - start
        let text = (0..<count).map { Unicode.Scalar(UInt32(bitPattern: start[$0])) ?? "?" }
        return (text, min(max(info.cursor - start, 0), count))
    }

    /// Moves the terminal's cursor to the start of the line after the edited line, however
    /// many rows it takes and wherever in it the cursor was, by writing the characters after
    /// the cursor again (they are the ones already shown) and then `suffix` and a newline.
    func moveBelowLine(suffix: String = "") {
        let line = editedLine
        let rest = line.text[line.cursor...].map { c -> String in
            // libedit shows a control character as ^X.
            c.value < 0x20 ? "^" + String(Unicode.Scalar(c.value + 0x40)!) : (c.value == 0x7F ? "^?" : String(c))
        }.joined()
        Terminal.out(rest + suffix + "\n")
    }

    /// After text was written below the line (and the cursor is at the start of a row): the
    /// prompt and the line drawn anew from there, libedit's picture of the screen with them.
    func redrawBelow() {
        _ = utq_el_set_refresh(el)
    }

    /// The row (from the prompt's) that the cursor is on when libedit shows `prompt` then
    /// `text` with the cursor after `cursor` characters: libedit wraps at its width.
    func cursorRow(prompt: String, text: [Unicode.Scalar], cursor: Int) -> Int {
        let columns = Int(utq_el_columns(el))
        let width = columns > 0 ? columns : Terminal.width
        let before = String(String.UnicodeScalarView(text[..<min(cursor, text.count)]))
        return (TextWidth.of(prompt) + TextWidth.of(before)) / max(width, 1)
    }

    /// Draws `prompt` and `text` over what libedit shows now, whose cursor is on `row`:
    /// back to the prompt's first column, clear to the end of the screen, and let libedit
    /// draw the whole as on a cleared screen. Returns the row the cursor is on afterwards.
    @discardableResult
    func redraw(prompt newPrompt: String, text: [Unicode.Scalar], cursor: Int, fromRow row: Int) -> Int {
        Terminal.out("\r" + (row > 0 ? "\u{1B}[\(row)A" : "") + "\u{1B}[J")
        setPrompt(newPrompt)
        replaceLine(with: text, cursor: cursor)
        _ = utq_el_set_refresh(el)
        return cursorRow(prompt: newPrompt, text: text, cursor: cursor)
    }

    /// Puts `text` in the line, with the cursor after `cursor` characters.
    func replaceLine(with text: [Unicode.Scalar], cursor: Int) {
        let line = editedLine
        el_cursor(el, Int32(line.text.count - line.cursor))
        el_deletestr(el, Int32(line.text.count))
        if !text.isEmpty { el_insertstr(el, String(String.UnicodeScalarView(text))) }
        el_cursor(el, -Int32(text.count - min(cursor, text.count)))
    }
}
