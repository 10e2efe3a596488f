/// A notebook as Markdown, for handing out or reading on a forge: headings and prose as the
/// author wrote them, each command in a fenced `utq` block, then what it gave. A table that
/// fits the width is a Markdown table (numbers right-aligned); a wider one, charts and other
/// text stay as they print, in a fenced block, so nothing is re-flowed.
enum MarkdownNotebook {
    static func head(_ notebook: Notebook) -> String {
        // A script's notebook starts with its own first heading; a recording gets a title.
        notebook.source == nil ? "# " + escape(notebook.title) + "\n\n" : ""
    }

    static func tail(_ notebook: Notebook) -> String {
        var parts: [String] = []
        if let source = notebook.source { parts.append("made by utq from " + source) }
        let n = notebook.commandCount, e = notebook.errorCount
        parts.append(n == 1 ? "1 command" : "\(n) commands")
        if e > 0 { parts.append(e == 1 ? "1 error" : "\(e) errors") }
        return "---\n\n_" + escape(parts.joined(separator: " · ")) + "_\n"
    }

    static func entry(_ entry: NotebookEntry) -> String {
        switch entry {
        case .heading(let level, let text):
            return String(repeating: "#", count: level) + " " + text + "\n\n"
        case .prose(let text):
            return text + "\n\n"
        case .cell(let cell):
            return self.cell(cell)
        case .hint(let number, let text):
            return "<details><summary>Hint \(number)</summary>\n\n" + text + "\n\n</details>\n\n"
        case .blank(let command):
            return fenced(command, info: "utq")
        }
    }

    static func cell(_ cell: NotebookCell) -> String {
        var out = fenced(cell.command, info: "utq")
        var text = ""  // outputs that print as text, gathered into one block
        func flush() {
            if !text.isEmpty { out += fenced(text, info: "") }
            text = ""
        }
        for output in cell.outputs {
            if case .table(let r) = output, cell.settings.output == .table {
                let layout = TableLayout(r.table, options: cell.settings.render)
                if layout.hidden == 0 && !r.table.columns.isEmpty {
                    flush()
                    out += table(layout) + "\n"
                    out += "_" + escape((r.number.map { "[\($0)] " } ?? "") + layout.footer) + "_\n\n"
                    continue
                }
            }
            text += OutputText.text(output, settings: cell.settings)
        }
        flush()
        if let error = cell.error {
            let showLocation = !(error.source?.name.hasPrefix("<") ?? true)
            out += fenced(DiagnosticRenderer.render(error, showLocation: showLocation), info: "text")
        }
        return out
    }

    /// The rows a layout shows as a Markdown table, with a ⋮ row where rows were left out.
    static func table(_ layout: TableLayout) -> String {
        let columns = 0..<layout.shown
        var lines = ["| " + columns.map { cellText(layout.headers[$0]) }.joined(separator: " | ") + " |"]
        lines.append("|" + columns.map { layout.rightAligned[$0] ? "---:|" : "---|" }.joined())
        for k in layout.rows.indices {
            if k == layout.gapBefore { lines.append("| " + columns.map { _ in "⋮" }.joined(separator: " | ") + " |") }
            lines.append("| " + columns.map { cellText(layout.cells[$0][k]) }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A cell's text made safe inside a table row: pipes and Markdown's marks escaped.
    static func cellText(_ s: String) -> String {
        s.isEmpty ? " " : escape(s).replacingOccurrences(of: "|", with: "\\|")
    }

    /// Text that must read literally in Markdown (a title, a footer, a cell).
    static func escape(_ s: String) -> String {
        var out = ""
        let chars = Array(s)
        for (i, ch) in chars.enumerated() {
            // An _ inside a word (avg_angle) is no emphasis in Markdown: leave it readable.
            let inWord = ch == "_" && i > 0 && i + 1 < chars.count && chars[i - 1].isLetterOrDigit && chars[i + 1].isLetterOrDigit
            if "\\`*_<".contains(ch) && !inWord { out.append("\\") }
            out.append(ch == "\n" ? " " : ch)
        }
        return out
    }

    /// Text in a fenced block whose fence is longer than any run of backticks inside it.
    static func fenced(_ text: String, info: String) -> String {
        var longest = 0, run = 0
        for ch in text {
            if ch == "`" { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        let body = text.hasSuffix("\n") ? text : text + "\n"
        return fence + info + "\n" + body + fence + "\n\n"
    }
}

extension Character {
    var isLetterOrDigit: Bool { isLetter || isNumber }
}
