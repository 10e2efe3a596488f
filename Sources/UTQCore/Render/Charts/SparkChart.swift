/// `chart spark`: one sparkline per series (count by legend, hour: one per legend), each
/// scaled to its own largest value, with its smallest and largest value beside it. A time
/// key places each value in its own slot, so missing buckets are blank (zeros after fill).
struct SparkChart: ChartBody {
    var data: CrossTable
    var notes: [String] { data.notes }

    /// Each category's slot on the line: by time or number when the key has a regular
    /// step (hours, days, every 15m) and the slots fit, else one slot per category.
    func slots(fitting width: Int) -> (slot: [Int], count: Int) {
        let n = data.categories.count
        let positions = data.categories.compactMap(\.position)
        if data.axis != nil, positions.count == n, n > 1,
           positions.allSatisfy({ abs($0) < 9e15 && $0 == $0.rounded() }) {
            let ints = positions.map { Int64($0) }
            var step: Int64 = 0
            for k in 1..<n { step = gcd(step, abs(ints[k] - ints[k - 1])) }
            if step > 0 {
                let lo = ints.min()!, hi = ints.max()!
                let count = (hi - lo) / step + 1
                if count <= Int64(width) {
                    return (ints.map { Int(($0 - lo) / step) }, Int(count))
                }
            }
        }
        if n <= width { return (Array(0..<n), n) }
        // More categories than cells: neighbours share a cell (their mean).
        return ((0..<n).map { $0 * width / n }, width)
    }

    func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }

    /// One series' values in its slots (the mean where several share a slot).
    func line(_ s: Int, slots: (slot: [Int], count: Int)) -> [Double?] {
        var sum = [Double](repeating: 0, count: slots.count), count = [Int](repeating: 0, count: slots.count)
        for c in data.categories.indices {
            guard let v = data.cells[c][s] else { continue }
            sum[slots.slot[c]] += v
            count[slots.slot[c]] += 1
        }
        return sum.indices.map { count[$0] > 0 ? sum[$0] / Double(count[$0]) : nil }
    }

    func range(_ s: Int) -> (Double, Double)? {
        let values = data.cells.compactMap { $0[s] }
        guard let lo = values.min(), let hi = values.max() else { return nil }
        return (lo, hi)
    }

    var names: [String] { data.series.count == 1 && data.seriesName == nil ? [data.valueName] : data.series }

    // MARK: text

    func lines(_ style: ChartStyle) -> [String] {
        let names = self.names.map { style.fit(style.label($0), max(6, style.width / 4)) }
        let labelWidth = max(names.map(TextWidth.of).max() ?? 0, TextWidth.of(style.label(data.seriesName ?? "")))
        let mins = data.series.indices.map { range($0).map { data.format.value($0.0) } ?? "" }
        let maxs = data.series.indices.map { range($0).map { data.format.value($0.1) } ?? "" }
        let minWidth = max(3, mins.map(TextWidth.of).max() ?? 0), maxWidth = max(3, maxs.map(TextWidth.of).max() ?? 0)
        let room = max(4, style.width - labelWidth - minWidth - maxWidth - 6)
        let slots = self.slots(fitting: room)
        let sparkWidth = max(slots.count, 2)
        // The first and last key above the line, so the reader knows where it starts and ends.
        var ends = ""
        if let first = data.categories.first?.label, let last = data.categories.last?.label {
            let a = style.label(first), b = style.label(last)
            if TextWidth.of(a) + TextWidth.of(b) + 1 <= sparkWidth {
                ends = a + String(repeating: " ", count: sparkWidth - TextWidth.of(a) - TextWidth.of(b)) + b
            } else if TextWidth.of(a) <= sparkWidth { ends = a }
        }
        let sparkColumn = max(sparkWidth, TextWidth.of(ends))
        var out = [style.bold(style.padRight(style.label(data.seriesName ?? ""), labelWidth) + "  " + style.padRight(ends, sparkColumn)
                               + "  " + style.padLeft("min", minWidth) + "  " + style.padLeft("max", maxWidth))]
        for s in data.series.indices {
            var spark = ""
            if let (lo0, hi) = range(s) {
                let lo = min(lo0, 0)
                for v in line(s, slots: slots) {
                    guard let v else { spark += " "; continue }
                    let t = hi > lo ? (v - lo) / (hi - lo) : (hi == 0 ? 0 : 1)
                    spark += style.glyphs.spark[max(0, min(7, Int(cells: (t * 7).rounded())))]
                }
            }
            let padded = spark + String(repeating: " ", count: max(0, sparkColumn - slots.count))
            out.append(style.padRight(names[s], labelWidth) + "  " + style.paint(padded, series: data.series.count > 1 ? s : 0)
                       + "  " + style.padLeft(mins[s], minWidth) + "  " + style.padLeft(maxs[s], maxWidth))
        }
        out.append(style.dim(String(repeating: " ", count: labelWidth + 2) + style.label(data.categoryName)))
        return out
    }

    // MARK: SVG

    func svg(_ doc: inout SVGDocument, top: Double) -> Double {
        let names = self.names
        let labelWidth = min(220, (names.map { SVGLayout.textWidth($0) }.max() ?? 0) + 12)
        let x0 = SVGLayout.margin + labelWidth, sparkWidth = doc.width - 2 * SVGLayout.margin - labelWidth - 130
        let slots = self.slots(fitting: 400)
        var y = top + 14
        doc.text(x0 + sparkWidth + 50, y, "min", size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
        doc.text(x0 + sparkWidth + 110, y, "max", size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
        if let first = data.categories.first?.label, let last = data.categories.last?.label {
            doc.text(x0, y, first, size: SVGLayout.smallSize, fill: SVGLayout.muted)
            doc.text(x0 + sparkWidth, y, last, size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
        }
        y += 8
        let rowHeight = 30.0
        for s in data.series.indices {
            doc.text(x0 - 12, y + rowHeight / 2 + 4, names[s], anchor: "end")
            doc.line(x0, y + rowHeight - 4, x0 + sparkWidth, y + rowHeight - 4, stroke: SVGLayout.grid)
            if let (lo0, hi) = range(s) {
                let lo = min(lo0, 0)
                let values = line(s, slots: slots)
                var run: [(Double, Double)] = []
                func flush() {
                    if run.count == 1 { doc.marker(0, run[0].0, run[0].1, size: 2, color: Palette.svg(s)) }
                    doc.polyline(run, stroke: Palette.svg(s), width: 1.5)
                    run = []
                }
                for (k, v) in values.enumerated() {
                    guard let v else { flush(); continue }
                    let t = hi > lo ? (v - lo) / (hi - lo) : 0.5
                    let x = x0 + (values.count == 1 ? 0.5 : Double(k) / Double(values.count - 1)) * sparkWidth
                    run.append((x, y + rowHeight - 4 - t * (rowHeight - 8)))
                }
                flush()
                doc.text(x0 + sparkWidth + 50, y + rowHeight / 2 + 4, data.format.value(lo0), size: SVGLayout.smallSize, anchor: "end")
                doc.text(x0 + sparkWidth + 110, y + rowHeight / 2 + 4, data.format.value(hi), size: SVGLayout.smallSize, anchor: "end")
            }
            y += rowHeight
        }
        doc.text(x0, y + 14, data.categoryName, size: SVGLayout.smallSize, fill: SVGLayout.muted)
        return y + 20
    }
}
