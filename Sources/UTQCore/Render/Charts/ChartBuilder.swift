/// Reads a table into the chart a request asks for. Problems with the request (a column
/// that is not there, text where numbers are needed) are messages that point at the
/// words; a table without rows is an empty chart, not an error.
enum ChartBuilder {
    /// - Parameter keyColumns: the group keys when the table is a summary, else nil.
    /// - Parameter filters: the conditions rows were kept by, which the title names.
    static func build(_ request: ChartRequest, table: Table, keyColumns: [String]?, filters: [String] = [], render: RenderOptions) throws -> Chart {
        let style = ChartStyle(render, chart: request.options)
        let body: any ChartBody
        var what: String
        switch request.kind {
        case .hist:
            let hist = try HistChart.make(request, table: table, style: style)
            body = hist
            what = hist.description
        case .map where GeoMapChart.applies(table):
            let map = try GeoMapChart.make(request, table: table)
            body = map
            what = map.description
        case .map:
            let map = try MapChart.make(request, table: table)
            body = map
            what = map.description
        default:
            let input = try ChartInput.read(table, request, keyHint: keyColumns)
            what = input.description
            try checkKeys(input, request)
            body = table.rowCount == 0 ? EmptyChart(message: "no rows to chart") : try make(request, input, style)
        }
        // The title says which rows: `market where legend = "Bike": count by hour`.
        let which = filters.isEmpty ? "" : " where " + filters.joined(separator: " and ")
        if !table.name.isEmpty && !["tables", "describe"].contains(table.name) { what = table.name + which + ": " + what }
        else if !which.isEmpty { what = String(which.dropFirst()) + ": " + what }
        return Chart(kind: request.kind, title: request.options.title ?? what, body: body, options: request.options)
    }

    static func checkKeys(_ input: ChartInput, _ request: ChartRequest) throws {
        let kind = request.kind
        let most = 2, least = kind == .heatmap ? 2 : 0
        guard input.keys.count < least || input.keys.count > most else { return }
        let names = input.keyNames.joined(separator: ", ")
        if input.keys.count > most {
            throw Diagnostic("chart \(kind.rawValue) draws one or two keys, and this table has \(input.keys.count): \(names)",
                             at: request.span, hint: "count by fewer keys, or pick them: select \(input.keyNames.prefix(2).joined(separator: ", ")), \(input.valueName)")
        }
        throw Diagnostic("chart heatmap needs two keys, one for the rows and one for the columns" + (names.isEmpty ? "" : "; this table has \(names)"),
                         at: request.span, hint: "for example: count by legend, hour | chart heatmap")
    }

    static func make(_ request: ChartRequest, _ input: ChartInput, _ style: ChartStyle) throws -> any ChartBody {
        let keys = input.keys
        switch request.kind {
        case .bar, .column:
            var data = input.cross(category: keys.first, series: keys.count > 1 ? keys[1] : nil, sortCategories: false)
            if let n = request.options.top {
                data.keepTop(n, reason: "")
            } else if request.kind == .bar, data.categories.count > style.maxRows {
                data.keepTop(style.maxRows - 1, reason: " (chart bar top N, or set maxrows, shows more)")
            }
            if request.kind == .bar { return BarChart(data: data, layout: request.options.layout ?? .stacked) }
            return try ColumnChart.make(data, layout: request.options.layout ?? .stacked, request: request, style: style)
        case .line, .spark:
            // The x axis is the most time-like key; the other key makes the series.
            var x = keys.first, series: Int? = nil
            if keys.count == 2 {
                let readers = keys.map { KeyReader(input.table.columns[$0], zone: input.table.zone) }
                let second = readers[1].timeLikeness >= readers[0].timeLikeness
                x = second ? keys[1] : keys[0]
                series = second ? keys[0] : keys[1]
            }
            let data = input.cross(category: x, series: series, sortCategories: true)
            return request.kind == .line ? LineChart(data: data) : SparkChart(data: data)
        case .heatmap:
            let data = input.cross(category: keys[0], series: keys[1], sortCategories: false)
            return HeatmapChart(data: data)
        case .hist, .map:
            throw Diagnostic("chart \(request.kind.rawValue) reads the table itself", at: request.span)
        }
    }
}
