/// `chart heatmap`: the first key down, the second across, each cell a shade of its value
/// (four shades, each a quarter of the cells from lowest to highest; a dot for zero, blank
/// where the table has no row), with its number beside it when all fit, and the scale below.
struct HeatmapChart: ChartBody {
    var data: CrossTable
    var notes: [String] { data.notes }

    func range() -> (Double, Double) {
        guard let (lo, hi) = data.extent(stacked: false) else { return (0, 1) }
        return (min(lo, 0), hi)
    }

    /// The tops of the four shades: the quartiles of the cells' values (a zero at the bottom
    /// of the scale aside), so the shades spread over what the table holds. A linear scale
    /// would give one large cell the top shade and every other cell the lowest.
    func breaks(_ lo: Double, _ hi: Double) -> [Double] {
        let values = data.cells.flatMap { $0 }.compactMap { $0 }.filter { !(lo == 0 && $0 == 0) }.sorted()
        guard !values.isEmpty else { return [hi, hi, hi, hi] }
        func quantile(_ q: Double) -> Double { values[min(values.count - 1, max(0, Int((q * Double(values.count)).rounded(.up)) - 1))] }
        return [quantile(0.25), quantile(0.5), quantile(0.75), values.last!]
    }

    /// 0 for a zero at the bottom of the scale, else 1 … 4.
    func level(_ v: Double, _ lo: Double, _ breaks: [Double]) -> Int {
        if v == lo && lo == 0 { return 0 }
        return (breaks.firstIndex { v <= $0 } ?? 3) + 1
    }

    /// What each shade stands for: "1–33" for whole numbers, "≤ 0.25" otherwise; a shade no
    /// cell has is left out.
    func legend(_ lo: Double, _ breaks: [Double], _ style: ChartStyle) -> [(shade: Int, text: String)] {
        let whole = data.format.kind == .number && data.format.decimals == 0
        let values = data.cells.flatMap { $0 }.compactMap { $0 }
        var out: [(Int, String)] = []
        for k in 0..<4 {
            let members = values.filter { level($0, lo, breaks) == k + 1 }
            guard let a = members.min(), let b = members.max() else { continue }
            if whole {
                out.append((k, a == b ? data.format.value(a) : data.format.value(a) + style.glyphs.dash + data.format.value(b)))
            } else {
                out.append((k, style.glyphs.lessOrEqual + " " + data.format.value(b)))
            }
        }
        return out
    }

    // MARK: text

    func lines(_ style: ChartStyle) -> [String] {
        let (lo, hi) = range()
        let rowLabels = data.categories.map { style.fit(style.label($0.label), max(6, style.width / 4)) }
        let labelWidth = max(rowLabels.map(TextWidth.of).max() ?? 0, TextWidth.of(style.label(data.categoryName)))
        let columns = max(1, data.series.count)
        let room = max(columns, style.width - labelWidth - 2)
        let colLabels = data.series.map { style.label($0) }
        let widest = colLabels.map(TextWidth.of).max() ?? 1
        let breaks = breaks(lo, hi)
        // Each value as a number beside its shade when every one fits (as the SVG writes them).
        let texts = data.cells.map { $0.map { $0.map { data.format.value($0) } } }
        let numberWidth = texts.flatMap { $0 }.compactMap { $0 }.map(TextWidth.of).max() ?? 0
        let numbered = numberWidth > 0 && columns * (numberWidth + 4) <= room
        // Four characters, or up to eight when the labels need them (dates); wider cells
        // would read as bars. Labels that still do not fit are shortened.
        let cell = numbered ? max(numberWidth + 4, min(widest + 1, 8))
            : max(1, min(max(4, min(widest + 1, 8)), room / columns))
        let fill = cell >= 3 ? cell - 1 : cell
        var out: [String] = []
        // Labels start over their cells (centred when the cell is wider).
        let centers = colLabels.indices.map { s -> (center: Int, text: String) in
            let text = style.fit(colLabels[s], max(2, cell - 1))
            let w = TextWidth.of(text)
            return (s * cell + max(0, (fill - w) / 2) + (w - 1) / 2, text)
        }
        var header = style.padRight(style.label(data.categoryName), labelWidth) + "  " + LabelRow.place(centers, width: cell * columns).trimmingTrailing
        header += "  " + style.dim(style.label(data.seriesName ?? ""))
        out.append(style.bold(header))
        for c in data.categories.indices {
            var line = style.padRight(rowLabels[c], labelWidth) + "  "
            for s in data.series.indices {
                let run: String
                if let v = data.cells[c][s] {
                    let k = level(v, lo, breaks)
                    let glyph = k == 0 ? style.glyphs.zero : style.glyphs.shades[k - 1]
                    let shade = String(repeating: glyph, count: numbered ? 2 : fill)
                    run = (k == 0 ? style.dim(shade) : style.paint(shade, code: Palette.heatANSI[k - 1]))
                        + (numbered ? style.padLeft(texts[c][s] ?? "", fill - 2) : "")
                } else {
                    run = String(repeating: " ", count: fill)
                }
                line += run + String(repeating: " ", count: cell - fill)
            }
            out.append(line)
        }
        out.append("")
        var items = [style.dim(style.glyphs.zero) + " 0"]
        for (k, text) in legend(lo, breaks, style) {
            items.append(style.paint(style.glyphs.shades[k], code: Palette.heatANSI[k]) + " " + text)
        }
        items.append("(shades: quarters of the cells)")
        items.append("(blank: no row)")
        let name = style.fit(style.label(data.valueName), max(6, style.width / 4))
        let lines = TextKey.flow(items, style, indent: TextWidth.of(name) + 2, gap: 3)
        for (k, line) in lines.enumerated() {
            out.append(k == 0 ? style.dim(name) + String(line.dropFirst(TextWidth.of(name))) : line)
        }
        return out
    }

    // MARK: SVG

    func svg(_ doc: inout SVGDocument, top: Double) -> Double {
        let (lo, hi) = range()
        let labelWidth = min(200, (data.categories.map { SVGLayout.textWidth($0.label) }.max() ?? 0) + 12)
        let columns = max(1, data.series.count)
        let cell = min(56, (doc.width - 2 * SVGLayout.margin - labelWidth) / Double(columns))
        let rowHeight = min(30, max(18, cell * 0.6))
        let x0 = SVGLayout.margin + labelWidth, y0 = top + 26
        doc.text(x0, top + 8, data.seriesName ?? "", size: SVGLayout.smallSize, weight: "600", fill: SVGLayout.muted)
        for (s, name) in data.series.enumerated() where cell >= SVGLayout.textWidth(name, size: SVGLayout.smallSize) + 2 || s % 2 == 0 {
            doc.text(x0 + (Double(s) + 0.5) * cell, y0 - 5, name, size: SVGLayout.smallSize, anchor: "middle", fill: SVGLayout.muted)
        }
        for (c, category) in data.categories.enumerated() {
            let y = y0 + Double(c) * rowHeight
            doc.text(x0 - 8, y + rowHeight / 2 + 4, category.label, anchor: "end")
            for s in data.series.indices {
                let x = x0 + Double(s) * cell
                guard let v = data.cells[c][s] else { continue }
                let t = hi > lo ? (v - lo) / (hi - lo) : 1
                doc.rect(x + 1, y + 1, cell - 2, rowHeight - 2, fill: Palette.heat(t),
                         tooltip: "\(category.label), \(data.series[s]): \(data.format.value(v))")
                let text = data.format.value(v)
                if SVGLayout.textWidth(text, size: SVGLayout.smallSize) < cell - 4 {
                    doc.text(x + cell / 2, y + rowHeight / 2 + 4, text, size: SVGLayout.smallSize, anchor: "middle",
                             fill: t > 0.55 ? "#FFFFFF" : SVGLayout.ink)
                }
            }
        }
        // The scale: a strip from the lowest to the highest value.
        let y = y0 + Double(data.categories.count) * rowHeight + 18
        let strip = min(240, doc.width - 2 * SVGLayout.margin - labelWidth)
        for k in 0..<24 {
            doc.rect(x0 + Double(k) * strip / 24, y, strip / 24 + 0.5, 10, fill: Palette.heat(Double(k) / 23))
        }
        doc.text(x0 - 8, y + 9, data.valueName, size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
        doc.text(x0, y + 24, data.format.value(lo), size: SVGLayout.smallSize, fill: SVGLayout.muted)
        doc.text(x0 + strip, y + 24, data.format.value(hi), size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
        return y + 30
    }
}
