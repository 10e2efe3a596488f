import Foundation

/// `chart hist COLUMN [bins N]`: how many values of a numeric column fall in each of N
/// bins of equal width. The width is rounded to an even number (15 rather than 14.98),
/// so the edges read well; nulls and values that are not numbers are counted aside.
struct HistChart: ChartBody {
    let column: String
    let start: Double
    let binWidth: Double
    let counts: [Int]
    let format: ValueFormat
    let total: Int
    /// Whole numbers: ticks at whole numbers only.
    var whole = false
    var notes: [String]

    var description: String { "\(column) in \(counts.count) bins" }
    var end: Double { start + binWidth * Double(counts.count) }

    static func make(_ request: ChartRequest, table: Table, style: ChartStyle) throws -> HistChart {
        let index: Int
        if let name = request.column {
            index = try ChartInput.column(name, in: table, span: request.columnSpan)
            guard ValueReader.measurable(table.columns[index]) else {
                let c = table.columns[index]
                throw Diagnostic("chart hist bins numbers, and \(c.name) is \(c.type.displayName)", at: request.columnSpan,
                                 hint: "to count its values: count by \(c.name) | chart bar")
            }
        } else {
            let numeric = table.columns.indices.filter { ValueReader.measurable(table.columns[$0]) }
            guard numeric.count == 1 else {
                let names = numeric.map { table.columns[$0].name }
                throw Diagnostic("chart hist needs the column to bin", at: request.span,
                                 hint: names.isEmpty ? "the table has no numeric column" : "for example: chart hist \(names[0]) (numeric columns: \(names.joined(separator: ", ")))")
            }
            index = numeric[0]
        }
        let reader = ValueReader(table.columns[index])
        let values = reader.values.compactMap { $0 }
        let nulls = reader.values.count - values.count - reader.unplottable
        var notes: [String] = []
        if nulls > 0 { notes.append("left out: " + Counted.text(nulls, "null \(reader.name) values")) }
        if reader.unplottable > 0 { notes.append("left out: " + Counted.text(reader.unplottable, "values") + " that are not numbers (NaN, infinity)") }
        guard let lo = values.min(), let hi = values.max() else {
            return HistChart(column: reader.name, start: 0, binWidth: 1, counts: [], format: reader.format, total: 0, notes: notes)
        }
        // As many bins as asked (about), but no more than fit the width.
        let fit = max(1, style.width - 10)
        var wanted = request.options.bins ?? min(30, max(5, Int(cells: Double(values.count).squareRoot().rounded())))
        if wanted > fit {
            notes.append("\(fit) bins, as many as fit \(style.width) characters (set width for more)")
            wanted = fit
        }
        let whole = table.columns[index].type == .int
        var width: Double, start: Double, count: Int
        if hi == lo {
            // One value: one bin around it.
            width = whole ? 1 : binWidth(for: lo == 0 ? 1 : abs(lo) * 0.1, whole: false)
            start = whole ? lo : lo - width / 2
            count = 1
        } else {
            let raw = hi / Double(wanted) - lo / Double(wanted)
            width = reader.format.kind == .duration ? durationWidth(for: raw) : binWidth(for: raw, whole: whole)
            start = (lo / width).rounded(.down) * width
            count = max(1, Int(cells: min(1e6, ((hi - start) / width).rounded(.down))) + 1)
            // The top edge closes the last bin: a maximum on an edge goes into the bin below.
            if count > 1 && start + Double(count - 1) * width == hi && !whole { count -= 1 }
        }
        if count > fit || !width.isFinite || !start.isFinite || !(width > 0) || !(start + width * Double(count)).isFinite {
            // Rounding went wrong (far too many bins, or magnitudes near a Double's limit):
            // plain equal bins from the smallest value.
            width = hi / Double(wanted) - lo / Double(wanted)
            if !(width > 0) || !width.isFinite { width = 1 }
            start = lo
            count = wanted
        }
        var counts = [Int](repeating: 0, count: count)
        for v in values {
            let k = Int(cells: max(0, min(Double(count - 1), ((v - start) / width).rounded(.down))))
            counts[k] += 1
        }
        return HistChart(column: reader.name, start: start, binWidth: width, counts: counts, format: reader.format,
                         total: values.count, whole: whole, notes: notes)
    }

    /// The smallest width of 1, 1.2, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5 or 8 times a power of ten that
    /// is at least `raw` (and whole for whole numbers).
    static func binWidth(for raw: Double, whole: Bool) -> Double {
        guard raw.isFinite, raw > 0 else { return 1 }
        let magnitude = pow(10, log10(raw).rounded(.down))
        let f = raw / magnitude
        let nice = [1, 1.2, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5, 8, 10].first { f <= $0 + 1e-9 } ?? 10
        let w = nice * magnitude
        return whole ? max(1, w.rounded(.up)) : w
    }

    /// Durations bin by whole clock steps: 1, 2, 5, 10, 15, 30 seconds or minutes, 1, 2,
    /// 3, 6, 12 hours, then whole days.
    static func durationWidth(for raw: Double) -> Double {
        let steps: [Double] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400]
        if let s = steps.first(where: { $0 >= raw }) { return s }
        return binWidth(for: raw / 86_400, whole: true) * 86_400
    }

    // MARK: text

    func lines(_ style: ChartStyle) -> [String] {
        guard !counts.isEmpty else { return [style.dim("(no \(style.label(column)) values to bin)")] }
        let most = Double(counts.max() ?? 1)
        let axis = YAxis(0, max(1, most), format: ValueFormat(kind: .number, values: []), rows: style.plotRows, mode: .bars)
        let room = max(counts.count, style.width - axis.gutter - 2)
        let barWidth = max(1, min(8, room / counts.count))
        var grid = VerticalBars(rows: axis.rows, width: barWidth * counts.count)
        for (k, n) in counts.enumerated() where n > 0 {
            var top = axis.eighths(Double(n))
            if top < 1 { top = 1 }
            for x in (k * barWidth)..<((k + 1) * barWidth) { grid.fill(x: x, from: 0, to: top, series: 0, glyph: style.glyphs.full, style: style) }
        }
        var out = [style.bold("count")]
        out += grid.draw(axis, style)
        let plotWidth = barWidth * counts.count
        let ticks = xTicks(max(2, plotWidth / 7))
        let labels = LabelRow.place(ticks.map { (Int(cells: (($0.0 - start) / (end - start) * Double(plotWidth)).rounded()), $0.1) }, width: min(plotWidth + 3, style.width - axis.gutter - 2))
        let indent = String(repeating: " ", count: axis.gutter + 2)
        out.append(indent + labels)
        out.append(indent + style.dim(style.label(caption)))
        return out
    }

    /// Ticks on bin edges, every k bins (k of 1, 2, 3, 4, 5, 6, 8, 10 … so they read as
    /// round: every 4 bins of 15 is every 60), at whole multiples of that step.
    func xTicks(_ most: Int) -> [(Double, String)] {
        let ks = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 50, 100, 200, 500, 1000]
        let k = ks.first { counts.count / $0 <= max(1, most) } ?? 1000
        let step = binWidth * Double(k)
        guard step > 0, step.isFinite, start.isFinite, end.isFinite else { return [] }
        var out: [(Double, String)] = []
        var m = (start / step - 1e-9).rounded(.up)
        while out.count <= most + 1 {
            let v = m * step
            if v > end + step * 1e-9 || !v.isFinite { break }
            out.append((v, format.tick(v, step: step)))
            m += 1
        }
        return out
    }

    var caption: String {
        "\(column) · \(Counted.text(total, "values")) in \(Counted.text(counts.count, "bins")) of \(format.kind == .duration ? format.value(binWidth) : NumberLabel.short(binWidth, step: binWidth))"
    }

    // MARK: SVG

    func svg(_ doc: inout SVGDocument, top: Double) -> Double {
        guard !counts.isEmpty else { return EmptyChart(message: "no \(column) values to bin").svg(&doc, top: top) }
        let scale = NiceScale.tight(0, Double(max(1, counts.max() ?? 1)))
        let count = ValueFormat(kind: .number, values: [])
        let gutter = (scale.ticks.map { SVGLayout.textWidth(count.tick($0, step: scale.step), size: SVGLayout.smallSize) }.max() ?? 20) + 12
        let plot = PlotRect(x: SVGLayout.margin + gutter, y: top + 22, width: doc.width - 2 * SVGLayout.margin - gutter - 10, height: 260)
        doc.text(plot.x, top + 8, "count", size: SVGLayout.smallSize, weight: "600", fill: SVGLayout.muted)
        SVGAxes.vertical(&doc, plot, scale: scale, format: count)
        let w = plot.width / Double(counts.count)
        for (k, n) in counts.enumerated() where n > 0 {
            let h = SVGAxes.fraction(Double(n), scale) * plot.height
            let from = start + Double(k) * binWidth
            doc.rect(plot.x + Double(k) * w, plot.bottom - h, max(0.5, w - 1), h, fill: Palette.svg(0),
                     tooltip: "\(format.value(from)) to \(format.value(from + binWidth)): \(n)")
        }
        let ticks = xTicks(10)
        SVGAxes.xLabels(&doc, ticks.map { (plot.x + ($0.0 - start) / (end - start) * plot.width, $0.1) }, y: plot.bottom + 16)
        doc.text(plot.right, plot.bottom + 34, caption, size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
        return plot.bottom + 44
    }
}
