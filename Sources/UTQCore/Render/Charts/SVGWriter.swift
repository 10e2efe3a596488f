import Foundation

/// Sizes and colours every SVG chart shares.
enum SVGLayout {
    static let width = 720.0
    static let margin = 24.0
    static let gap = 16.0
    static let fontSize = 12.0
    static let titleSize = 16.0
    static let smallSize = 11.0
    static let font = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"
    static let ink = "#222222"
    static let muted = "#666666"
    static let grid = "#E4E4E4"
    static let axis = "#999999"

    /// Text shortened with … to about `width` points.
    static func fit(_ s: String, _ width: Double, size: Double = smallSize) -> String {
        if textWidth(s, size: size) <= width { return s }
        var out = ""
        for ch in s {
            if textWidth(out + String(ch) + "…", size: size) > width { break }
            out.append(ch)
        }
        return out.isEmpty ? "" : out + "…"
    }

    /// About how wide text is at a size (for laying out labels; no font metrics here).
    static func textWidth(_ s: String, size: Double = fontSize) -> Double {
        Double(TextWidth.of(s)) * size * 0.58
    }
}

/// A standalone SVG document built from a few shapes. Text is escaped; numbers are written
/// with at most two decimals.
struct SVGDocument {
    var width: Double
    var height: Double = 0
    private(set) var elements: [String] = []

    init(width: Double) { self.width = width }

    /// Text for an attribute or an element: the same escaping as a notebook page, which is
    /// also valid XML (no control characters but tab and line breaks, no U+FFFE or U+FFFF).
    static func escape(_ s: String) -> String { HTMLText.escape(s) }

    static func num(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let r = (v * 100).rounded() / 100
        if r == r.rounded() && abs(r) < 1e15 { return String(Int64(r)) }
        return NumberText.fixed(r, decimals: 2).replacingOccurrences(of: #"0+$"#, with: "", options: .regularExpression)
    }

    mutating func raw(_ s: String) { elements.append(s) }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String,
                       stroke: String? = nil, tooltip: String? = nil) {
        var s = "<rect x=\"\(SVGDocument.num(x))\" y=\"\(SVGDocument.num(y))\" width=\"\(SVGDocument.num(max(0, w)))\" height=\"\(SVGDocument.num(max(0, h)))\" fill=\"\(fill)\""
        if let stroke { s += " stroke=\"\(stroke)\"" }
        if let tooltip { s += "><title>\(SVGDocument.escape(tooltip))</title></rect>" } else { s += "/>" }
        elements.append(s)
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String,
                       width: Double = 1, extra: String = "") {
        elements.append("<line x1=\"\(SVGDocument.num(x1))\" y1=\"\(SVGDocument.num(y1))\" x2=\"\(SVGDocument.num(x2))\" y2=\"\(SVGDocument.num(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(SVGDocument.num(width))\"\(extra)/>")
    }

    mutating func text(_ x: Double, _ y: Double, _ s: String, size: Double = SVGLayout.fontSize,
                       anchor: String = "start", weight: String? = nil, fill: String = SVGLayout.ink, rotate: Double? = nil) {
        var a = "<text x=\"\(SVGDocument.num(x))\" y=\"\(SVGDocument.num(y))\" font-size=\"\(SVGDocument.num(size))\""
        if anchor != "start" { a += " text-anchor=\"\(anchor)\"" }
        if let weight { a += " font-weight=\"\(weight)\"" }
        if fill != SVGLayout.ink { a += " fill=\"\(fill)\"" }
        if let rotate { a += " transform=\"rotate(\(SVGDocument.num(rotate)) \(SVGDocument.num(x)) \(SVGDocument.num(y)))\"" }
        elements.append(a + ">" + SVGDocument.escape(s) + "</text>")
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 2) {
        guard points.count > 1 else { return }
        let p = points.map { SVGDocument.num($0.0) + "," + SVGDocument.num($0.1) }.joined(separator: " ")
        elements.append("<polyline points=\"\(p)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(SVGDocument.num(width))\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>")
    }

    /// A marker shape centred on a point: circle, ring, diamond, square, triangle …, one per series.
    mutating func marker(_ index: Int, _ x: Double, _ y: Double, size r: Double, color: String) {
        let shape = index % 10
        let filled = shape % 2 == 0
        let paint = filled ? "fill=\"\(color)\"" : "fill=\"white\" stroke=\"\(color)\" stroke-width=\"1.5\""
        let (cx, cy) = (SVGDocument.num(x), SVGDocument.num(y))
        switch shape / 2 {
        case 0: elements.append("<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(SVGDocument.num(r))\" \(paint)/>")
        case 1: elements.append("<path d=\"\(polygon([(x, y - r * 1.3), (x + r * 1.3, y), (x, y + r * 1.3), (x - r * 1.3, y)]))\" \(paint)/>")
        case 2: elements.append("<rect x=\"\(SVGDocument.num(x - r))\" y=\"\(SVGDocument.num(y - r))\" width=\"\(SVGDocument.num(2 * r))\" height=\"\(SVGDocument.num(2 * r))\" \(paint)/>")
        case 3: elements.append("<path d=\"\(polygon([(x, y - r * 1.3), (x + r * 1.2, y + r), (x - r * 1.2, y + r)]))\" \(paint)/>")
        default:
            var pts: [(Double, Double)] = []
            for k in 0..<10 {
                let a = -Double.pi / 2 + Double(k) * Double.pi / 5
                let radius = k % 2 == 0 ? r * 1.4 : r * 0.6
                pts.append((x + radius * cos(a), y + radius * sin(a)))
            }
            elements.append("<path d=\"\(polygon(pts))\" \(paint)/>")
        }
    }

    func polygon(_ pts: [(Double, Double)]) -> String {
        pts.enumerated().map { ($0.offset == 0 ? "M" : "L") + SVGDocument.num($0.element.0) + " " + SVGDocument.num($0.element.1) }.joined() + "Z"
    }

    func render(title: String) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(SVGDocument.num(width))\" height=\"\(SVGDocument.num(height))\" viewBox=\"0 0 \(SVGDocument.num(width)) \(SVGDocument.num(height))\" font-family=\"\(SVGLayout.font)\" font-size=\"\(SVGDocument.num(SVGLayout.fontSize))\" fill=\"\(SVGLayout.ink)\">\n"
        out += "<title>\(SVGDocument.escape(title))</title>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        for e in elements { out += e + "\n" }
        out += "</svg>\n"
        return out
    }
}
