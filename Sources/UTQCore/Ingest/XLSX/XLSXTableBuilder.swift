import Foundation

/// Turns a sheet's cells into a table. The first row with a value names the columns (unless
/// `header=false`); rows without a value are left out, as a CSV file's blank lines are, and
/// columns end at the last that has a value. Each column takes the type all its cells share
/// (whole numbers among other numbers make doubles); cells of different kinds make a text
/// column, with a warning naming the first cell that did not fit.
struct XLSXTableBuilder {
    let cells: XLSXCells
    let values: XLSXValues
    let names: XLSXCellNames
    let zone: ZoneRules
    var warnings: WarningLog

    init(cells: XLSXCells, shared: XLSXTexts, date1904: Bool, sheet: String, zone: ZoneRules, path: String) {
        self.cells = cells
        values = XLSXValues(shared: shared, texts: cells.texts, date1904: date1904)
        names = XLSXCellNames(sheet: sheet)
        self.zone = zone
        warnings = WarningLog(path: path)
    }

    /// The rows that hold a value, in order, each once.
    private var rowsWithValues: [Int32] {
        if cells.rowsInOrder { return cells.rows }
        var sorted = cells.rows.sorted()
        var out: [Int32] = []
        out.reserveCapacity(sorted.count)
        for r in sorted where out.last != r { out.append(r) }
        sorted = []
        return out
    }

    mutating func build(name: String, options: LoadOptions, memoryLimit: Int?, cancel: CancellationFlag?) throws -> Table {
        let all = rowsWithValues
        guard let first = all.first else {
            throw XLSXSheetProblem(message: "is empty")
        }
        let headerRow: Int32? = options.header == false ? nil : first
        let dataRows = headerRow == nil ? all : Array(all.dropFirst())
        let width = cells.columns.count
        try checkSize(rows: dataRows.count, columns: width, memoryLimit: memoryLimit)

        var columnNames = try self.columnNames(headerRow: headerRow, width: width, given: options.columns)
        var columns: [Column] = []
        columns.reserveCapacity(width)
        var sharedCodes = [UInt32](repeating: .max, count: values.shared.count)
        for k in 0..<width {
            if k & 0xFF == 0xFF, cancel?.isCancelled == true { throw CancellationError() }
            let placed = place(k, dataRows: dataRows, skipping: headerRow)
            columns.append(column(k, name: columnNames[k], placed: placed, rows: dataRows.count, sharedCodes: &sharedCodes))
        }
        columnNames = []
        noteCells()
        var table = Table(name: name, columns: columns, zone: zone)
        table.rowCount = dataRows.count
        return table
    }

    // MARK: names

    private mutating func columnNames(headerRow: Int32?, width: Int, given: [String]?) throws -> [String] {
        if let given {
            guard given.count == width else {
                let span = width == 0 ? "no columns" : "\(NumberText.counted(width, "column")) (A to \(XLSXCellNames.letters(width - 1)))"
                throw XLSXSheetProblem(message: "has \(span), and columns=(…) names \(given.count); name every column, in order")
            }
            return given
        }
        guard let headerRow else { return (0..<width).map { "column_\($0 + 1)" } }
        var header = [String](repeating: "", count: width)
        for k in 0..<width {
            let c = cells.columns[k]
            // The header row is the first with a value, so its cell comes first in its column
            // unless rows came out of order.
            for i in c.rows.indices where c.rows[i] == headerRow {
                header[k] = values.text(c.kinds[i], c.values[i]) ?? ""
                if !c.inOrder { continue }
                break
            }
        }
        var log = WarningLog(path: warnings.path)
        let cleaned = CSVLoader.cleanHeader(header, warnings: &log)
        for w in log.finish() { warnings.add("header", line: nil, "row \(headerRow) of sheet \(names.sheet) (the header): \(w.message)") }
        return cleaned
    }

    /// A sheet whose cells are far apart (A1 and XFD1048576) makes a table of billions of
    /// empty cells: refused before a column is made.
    private func checkSize(rows: Int, columns: Int, memoryLimit: Int?) throws {
        guard let limit = MemoryBudget.limit(setting: memoryLimit) else { return }
        let (cellCount, o1) = rows.multipliedReportingOverflow(by: columns)
        let (bytes, o2) = cellCount.multipliedReportingOverflow(by: 9)
        guard o1 || o2 || bytes > limit else { return }
        throw XLSXSheetProblem(message: "spans \(NumberText.counted(rows, "row")) and \(NumberText.counted(columns, "column")), a table of "
                               + "\(o1 ? "more cells than can be counted" : NumberText.counted(cellCount, "cell")) (most of them empty, perhaps), "
                               + "which takes about \(MemoryBudget.describe(o1 || o2 ? .max : bytes)) of memory, and \(MemoryBudget.describe(limit)) "
                               + "is free (set memory-limit SIZE changes the limit; or copy the cells you need to a new sheet)")
    }

    // MARK: columns

    /// A column's cells in row order with the table row each lands in; the header's cell and
    /// a cell written twice (the later wins) left out.
    private func place(_ k: Int, dataRows: [Int32], skipping header: Int32?) -> [(index: Int, row: Int)] {
        let c = cells.columns[k]
        var order = Array(c.rows.indices)
        if !c.inOrder { order.sort { (c.rows[$0], $0) < (c.rows[$1], $1) } }
        var out: [(index: Int, row: Int)] = []
        out.reserveCapacity(order.count)
        var j = 0
        for i in order {
            let r = c.rows[i]
            if r == header { continue }
            while j < dataRows.count && dataRows[j] < r { j += 1 }
            guard j < dataRows.count, dataRows[j] == r else { continue }
            if let last = out.last, last.row == j { out[out.count - 1] = (i, j) } else { out.append((i, j)) }
        }
        return out
    }

    private mutating func column(_ k: Int, name: String, placed: [(index: Int, row: Int)], rows: Int, sharedCodes: inout [UInt32]) -> Column {
        let c = cells.columns[k]
        // The type: the class every cell shares, ints widening to doubles.
        var type: XLSXValueClass? = nil
        var mixed = false
        for (i, _) in placed {
            let cls = values.valueClass(c.kinds[i], c.values[i])
            if cls == .none {
                warnings.add("error", line: nil, "\(names.cell(row: c.rows[i], column: k)) holds the error \(values.errorText(c.values[i])); read as empty")
                continue
            }
            guard let established = type else { type = cls; continue }
            if cls == established || mixed { continue }
            if (cls == .int && established == .double) || (cls == .double && established == .int) { type = .double; continue }
            mixed = true
            warnings.add("mixed", line: nil, "\(names.cell(row: c.rows[i], column: k)) holds \(cls.described) where the cells above it hold "
                         + "\(established.described); column \(name) is read as text, each cell as the sheet shows it")
            type = .text
        }
        var valid = Bitmap(count: rows, value: false)
        func validity() -> Bitmap? { valid.allSet ? nil : valid }
        switch type {
        case nil, .none?:
            return Column.nulls(name, count: rows)
        case .int?:
            var out = [Int64](repeating: 0, count: rows)
            for (i, r) in placed where c.kinds[i] != .error { out[r] = Int64(values.number(c.values[i])); valid[r] = true }
            return Column(name: name, storage: .int(out), validity: validity())
        case .double?:
            var out = [Double](repeating: 0, count: rows)
            for (i, r) in placed where c.kinds[i] != .error { out[r] = values.number(c.values[i]); valid[r] = true }
            return Column(name: name, storage: .double(out), validity: validity())
        case .bool?:
            var out = [Bool](repeating: false, count: rows)
            for (i, r) in placed where c.kinds[i] != .error { out[r] = c.values[i] != 0; valid[r] = true }
            return Column(name: name, storage: .bool(out), validity: validity())
        case .duration?:
            var out = [Int64](repeating: 0, count: rows)
            for (i, r) in placed where c.kinds[i] != .error { out[r] = values.durationMicros(c.values[i]); valid[r] = true }
            return Column(name: name, storage: .duration(out), validity: validity(), unit: .clock)
        case .timestamp?:
            var out = [Int64](repeating: 0, count: rows)
            var withTime = false
            var gaps = 0
            var firstGap: Int64? = nil
            for (i, r) in placed where c.kinds[i] != .error {
                let kind = c.kinds[i], bits = c.values[i]
                if values.isLeapDayThatNeverWas(kind, bits) {
                    warnings.add("dates", line: nil, "\(names.cell(row: c.rows[i], column: k)) is Excel's day 60, 1900-02-29, a day that never was "
                                 + "(Excel kept Lotus 1-2-3's mistake); read as 1900-02-28")
                }
                let wall = values.wallMicros(kind, bits)
                if values.hasTime(kind, bits) { withTime = true }
                let (instant, inGap) = zone.resolve(wallMicros: wall)
                if inGap { gaps += 1; if firstGap == nil { firstGap = wall } }
                out[r] = instant
                valid[r] = true
            }
            if let firstGap {
                let shown = TimeText.display(firstGap, zone: .utc, unit: .minute)
                warnings.add("times", line: nil, "\(name): \(gaps == 1 ? "1 time falls" : "\(NumberText.grouped(gaps)) times fall") in the hour "
                             + "\(zone.identifier) skips when clocks go forward (the first: \(shown)); read as an hour later")
            }
            var column = Column(name: name, storage: .timestamp(out), validity: validity(), unit: withTime ? .automatic : .day)
            column.floating = true
            return column
        case .text?:
            var interner = ByteInterner()
            var touched: [Int] = []
            var codes = [UInt32](repeating: 0, count: rows)
            for (i, r) in placed {
                let kind = c.kinds[i], bits = c.values[i]
                switch kind {
                case .error: continue
                case .shared:
                    let s = Int(bits)
                    if sharedCodes[s] == .max {
                        sharedCodes[s] = values.shared.withBytes(s) { interner.intern($0) }
                        touched.append(s)
                    }
                    codes[r] = sharedCodes[s]
                case .text:
                    codes[r] = cells.texts.withBytes(Int(bits)) { interner.intern($0) }
                default:
                    guard let text = values.text(kind, bits) else { continue }
                    codes[r] = interner.intern(text)
                }
                valid[r] = true
            }
            for s in touched { sharedCodes[s] = .max }
            var dictionary = interner.strings()
            if dictionary.isEmpty { dictionary = [""] }
            return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: dictionary)), validity: validity())
        }
    }

    /// Warnings about cells that were left empty: unreadable ones and formulas never calculated.
    private mutating func noteCells() {
        for u in cells.unreadable {
            warnings.add("unreadable", line: nil, "\(names.cell(row: u.row, column: u.column)) \(u.what); read as empty")
        }
        if let (row, column) = cells.firstUncalculated {
            let more = cells.uncalculated - 1
            warnings.add("formulas", line: nil, "\(names.cell(row: row, column: column)) holds a formula that was never calculated"
                         + (more > 0 ? " (and \(NumberText.counted(more, "other cell")))" : "") + ", so it is empty: the workbook was "
                         + "written by a program that does not calculate; open it in Excel or LibreOffice and save it to keep the results")
        }
    }
}
