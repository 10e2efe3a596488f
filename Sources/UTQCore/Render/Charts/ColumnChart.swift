/// `chart column`: vertical bars over a y axis with round ticks, labels under the bars.
/// Two keys stack the second inside each bar (or set the bars side by side: grouped).
struct ColumnChart: ChartBody {
    var data: CrossTable
    var layout: ChartOptions.Layout
    var notes: [String] { data.notes }

    var stacked: Bool { data.series.count > 1 && layout == .stacked }
    var grouped: Bool { data.series.count > 1 && layout == .grouped }
    /// Bars in one category: one, or one per series when grouped.
    var perCategory: Int { grouped ? data.series.count : 1 }

    static func make(_ data: CrossTable, layout: ChartOptions.Layout, request: ChartRequest, style: ChartStyle) throws -> ColumnChart {
        var chart = ColumnChart(data: data, layout: layout)
        let room = style.width - 8
        func need(_ c: ColumnChart) -> Int { data.categories.count * (c.perCategory + (c.perCategory > 1 ? 1 : 0)) }
        if need(chart) > room && chart.grouped {
            chart.layout = .stacked
            chart.data.notes.append("stacked: grouped columns do not fit \(style.width) characters")
        }
        if need(chart) > room {
            throw Diagnostic("\(data.categories.count) columns do not fit in \(style.width) characters", at: request.span,
                             hint: "chart line draws long series; chart column top N keeps the largest; set width widens the chart")
        }
        return chart
    }

    func extent() -> (Double, Double) {
        guard let (lo, hi) = data.extent(stacked: stacked) else { return (0, 1) }
        return (min(lo, 0), max(hi, 0))
    }

    // MARK: text

    func lines(_ style: ChartStyle) -> [String] {
        let (lo, hi) = extent()
        let axis = YAxis(lo, hi, format: data.format, rows: style.plotRows, mode: .bars)
        let room = max(1, style.width - axis.gutter - 2)
        let n = max(1, data.categories.count)
        // Slots of at most 10 cells: a few bars stay together instead of spreading out.
        let slot = max(1, min(10, room / n))
        let barWidth = grouped ? max(1, min(3, (slot - 1) / perCategory)) : max(1, min(7, slot * 2 / 3 + (slot <= 2 ? 1 : 0)))
        let used = grouped ? barWidth * perCategory : barWidth
        let gap = max(0, slot - used)
        var grid = VerticalBars(rows: axis.rows, width: slot * n)
        let zero = axis.eighths(0)
        var centers: [(center: Int, text: String)] = []
        for c in data.categories.indices {
            let x0 = c * slot + gap / 2
            centers.append((x0 + (used - 1) / 2, style.fit(style.label(data.categories[c].label), max(2, slot - 1))))
            if stacked {
                var sum = 0.0, drawn = zero
                for (s, v) in data.cells[c].enumerated() {
                    sum += max(0, v ?? 0)
                    // Parts end on whole cells, rounded from the running total.
                    let end = (axis.eighths(sum) / 8).rounded() * 8
                    for x in x0..<(x0 + barWidth) { grid.fill(x: x, from: drawn, to: end, series: s, glyph: style.fill(s), style: style) }
                    drawn = max(drawn, end)
                }
            } else {
                for s in 0..<perCategory {
                    let series = grouped ? s : 0
                    guard let v = data.cells[c][series] else { continue }
                    let glyph = grouped ? style.fill(s) : style.glyphs.full
                    let xs = grouped ? (x0 + s * barWidth)..<(x0 + (s + 1) * barWidth) : x0..<(x0 + barWidth)
                    var top = axis.eighths(v)
                    // A value that is not zero keeps at least an eighth, so it does not vanish.
                    if v != 0 && abs(top - zero) < 1 { top = zero + (v > 0 ? 1 : -1) }
                    for x in xs { grid.fill(x: x, from: zero, to: top, series: series, glyph: glyph, style: style) }
                }
            }
        }
        let indent = String(repeating: " ", count: axis.gutter + 2)
        var out = [style.bold(style.label(stacked || grouped ? data.valueName + " by " + (data.seriesName ?? "") : data.valueName))]
        out += grid.draw(axis, style)
        let labels = LabelRow.place(centers, width: slot * n)
        let caption = style.label(data.categoryName)
        if TextWidth.of(labels.trimmingTrailing) + 3 + TextWidth.of(caption) <= room {
            out.append(indent + style.padRight(labels.trimmingTrailing, max(TextWidth.of(labels.trimmingTrailing), slot * n - TextWidth.of(caption))) + "  " + style.dim(caption))
        } else {
            out.append(indent + labels)
            out.append(indent + style.dim(caption))
        }
        if data.series.count > 1 {
            out.append("")
            out += TextKey.lines(data.series.indices.map { (style.paint(style.fill($0), series: $0), style.label(data.series[$0])) }, style)
        }
        return out
    }

    // MARK: SVG

    func svg(_ doc: inout SVGDocument, top: Double) -> Double {
        let (lo, hi) = extent()
        let scale = data.format.tightScale(lo, hi)
        let gutter = (scale.ticks.map { SVGLayout.textWidth(data.format.tick($0, step: scale.step), size: SVGLayout.smallSize) }.max() ?? 20) + 12
        let plot = PlotRect(x: SVGLayout.margin + gutter, y: top + 22, width: doc.width - 2 * SVGLayout.margin - gutter, height: 280)
        doc.text(plot.x, top + 8, stacked || grouped ? data.valueName + " by " + (data.seriesName ?? "") : data.valueName,
                 size: SVGLayout.smallSize, weight: "600", fill: SVGLayout.muted)
        SVGAxes.vertical(&doc, plot, scale: scale, format: data.format)
        func y(_ v: Double) -> Double { plot.bottom - SVGAxes.fraction(v, scale) * plot.height }
        let slot = plot.width / Double(max(1, data.categories.count))
        let barWidth = slot * 0.7 / Double(perCategory)
        var labels: [(x: Double, text: String)] = []
        for c in data.categories.indices {
            let x0 = plot.x + Double(c) * slot + slot * 0.15
            labels.append((x0 + slot * 0.35, SVGLayout.fit(data.categories[c].label, slot - 4)))
            if stacked {
                var sum = 0.0
                for (s, v) in data.cells[c].enumerated() {
                    let part = max(0, v ?? 0)
                    guard part > 0 else { continue }
                    doc.rect(x0, y(sum + part), barWidth, y(sum) - y(sum + part), fill: Palette.svg(s),
                             tooltip: "\(data.categories[c].label), \(data.series[s]): \(data.format.value(part))")
                    sum += part
                }
            } else {
                for s in 0..<perCategory {
                    guard let v = data.cells[c][grouped ? s : 0] else { continue }
                    let x = x0 + Double(s) * barWidth
                    doc.rect(x, y(max(0, v)), barWidth - (grouped ? 1 : 0), abs(y(v) - y(0)), fill: Palette.svg(s),
                             tooltip: "\(data.categories[c].label)\(grouped ? ", " + data.series[s] : ""): \(data.format.value(v))")
                }
            }
        }
        SVGAxes.xLabels(&doc, labels, y: plot.bottom + 16)
        doc.text(plot.right, plot.bottom + 34, data.categoryName, size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
        var end = plot.bottom + 44
        if data.series.count > 1 {
            end = SVGKey.draw(&doc, data.series, swatch: .box, x: plot.x, y: end + 8, maxWidth: plot.width)
        }
        return end
    }
}

extension String {
    var trimmingTrailing: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
