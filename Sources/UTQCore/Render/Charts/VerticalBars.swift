/// A grid of text cells for vertical bars (column charts and histograms): bars fill runs
/// of eighths from the baseline, and each cell remembers the series it belongs to so it
/// can be coloured.
struct VerticalBars {
    let rows: Int
    let width: Int
    private(set) var cells: [[(glyph: String, series: Int)?]]

    init(rows: Int, width: Int) {
        self.rows = rows
        self.width = width
        cells = Array(repeating: Array(repeating: nil, count: max(0, width)), count: max(0, rows))
    }

    /// Fills column `x` from `a` to `b` eighths above the bottom. Only solid bars get the
    /// partial blocks; patterned ones (told apart without colour) round to whole cells.
    mutating func fill(x: Int, from a: Double, to b: Double, series: Int, glyph: String, style: ChartStyle) {
        guard x >= 0, x < width, a.isFinite, b.isFinite else { return }
        let lo = Int(cells: min(a, b).rounded()), hi = Int(cells: max(a, b).rounded())
        guard hi > lo else { return }
        let solid = glyph == style.glyphs.full
        for r in 0..<rows {
            let bottom = r * 8, top = bottom + 8
            let overlap = min(hi, top) - max(lo, bottom)
            guard overlap > 0 else { continue }
            var g: String
            if overlap >= 8 { g = glyph }
            else if !solid || style.ascii { g = overlap >= 4 ? glyph : "" }
            else if lo <= bottom { g = style.glyphs.eighthsUp[overlap] }
            else { g = overlap >= 4 ? "▀" : "▔" }
            if !g.isEmpty { cells[rows - 1 - r][x] = (g, series) }
        }
    }

    /// Row `r` from the top, painted.
    func line(_ r: Int, _ style: ChartStyle) -> String {
        var out = ""
        for cell in cells[r] {
            if let cell { out += style.paint(cell.glyph, series: cell.series) } else { out += " " }
        }
        return out
    }

    /// The whole plot: gutter, axis and bars, the baseline under them.
    func draw(_ axis: YAxis, _ style: ChartStyle) -> [String] {
        var out: [String] = []
        for r in 0..<rows { out.append(axis.prefix(rows - 1 - r, style) + line(r, style)) }
        out.append(axis.baseline(width, style))
        return out
    }
}
