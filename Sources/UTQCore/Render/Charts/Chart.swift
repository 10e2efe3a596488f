/// A chart ready to draw: the data read from a table once, drawn as text for a terminal
/// (at any width, in Unicode or ASCII, with or without colour) or as SVG for a file or a
/// notebook page.
public struct Chart: Sendable {
    public let kind: ChartKind
    /// What the chart shows ("count by hour"), or the title it was given.
    public let title: String
    let body: any ChartBody
    let options: ChartOptions

    init(kind: ChartKind, title: String, body: any ChartBody, options: ChartOptions) {
        self.kind = kind; self.title = title; self.body = body; self.options = options
    }

    /// Notes about what the drawing leaves out or merges ("3 more added up as other").
    public var notes: [String] { body.notes }

    /// The drawing as it prints, ending in a newline.
    public func text(_ render: RenderOptions) -> String {
        let style = ChartStyle(render, chart: options)
        var lines: [String] = []
        if options.title != nil { lines.append(style.bold(style.fit(style.label(title), style.width))) }
        lines += body.lines(style)
        lines += body.notes.map { style.dim(style.fit(style.label($0), style.width)) }
        return lines.map { line in
            var l = line
            while l.hasSuffix(" ") { l.removeLast() }
            return l
        }.joined(separator: "\n") + "\n"
    }

    /// A standalone SVG picture of the same chart, with its title, axes and key.
    public func svg() -> String {
        var doc = SVGDocument(width: SVGLayout.width)
        var y = SVGLayout.margin + SVGLayout.titleSize
        doc.text(SVGLayout.margin, y, title, size: SVGLayout.titleSize, weight: "600")
        y += SVGLayout.gap
        y = body.svg(&doc, top: y)
        for note in body.notes {
            y += SVGLayout.smallSize + 4
            doc.text(SVGLayout.margin, y, note, size: SVGLayout.smallSize, fill: SVGLayout.muted)
        }
        doc.height = y + SVGLayout.margin
        return doc.render(title: title)
    }
}

/// What each kind of chart provides: its drawing in text lines and in SVG.
protocol ChartBody: Sendable {
    /// The drawing, line by line, fitted to the style's width.
    func lines(_ style: ChartStyle) -> [String]
    /// Draws into the document below `top`; returns the y where the drawing ends.
    func svg(_ doc: inout SVGDocument, top: Double) -> Double
    var notes: [String] { get }
}

/// A chart of nothing: an empty table, or nothing measurable in it.
struct EmptyChart: ChartBody {
    let message: String
    var notes: [String] { [] }
    func lines(_ style: ChartStyle) -> [String] { [style.dim(style.label("(" + message + ")"))] }
    func svg(_ doc: inout SVGDocument, top: Double) -> Double {
        doc.text(SVGLayout.margin, top + 20, message, size: SVGLayout.fontSize, fill: SVGLayout.muted)
        return top + 30
    }
}

/// A chart as a command's output: the model (for SVG and notebooks) and the text drawn
/// with the session's settings when it ran. The rows it drew are kept as a numbered result,
/// so `$n` (or `_`) redraws them another way or goes on with them.
public struct ChartOutput: Sendable {
    public let chart: Chart
    public let text: String
    /// The result number of the rows drawn.
    public let number: Int?
    /// How many rows were drawn.
    public let rows: Int

    public init(chart: Chart, text: String, number: Int? = nil, rows: Int = 0) {
        self.chart = chart
        self.text = text
        self.number = number
        self.rows = rows
    }

    /// `[4] bar chart of 5 rows`: the line under a chart that says how to reuse it.
    public var footer: String? {
        guard let number else { return nil }
        return "[\(number)] \(chart.kind.noun) of " + (rows == 1 ? "1 row" : "\(NumberText.grouped(rows)) rows")
    }
}

extension ChartKind {
    /// What a chart of this kind is called in a sentence.
    public var noun: String {
        switch self {
        case .bar: return "bar chart"
        case .column: return "column chart"
        case .line: return "line chart"
        case .spark: return "sparklines"
        case .hist: return "histogram"
        case .heatmap: return "heatmap"
        case .map: return "map"
        }
    }
}
