/// Which columns of a table a chart reads: the measured value, and the keys that name
/// bars, axes and series. A summary's keys are known from its plan (`count by legend,
/// hour`); for other tables the key-like columns left of the value are taken.
struct ChartInput {
    let table: Table
    let value: Int
    let keys: [Int]

    static func read(_ table: Table, _ request: ChartRequest, keyHint: [String]?) throws -> ChartInput {
        let kind = request.kind.rawValue
        let hinted = Set((keyHint ?? []).map { $0.lowercased() })
        let value: Int
        if let name = request.column {
            let i = try column(name, in: table, span: request.columnSpan)
            guard ValueReader.measurable(table.columns[i]) else {
                throw Diagnostic("chart \(kind) measures numbers, and \(table.columns[i].name) is \(table.columns[i].type.displayName)",
                                 at: request.columnSpan, hint: "count first, as in: count by \(table.columns[i].name) | chart \(kind)")
            }
            value = i
        } else if let i = table.columns.indices.last(where: {
            ValueReader.measurable(table.columns[$0]) && !hinted.contains(table.columns[$0].name.lowercased())
        }) {
            value = i
        } else {
            throw Diagnostic("nothing to measure: chart \(kind) needs a column of numbers", at: request.span,
                             hint: "count or sum first, as in: count by \(table.columns.first?.name ?? "legend") | chart \(kind)")
        }
        var keys: [Int]
        if keyHint != nil {
            keys = table.columns.indices.filter { $0 != value && hinted.contains(table.columns[$0].name.lowercased()) }
        } else {
            keys = (0..<value).filter { isKeyLike(table.columns[$0]) }
            if keys.isEmpty && value > 0 { keys = [0] }
            // Rows that are not a summary's: one bar per row, named by the first key, unless
            // two keys make a cross table (the first repeats, the pair never does).
            if keys.count > 2 || (keys.count == 2 && !crosses(table, keys[0], keys[1])) { keys = [keys[0]] }
        }
        return ChartInput(table: table, value: value, keys: keys)
    }

    /// A column of the table by name, or a message with a suggestion.
    static func column(_ name: String, in table: Table, span: SourceSpan?) throws -> Int {
        guard let i = table.columnIndex(name) else {
            let guess = Suggest.didYouMean(name, among: table.columnNames)
            throw Diagnostic("unknown column \"\(name)\"" + guess, at: span,
                             hint: guess.isEmpty ? "columns: " + table.columnNames.joined(separator: ", ") : nil)
        }
        return i
    }

    /// Whether two columns read as a cross table: some value of the first repeats, and no
    /// pair of values does.
    static func crosses(_ table: Table, _ a: Int, _ b: Int) -> Bool {
        var firsts = Set<Value>(), pairs = Set<[Value]>()
        var repeats = false
        for r in 0..<table.rowCount {
            let x = table.columns[a].value(at: r)
            if !firsts.insert(x).inserted { repeats = true }
            if !pairs.insert([x, table.columns[b].value(at: r)]).inserted { return false }
        }
        return repeats
    }

    /// Text, flags, times and time buckets name things; plain numbers are measured.
    static func isKeyLike(_ c: Column) -> Bool {
        switch c.type {
        case .string, .bool, .timestamp: return true
        case .int: return c.unit == .hour || c.unit == .year
        case .duration: return c.unit == .clock
        default: return false
        }
    }

    var valueName: String { table.columns[value].name }
    var keyNames: [String] { keys.map { table.columns[$0].name } }

    /// "count by legend, hour"
    var description: String {
        keys.isEmpty ? valueName : valueName + " by " + keyNames.joined(separator: ", ")
    }

    /// Values by category (one key) and series (a second key). Categories keep the table's
    /// order unless `sortCategories`; series follow the key's natural order.
    func cross(category: Int?, series: Int?, sortCategories: Bool) -> CrossTable {
        let values = ValueReader(table.columns[value])
        let n = table.rowCount
        let catKey = category.map { KeyReader(table.columns[$0], zone: table.zone) }
        let serKey = series.map { KeyReader(table.columns[$0], zone: table.zone) }
        var categories: [CrossTable.Category] = []
        var catIndex: [Value: Int] = [:]
        var catRank: [Double?] = []
        var rowCategory = [Int](repeating: 0, count: n)
        for r in 0..<n {
            if let catKey {
                // With a second key, rows of one category share a bar; with one key, each row is one.
                let id = catKey.identity(r)
                if serKey != nil, let c = catIndex[id] { rowCategory[r] = c; continue }
                catIndex[id] = categories.count
                rowCategory[r] = categories.count
                categories.append(.init(label: catKey.label(r), position: catKey.position(r)))
                catRank.append(catKey.rank(r))
            } else {
                rowCategory[r] = r
                categories.append(.init(label: n == 1 ? values.name : String(r + 1), position: Double(r + 1)))
                catRank.append(Double(r))
            }
        }
        var seriesNames: [String] = [values.name]
        var rowSeries = [Int](repeating: 0, count: n)
        if let serKey {
            var index: [Value: Int] = [:]
            var firsts: [Int] = []
            for r in 0..<n {
                let id = serKey.identity(r)
                if let s = index[id] { rowSeries[r] = s; continue }
                index[id] = firsts.count
                rowSeries[r] = firsts.count
                firsts.append(r)
            }
            var order = Array(firsts.indices)
            if firsts.allSatisfy({ serKey.rank($0) != nil }) {
                order.sort { (serKey.rank(firsts[$0]) ?? 0, $0) < (serKey.rank(firsts[$1]) ?? 0, $1) }
            }
            var remap = [Int](repeating: 0, count: firsts.count)
            for (newIndex, old) in order.enumerated() { remap[old] = newIndex }
            rowSeries = rowSeries.map { remap[$0] }
            seriesNames = order.map { serKey.label(firsts[$0]) }
        }
        var cells = [[Double?]](repeating: [Double?](repeating: nil, count: seriesNames.count), count: categories.count)
        for r in 0..<n {
            guard let v = values.values[r] else { continue }
            let c = rowCategory[r], s = rowSeries[r]
            cells[c][s] = (cells[c][s] ?? 0) + v
        }
        var data = CrossTable(categories: categories, series: seriesNames, cells: cells,
                               categoryName: catKey?.caption ?? "row", seriesName: serKey?.name,
                               valueName: values.name, format: values.format,
                               axis: catKey.flatMap { $0.isContinuous ? $0.axis : nil })
        if sortCategories, catRank.allSatisfy({ $0 != nil }) {
            let order = categories.indices.sorted { (catRank[$0]!, $0) < (catRank[$1]!, $1) }
            data.categories = order.map { data.categories[$0] }
            data.cells = order.map { data.cells[$0] }
        }
        if values.unplottable > 0 {
            data.notes.append("left out: " + Counted.text(values.unplottable, "\(values.name) values") + " that are not numbers (NaN, infinity)")
        }
        return data
    }
}
