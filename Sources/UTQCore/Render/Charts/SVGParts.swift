/// Pieces the SVG charts share: a plot rectangle, value axes with grid lines, and keys.
struct PlotRect {
    var x: Double, y: Double, width: Double, height: Double
    var right: Double { x + width }
    var bottom: Double { y + height }
}

enum SVGAxes {
    /// A vertical value axis: grid lines across the plot at each tick, labels on the left.
    static func vertical(_ doc: inout SVGDocument, _ plot: PlotRect, scale: NiceScale, format: ValueFormat) {
        for t in scale.ticks {
            let y = plot.bottom - fraction(t, scale) * plot.height
            doc.line(plot.x, y, plot.right, y, stroke: t == 0 ? SVGLayout.axis : SVGLayout.grid)
            doc.text(plot.x - 6, y + 4, format.tick(t, step: scale.step), size: SVGLayout.smallSize, anchor: "end", fill: SVGLayout.muted)
        }
    }

    /// A horizontal value axis: grid lines down the plot at each tick, labels underneath.
    static func horizontal(_ doc: inout SVGDocument, _ plot: PlotRect, scale: NiceScale, format: ValueFormat) {
        for t in scale.ticks {
            let x = plot.x + fraction(t, scale) * plot.width
            doc.line(x, plot.y, x, plot.bottom, stroke: t == 0 ? SVGLayout.axis : SVGLayout.grid)
            doc.text(x, plot.bottom + 14, format.tick(t, step: scale.step), size: SVGLayout.smallSize, anchor: "middle", fill: SVGLayout.muted)
        }
    }

    static func fraction(_ v: Double, _ scale: NiceScale) -> Double {
        let span = scale.hi - scale.lo
        guard span > 0, span.isFinite, v.isFinite else { return 0 }
        return (v - scale.lo) / span
    }

    /// Labels under an x axis at the given x positions, skipping any that would overlap.
    static func xLabels(_ doc: inout SVGDocument, _ items: [(x: Double, text: String)], y: Double) {
        var lastEnd = -Double.infinity
        for item in items {
            let w = SVGLayout.textWidth(item.text, size: SVGLayout.smallSize)
            guard item.x - w / 2 > lastEnd + 4 else { continue }
            doc.text(item.x, y, item.text, size: SVGLayout.smallSize, anchor: "middle", fill: SVGLayout.muted)
            lastEnd = item.x + w / 2
        }
    }
}

enum SVGKey {
    enum Swatch { case box, marker, line }

    /// A row (wrapping) of swatches and names; returns the y below it.
    static func draw(_ doc: inout SVGDocument, _ names: [String], swatch: Swatch, x: Double, y: Double,
                     maxWidth: Double, shapes: (Int) -> Int = { $0 }) -> Double {
        var cx = x, cy = y
        for (i, name) in names.enumerated() {
            let w = 18 + SVGLayout.textWidth(name) + 16
            if cx > x && cx + w > x + maxWidth { cx = x; cy += 18 }
            let k = shapes(i)
            switch swatch {
            case .box: doc.rect(cx, cy - 9, 11, 11, fill: Palette.svg(k))
            case .marker: doc.marker(k, cx + 5, cy - 4, size: 4, color: Palette.svg(k))
            case .line:
                doc.line(cx - 2, cy - 4, cx + 12, cy - 4, stroke: Palette.svg(k), width: 2)
                doc.marker(k, cx + 5, cy - 4, size: 3, color: Palette.svg(k))
            }
            doc.text(cx + 17, cy, name, size: SVGLayout.fontSize)
            cx += w
        }
        return cy + 10
    }
}
