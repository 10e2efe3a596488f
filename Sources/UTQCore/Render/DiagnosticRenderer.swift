/// Errors as people read them: where (FILE:LINE:COL in scripts), what, the line with a
/// caret under the problem, a hint, and the verb's usage.
public enum DiagnosticRenderer {
    public static func render(_ d: Diagnostic, showLocation: Bool, color: Bool = false) -> String {
        var out = ""
        let red = color ? "\u{1B}[31m" : "", dim = color ? "\u{1B}[2m" : "", reset = color ? "\u{1B}[0m" : ""
        // Messages quote names from files (columns, paths, values): their control characters
        // are shown escaped, as cells are.
        if showLocation, let loc = d.location { out += TextWidth.printable(loc) + ": " }
        out += "\(red)error:\(reset) \(TextWidth.printableLines(SecretText.masked(d.message)))\n"
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
        if let hint = d.hint { out += "  \(dim)hint:\(reset) \(TextWidth.printableLines(SecretText.masked(hint)))\n" }
        if let usage = d.usage { out += "  \(dim)usage:\(reset) \(TextWidth.printableLines(usage))\n" }
        return out
    }
}

import Foundation
