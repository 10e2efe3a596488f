/// The y axis of a text plot: round ticks on whole rows, labels in a gutter on the left.
///
/// Two ways to stand on the axis: bars (`.bars`) grow from the baseline row, so a tick's
/// label sits on the row a bar of that value fills last, and the lowest tick labels the
/// baseline; points (`.points`) sit in rows, so each tick labels the row its value falls in.
struct YAxis {
    enum Mode { case bars, points }
    let mode: Mode
    let scale: NiceScale
    /// Rows of the plot above the baseline.
    let rows: Int
    let rowsPerTick: Int
    let gutter: Int
    private let labels: [Int: String]
    private let baseLabel: String

    init(_ lo: Double, _ hi: Double, format: ValueFormat, rows target: Int, mode: Mode) {
        self.mode = mode
        let (scale, per) = format.scale(lo, hi, rows: mode == .points ? max(1, target - 1) : target)
        self.scale = scale
        rowsPerTick = per
        let intervals = max(1, scale.ticks.count - 1)
        rows = mode == .points ? intervals * per + 1 : intervals * per
        var labels: [Int: String] = [:]
        for (k, t) in scale.ticks.enumerated() {
            let text = format.tick(t, step: scale.step)
            switch mode {
            case .bars: if k > 0 { labels[k * per - 1] = text }
            case .points: labels[k * per] = text
            }
        }
        self.labels = labels
        baseLabel = mode == .bars ? format.tick(scale.ticks.first ?? 0, step: scale.step) : ""
        gutter = max(labels.values.map(TextWidth.of).max() ?? 0, TextWidth.of(baseLabel))
    }

    /// A value in eighths of a row above the bottom of the plot (bars).
    func eighths(_ v: Double) -> Double {
        let span = scale.hi - scale.lo
        guard span > 0, span.isFinite else { return 0 }
        return (v - scale.lo) / span * Double(rows) * 8
    }

    /// A value in braille dots above the bottom of the plot (points): each row has four,
    /// and a tick's value lands in its labelled row.
    func dots(_ v: Double) -> Double {
        let span = scale.hi - scale.lo
        guard span > 0, span.isFinite, rows > 1 else { return 1.5 }
        return (v - scale.lo) / span * Double(rows - 1) * 4 + 1.5
    }

    /// The gutter and axis character for row `r`, counted from the bottom (0).
    func prefix(_ r: Int, _ style: ChartStyle) -> String {
        if let label = labels[r] {
            return style.padLeft(label, gutter) + " " + style.dim(style.glyphs.tick)
        }
        return String(repeating: " ", count: gutter) + " " + style.dim(style.glyphs.vertical)
    }

    /// The baseline under the plot, `width` cells long.
    func baseline(_ width: Int, _ style: ChartStyle) -> String {
        let corner = mode == .bars && !style.ascii ? "┼" : style.glyphs.origin
        return style.padLeft(baseLabel, gutter) + " " + style.dim(corner + String(repeating: style.glyphs.horizontal, count: max(0, width)))
    }
}

/// Labels along a line of text: each centred on its column when it fits, skipped when it
/// would touch the one before.
enum LabelRow {
    static func place(_ items: [(center: Int, text: String)], width: Int) -> String {
        var cells = [Character](repeating: " ", count: max(0, width))
        var taken = -2
        func put(_ item: (center: Int, text: String)) -> Bool {
            let w = TextWidth.of(item.text)
            var start = item.center - (w - 1) / 2
            start = max(0, min(start, width - w))
            guard start > taken + 1, start + w <= width, w > 0 else { return false }
            var i = start
            for ch in item.text where i < cells.count {
                cells[i] = ch
                i += 1
            }
            taken = start + w - 1
            return true
        }
        for item in items { _ = put(item) }
        return String(cells)
    }
}

/// The key of a chart: each series' glyph and name, wrapped to the width.
enum TextKey {
    static func lines(_ items: [(glyph: String, name: String)], _ style: ChartStyle, indent: Int = 0) -> [String] {
        flow(items.map { $0.glyph + " " + style.fit(style.label($0.name), max(8, style.width - indent - 4)) }, style, indent: indent)
    }

    /// Items (perhaps coloured) side by side, two spaces apart, wrapped to the width.
    static func flow(_ items: [String], _ style: ChartStyle, indent: Int = 0, gap: Int = 2) -> [String] {
        var lines: [String] = []
        var line = String(repeating: " ", count: indent)
        var used = indent
        for item in items {
            let w = ChartStyle.visibleWidth(item)
            if used > indent && used + gap + w > style.width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                used = indent
            }
            if used > indent { line += String(repeating: " ", count: gap); used += gap }
            line += item
            used += w
        }
        if used > indent { lines.append(line) }
        return lines
    }
}
