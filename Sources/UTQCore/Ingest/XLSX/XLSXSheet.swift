/// One sheet's cells as the sheet's XML gives them, column by column: each cell's row, what
/// kind of value it holds and the value's bits. Nothing is typed yet: a column's type is
/// known only once all its cells are. Empty cells (a style and no value) are not kept.
struct XLSXCells {
    enum Kind: UInt8 {
        /// A number; the value is the Double's bits.
        case number
        /// Numbers whose format makes them dates or times (`XLSXNumberKind`).
        case date, dateTime, time, elapsed
        /// 0 or 1.
        case bool
        /// The number of a shared string.
        case shared
        /// The number of a text in `texts` (an inline string, a formula's text).
        case text
        /// An error value (`#N/A`); the number of its text in `texts`.
        case error
        /// A date written as ISO 8601 text (`t="d"`); the value is wall-clock microseconds.
        case isoDate, isoDateTime
    }

    struct Column {
        var rows: [Int32] = []
        var kinds: [Kind] = []
        var values: [UInt64] = []
        /// False when a cell came above one already read (rows out of order).
        var inOrder = true
    }

    var columns: [Column] = []
    var texts = XLSXTexts()
    /// Rows with at least one value, in the order the sheet gives them.
    var rows: [Int32] = []
    var rowsInOrder = true
    /// Formulas that were never calculated (no cached value), and the first of them.
    var uncalculated = 0
    var firstUncalculated: (row: Int32, column: Int)? = nil
    /// Cells whose value cannot be read (a number that is not one), by place.
    var unreadable: [(row: Int32, column: Int, what: String)] = []

    mutating func add(row: Int32, column: Int, kind: Kind, value: UInt64) {
        while columns.count <= column { columns.append(Column()) }
        if let last = columns[column].rows.last, last >= row { columns[column].inOrder = false }
        columns[column].rows.append(row)
        columns[column].kinds.append(kind)
        columns[column].values.append(value)
        if let last = rows.last {
            if last != row {
                if last > row { rowsInOrder = false }
                rows.append(row)
            }
        } else {
            rows.append(row)
        }
    }
}

/// A sheet part that cannot be read as cells, with why.
struct XLSXSheetProblem: Error {
    let message: String
}

/// Reads a worksheet's `<sheetData>`: `<row r="3"><c r="B3" t="s" s="2"><v>0</v></c>…</row>`.
/// A cell's type (`t`) says how to read its `<v>`: a shared string's number (`s`), a number
/// (`n`, or no `t`), true or false (`b`), a formula's text (`str`), an error (`e`), an ISO
/// date (`d`); an inline string (`inlineStr`) has its text in `<is>`. Cells and rows without
/// a reference follow the one before.
enum XLSXSheetReader {
    /// Excel's last column, XFD.
    static let maxColumns = 16_384

    static func read(_ x: inout XMLScanner, styles: XLSXStyles, shared: XLSXTexts, cancel: CancellationFlag?) throws -> XLSXCells {
        var cells = XLSXCells()
        var inData = false
        var row: Int32 = 0
        var column = -1
        var type = CellType.number
        var style = 0
        var value: [UInt8] = []
        var hasValue = false, hasFormula = false
        var inValue = false, inInline = false, inText = false
        var phonetic = 0
        var rowsRead = 0
        while true {
            switch try x.next() {
            case .endOfDocument:
                return cells
            case .start:
                if x.isName("c") {
                    guard inData else { continue }
                    column += 1
                    if let r = x.attribute("r") {
                        guard let ref = reference(x, r.value) else {
                            throw XLSXSheetProblem(message: "has a cell whose reference \(String(x.value(r).prefix(20)).quoted) is not a cell such as B3")
                        }
                        column = ref.column
                        if let refRow = ref.row { row = refRow }
                    }
                    guard column < maxColumns else {
                        throw XLSXSheetProblem(message: "has a cell past column XFD, Excel's last")
                    }
                    type = x.attribute("t").map { cellType(x, $0.value) } ?? .number
                    style = x.attribute("s").flatMap { a in number(x, a.value) }.map { Int(clamping: $0) } ?? 0
                    value.removeAll(keepingCapacity: true)
                    hasValue = false; hasFormula = false
                } else if x.isName("v") {
                    inValue = true
                } else if x.isName("f") {
                    hasFormula = true
                } else if x.isName("is") {
                    inInline = true
                } else if x.isName("t") {
                    inText = inInline && phonetic == 0
                } else if x.isName("rPh") {
                    phonetic += 1
                } else if x.isName("row") {
                    guard inData else { continue }
                    if let r = x.attribute("r") {
                        guard let n = number(x, r.value), n >= 1, n <= Int64(Int32.max) else {
                            throw XLSXSheetProblem(message: "has a row numbered \(String(x.value(r).prefix(20)).quoted)")
                        }
                        row = Int32(n)
                    } else {
                        row = row == Int32.max ? row : row + 1
                    }
                    column = -1
                    rowsRead += 1
                    if rowsRead & 0x3FFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                } else if x.isName("sheetData") {
                    inData = true
                }
            case .text:
                if inValue || inText { x.appendText(to: &value); hasValue = true }
            case .end:
                if x.isName("v") {
                    // `<v/>` holds nothing: a formula never calculated, not an empty value.
                    inValue = false
                } else if x.isName("t") {
                    inText = false
                } else if x.isName("is") {
                    inInline = false; hasValue = true
                } else if x.isName("rPh") {
                    phonetic = max(0, phonetic - 1)
                } else if x.isName("c") {
                    guard inData, row >= 1 else { continue }
                    if hasValue {
                        store(&cells, row: row, column: column, type: type, style: style, value: value, styles: styles, shared: shared)
                    } else if hasFormula {
                        cells.uncalculated += 1
                        if cells.firstUncalculated == nil { cells.firstUncalculated = (row, column) }
                    }
                } else if x.isName("sheetData") {
                    inData = false
                }
            }
        }
    }

    enum CellType { case number, shared, bool, formulaText, inline, error, isoDate }

    private static func cellType(_ x: XMLScanner, _ r: Range<Int>) -> CellType {
        if x.matches(r, "s") { return .shared }
        if x.matches(r, "n") { return .number }
        if x.matches(r, "b") { return .bool }
        if x.matches(r, "str") { return .formulaText }
        if x.matches(r, "inlineStr") { return .inline }
        if x.matches(r, "e") { return .error }
        if x.matches(r, "d") { return .isoDate }
        return .number
    }

    /// One cell's value, kept by kind; an empty text is an empty cell.
    private static func store(_ cells: inout XLSXCells, row: Int32, column: Int, type: CellType, style: Int, value: [UInt8],
                              styles: XLSXStyles, shared: XLSXTexts) {
        func unreadable(_ what: String) { cells.unreadable.append((row, column, what)) }
        // Numbers and references with the spaces around them dropped; nothing left is no value.
        var s = 0, e = value.count
        while s < e, value[s] <= 0x20 { s += 1 }
        while e > s, value[e - 1] <= 0x20 { e -= 1 }
        func shown() -> String { String(decoding: value[s..<e].prefix(24), as: UTF8.self).quoted }
        switch type {
        case .inline, .formulaText:
            guard !value.isEmpty else { return }
            let i = cells.texts.append(value)
            if cells.texts.isEmpty(i) { return }
            cells.add(row: row, column: column, kind: .text, value: UInt64(i))
            return
        case .error:
            guard s < e else { return }
            cells.add(row: row, column: column, kind: .error, value: UInt64(cells.texts.append(Array(value[s..<e]))))
            return
        default:
            guard s < e else { return }
        }
        value.withUnsafeBytes { raw in
            let b = UnsafeRawBufferPointer(rebasing: raw[s..<e])
            switch type {
            case .shared:
                guard let i = NumberParser.int(b), i >= 0, i < shared.count else {
                    unreadable("refers to shared text \(shown()), which the workbook does not have"); return
                }
                if !shared.isEmpty(Int(i)) { cells.add(row: row, column: column, kind: .shared, value: UInt64(i)) }
            case .bool:
                switch b.count == 1 ? b[0] : 0 {
                case 0x31: cells.add(row: row, column: column, kind: .bool, value: 1)
                case 0x30: cells.add(row: row, column: column, kind: .bool, value: 0)
                default:
                    if let v = ColumnBuilder.bool(b) { cells.add(row: row, column: column, kind: .bool, value: v ? 1 : 0) }
                    else { unreadable("holds \(shown()), which is not true or false") }
                }
            case .isoDate:
                guard let p = TimestampParser.parse(b, order: .dayFirst) else { unreadable("holds \(shown()), which is not a date"); return }
                // A written offset is kept as the instant it names, shown as wall time in UTC.
                let wall = p.offset.map { p.wall - Int64($0) * 1_000_000 } ?? p.wall
                cells.add(row: row, column: column, kind: p.hasTime ? .isoDateTime : .isoDate, value: UInt64(bitPattern: wall))
            default:
                guard let v = NumberParser.double(b), v.isFinite else { unreadable("holds \(shown()), which is not a number"); return }
                let kind: XLSXCells.Kind
                switch styles.kind(style) {
                case .plain: kind = .number
                case .date: kind = .date
                case .dateTime: kind = .dateTime
                case .time: kind = .time
                case .elapsed: kind = .elapsed
                }
                cells.add(row: row, column: column, kind: kind, value: v.bitPattern)
            }
        }
    }

    /// `B3` → column 1, row 3; `B` → column 1 and no row. Letters past three (XFD is the last
    /// column) are refused, as is a row past 2³¹.
    static func reference(_ x: XMLScanner, _ r: Range<Int>) -> (column: Int, row: Int32?)? {
        var i = r.lowerBound
        var column = 0
        while i < r.upperBound, case let b = x.bytes[i] | 0x20, b >= 0x61 && b <= 0x7A {
            column = column * 26 + Int(b - 0x60)
            i += 1
            if i - r.lowerBound > 3 { return nil }
        }
        guard column > 0 else { return nil }
        if i == r.upperBound { return (column - 1, nil) }
        guard let n = number(x, i..<r.upperBound), n >= 1, n <= Int64(Int32.max) else { return nil }
        return (column - 1, Int32(n))
    }

    private static func number(_ x: XMLScanner, _ r: Range<Int>) -> Int64? {
        guard !r.isEmpty, r.count <= 12 else { return nil }
        var v: Int64 = 0
        for i in r {
            let d = x.bytes[i] &- 0x30
            guard d <= 9 else { return nil }
            v = v * 10 + Int64(d)
        }
        return v
    }
}
