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
        }
    }

    static func markdown(_ text: String) -> String {
        json(["cell_type": "markdown", "id": idMark, "metadata": [String: Any](), "source": lines(text)])
    }

    static func code(_ cell: NotebookCell) -> String {
        var outputs: [[String: Any]] = []
        var count: Int? = nil
        for output in cell.outputs {
            switch output {
            case .table(let r):
                count = count ?? r.number
                var data: [String: Any] = ["text/plain": lines(OutputText.text(output, settings: cell.settings))]
                if cell.settings.output == .table && !r.table.columns.isEmpty {
                    var render = cell.settings.render
                    render.width = Int.max / 4
                    data["text/html"] = lines(HTMLNotebook.table(TableLayout(r.table, options: render)))
                }
                outputs.append(["output_type": "execute_result", "execution_count": r.number.map { $0 as Any } ?? NSNull(),
                                "data": data, "metadata": [String: Any]()])
            case .chart(let c):
                count = count ?? c.number
                outputs.append(["output_type": "display_data", "metadata": [String: Any](),
                                "data": ["image/svg+xml": lines(HTMLNotebook.inlineSVG(c.chart.svg())),
                                         "text/plain": lines(c.footer ?? c.chart.title)]])
            case .text:
                outputs.append(stream("stdout", OutputText.text(output, settings: cell.settings)))
            case .info:
                outputs.append(stream("stdout", OutputText.text(output, settings: cell.settings)))
            case .warning:
                outputs.append(stream("stderr", OutputText.text(output, settings: cell.settings)))
            }
        }
        if let e = cell.error {
            let text = DiagnosticRenderer.render(e, showLocation: !(e.source?.name.hasPrefix("<") ?? true))
            outputs.append(["output_type": "error", "ename": "utq", "evalue": e.message,
                            "traceback": text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)])
        }
        return json(["cell_type": "code", "id": idMark, "metadata": [String: Any](), "source": lines(cell.command),
                     "execution_count": count.map { $0 as Any } ?? NSNull(), "outputs": outputs])
    }

    static func stream(_ name: String, _ text: String) -> [String: Any] {
        ["output_type": "stream", "name": name, "text": lines(text)]
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
