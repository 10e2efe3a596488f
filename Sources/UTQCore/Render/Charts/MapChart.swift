import Foundation

/// `chart map`: where things were seen. A Behaviour Mapper table (x, y in map points) is
/// drawn in a box of the app's 824 × 768 map, origin top left and y growing down; a table
/// with latitude and longitude is drawn with north up, east-west distances shrunk by the
/// cosine of the latitude so shapes keep their proportions. One glyph per legend;
/// `arrows` draws each cell's direction of movement instead.
struct MapChart: ChartBody {
    struct Point: Sendable {
        var x: Double, y: Double
        var group: Int
        var angle: Double?
    }
    /// The area drawn, in the points' units, y growing down.
    let frame: (x0: Double, y0: Double, x1: Double, y1: Double)
    let geographic: Bool
    let points: [Point]
    let groups: [String]
    /// The glyph and colour of each group: a legend keeps its place in the project's list,
    /// so Bike has the same glyph on every map of a project, whatever else is shown.
    let glyphs: [Int]
    let groupName: String?
    let arrows: Bool
    let extentText: String
    let notes: [String]

    var description: String { groupName.map { "positions by \($0)" } ?? "positions" }
    /// Width over height of the frame.
    var aspect: Double {
        let w = frame.x1 - frame.x0, h = frame.y1 - frame.y0
        return w > 0 && h > 0 && (w / h).isFinite ? w / h : 1
    }

    /// How many points each group has.
    var totals: [Int] {
        var t = [Int](repeating: 0, count: groups.count)
        for p in points { t[p.group] += 1 }
        return t
    }

    // MARK: text

    func lines(_ style: ChartStyle) -> [String] {
        guard !points.isEmpty else { return EmptyChart(message: "no positions to draw").lines(style) }
        // A text cell is about twice as tall as it is wide.
        var rows = style.explicitHeight ? style.height : min(40, max(8, style.height - 8))
        var cols = Int(cells: (Double(rows) * aspect * 2).rounded())
        if cols > style.width - 2 {
            cols = style.width - 2
            rows = max(2, Int(cells: (Double(cols) / aspect / 2).rounded()))
        }
        cols = max(4, cols)
        var counts: [Int: [Int: Int]] = [:]
        var turns: [Int: [Int: (Double, Double)]] = [:]
        for p in points {
            let cx = cell(p.x, frame.x0, frame.x1, cols), cy = cell(p.y, frame.y0, frame.y1, rows)
            let key = cy * cols + cx
            counts[key, default: [:]][p.group, default: 0] += 1
            if let a = p.angle {
                let r = a * .pi / 180
                let old = turns[key, default: [:]][p.group] ?? (0, 0)
                turns[key, default: [:]][p.group] = (old.0 + sin(r), old.1 + cos(r))
            }
        }
        let totals = self.totals
        let (tl, tr, bl, br) = style.glyphs.corners
        var out = [style.dim(tl + String(repeating: style.glyphs.horizontal, count: cols) + tr)]
        for y in 0..<rows {
            var line = style.dim(style.glyphs.vertical)
            for x in 0..<cols {
                guard let here = counts[y * cols + x] else { line += " "; continue }
                // Of the groups in the cell, the rarest overall: one dog walker among many
                // walkers is what a reader looks for, and walkers show everywhere else.
                let g = here.keys.min { a, b in totals[a] != totals[b] ? totals[a] < totals[b] : a < b }!
                if arrows, let t = turns[y * cols + x]?[g], t.0 != 0 || t.1 != 0 {
                    line += style.paint(style.glyphs.arrow(atan2(t.0, t.1) * 180 / .pi), series: glyphs[g])
                } else {
                    line += style.paint(style.marker(glyphs[g]), series: glyphs[g])
                }
            }
            out.append(line + style.dim(style.glyphs.vertical))
        }
        out.append(style.dim(bl + String(repeating: style.glyphs.horizontal, count: cols) + br))
        out.append(style.dim(style.fit(style.label(extentText), style.width)))
        out.append("")
        let items = groups.indices.map { (style.paint(style.marker(glyphs[$0]), series: glyphs[$0]), groups[$0] + " (\(NumberText.grouped(totals[$0])))") }
        out += TextKey.lines(items, style)
        if arrows {
            let note = "arrows: where a cell's entries were heading; a glyph: no direction recorded"
            out += TextKey.flow(note.split(separator: " ").map(String.init), style, gap: 1).map(style.dim)
        }
        return out
    }

    func cell(_ v: Double, _ lo: Double, _ hi: Double, _ n: Int) -> Int {
        guard hi > lo, v.isFinite else { return 0 }
        let t = (v - lo) / (hi - lo) * Double(n)
        return max(0, min(n - 1, Int(cells: t.rounded(.down))))
    }

    // MARK: SVG

    func svg(_ doc: inout SVGDocument, top: Double) -> Double {
        guard !points.isEmpty else { return EmptyChart(message: "no positions to draw").svg(&doc, top: top) }
        let maxWidth = doc.width - 2 * SVGLayout.margin, maxHeight = 520.0
        var w = maxWidth, h = w / aspect
        if h > maxHeight { h = maxHeight; w = h * aspect }
        let box = PlotRect(x: SVGLayout.margin, y: top + 4, width: w, height: h)
        doc.rect(box.x, box.y, box.width, box.height, fill: "#F6F6F2", stroke: "#BBBBBB")
        func place(_ p: Point) -> (Double, Double) {
            (box.x + (p.x - frame.x0) / max(1e-12, frame.x1 - frame.x0) * box.width,
             box.y + (p.y - frame.y0) / max(1e-12, frame.y1 - frame.y0) * box.height)
        }
        // Rare groups last, so they are drawn on top of the common ones.
        let totals = self.totals
        let order = points.indices.sorted { totals[points[$0].group] > totals[points[$1].group] || (totals[points[$0].group] == totals[points[$1].group] && $0 < $1) }
        for i in order {
            let p = points[i]
            let (x, y) = place(p)
            let color = Palette.svg(glyphs[p.group])
            if arrows, let a = p.angle {
                let r = a * .pi / 180, len = 14.0
                let ex = x + cos(r) * len, ey = y + sin(r) * len
                doc.line(x, y, ex, ey, stroke: color, width: 1.2)
                let head = 4.5, spread = 0.5
                doc.raw("<path d=\"\(doc.polygon([(ex, ey), (ex - cos(r - spread) * head, ey - sin(r - spread) * head), (ex - cos(r + spread) * head, ey - sin(r + spread) * head)]))\" fill=\"\(color)\"/>")
            }
            doc.marker(glyphs[p.group], x, y, size: 3, color: color)
        }
        doc.text(box.x, box.bottom + 16, extentText, size: SVGLayout.smallSize, fill: SVGLayout.muted)
        let names = groups.indices.map { groups[$0] + " (\(NumberText.grouped(totals[$0])))" }
        return SVGKey.draw(&doc, names, swatch: .marker, x: box.x, y: box.bottom + 40, maxWidth: maxWidth,
                           shapes: { glyphs[$0] })
    }
}
