/// Results as an aligned text table: a header, a rule, the rows (numbers right-aligned),
/// and a footer with the row count. Long results show their head and tail; wide ones are
/// cut at the last column that fits, with a note of the others.
public enum TableRenderer {
    public static func render(_ t: Table, options: RenderOptions, footer: String? = nil) -> String {
        let n = t.rowCount
        // Which rows to show.
        var rows: [Int]
        var skipped = 0
        let limit = max(options.maxRows, 4)
        if n > limit {
            let tail = max(2, limit / 6)
            let head = limit - tail
            rows = Array(0..<head) + Array((n - tail)..<n)
            skipped = n - head - tail
        } else {
            rows = Array(0..<n)
        }
        let formats = t.columns.map { CellFormat($0, zone: t.zone, nullText: options.nullText, rows: rows) }
        var cells = formats.map { f in rows.map { f.text($0) } }
        let maxCell = max(12, options.width / 2)
        cells = cells.map { col in col.map { TextWidth.truncate($0, to: maxCell) } }
        let headers = t.columns.map { TextWidth.truncate(TextWidth.printable($0.name), to: maxCell) }
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
        let hidden = t.columns.count - shown

        var lines: [String] = []
        func line(_ parts: [String]) -> String {
            var s = parts.joined(separator: "  ")
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }
        if t.columns.isEmpty {
            return "(no columns)\n"
        }
        lines.append(options.bold(line((0..<shown).map { TextWidth.pad(headers[$0], to: widths[$0], right: formats[$0].rightAligned) })))
        let rule = options.charset == .ascii ? "-" : "─"
        lines.append(options.dim(line((0..<shown).map { String(repeating: rule, count: widths[$0]) })))
        for (k, _) in rows.enumerated() {
            if skipped > 0 && k == rows.count - max(2, limit / 6) {
                let dots = options.charset == .ascii ? "..." : "⋮"
                lines.append(options.dim(line((0..<shown).map { TextWidth.pad(dots, to: widths[$0], right: formats[$0].rightAligned) })))
            }
            lines.append(line((0..<shown).map { c in
                let text = cells[c][k]
                let padded = TextWidth.pad(TextWidth.truncate(text, to: widths[c]), to: widths[c], right: formats[c].rightAligned)
                return text == options.nullText && !t.columns[c].isValid(rows[k]) ? options.dim(padded) : padded
            }))
        }
        var foot = n == 1 ? "1 row" : "\(NumberText.grouped(n)) rows"
        if skipped > 0 { foot += " (\(NumberText.grouped(skipped)) not shown; set maxrows to see more)" }
        if hidden > 0 {
            let names = t.columns.suffix(hidden).map(\.name)
            let list = names.prefix(6).joined(separator: ", ") + (names.count > 6 ? ", …" : "")
            foot += " · \(hidden) more column\(hidden == 1 ? "" : "s"): \(list)"
        }
        if let footer { foot = footer + " " + foot }
        lines.append(options.dim(foot))
        return lines.joined(separator: "\n") + "\n"
    }
}
