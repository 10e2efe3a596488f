/// Results in machine formats: CSV, TSV, JSON, NDJSON and Markdown. Numbers keep full
/// precision without separators; times are ISO 8601 with their offset; durations are
/// written as clock text (1:05:00) that reads back as a duration.
public enum TableWriter {
    public static func text(_ t: Table, format: OutputFormat, options: RenderOptions = RenderOptions()) -> String {
        if format == .table { return TableRenderer.render(t, options: options) }
        return String(decoding: bytes(t, format: format), as: UTF8.self)
    }

    public static func bytes(_ t: Table, format: OutputFormat, csvSafe: Bool = false) -> [UInt8] {
        if let framing = RowsWriter.framing(format, csvSafe: csvSafe) {
            var out: [UInt8] = []
            // Without a flag nothing stops it.
            try? RowsWriter(t, framing).write { out.append(contentsOf: $0) }
            return out
        }
        var out: [UInt8] = []
        switch format {
        case .csv, .tsv, .json, .ndjson:
            break  // by RowsWriter, above
        case .markdown:
            out.append(contentsOf: markdown(t).utf8)
        case .geojson:
            GeoJSONWriter.write(t, cells: t.columns.map { MachineCell(column: $0, zone: t.zone) }, into: &out)
        case .table:
            out.append(contentsOf: TableRenderer.render(t, options: RenderOptions(width: 10_000, maxRows: Int.max)).utf8)
        }
        return out
    }

    static func appendDelimited(_ out: inout [UInt8], _ s: String, sep: UInt8, csvSafe: Bool) {
        var text = s
        // A cell starting with = + - @ would run as a formula in a spreadsheet.
        if csvSafe, let f = text.first, "=+-@\t\r".contains(f) { text = "'" + text }
        // TSV is quoted as CSV is (as spreadsheets write it), so every cell reads back as it
        // was: a tab, a line break, a quote or a space at either end puts it in quotes.
        let needsQuotes = text.utf8.contains { $0 == sep || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            || text.first == " " || text.last == " "
        if !needsQuotes { out.append(contentsOf: text.utf8); return }
        out.append(0x22)
        for b in text.utf8 {
            if b == 0x22 { out.append(0x22) }
            out.append(b)
        }
        out.append(0x22)
    }

    /// A Markdown table; numbers right-aligned. A cell's text stays text: backslashes and pipes
    /// are escaped (a pipe would start a cell, `\|` in the data would too), and so is what a
    /// renderer would take for HTML.
    public static func markdown(_ t: Table, maxRows: Int = .max, nullText: String = "") -> String {
        let formats = t.columns.map { CellFormat($0, zone: t.zone, nullText: nullText, rows: Array(0..<min(t.rowCount, 2000))) }
        func esc(_ s: String) -> String {
            var out = ""
            for c in s {
                switch c {
                case "\\": out += "\\\\"
                case "|": out += "\\|"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "&": out += "&amp;"
                case "\n", "\r\n", "\r": out += " "
                default: out.append(c)
                }
            }
            return out
        }
        var lines: [String] = []
        lines.append("| " + t.columns.map { esc(TextWidth.printable($0.name)) }.joined(separator: " | ") + " |")
        lines.append("|" + formats.map { $0.rightAligned ? "---:|" : "---|" }.joined())
        let shown = min(t.rowCount, maxRows)
        for r in 0..<shown {
            lines.append("| " + formats.map { esc($0.text(r)) }.joined(separator: " | ") + " |")
        }
        if shown < t.rowCount { lines.append("\n_\(NumberText.grouped(t.rowCount - shown)) more rows not shown._") }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One column's cells in machine formats.
struct MachineCell {
    let column: Column
    let zone: ZoneRules

    /// Text for CSV/TSV; nil for null (an empty cell).
    func text(_ r: Int) -> String? {
        guard column.isValid(r) else { return nil }
        switch column.storage {
        case .int(let a): return String(a[r])
        case .double(let a): return NumberText.double(a[r])
        case .bool(let a): return a[r] ? "true" : "false"
        case .string(let s): return s.dictionary[Int(s.codes[r])]
        case .timestamp(let a): return TimeText.iso(a[r], zone: zone, unit: column.unit)
        case .duration(let a): return TimeText.duration(a[r], unit: .clock) + fraction(a[r])
        case .geometry(let g): return WKT.text(g[r])
        case .null: return nil
        }
    }

    func fraction(_ micros: Int64) -> String {
        let f = Int(abs(micros) % 1_000_000)
        return f == 0 ? "" : TimeText.fraction(f)
    }

    func json(_ r: Int) -> String {
        guard column.isValid(r) else { return "null" }
        switch column.storage {
        case .int(let a): return String(a[r])
        case .double(let a): return a[r].isFinite ? NumberText.double(a[r]) : "null"
        case .bool(let a): return a[r] ? "true" : "false"
        // In JSON a geometry is GeoJSON's object, which GIS tools and web maps read.
        case .geometry(let g): return GeoJSONGeometry.text(g[r])
        default: return JSONText.quote(text(r) ?? "")
        }
    }

}

extension TableWriter {
    /// The columns holding NaN or ±∞, with how many.
    static func nonFinite(_ t: Table) -> [(String, Int)] {
        t.columns.compactMap { c in
            guard case .double(let a) = c.storage else { return nil }
            var n = 0
            for i in 0..<a.count where !a[i].isFinite && c.isValid(i) { n += 1 }
            return n > 0 ? (c.name, n) : nil
        }
    }
}
