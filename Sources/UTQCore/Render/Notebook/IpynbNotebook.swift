import Foundation

/// A notebook as a Jupyter notebook (nbformat 4.5): headings and prose as Markdown cells,
/// each command a code cell with its outputs as Jupyter shows them: a table as HTML (and
/// plain text), a chart as SVG, notes on stdout, warnings on stderr, an error as an error.
/// The notebook opens in JupyterLab and runs again with the utq kernel.
enum IpynbNotebook {
    /// Cell ids are filled in when the cells are put together (`joined`), in order.
    static let idMark = "@CELL-ID@"

    static func head(_ notebook: Notebook) -> String {
        var cells = ""
        if notebook.source == nil { cells = markdown("# " + notebook.title) + ",\n" }
        return "{\n \"cells\": [\n" + cells
    }

    static func tail(_ notebook: Notebook) -> String {
        let metadata: [String: Any] = [
            "kernelspec": ["name": "utq", "display_name": "utq", "language": "utq"],
            "language_info": ["name": "utq", "file_extension": ".utq", "mimetype": "text/x-utq"],
        ]
        return "\n ],\n \"metadata\": " + json(metadata) + ",\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"
    }

    /// The cells with commas between them and each its own id.
    static func joined(_ cells: [String]) -> String {
        var out = ""
        var n = 0
        for (k, cell) in cells.enumerated() {
            var c = cell
            while let r = c.range(of: idMark) { n += 1; c.replaceSubrange(r, with: "cell-\(n)") }
            out += (k == 0 ? "" : ",\n") + c
        }
        return out
    }

    static func entry(_ entry: NotebookEntry) -> String {
        switch entry {
        case .heading(let level, let text): return markdown(String(repeating: "#", count: level) + " " + text)
        case .prose(let text): return markdown(text)
        case .cell(let cell): return code(cell)
        case .hint(let number, let text): return markdown("<details><summary>Hint \(number)</summary>\n\n" + text + "\n\n</details>")
        case .blank(let command):
            return json(["cell_type": "code", "id": idMark, "metadata": [String: Any](), "source": lines(command),
                         "execution_count": NSNull(), "outputs": [Any]()])
        }
    }

    static func markdown(_ text: String) -> String {
        json(["cell_type": "markdown", "id": idMark, "metadata": [String: Any](), "source": lines(text)])
    }

    static func code(_ cell: NotebookCell) -> String {
        var count: Int? = nil
        for output in cell.outputs {
            if case .table(let r) = output { count = count ?? r.number }
            if case .chart(let c) = output { count = count ?? c.number }
        }
        // nbformat keeps text as a list of lines.
        let outputs = JupyterOutputs.of(cell.outputs, error: cell.error, settings: cell.settings).map { output in
            var o = output
            if let text = o["text"] as? String { o["text"] = lines(text) }
            if let data = o["data"] as? [String: Any] { o["data"] = data.mapValues { ($0 as? String).map(lines) ?? $0 } }
            return o
        }
        return json(["cell_type": "code", "id": idMark, "metadata": [String: Any](), "source": lines(cell.command),
                     "execution_count": count.map { $0 as Any } ?? NSNull(), "outputs": outputs])
    }

    /// Text as Jupyter keeps it: a list of lines, each with its line break but the last.
    static func lines(_ text: String) -> [String] {
        var parts = text.components(separatedBy: "\n")
        if parts.last == "" { parts.removeLast() }
        return parts.enumerated().map { k, line in k < parts.count - 1 || text.hasSuffix("\n") ? line + "\n" : line }
    }

    static func json(_ object: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return "  " + String(decoding: data, as: UTF8.self)
    }
}
