/// A notebook as one self-contained HTML page: inline CSS, charts as inline SVG, tables as
/// HTML tables with numbers right-aligned; no scripts and no other files, so it can be
/// mailed, put on a course page or opened from a USB stick. Every piece of data, command
/// and prose is escaped.
enum HTMLNotebook {
    static func head(_ notebook: Notebook) -> String {
        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="utq">
        <title>\(HTMLText.escape(notebook.title))</title>
        <style>
        \(NotebookStyle.css)</style>
        </head>
        <body>
        <main>

        """
        out += "<header class=\"nb\">utq notebook" + (notebook.source.map { " · " + HTMLText.escape($0) } ?? "") + "</header>\n"
        // A script's notebook is titled by its first heading; a recording has none of its own.
        if notebook.source == nil { out += "<h1>" + HTMLText.escape(notebook.title) + "</h1>\n" }
        return out
    }

    static func tail(_ notebook: Notebook) -> String {
        let n = notebook.commandCount, e = notebook.errorCount
        var summary = n == 1 ? "1 command" : "\(n) commands"
        if e > 0 { summary += " · <span class=\"errors\">" + (e == 1 ? "1 error" : "\(e) errors") + "</span>" }
        let from = notebook.source.map { "made by utq from " + HTMLText.escape($0) + " · " } ?? ""
        return "<footer>" + from + summary + "</footer>\n</main>\n</body>\n</html>\n"
    }

    static func entry(_ entry: NotebookEntry) -> String {
        switch entry {
        case .heading(let level, let text):
            return "<h\(level)>" + HTMLText.inline(text) + "</h\(level)>\n"
        case .prose(let text):
            return HTMLText.prose(text)
        case .cell(let cell):
            return self.cell(cell)
        case .hint(let number, let text):
            return "<details class=\"hint\"><summary>Hint \(number)</summary>\n" + HTMLText.prose(text) + "</details>\n"
        case .blank(let command):
            return "<section class=\"cell\">\n<pre class=\"cmd\"><span class=\"prompt\">utq&gt;</span> " + HTMLText.escape(command) + "</pre>\n</section>\n"
        }
    }

    static func cell(_ cell: NotebookCell) -> String {
        var out = "<section class=\"cell\(cell.error == nil ? "" : " failed")\">\n"
        let command = HTMLText.escape(cell.command).replacingOccurrences(of: "\n", with: "\n<span class=\"prompt\"> ...&gt;</span> ")
        out += "<pre class=\"cmd\"><span class=\"prompt\">utq&gt;</span> " + command + "</pre>\n"
        var body = ""
        for output in cell.outputs { body += self.output(output, settings: cell.settings) }
        if let error = cell.error {
            let showLocation = !(error.source?.name.hasPrefix("<") ?? true)
            body += "<pre class=\"error\">" + HTMLText.escape(DiagnosticRenderer.render(error, showLocation: showLocation)) + "</pre>\n"
        }
        if !body.isEmpty { out += "<div class=\"out\">\n" + body + "</div>\n" }
        return out + "</section>\n"
    }

    static func output(_ output: Output, settings: Settings) -> String {
        switch output {
        case .table(let r) where settings.output == .table && !r.table.columns.isEmpty:
            // All columns: the page scrolls sideways where a terminal would cut them.
            var render = settings.render
            render.width = Int.max / 4
            let layout = TableLayout(r.table, options: render)
            let number = r.number.map { "<span class=\"n\">[\($0)]</span> " } ?? ""
            return table(layout) + "<p class=\"foot\">" + number + HTMLText.escape(layout.footer) + "</p>\n"
        case .chart(let c):
            let caption = c.footer.map { footer -> String in
                guard let n = c.number else { return HTMLText.escape(footer) }
                let number = "[\(n)]"
                return "<span class=\"n\">\(number)</span>" + HTMLText.escape(String(footer.dropFirst(number.count)))
            }
            return "<figure class=\"chart\">\n" + inlineSVG(c.chart.svg())
                + (caption.map { "<figcaption>" + $0 + "</figcaption>\n" } ?? "") + "</figure>\n"
        case .info(let s):
            return "<p class=\"info\">" + HTMLText.escape(s) + "</p>\n"
        case .warning(let s):
            return "<p class=\"warning\"><b>warning:</b> " + HTMLText.escape(s) + "</p>\n"
        case .table, .text:
            return "<pre class=\"text\">" + HTMLText.escape(OutputText.text(output, settings: settings)) + "</pre>\n"
        }
    }

    /// `alignInline`: text columns say their left alignment in a style attribute, for pages
    /// without our style sheet (JupyterLab aligns every cell right).
    static func table(_ layout: TableLayout, alignInline: Bool = false) -> String {
        func cls(_ c: Int) -> String {
            layout.rightAligned[c] ? " class=\"num\"" : alignInline ? " style=\"text-align: left\"" : ""
        }
        let columns = 0..<layout.shown
        var out = "<div class=\"table-wrap\"><table class=\"result\">\n<thead><tr>"
        out += columns.map { "<th\(cls($0))>" + HTMLText.escape(layout.headers[$0]) + "</th>" }.joined()
        out += "</tr></thead>\n<tbody>\n"
        for k in layout.rows.indices {
            if k == layout.gapBefore {
                out += "<tr class=\"gap\"><td colspan=\"\(layout.shown)\">⋮ \(NumberText.grouped(layout.skipped)) rows not shown</td></tr>\n"
            }
            out += "<tr>" + columns.map { c in
                let text = HTMLText.escape(layout.cells[c][k])
                if layout.isNull(c, k) { return "<td class=\"null\(layout.rightAligned[c] ? " num" : "")\"\(layout.rightAligned[c] || !alignInline ? "" : " style=\"text-align: left\"")>\(text)</td>" }
                return "<td\(cls(c))>\(text)</td>"
            }.joined() + "</tr>\n"
        }
        return out + "</tbody>\n</table></div>\n"
    }

    /// An SVG document as an element of the page: without its XML declaration.
    static func inlineSVG(_ svg: String) -> String {
        guard svg.hasPrefix("<?xml"), let end = svg.range(of: "?>") else { return svg }
        return String(svg[end.upperBound...].drop { $0 == "\n" })
    }
}
