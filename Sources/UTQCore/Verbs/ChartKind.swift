/// The kinds of chart and the options they take. This one list feeds the `chart` verb's
/// parser, `help chart`, tab completion and docs/charts.md, so they cannot disagree.
public enum ChartKind: String, Sendable, CaseIterable {
    case bar, column, line, spark, hist, heatmap, map

    public static func named(_ word: String) -> ChartKind? {
        let w = word.lowercased()
        return allCases.first { $0.rawValue == w || $0.aliases.contains(w) }
    }

    /// Every word that names a kind, for suggestions and completion.
    public static var words: [String] { allCases.flatMap { [$0.rawValue] + $0.aliases } }

    public var aliases: [String] {
        switch self {
        case .bar: return ["bars"]
        case .column: return ["columns", "col"]
        case .line: return ["lines"]
        case .spark: return ["sparkline", "sparklines"]
        case .hist: return ["histogram"]
        case .heatmap: return ["heat"]
        case .map: return ["positions"]
        }
    }

    public var usage: String {
        switch self {
        case .bar: return "chart bar [COLUMN] [top N] [stacked|grouped]"
        case .column: return "chart column [COLUMN] [top N] [stacked|grouped]"
        case .line: return "chart line [COLUMN]"
        case .spark: return "chart spark [COLUMN]"
        case .hist: return "chart hist COLUMN [bins N]"
        case .heatmap: return "chart heatmap [COLUMN]"
        case .map: return "chart map [GLYPH-COLUMN] [arrows]"
        }
    }

    public var summary: String {
        switch self {
        case .bar:
            return "One horizontal bar per row, its value at the end. With two keys (count by hour, legend) "
                + "the second key is stacked in each bar with a key, or drawn as a group of bars (grouped)."
        case .column:
            return "Vertical bars over a y axis with round ticks; two keys stack (or group) like bar."
        case .line:
            return "A line over the first time or number key: hours, days, every 15m … get time labels. "
                + "A second key draws one line per value, with a key."
        case .spark:
            return "One sparkline per value of the first key (count by legend, hour: one line per legend), "
                + "with its smallest and largest value; a single key gives one line."
        case .hist:
            return "Bins a numeric column and draws how many values fall in each bin; works on raw rows "
                + "(market | chart hist angle bins 24)."
        case .heatmap:
            return "Two keys as a grid of shades (rows: the first key, columns: the second), with a scale."
        case .map:
            return "Plots positions: x/y of a Behaviour Mapper square in a box of its 824 x 768 points "
                + "(origin top left, y down), or lat/lng (lat/lon, stop_lat/stop_lon) with north up. "
                + "One glyph per legend with a key; arrows draws each entry's direction."
        }
    }

    /// `help bar` and the others: the first is `example`; all run on datasets/market.json
    /// (the tests run each one).
    public var examples: [String] {
        switch self {
        case .bar: return [example, "count by legend | chart bar top 3", "count by hour, legend | chart bar grouped"]
        case .column: return [example, "count by hour, legend | chart column"]
        case .line: return [example, "where legend in (\"Walking\", \"Bike\") | count by legend, hour | fill | chart line"]
        case .spark: return [example, "count by legend, hour | chart spark"]
        case .hist: return [example, "chart hist x bins 10"]
        case .heatmap: return [example, "count by legend, every 1h | chart heatmap"]
        case .map: return [example, "chart map title \"Where in the square\""]
        }
    }

    /// Runs on datasets/market.json (the tests run each one).
    public var example: String {
        switch self {
        case .bar: return "count by hour | chart bar"
        case .column: return "count by hour | fill | chart column"
        case .line: return "where hour = 12 | count by every 1m | chart line"
        case .spark: return "count by legend, hour | fill | chart spark"
        case .hist: return "chart hist angle bins 24"
        case .heatmap: return "count by legend, hour | chart heatmap"
        case .map: return "where hour = 12 | chart map arrows"
        }
    }
}

/// Options of `chart`, after the kind and column.
public struct ChartOptions: Sendable {
    public enum Layout: String, Sendable { case stacked, grouped }

    /// Keep the N largest rows and add the rest up as "other".
    public var top: Int?
    /// How many bins a histogram has.
    public var bins: Int?
    public var layout: Layout?
    /// Draw each entry's direction on a map.
    public var arrows = false
    public var title: String?
    /// Size in character cells, instead of the terminal's.
    public var width: Int?
    public var height: Int?
    /// Where each option was written, for messages about it.
    public var spans: [String: SourceSpan] = [:]

    public init() {}

    /// One option as the parser, help and completion see it.
    public struct Spec: Sendable {
        public enum Argument: Sendable { case none, count(ClosedRange<Int>), text }
        public let name: String
        public let argument: Argument
        /// The kinds it applies to (empty: all).
        public let kinds: [ChartKind]
        public let summary: String

        public var usage: String {
            switch argument {
            case .none: return name
            case .count: return name + " N"
            case .text: return name + " \"TEXT\""
            }
        }
        public func applies(to kind: ChartKind) -> Bool { kinds.isEmpty || kinds.contains(kind) }
    }

    public static let specs: [Spec] = [
        Spec(name: "top", argument: .count(1...10_000), kinds: [.bar, .column],
             summary: "keep the N largest bars in their order and add the others up as one bar, \"other\""),
        Spec(name: "stacked", argument: .none, kinds: [.bar, .column],
             summary: "with two keys, the second key's parts stacked in one bar (the default)"),
        Spec(name: "grouped", argument: .none, kinds: [.bar, .column],
             summary: "with two keys, one bar for each part, side by side"),
        Spec(name: "bins", argument: .count(1...1_000), kinds: [.hist],
             summary: "how many bins (about; the edges are rounded to even numbers)"),
        Spec(name: "arrows", argument: .none, kinds: [.map],
             summary: "draw each entry's direction (the angle column: degrees from east, clockwise on screen)"),
        Spec(name: "title", argument: .text, kinds: [],
             summary: "a title above the chart (an SVG always has one)"),
        Spec(name: "width", argument: .count(20...1_000), kinds: [],
             summary: "draw N characters wide instead of the terminal's width"),
        Spec(name: "height", argument: .count(3...1_000), kinds: [],
             summary: "make the plot about N lines high instead of sizing it from the terminal"),
    ]

    public static func spec(_ name: String) -> Spec? {
        let n = name.lowercased()
        return specs.first { $0.name == n }
    }
}
