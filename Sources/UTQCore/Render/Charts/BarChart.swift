/// `chart bar`: one horizontal bar per row, the value at its end, in eighths of a cell.
/// With two keys the second is stacked inside each bar (with a key) or drawn as a group
/// of bars, one per value, each labelled.
struct BarChart: ChartBody {
    var data: CrossTable
    var layout: ChartOptions.Layout
    var notes: [String] { data.notes + (hasNegativeStack ? ["negative values are left out of stacked bars; chart bar grouped shows them"] : []) }

    var stacked: Bool { data.series.count > 1 && layout == .stacked }
    var grouped: Bool { data.series.count > 1 && layout == .grouped }
    var hasNegativeStack: Bool { stacked && data.cells.contains { $0.contains { ($0 ?? 0) < 0 } } }

    /// The lengths bars are measured against: from the smallest value (or 0) to the largest (or 0).
    var span: (lo: Double, hi: Double) {
        guard let (lo, hi) = data.extent(stacked: stacked) else { return (0, 1) }
        return stacked ? (0, max(hi, 0)) : (min(lo, 0), max(hi, 0))
    }

    /// Rows of the drawing: a category, and for grouped bars the series inside it.
    var rows: [(category: Int, series: Int?)] {
        if grouped {
            return data.categories.indices.flatMap { c in
                data.series.indices.filter { data.cells[c][$0] != nil }.map { (c, Optional($0)) }
            }
        }
        return data.categories.indices.map { ($0, nil) }
    }

    func value(_ row: (category: Int, series: Int?)) -> Double? {
        if let s = row.series { return data.cells[row.category][s] }
        if data.series.count == 1 { return data.cells[row.category][0] }
        let parts = data.cells[row.category]
        return parts.contains { $0 != nil } ? parts.reduce(0) { $0 + max(0, $1 ?? 0) } : nil
    }

    // MARK: text

    func lines(_ style: ChartStyle) -> [String] {
        let rows = self.rows
        // Numbers line up on the right, as in tables; times and text on the left.
        var rightAlign = false
        switch data.axis {
        case .number?, .hour?, .year?: rightAlign = true
        default: break
        }
        let labels = data.categories.map { style.label($0.label) }
        let seriesLabels = data.series.map { style.label($0) }
        let values = rows.map { value($0).map(data.format.value) ?? "" }
        let labelWidth = min(max(TextWidth.of(style.label(data.categoryName)), labels.map(TextWidth.of).max() ?? 0), max(6, style.width / 4))
        let seriesWidth = grouped ? min(max(TextWidth.of(style.label(data.seriesName ?? "")), seriesLabels.map(TextWidth.of).max() ?? 0), max(6, style.width / 5)) : 0
        let valueWidth = values.map(TextWidth.of).max() ?? 0
        let lead = labelWidth + 2 + (grouped ? seriesWidth + 2 : 0)
        // Past about 64 cells longer bars add no precision a reader can use.
        let cells = max(4, min(64, style.width - lead - 1 - valueWidth))
        let (lo, hi) = span
        let negCells = lo < 0 ? Int(cells: (Double(cells) * -lo / (hi - lo)).rounded()) : 0
        let posCells = cells - negCells

        var out: [String] = []
        var header = style.padRight(style.fit(style.label(data.categoryName), labelWidth), labelWidth) + "  "
        if grouped { header += style.padRight(style.fit(style.label(data.seriesName ?? ""), seriesWidth), seriesWidth) + "  " }
        header += String(repeating: " ", count: negCells)
        header += style.label(stacked ? data.valueName + " by " + (data.seriesName ?? "") : data.valueName)
        out.append(style.bold(header))
        var lastCategory = -1
        for (k, row) in rows.enumerated() {
            var line = ""
            let label = row.category == lastCategory ? "" : style.fit(labels[row.category], labelWidth)
            line += rightAlign ? style.padLeft(label, labelWidth) : style.padRight(label, labelWidth)
            line += "  "
            lastCategory = row.category
            if grouped, let s = row.series {
                line += style.padRight(style.fit(seriesLabels[s], seriesWidth), seriesWidth) + "  "
            }
            let v = value(row)
            if stacked {
                line += String(repeating: " ", count: negCells) + stackedBar(row.category, cells: posCells, hi: hi, style)
            } else if let v, v < 0 {
                let bar = self.bar(-v / (hi - lo) * Double(cells), style, series: row.series ?? 0)
                line += String(repeating: " ", count: max(0, negCells - bar.width)) + bar.text
            } else {
                line += String(repeating: " ", count: negCells)
                line += self.bar((v ?? 0) / (hi - lo) * Double(cells), style, series: row.series ?? 0).text
            }
            out.append(line + " " + values[k])
        }
        if stacked {
            out.append("")
            out += TextKey.lines(seriesLabels.indices.map { (style.paint(style.fill($0), series: $0), seriesLabels[$0]) }, style)
        }
        return out
    }

    /// A bar `length` cells long, in whole cells and eighths.
    func bar(_ length: Double, _ style: ChartStyle, series: Int) -> (text: String, width: Int) {
        guard length.isFinite, length > 0 else { return ("", 0) }
        var eighths = Int(cells: (length * 8).rounded())
        if eighths == 0 && !style.ascii { eighths = 1 }  // a value above zero stays visible
        var text = String(repeating: style.glyphs.full, count: eighths / 8) + style.glyphs.eighthsAcross[eighths % 8]
        let width = eighths / 8 + (style.glyphs.eighthsAcross[eighths % 8].isEmpty ? 0 : 1)
        text = style.paint(text, series: series)
        return (text, width)
    }

    /// The parts of one stacked bar, each a run of whole cells in its series' fill; the
    /// ends are rounded from the running total so the bar's length stays true.
    func stackedBar(_ c: Int, cells: Int, hi: Double, _ style: ChartStyle) -> String {
        guard hi > 0 else { return "" }
        var out = ""
        var sum = 0.0, drawn = 0
        for (s, v) in data.cells[c].enumerated() {
            sum += max(0, v ?? 0)
            let end = Int(cells: (sum / hi * Double(cells)).rounded())
            if end > drawn {
                out += style.paint(String(repeating: style.fill(s), count: end - drawn), series: s)
                drawn = end
            }
        }
        return out
    }

    // MARK: SVG

    func svg(_ doc: inout SVGDocument, top: Double) -> Double {
        let rows = self.rows
        let labelWidth = min(200, (data.categories.map { SVGLayout.textWidth($0.label) }.max() ?? 0) + 8)
        let seriesWidth = grouped ? min(160, (data.series.map { SVGLayout.textWidth($0) }.max() ?? 0) + 8) : 0
        let valueWidth = (rows.compactMap { value($0).map(data.format.value) }.map { SVGLayout.textWidth($0) }.max() ?? 0) + 8
        let rowHeight = grouped ? 18.0 : 22.0
        let plot = PlotRect(x: SVGLayout.margin + labelWidth + seriesWidth, y: top + 18,
                            width: doc.width - 2 * SVGLayout.margin - labelWidth - seriesWidth - valueWidth,
                            height: Double(rows.count) * rowHeight + Double(grouped ? data.categories.count : 0) * 6)
        let (lo, hi) = span
        let scale = data.format.tightScale(lo, hi)
        SVGAxes.horizontal(&doc, PlotRect(x: plot.x, y: plot.y, width: plot.width, height: plot.height), scale: scale, format: data.format)
        doc.text(plot.x, top + 8, stacked ? data.valueName + " by " + (data.seriesName ?? "") : data.valueName,
                 size: SVGLayout.smallSize, weight: "600", fill: SVGLayout.muted)
        func x(_ v: Double) -> Double { plot.x + SVGAxes.fraction(v, scale) * plot.width }
        var y = plot.y
        var lastCategory = -1
        for row in rows {
            if grouped && row.category != lastCategory && lastCategory >= 0 { y += 6 }
            let mid = y + rowHeight / 2
            if row.category != lastCategory {
                doc.text(SVGLayout.margin + labelWidth - 8, mid + 4, data.categories[row.category].label, anchor: "end")
            }
            if let s = row.series {
                doc.text(plot.x - 8, mid + 4, data.series[s], size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
            }
            lastCategory = row.category
            let bandTop = y + 3, band = rowHeight - 6
            if stacked {
                var sum = 0.0
                for (s, v) in data.cells[row.category].enumerated() {
                    let part = max(0, v ?? 0)
                    guard part > 0 else { continue }
                    doc.rect(x(sum), bandTop, x(sum + part) - x(sum), band, fill: Palette.svg(s),
                             tooltip: "\(data.categories[row.category].label), \(data.series[s]): \(data.format.value(part))")
                    sum += part
                }
            } else if let v = value(row) {
                let a = x(min(0, v)), b = x(max(0, v))
                doc.rect(a, bandTop, b - a, band, fill: Palette.svg(row.series ?? 0))
            }
            if let v = value(row) {
                doc.text(x(max(0, v)) + 5, mid + 4, data.format.value(v), size: SVGLayout.smallSize)
            }
            y += rowHeight
        }
        var end = plot.bottom + 26
        if stacked {
            end = SVGKey.draw(&doc, data.series, swatch: .box, x: plot.x, y: end + 6, maxWidth: plot.width + valueWidth)
        }
        return end
    }
}
