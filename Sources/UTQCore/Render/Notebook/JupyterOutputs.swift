import Foundation

/// A command's outputs as Jupyter shows them, shared by the .ipynb writer and the kernel:
/// a table as HTML with a plain-text fallback (an `execute_result`), a chart as SVG (a
/// `display_data`), notes on stdout, warnings on stderr, an error with its caret message.
/// Text values are whole strings; the notebook writer splits them into lines.
public enum JupyterOutputs {
    public static func of(_ outputs: [Output], error: Diagnostic?, settings: Settings) -> [[String: Any]] {
        var result: [[String: Any]] = []
        for output in outputs {
            switch output {
            case .table(let r):
                var data: [String: Any] = ["text/plain": OutputText.text(output, settings: settings)]
                if settings.output == .table && !r.table.columns.isEmpty {
                    // All columns: the page scrolls sideways where a terminal would cut them.
                    var render = settings.render
                    render.width = Int.max / 4
                    let layout = TableLayout(r.table, options: render)
                    let number = r.number.map { "[\($0)] " } ?? ""
                    data["text/html"] = HTMLNotebook.table(layout, alignInline: true)
                        + "<p>" + HTMLText.escape(number + layout.footer) + "</p>\n"
                }
                result.append(["output_type": "execute_result", "execution_count": r.number.map { $0 as Any } ?? NSNull(),
                               "data": data, "metadata": [String: Any]()])
            case .chart(let c):
                let svg = HTMLNotebook.inlineSVG(c.chart.svg())
                result.append(["output_type": "display_data", "metadata": [String: Any](),
                               "data": ["image/svg+xml": svg, "text/html": chartHTML(svg, c),
                                        "text/plain": c.footer ?? c.chart.title]])
            case .text, .info:
                result.append(stream("stdout", OutputText.text(output, settings: settings)))
            case .warning:
                result.append(stream("stderr", OutputText.text(output, settings: settings)))
            }
        }
        if let error { result.append(self.error(error)) }
        return result
    }

    /// The chart as an image in HTML, with its result number under it. JupyterLab shows SVG
    /// only in a trusted notebook (an executed handout is not), while sanitised HTML with an
    /// <img> of the SVG shows in every notebook; and the HTML is what a trusted one prefers,
    /// so the number shows there too.
    static func chartHTML(_ svg: String, _ c: ChartOutput) -> String {
        let data = Data(svg.utf8).base64EncodedString()
        let caption = c.footer ?? c.chart.title
        return "<img src=\"data:image/svg+xml;base64,\(data)\" alt=\"\(HTMLText.escape(c.chart.title))\">\n"
            + (caption.isEmpty ? "" : "<p>" + HTMLText.escape(caption) + "</p>\n")
    }

    public static func error(_ e: Diagnostic) -> [String: Any] {
        let text = DiagnosticRenderer.render(e, showLocation: !(e.source?.name.hasPrefix("<") ?? true))
        return ["output_type": "error", "ename": "utq", "evalue": SecretText.masked(e.message),
                "traceback": text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)]
    }

    static func stream(_ name: String, _ text: String) -> [String: Any] {
        ["output_type": "stream", "name": name, "text": text]
    }
}
