/// `chart line`: a line per series over the x key. A time key (hour, day, every 15m …)
/// spaces the points by time and ticks the axis at round times; a text key spaces them
/// evenly. Missing rows break a line; after fill they are zeros.
struct LineChart: ChartBody {
    var data: CrossTable
    var notes: [String] {
        let (lo, _) = yRange()
        // A y axis that does not start at zero makes a small change look large: say so.
        let from = lo > 0 ? ["y axis from \(data.format.value(lo)), not 0: changes look larger than they are"] : []
        return data.notes + from
    }

    /// Whether x positions come from the key's values (numbers, times) or its order.
    var continuous: Bool { data.axis != nil && data.categories.allSatisfy { $0.position != nil } }

    /// Each category's place on the x axis, from 0 to 1.
    func xFractions() -> [Double] {
        let n = data.categories.count
        guard continuous else { return (0..<n).map { n == 1 ? 0.5 : Double($0) / Double(n - 1) } }
        let p = data.categories.map { $0.position ?? 0 }
        let lo = p.min() ?? 0, hi = p.max() ?? 0
        guard hi > lo else { return p.map { _ in 0.5 } }
        return p.map { ($0 - lo) / (hi - lo) }
    }

    /// The y range: a line of counts starts at zero unless its values sit far above it.
    func yRange() -> (Double, Double) {
        guard let (lo, hi) = data.extent(stacked: false) else { return (0, 1) }
        if lo >= 0 && lo <= hi * 0.5 { return (0, hi) }
        return (lo, hi)
    }

    /// Runs of consecutive categories where a series has values.
    func runs(_ s: Int) -> [[Int]] {
        var out: [[Int]] = [], run: [Int] = []
        for c in data.categories.indices {
            if data.cells[c][s] != nil { run.append(c) } else if !run.isEmpty { out.append(run); run = [] }
        }
        if !run.isEmpty { out.append(run) }
        return out
    }

    var header: String { data.series.count > 1 ? data.valueName + " by " + (data.seriesName ?? "") : data.valueName }

    // MARK: text

    func lines(_ style: ChartStyle) -> [String] {
        let (lo, hi) = yRange()
        let axis = YAxis(lo, hi, format: data.format, rows: style.plotRows, mode: .points)
        let width = max(10, style.width - axis.gutter - 2)
        var canvas = TextCanvas(width: width, height: axis.rows)
        let xs = xFractions()
        let perSeries = data.categories.count
        let multi = data.series.count > 1
        // Braille draws fine lines; without colour several lines are told apart by glyphs.
        let braille = !style.ascii && (!multi || style.color || perSeries <= width / 3)
        let markers = multi && perSeries <= width / 3 || !multi && perSeries <= width / 4
        for s in data.series.indices {
            for run in runs(s) {
                let points = run.map { c -> (Double, Double) in
                    (xs[c], axis.dots(data.cells[c][s] ?? 0))
                }
                if braille {
                    let dots = points.map { (Int(cells: ($0.0 * Double(canvas.dotWidth - 1)).rounded()), canvas.dotHeight - 1 - Int(cells: $0.1.rounded(.down))) }
                    if dots.count == 1 { canvas.dot(dots[0].0, dots[0].1, series: s) }
                    for k in dots.indices.dropFirst() { canvas.dotLine(dots[k - 1], dots[k], series: s) }
                } else {
                    let cells = points.map { ($0.0 * Double(width - 1), Double(axis.rows - 1) - ($0.1 / 4).rounded(.down)) }
                    if cells.count == 1 { canvas.put(Int(cells: cells[0].0.rounded()), Int(cells: cells[0].1), style.marker(s), series: s) }
                    for k in cells.indices.dropFirst() { canvas.glyphLine(cells[k - 1], cells[k], multi ? style.marker(s) : style.glyphs.middot, series: s) }
                }
                if markers || !braille {
                    for p in points {
                        canvas.put(Int(cells: (p.0 * Double(width - 1)).rounded()), axis.rows - 1 - Int(cells: (p.1 / 4).rounded(.down)), style.marker(s), series: s)
                    }
                }
            }
        }
        var out = [style.bold(style.label(header))]
        for r in 0..<axis.rows { out.append(axis.prefix(axis.rows - 1 - r, style) + canvas.row(r, style)) }
        out.append(axis.baseline(width, style))
        let indent = String(repeating: " ", count: axis.gutter + 2)
        let labels = xLabels(width: width, style: style, xs: xs).trimmingTrailing
        let caption = style.label(data.categoryName)
        if TextWidth.of(labels) + 2 + TextWidth.of(caption) <= width {
            out.append(indent + style.padRight(labels, width - TextWidth.of(caption)) + style.dim(caption))
        } else {
            out.append(indent + labels)
            out.append(indent + style.padLeft(style.dim(caption), width))
        }
        if multi {
            out.append("")
            out += TextKey.lines(data.series.indices.map { (style.paint(style.marker($0), series: $0), data.series[$0]) }, style)
        }
        return out
    }

    /// Tick labels under the x axis: round times or numbers for a continuous key, the
    /// categories themselves (as many as fit) for text.
    func xLabels(width: Int, style: ChartStyle, xs: [Double]) -> String {
        if continuous, let kind = data.axis {
            let p = data.categories.compactMap(\.position)
            let lo = p.min() ?? 0, hi = p.max() ?? 0
            guard hi > lo else { return LabelRow.place([(width / 2, style.label(data.categories.first?.label ?? ""))], width: width) }
            let ticks = AxisTicks(kind: kind).ticks(lo, hi, maxTicks: max(2, width / 8))
            return LabelRow.place(ticks.map { (Int(cells: ((($0.0 - lo) / (hi - lo)) * Double(width - 1)).rounded()), style.label($0.1)) }, width: width)
        }
        return LabelRow.place(data.categories.indices.map { (Int(cells: (xs[$0] * Double(width - 1)).rounded()), style.label(data.categories[$0].label)) }, width: width)
    }

    // MARK: SVG

    func svg(_ doc: inout SVGDocument, top: Double) -> Double {
        let (lo, hi) = yRange()
        let scale = data.format.tightScale(lo, hi)
        let gutter = (scale.ticks.map { SVGLayout.textWidth(data.format.tick($0, step: scale.step), size: SVGLayout.smallSize) }.max() ?? 20) + 12
        let plot = PlotRect(x: SVGLayout.margin + gutter, y: top + 22, width: doc.width - 2 * SVGLayout.margin - gutter - 10, height: 280)
        doc.text(plot.x, top + 8, header, size: SVGLayout.smallSize, weight: "600", fill: SVGLayout.muted)
        SVGAxes.vertical(&doc, plot, scale: scale, format: data.format)
        let xs = xFractions()
        func point(_ c: Int, _ s: Int) -> (Double, Double) {
            (plot.x + xs[c] * plot.width, plot.bottom - SVGAxes.fraction(data.cells[c][s] ?? 0, scale) * plot.height)
        }
        let showMarkers = data.categories.count <= 60
        for s in data.series.indices {
            for run in runs(s) {
                doc.polyline(run.map { point($0, s) }, stroke: Palette.svg(s))
                if showMarkers || run.count == 1 {
                    for c in run { let p = point(c, s); doc.marker(s, p.0, p.1, size: 3, color: Palette.svg(s)) }
                }
            }
        }
        var labels: [(x: Double, text: String)] = []
        if continuous, let kind = data.axis {
            let p = data.categories.compactMap(\.position)
            let lo = p.min() ?? 0, hi = p.max() ?? 0
            if hi > lo {
                for (v, text) in AxisTicks(kind: kind).ticks(lo, hi, maxTicks: 10) {
                    let x = plot.x + (v - lo) / (hi - lo) * plot.width
                    doc.line(x, plot.bottom, x, plot.bottom + 4, stroke: SVGLayout.axis)
                    labels.append((x, text))
                }
            } else if let first = data.categories.first {
                labels.append((plot.x + plot.width / 2, first.label))
            }
        } else {
            labels = data.categories.indices.map { (plot.x + xs[$0] * plot.width, data.categories[$0].label) }
        }
        SVGAxes.xLabels(&doc, labels, y: plot.bottom + 18)
        doc.text(plot.right, plot.bottom + 36, data.categoryName, size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
        var end = plot.bottom + 46
        if data.series.count > 1 {
            end = SVGKey.draw(&doc, data.series, swatch: .line, x: plot.x, y: end + 8, maxWidth: plot.width)
        }
        return end
    }
}
