/// A grid of text cells to draw points and lines on. Lines go in Braille dots (two across,
/// four down in a cell) for Unicode, or as a glyph per cell; markers and glyphs sit on top.
/// Each cell remembers which series drew it, for colour.
struct TextCanvas {
    let width: Int
    let height: Int
    private var dots: [UInt8]
    private var dotOwner: [Int]
    private var glyphs: [String?]
    private var glyphOwner: [Int]
    /// What shows where nothing else is drawn (a map's filled zones): a glyph and its series,
    /// or a heat shade -1 … -4 painted in the heatmap's colours.
    private var backgrounds: [(String, Int)?]

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        let n = self.width * self.height
        dots = Array(repeating: 0, count: n)
        dotOwner = Array(repeating: 0, count: n)
        glyphs = Array(repeating: nil, count: n)
        glyphOwner = Array(repeating: 0, count: n)
        backgrounds = Array(repeating: nil, count: n)
    }

    /// A glyph under everything else in the cell at (x, y).
    mutating func background(_ x: Int, _ y: Int, _ glyph: String, series: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        backgrounds[y * width + x] = (glyph, series)
    }

    var dotWidth: Int { width * 2 }
    var dotHeight: Int { height * 4 }

    /// Braille bit for a dot at (column, row) inside its cell.
    static let bits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// A dot, x from the left and y from the top, in dot units.
    mutating func dot(_ x: Int, _ y: Int, series: Int) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        let i = (y / 4) * width + x / 2
        dots[i] |= TextCanvas.bits[x % 2][y % 4]
        dotOwner[i] = series
    }

    /// A straight line of dots (Bresenham).
    mutating func dotLine(_ a: (Int, Int), _ b: (Int, Int), series: Int) {
        var (x0, y0) = a
        let (x1, y1) = b
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var err = dx + dy
        var steps = 0
        while steps <= dotWidth + dotHeight + 2 {
            dot(x0, y0, series: series)
            if x0 == x1 && y0 == y1 { break }
            let e2 = 2 * err
            if e2 >= dy { err += dy; x0 += sx }
            if e2 <= dx { err += dx; y0 += sy }
            steps += 1
        }
    }

    /// A glyph in the cell at (x, y), y from the top.
    mutating func put(_ x: Int, _ y: Int, _ glyph: String, series: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        glyphs[y * width + x] = glyph
        glyphOwner[y * width + x] = series
    }

    /// A line of glyphs from cell to cell, filling the rows between columns so that a
    /// steep line stays unbroken. Points are (column, row from the top) as fractions.
    mutating func glyphLine(_ a: (Double, Double), _ b: (Double, Double), _ glyph: String, series: Int) {
        // Clamped to just outside the grid: a point far off it must not cost a long loop.
        func col(_ v: Double) -> Int { max(-1, min(width, Int(cells: v.rounded()))) }
        func row(_ v: Double) -> Int { max(-1, min(height, Int(cells: v.rounded()))) }
        let x0 = col(a.0), x1 = col(b.0)
        guard x1 >= x0 else { glyphLine(b, a, glyph, series: series); return }
        var previous = row(a.1)
        for x in x0...x1 {
            let t = x1 == x0 ? 1 : Double(x - x0) / Double(x1 - x0)
            let y = row(a.1 + (b.1 - a.1) * t)
            // The rows between the last column's height and this one's are filled here.
            let from = x == x0 ? y : (previous < y ? min(previous + 1, y) : max(previous - 1, y))
            for r in min(from, y)...max(from, y) { put(x, r, glyph, series: series) }
            previous = y
        }
    }

    /// Row `y` (from the top) as text, painted by series.
    func row(_ y: Int, _ style: ChartStyle) -> String {
        var out = ""
        for x in 0..<width {
            let i = y * width + x
            if let g = glyphs[i] {
                out += style.paint(g, series: glyphOwner[i])
            } else if dots[i] != 0, let scalar = Unicode.Scalar(0x2800 + UInt32(dots[i])) {
                out += style.paint(String(Character(scalar)), series: dotOwner[i])
            } else if let (g, series) = backgrounds[i] {
                out += series >= 0 ? style.paint(g, series: series) : style.paint(g, code: Palette.heatANSI[min(3, -series - 1)])
            } else {
                out += " "
            }
        }
        return out
    }
}
