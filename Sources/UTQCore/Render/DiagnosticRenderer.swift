/// Errors as people read them: where (FILE:LINE:COL in scripts), what, the line with a
/// caret under the problem, a hint, and the verb's usage.
public enum DiagnosticRenderer {
    /// `width`: a terminal's columns; a message or hint longer than that is broken between
    /// words, its lines under its first (a table's forty column names, a list of settings). A usage is
    /// a command and stays whole, as in help.
    public static func render(_ d: Diagnostic, showLocation: Bool, color: Bool = false, width: Int? = nil) -> String {
        var out = ""
        let red = color ? "\u{1B}[31m" : "", dim = color ? "\u{1B}[2m" : "", reset = color ? "\u{1B}[0m" : ""
        // Messages quote names from files (columns, paths, values): their control characters
        // are shown escaped, as cells are.
        if showLocation, let loc = d.location { out += TextWidth.printable(loc) + ": " }
        // At a terminal a long message breaks between words, its lines under its text.
        let message = "error: " + TextWidth.printableLines(SecretText.masked(d.message))
        let shown = width.map { TextWrap.hanging(message, width: $0, indent: "error: ".count) } ?? message
        out += "\(red)error:\(reset)" + shown.dropFirst("error:".count) + "\n"
        if let source = d.source, let span = d.span {
            let (lineText, lineStart) = source.lineText(containing: span.start)
            // The line as typed may hold a password: it is quoted masked, the caret moved with it.
            let line = MaskedLine(lineText)
            let printable = TextWidth.printable(line.text)
            if !printable.trimmingCharacters(in: .whitespaces).isEmpty {
                let bytes = Array(line.text.utf8)
                let start = min(line.offset(max(0, span.start - lineStart)), bytes.count)
                let end = min(line.offset(max(0, span.end - lineStart), end: true), bytes.count)
                let before = String(decoding: bytes[..<start], as: UTF8.self)
                let inside = end > start ? String(decoding: bytes[start..<end], as: UTF8.self) : ""
                let pad = String(repeating: " ", count: TextWidth.of(TextWidth.printable(before)))
                let marks = String(repeating: "^", count: max(1, TextWidth.of(TextWidth.printable(inside))))
                out += "  \(printable)\n  \(pad)\(red)\(marks)\(reset)\n"
            }
        }
        func labelled(_ label: String, _ text: String, wrapped: Bool = false) -> String {
            let lead = "  \(label): "
            guard wrapped, let width, !text.contains("\n"), TextWidth.of(lead + text) > width else { return "  \(dim)\(label):\(reset) \(text)\n" }
            let indent = String(repeating: " ", count: lead.count)
            let lines = TextWrap.words(text, width: width - lead.count)
            return "  \(dim)\(label):\(reset) " + lines.joined(separator: "\n" + indent) + "\n"
        }
        if let hint = d.hint { out += labelled("hint", TextWidth.printableLines(SecretText.masked(hint)), wrapped: true) }
        if let usage = d.usage { out += labelled("usage", TextWidth.printableLines(usage)) }
        return out
    }
}

import Foundation
