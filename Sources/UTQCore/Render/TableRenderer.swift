/// Results as an aligned text table: a header, a rule, the rows (numbers right-aligned),
/// and a footer with the row count. Long results show their head and tail; wide ones are
/// cut at the last column that fits, with a note of the others.
public enum TableRenderer {
    public static func render(_ t: Table, options: RenderOptions, footer: String? = nil) -> String {
        if t.columns.isEmpty { return "(no columns)\n" }
        let layout = TableLayout(t, options: options)
        let shown = layout.shown
        var lines: [String] = []
        func line(_ parts: [String]) -> String {
            var s = parts.joined(separator: "  ")
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }
        let widths = layout.widths
        lines.append(options.bold(line((0..<shown).map { TextWidth.pad(layout.headers[$0], to: widths[$0], right: layout.rightAligned[$0]) })))
        let rule = options.charset == .ascii ? "-" : "─"
        lines.append(options.dim(line((0..<shown).map { String(repeating: rule, count: widths[$0]) })))
        for k in layout.rows.indices {
            if k == layout.gapBefore {
                let dots = options.charset == .ascii ? "..." : "⋮"
                lines.append(options.dim(line((0..<shown).map { TextWidth.pad(dots, to: widths[$0], right: layout.rightAligned[$0]) })))
            }
            lines.append(line((0..<shown).map { c in
                let text = layout.cells[c][k]
                let padded = TextWidth.pad(TextWidth.truncate(text, to: widths[c]), to: widths[c], right: layout.rightAligned[c])
                return layout.isNull(c, k) ? options.dim(padded) : padded
            }))
        }
        var foot = layout.footer
        if let footer { foot = footer + " " + foot }
        lines.append(options.dim(foot))
        return lines.joined(separator: "\n") + "\n"
    }
}

/// What a table shows, worked out once for every way of drawing it (text, Markdown, HTML):
/// which rows (head and tail of a long result), each cell's text, which columns fit the
/// width, and the footer that says what was left out.
public struct TableLayout {
    public let table: Table
    /// The rows shown, in order.
    public let rows: [Int]
    /// Rows left out between the head and the tail.
    public let skipped: Int
    /// The index in `rows` before which the left-out rows were (nil when none were).
    public let gapBefore: Int?
    public let headers: [String]
    /// cells[column][k]: the text of column `column` in row `rows[k]`.
    public let cells: [[String]]
    public let rightAligned: [Bool]
    public let widths: [Int]
    /// How many columns fit the width, from the left.
    public let shown: Int
    public var hidden: Int { table.columns.count - shown }
    let nullText: String

    public init(_ t: Table, options: RenderOptions) {
        table = t
        nullText = options.nullText
        let n = t.rowCount
        let limit = max(options.maxRows, 4)
        if n > limit {
            let tail = max(2, limit / 6)
            let head = limit - tail
            rows = Array(0..<head) + Array((n - tail)..<n)
            skipped = n - head - tail
            gapBefore = head
        } else {
            rows = Array(0..<n)
            skipped = 0
            gapBefore = nil
        }
        let formats = t.columns.map { [rows] in CellFormat($0, zone: t.zone, nullText: options.nullText, rows: rows, digits: options.digits) }
        let maxCell = max(12, options.width / 2)
        let shownRows = rows
        let cells = formats.map { f in shownRows.map { TextWidth.truncate(f.text($0), to: maxCell) } }
        let headers = t.columns.map { TextWidth.truncate(TextWidth.printable($0.name), to: maxCell) }
        self.cells = cells
        self.headers = headers
        rightAligned = formats.map(\.rightAligned)
        var widths = zip(headers, cells).map { h, col in max(TextWidth.of(h), col.map(TextWidth.of).max() ?? 0) }
        // Columns that fit the width, two spaces apart.
        var shown = 0
        var used = 0
        for w in widths {
            let need = (shown == 0 ? 0 : 2) + w
            if shown > 0 && used + need > options.width { break }
            used += need
            shown += 1
        }
        if shown == 0 && !widths.isEmpty { shown = 1; widths[0] = min(widths[0], options.width) }
        self.widths = widths
        self.shown = shown
    }

    /// Whether the cell shows a null (so renderers can dim it).
    public func isNull(_ column: Int, _ k: Int) -> Bool {
        cells[column][k] == nullText && !table.columns[column].isValid(rows[k])
    }

    /// `7 rows`, with what was left out: `(12 not shown; set maxrows to see more) · 2 more columns: a, b`.
    public var footer: String {
        let n = table.rowCount
        var foot = n == 1 ? "1 row" : "\(NumberText.grouped(n)) rows"
        if skipped > 0 { foot += " (\(NumberText.grouped(skipped)) not shown; set maxrows to see more)" }
        if hidden > 0 {
            let names = table.columns.suffix(hidden).map(\.name)
            let list = names.prefix(6).joined(separator: ", ") + (names.count > 6 ? ", …" : "")
            foot += " · \(hidden) more column\(hidden == 1 ? "" : "s"): \(list)"
        }
        return foot
    }
}
