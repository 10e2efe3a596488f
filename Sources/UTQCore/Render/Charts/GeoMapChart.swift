import Foundation

/// `chart map` of geometries: zones filled by a value (four shades, a quarter of the zones
/// each, as the heatmap shades its cells) or coloured by a key, lines (routes, shapes) and
/// points, with north up in lng/lat, a scale bar and a key. In a terminal zones are filled
/// cell by cell and lines drawn in Braille dots; in SVG they are paths, for a report.
struct GeoMapChart: ChartBody {
    struct Feature: Sendable {
        /// On the screen's axes (x right, y down), in the data's units.
        var geometry: Geometry
        var group: Int
        var value: Double?
        /// What the feature is called on the map (a zone's name), if anything.
        var label: String? = nil
    }

    let features: [Feature]
    let space: GeoSpace
    let groups: [String]
    let groupName: String?
    let valueName: String?
    let notes: [String]

    var description: String { "map" + (valueName.map { " of \($0)" } ?? groupName.map { " by \($0)" } ?? "") }

    /// The drawn area: every feature, with a little room at the edges; on a plan whose every
    /// coordinate lies in Behaviour Mapper's map, that whole map, so squares and zones show
    /// where in the square they are.
    var frame: Bounds {
        var b = Bounds(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for f in features { if let fb = f.geometry.bounds { b.add(fb) } }
        guard b.minX.isFinite else { return Bounds(minX: 0, minY: 0, maxX: 1, maxY: 1) }
        let (w, h) = MapChart.mapperSize
        if space == .plane, b.minX >= 0, b.minY >= 0, b.maxX <= w, b.maxY <= h { return Bounds(minX: 0, minY: 0, maxX: w, maxY: h) }
        let pad = max(b.width, b.height, 1e-9) * 0.03
        return b.expanded(by: pad)
    }

    var aspect: Double { let f = frame; return f.height > 0 ? max(0.05, min(20, f.width / f.height)) : 1 }

    /// Metres in one unit of the screen's axes, in lng/lat (a degree of latitude); nil on a plan.
    var metresPerUnit: Double? { space == .lnglat ? 111_195 : nil }

    /// The shade (0 … 3) of each value: the quartiles of the values.
    var breaks: [Double] {
        let values = features.compactMap(\.value).filter(\.isFinite).sorted()
        guard !values.isEmpty else { return [] }
        func q(_ p: Double) -> Double { values[min(values.count - 1, max(0, Int((p * Double(values.count)).rounded(.up)) - 1))] }
        return [q(0.25), q(0.5), q(0.75), values.last!]
    }

    func shade(_ v: Double?, _ breaks: [Double]) -> Int? {
        guard let v, v.isFinite, !breaks.isEmpty else { return nil }
        return breaks.firstIndex { v <= $0 } ?? 3
    }

    /// What each shade holds: its lowest and highest value.
    func shadeRanges(_ breaks: [Double]) -> [(Int, String)] {
        var out: [(Int, String)] = []
        for k in 0..<4 {
            let members = features.compactMap(\.value).filter { shade($0, breaks) == k }
            guard let a = members.min(), let b = members.max() else { continue }
            out.append((k, a == b ? NumberLabel.short(a, step: 1) : NumberLabel.short(a, step: 1) + "–" + NumberLabel.short(b, step: 1)))
        }
        return out
    }

    /// A round length for a scale bar about a fifth of the frame's width, in the data's units,
    /// and its label.
    func scaleBar() -> (length: Double, label: String) {
        let perUnit = metresPerUnit ?? 1
        let target = frame.width * perUnit / 5
        guard target > 0, target.isFinite else { return (0, "") }
        let magnitude = pow(10, floor(log10(target)))
        let nice = [1.0, 2, 5, 10].map { $0 * magnitude }.last { $0 <= target } ?? magnitude
        let label: String
        if metresPerUnit == nil { label = NumberLabel.short(nice, step: 1) + " units" }
        else if nice >= 1000 { label = NumberLabel.short(nice / 1000, step: 1) + " km" }
        else { label = NumberLabel.short(nice, step: 1) + " m" }
        return (nice / perUnit, label)
    }

    // MARK: text

    func lines(_ style: ChartStyle) -> [String] {
        guard !features.isEmpty else { return EmptyChart(message: "no geometries to draw").lines(style) }
        var rows = style.explicitHeight ? style.height : min(40, max(8, style.height - 8))
        var cols = Int(cells: (Double(rows) * aspect * 2).rounded())
        if cols > style.width - 2 {
            cols = style.width - 2
            rows = max(2, Int(cells: (Double(cols) / aspect / 2).rounded()))
        }
        cols = max(4, cols)
        let f = frame, breaks = breaks
        func cell(_ x: Double, _ y: Double) -> (Double, Double) { ((x - f.minX) / f.width * Double(cols), (y - f.minY) / f.height * Double(rows)) }
        var canvas = TextCanvas(width: cols, height: rows)
        // Zones first, cell by cell: the shade of the value, or the key's fill.
        for feature in features where feature.geometry.kind.dimension == 2 {
            guard let b = feature.geometry.bounds else { continue }
            let (c0, r0) = cell(b.minX, b.minY), (c1, r1) = cell(b.maxX, b.maxY)
            for r in max(0, Int(r0))...min(rows - 1, max(0, Int(r1))) {
                for c in max(0, Int(c0))...min(cols - 1, max(0, Int(c1))) {
                    let x = f.minX + (Double(c) + 0.5) / Double(cols) * f.width, y = f.minY + (Double(r) + 0.5) / Double(rows) * f.height
                    guard Planar.locate(x, y, in: feature.geometry) != .exterior else { continue }
                    if let s = shade(feature.value, breaks) {
                        canvas.background(c, r, style.glyphs.shades[s], series: -1 - s)
                    } else if groups.count > 1 {
                        canvas.background(c, r, style.fill(feature.group), series: feature.group)
                    } else {
                        canvas.background(c, r, style.glyphs.shades[0], series: -1)
                    }
                }
            }
        }
        // Lines and the edges of unfilled zones in Braille dots, points as markers on top.
        for feature in features {
            let g = feature.geometry
            if g.kind.dimension >= 1 {
                for ring in 0..<g.ringCount {
                    let range = g.pointRange(ring: ring)
                    for i in range.dropLast() {
                        let a = cell(g.xs[i], g.ys[i]), b = cell(g.xs[i + 1], g.ys[i + 1])
                        if g.kind.dimension == 2 && (feature.value != nil || groups.count > 1) { continue }
                        // A line with a value is drawn in its shade, which reads without colour.
                        if let s = shade(feature.value, breaks) {
                            canvas.glyphLine((a.0 - 0.5, a.1 - 0.5), (b.0 - 0.5, b.1 - 0.5), style.glyphs.shades[s], series: feature.group)
                            continue
                        }
                        canvas.dotLine((Int(a.0 * 2), Int(a.1 * 4)), (Int(b.0 * 2), Int(b.1 * 4)), series: feature.group)
                    }
                }
            } else {
                for i in g.xs.indices {
                    let (x, y) = cell(g.xs[i], g.ys[i])
                    let glyph = shade(feature.value, breaks).map { style.glyphs.shades[$0] } ?? style.marker(groups.isEmpty ? 0 : feature.group)
                    canvas.put(min(cols - 1, Int(x)), min(rows - 1, Int(y)), glyph, series: feature.group)
                }
            }
        }
        // Zones' names at their middles, where they fit inside the map.
        for feature in features where feature.geometry.kind.dimension == 2 {
            guard let label = feature.label.map({ style.label($0) }), !label.isEmpty,
                  let middle = Planar.centroid(feature.geometry), !middle.isEmpty else { continue }
            let (x, y) = cell(middle.xs[0], middle.ys[0])
            let text = Array(label.prefix(max(0, cols - 2)))
            let start = max(0, min(cols - text.count, Int(x) - text.count / 2)), row = min(rows - 1, max(0, Int(y)))
            for (k, ch) in text.enumerated() { canvas.put(start + k, row, String(ch), series: -1) }
        }
        let (tl, tr, bl, br) = style.glyphs.corners
        var out = [style.dim(tl + String(repeating: style.glyphs.horizontal, count: cols) + tr)]
        for r in 0..<rows { out.append(style.dim(style.glyphs.vertical) + canvas.row(r, style) + style.dim(style.glyphs.vertical)) }
        out.append(style.dim(bl + String(repeating: style.glyphs.horizontal, count: cols) + br))
        let (length, label) = scaleBar()
        let barCells = max(2, Int(cells: (length / f.width * Double(cols)).rounded()))
        let bar = (style.ascii ? "|" : "├") + String(repeating: style.glyphs.horizontal, count: max(0, barCells - 2)) + (style.ascii ? "|" : "┤")
        out.append(style.dim(bar + " " + label + (space == .lnglat ? "  ·  north up" : "  ·  y down, as on the plan")))
        out.append("")
        if let valueName {
            let items = shadeRanges(breaks).map { (style.paint(style.glyphs.shades[$0.0], code: Palette.heatANSI[$0.0]), $0.1) }
            out += TextKey.lines(items, style)
            out.append(style.dim(style.fit(style.label("shades: \(valueName), a quarter of the \(features.allSatisfy { $0.geometry.kind.dimension == 2 } ? "zones" : "features") each"), style.width)))
        } else if groups.count > 1 {
            // Each key as its features are drawn: a zone's fill, a line, a point's marker.
            var dimension = [Int](repeating: 0, count: groups.count)
            for f in features { dimension[f.group] = max(dimension[f.group], f.geometry.kind.dimension) }
            let items = groups.indices.map { g -> (String, String) in
                let glyph = dimension[g] == 2 ? style.fill(g) : (dimension[g] == 1 ? style.glyphs.horizontal + style.glyphs.horizontal : style.marker(g))
                return (style.paint(glyph, series: g), groups[g])
            }
            out += TextKey.lines(items, style)
        }
        return out
    }

    // MARK: SVG

    func svg(_ doc: inout SVGDocument, top: Double) -> Double {
        guard !features.isEmpty else { return EmptyChart(message: "no geometries to draw").svg(&doc, top: top) }
        let maxWidth = doc.width - 2 * SVGLayout.margin, maxHeight = 560.0
        var w = maxWidth, h = w / aspect
        if h > maxHeight { h = maxHeight; w = h * aspect }
        let box = PlotRect(x: SVGLayout.margin, y: top + 4, width: w, height: h)
        let f = frame, breaks = breaks
        func place(_ x: Double, _ y: Double) -> (Double, Double) {
            (box.x + (x - f.minX) / f.width * box.width, box.y + (y - f.minY) / f.height * box.height)
        }
        doc.rect(box.x, box.y, box.width, box.height, fill: "#F6F6F2", stroke: "#BBBBBB")
        // Zones under lines, lines under points, names over all.
        var labels: [(Double, Double, String)] = []
        for dimension in [2, 1, 0] {
            for feature in features where feature.geometry.kind.dimension == dimension {
                let g = feature.geometry
                let color = Palette.svg(feature.group)
                switch dimension {
                case 2:
                    var path = ""
                    for ring in 0..<g.ringCount {
                        let pts = g.pointRange(ring: ring).map { place(g.xs[$0], g.ys[$0]) }
                        path += "M" + pts.map { "\(SVGDocument.num($0.0)),\(SVGDocument.num($0.1))" }.joined(separator: "L") + "Z"
                    }
                    let fill: String
                    if let s = shade(feature.value, breaks) { fill = "fill=\"\(Palette.heat(Double(s + 1) / 4))\"" }
                    else { fill = "fill=\"\(groups.count > 1 ? color : "#9ECAE1")\" fill-opacity=\"0.45\"" }
                    doc.raw("<path d=\"\(path)\" \(fill) fill-rule=\"evenodd\" stroke=\"#555555\" stroke-width=\"0.8\"/>")
                    if let label = feature.label, let middle = Planar.centroid(g), !middle.isEmpty {
                        let (x, y) = place(middle.xs[0], middle.ys[0])
                        labels.append((x, y, label))
                    }
                case 1:
                    let stroke = shade(feature.value, breaks).map { Palette.heat(Double($0 + 1) / 4) } ?? color
                    for ring in 0..<g.ringCount { doc.polyline(g.pointRange(ring: ring).map { place(g.xs[$0], g.ys[$0]) }, stroke: stroke, width: feature.value == nil ? 2 : 3) }
                default:
                    let fill = shade(feature.value, breaks).map { Palette.heat(Double($0 + 1) / 4) } ?? color
                    for i in g.xs.indices { let (x, y) = place(g.xs[i], g.ys[i]); doc.marker(groups.isEmpty ? 0 : feature.group, x, y, size: 3, color: fill) }
                }
            }
        }
        for (x, y, text) in labels {
            doc.raw("<text x=\"\(SVGDocument.num(x))\" y=\"\(SVGDocument.num(y + 4))\" font-size=\"\(SVGDocument.num(SVGLayout.smallSize))\" text-anchor=\"middle\" fill=\"#222222\" stroke=\"#FFFFFF\" stroke-width=\"3\" paint-order=\"stroke\">\(SVGDocument.escape(text))</text>")
        }
        // The scale bar, bottom left; north, top right.
        let (length, label) = scaleBar()
        let barWidth = length / f.width * box.width
        let by = box.bottom - 14
        doc.line(box.x + 12, by, box.x + 12 + barWidth, by, stroke: "#333333", width: 2)
        doc.line(box.x + 12, by - 4, box.x + 12, by + 4, stroke: "#333333", width: 1.5)
        doc.line(box.x + 12 + barWidth, by - 4, box.x + 12 + barWidth, by + 4, stroke: "#333333", width: 1.5)
        doc.text(box.x + 12 + barWidth + 6, by + 4, label, size: SVGLayout.smallSize, fill: "#333333")
        if space == .lnglat {
            let nx = box.right - 20, ny = box.y + 14
            doc.raw("<path d=\"M\(SVGDocument.num(nx)),\(SVGDocument.num(ny - 8))L\(SVGDocument.num(nx + 6)),\(SVGDocument.num(ny + 8))L\(SVGDocument.num(nx)),\(SVGDocument.num(ny + 4))L\(SVGDocument.num(nx - 6)),\(SVGDocument.num(ny + 8))Z\" fill=\"#333333\"/>")
            doc.text(nx, ny + 22, "N", size: SVGLayout.smallSize, anchor: "middle", fill: "#333333")
        }
        var y = box.bottom + 22
        if let valueName {
            var x = box.x
            doc.text(x, y, valueName, size: SVGLayout.smallSize, fill: SVGLayout.muted)
            x += SVGLayout.textWidth(valueName, size: SVGLayout.smallSize) + 12
            for (k, text) in shadeRanges(breaks) {
                doc.rect(x, y - 10, 14, 12, fill: Palette.heat(Double(k + 1) / 4))
                doc.text(x + 18, y, text, size: SVGLayout.smallSize)
                x += 18 + SVGLayout.textWidth(text, size: SVGLayout.smallSize) + 14
            }
            y += 18
        } else if groups.count > 1 {
            y = SVGKey.draw(&doc, groups, swatch: features.contains { $0.geometry.kind.dimension == 2 } ? .box : .line, x: box.x, y: y, maxWidth: maxWidth)
        }
        return y
    }
}
