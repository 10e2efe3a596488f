import Foundation

/// A gradebook written out: CSV for a spreadsheet, one HTML page to read or print, or an
/// aligned table for the terminal.
extension Gradebook {
    public static let columnNames = ["student", "lesson", "exercise", "title", "mark", "tries", "hints", "seconds", "runs", "started"]

    static func cells(_ r: Row) -> [String] {
        [r.student, r.lesson, String(r.exercise), r.title, r.mark.rawValue, String(r.tries), String(r.hints),
         String(r.seconds), String(r.runs), r.started]
    }

    /// One row per student and exercise. A name or title that a spreadsheet would take for a
    /// formula (=, +, -, @ first) is written with a ' before it, as `save … csv` does.
    public func csv() -> String {
        var out: [UInt8] = []
        for (i, name) in Self.columnNames.enumerated() {
            if i > 0 { out.append(0x2C) }
            out.append(contentsOf: name.utf8)
        }
        out.append(0x0A)
        for r in rows {
            for (i, cell) in Self.cells(r).enumerated() {
                if i > 0 { out.append(0x2C) }
                TableWriter.appendDelimited(&out, cell, sep: 0x2C, csvSafe: true)
            }
            out.append(0x0A)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// About a lesson: how many students and exercises, and what it was graded against.
    func about(_ l: LessonInfo) -> String {
        "\(NumberText.counted(l.students.count, "student")), \(NumberText.counted(l.titles.count, "exercise")), "
            + "graded against " + (l.file ?? "the newest version among its records")
    }

    /// `2026-05-12T10:03:00+02:00` → `2026-05-12 10:03`.
    static func shortTime(_ s: String) -> String {
        let chars = Array(s)
        guard chars.count >= 16, chars[10] == "T" else { return s }
        return String(chars[0..<10]) + " " + String(chars[11..<16])
    }

    /// Aligned columns, lesson by lesson, then a bar per exercise of how many got it right.
    public func text() -> String {
        var out = ""
        let header = ["student", "#", "exercise", "mark", "tries", "hints", "seconds", "runs", "started"]
        let numeric: Set<Int> = [1, 4, 5, 6, 7]
        for l in lessons {
            if !out.isEmpty { out += "\n" }
            out += TextWidth.printable(l.name + ": " + about(l)) + "\n"
            let lines = rows.filter { $0.lesson == l.name }.map { r in
                [TextWidth.printable(r.student), String(r.exercise), TextWidth.truncate(TextWidth.printable(r.title), to: 30),
                 r.mark.rawValue, String(r.tries), String(r.hints), String(r.seconds), String(r.runs), Self.shortTime(r.started)]
            }
            let widths = header.indices.map { c in ([header] + lines).map { TextWidth.of($0[c]) }.max() ?? 0 }
            for line in [header] + lines {
                let padded = line.indices.map { c in TextWidth.pad(line[c], to: widths[c], right: numeric.contains(c)) }
                out += padded.joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression) + "\n"
            }
            out += "right per exercise:\n"
            let counts = rightCounts(l.name)
            let labels = l.titles.enumerated().map { "\($0.offset + 1) " + TextWidth.truncate(TextWidth.printable($0.element), to: 30) }
            let labelWidth = labels.map(TextWidth.of).max() ?? 0
            for (k, label) in labels.enumerated() {
                let n = counts[k + 1] ?? 0
                let full = l.students.isEmpty ? 0 : Int((Double(n) / Double(l.students.count) * 20).rounded())
                out += "  " + TextWidth.pad(label, to: labelWidth, right: false) + "  "
                    + String(repeating: "█", count: full) + String(repeating: "░", count: 20 - full)
                    + "  \(n) of \(l.students.count)\n"
            }
        }
        return out
    }

    /// One page, no scripts and nothing fetched: a bar chart per lesson of how many students
    /// got each exercise right, then the table. Bars are drawn in SVG, which prints even when
    /// a browser leaves backgrounds out.
    public func html(title: String = "Gradebook") -> String {
        let e = HTMLText.escape
        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>\(e(title))</title>
        <style>
        body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; max-width: 62em; margin: 2em auto; padding: 0 1em; }
        h2 { margin-top: 2em; border-bottom: 1px solid #999; }
        table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1.5em; }
        th, td { text-align: left; padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; vertical-align: top; }
        th { border-bottom: 2px solid #666; }
        td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
        td.right { color: #14632a; font-weight: 600; }
        td.skipped, td.not-reached { color: #666; }
        tr.first td { border-top: 1px solid #999; }
        svg text { font: 12px system-ui, -apple-system, "Segoe UI", sans-serif; fill: #222; }
        thead { display: table-header-group; }
        tr, svg { break-inside: avoid; }
        @media print {
          body { max-width: none; margin: 0; font-size: 10pt; }
          section + section { break-before: page; }
        }
        </style>
        </head>
        <body>
        <h1>\(e(title))</h1>
        <p>\(NumberText.counted(recordsRead, "record")) read; marks are each student's best over their runs (right, then not yet, then skipped).</p>

        """
        for l in lessons {
            out += "<section>\n<h2>\(e(l.name))</h2>\n<p>\(e(about(l)))</p>\n"
            out += bars(l)
            out += "<table>\n<thead><tr><th>student</th><th class=\"n\">#</th><th>exercise</th><th>mark</th>"
                + "<th class=\"n\">tries</th><th class=\"n\">hints</th><th class=\"n\">seconds</th><th class=\"n\">runs</th><th>started</th></tr></thead>\n<tbody>\n"
            var last: String? = nil
            for r in rows where r.lesson == l.name {
                let first = r.student != last
                last = r.student
                let mark = r.mark.rawValue.replacingOccurrences(of: " ", with: "-")
                out += "<tr\(first ? " class=\"first\"" : "")><td>\(first ? e(r.student) : "")</td><td class=\"n\">\(r.exercise)</td><td>\(e(r.title))</td>"
                    + "<td class=\"\(mark)\">\(r.mark.rawValue)</td><td class=\"n\">\(r.tries)</td><td class=\"n\">\(r.hints)</td>"
                    + "<td class=\"n\">\(r.seconds)</td><td class=\"n\">\(r.runs)</td><td>\(e(Self.shortTime(r.started)))</td></tr>\n"
            }
            out += "</tbody>\n</table>\n</section>\n"
        }
        return out + "</body>\n</html>\n"
    }

    /// How many students got each exercise right, a bar each, out of the lesson's students.
    func bars(_ l: LessonInfo) -> String {
        let e = HTMLText.escape
        let counts = rightCounts(l.name)
        let rowHeight = 24, labelWidth = 260, barWidth = 300
        let height = rowHeight * l.titles.count + 8
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bars\" width=\"\(labelWidth + barWidth + 110)\" height=\"\(height)\" role=\"img\" aria-label=\"students right per exercise\">\n"
        for (k, title) in l.titles.enumerated() {
            let n = counts[k + 1] ?? 0
            let y = k * rowHeight + 4
            let filled = l.students.isEmpty ? 0 : Int((Double(n) / Double(l.students.count) * Double(barWidth)).rounded())
            let label = "\(k + 1). " + TextWidth.truncate(title, to: 36)
            out += "<g class=\"bar\"><title>\(e("\(k + 1). \(title)")): \(n) of \(NumberText.counted(l.students.count, "student")) right</title>"
                + "<text x=\"0\" y=\"\(y + 15)\">\(e(label))</text>"
                + "<rect x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(barWidth)\" height=\"16\" fill=\"#eee\" stroke=\"#999\"/>"
                + "<rect class=\"right\" x=\"\(labelWidth)\" y=\"\(y + 2)\" width=\"\(filled)\" height=\"16\" fill=\"#2e7d4a\"/>"
                + "<text x=\"\(labelWidth + barWidth + 8)\" y=\"\(y + 15)\">\(n) of \(l.students.count)</text></g>\n"
        }
        return out + "</svg>\n"
    }
}
