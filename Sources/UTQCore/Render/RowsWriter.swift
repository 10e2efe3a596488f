/// CSV, TSV, JSON and NDJSON written a column's way: each text value quoted once for its
/// dictionary entry and copied for every row that has it, numbers and times formatted
/// straight into bytes, and blocks of rows filled on every core and handed on in order. The
/// same bytes as each cell's text (MachineCell) quoted for its format, which the other
/// kinds still take; ten million entries took 10 s as CSV and 17 s as NDJSON that way, a
/// String a cell.
struct RowsWriter {
    enum Framing {
        /// CSV or TSV: a header line, cells quoted where they must be.
        case delimited(separator: UInt8, csvSafe: Bool)
        /// An object a row, one a line (NDJSON) or in an array (JSON).
        case json(array: Bool)
    }

    let table: Table
    let framing: Framing
    private let cells: [Cells]
    /// Bytes before each cell but the first's separator: a JSON object's `"name":`.
    private let labels: [[UInt8]]
    private let separator: UInt8

    /// Rows a core fills at a time.
    let blockRows: Int
    /// JSON's empty cell.
    private static let null = Array("null".utf8)

    private enum Cells {
        /// Each dictionary entry's cell, quoted as it needs, in `bytes` from `starts[code]`.
        case text(DictionaryCodes, bytes: [UInt8], starts: [Int])
        case int([Int64])
        /// Numbers; in JSON NaN and ±∞ are null.
        case double([Double], finiteOnly: Bool)
        case bool([Bool])
        /// ISO 8601 with the zone's offset, to the microsecond (TimeText.iso), in quotes for JSON.
        case time([Int64], ZoneRules, quoted: Bool)
        /// Anything else through its text (MachineCell).
        case general(MachineCell)
        case empty
    }

    init(_ table: Table, _ framing: Framing, blockRows: Int = 1 << 16) {
        self.table = table
        self.framing = framing
        self.blockRows = Swift.max(1, blockRows)
        let json: Bool
        switch framing {
        case .delimited(let sep, _): separator = sep; json = false
        case .json: separator = 0x2C; json = true
        }
        labels = table.columns.map { json ? Array((JSONText.quote($0.name) + ":").utf8) : [] }
        cells = table.columns.map { [framing] c in
            switch c.storage {
            case .string(let s):
                var bytes: [UInt8] = [], starts = [0]
                for value in s.dictionary {
                    switch framing {
                    case .delimited(let sep, let safe): TableWriter.appendDelimited(&bytes, value, sep: sep, csvSafe: safe)
                    case .json: bytes.append(contentsOf: JSONText.quote(value).utf8)
                    }
                    starts.append(bytes.count)
                }
                return .text(s.codes, bytes: bytes, starts: starts)
            case .int(let a): return .int(a)
            case .double(let a): return .double(a, finiteOnly: json)
            case .bool(let a): return .bool(a)
            case .timestamp(let a):
                switch c.unit {
                case .day, .week, .month, .year: return .general(MachineCell(column: c, zone: table.zone))
                default: return .time(a, table.zone, quoted: json)
                }
            case .null: return .empty
            default: return .general(MachineCell(column: c, zone: table.zone))
            }
        }
    }

    /// How a format frames its rows; nil for the formats written another way.
    static func framing(_ format: OutputFormat, csvSafe: Bool) -> Framing? {
        switch format {
        case .csv: return .delimited(separator: 0x2C, csvSafe: csvSafe)
        case .tsv: return .delimited(separator: 0x09, csvSafe: csvSafe)
        case .json: return .json(array: true)
        case .ndjson: return .json(array: false)
        default: return nil
        }
    }

    /// What comes before the rows: CSV's line of column names, JSON's opening bracket.
    func header() -> [UInt8] {
        switch framing {
        case .delimited(let sep, _):
            var out: [UInt8] = []
            for (i, c) in table.columns.enumerated() {
                if i > 0 { out.append(sep) }
                TableWriter.appendDelimited(&out, c.name, sep: sep, csvSafe: false)
            }
            out.append(0x0A)
            return out
        case .json(let array): return array ? [0x5B] : []
        }
    }

    /// What comes after them: JSON's closing bracket.
    func footer() -> [UInt8] {
        guard case .json(true) = framing else { return [] }
        return Array((table.rowCount == 0 ? "]\n" : "\n]\n").utf8)
    }

    /// The header and then every row, a block of rows at a time, in order. The flag is
    /// looked at between blocks.
    func write(cancel: CancellationFlag? = nil, _ take: ([UInt8]) throws -> Void) throws {
        try take(header())
        let n = table.rowCount
        let parts = Swift.max(1, Swift.min(Workers.available, (n + blockRows - 1) / blockRows))
        var start = 0
        while start < n {
            if cancel?.isCancelled == true { throw CancellationError() }
            // A block for each core, filled at once, then handed on in order.
            var blocks = [[UInt8]](repeating: [], count: parts)
            let first = start
            blocks.withUnsafeMutableBufferPointer { out in
                Parallel.each(parts) { p in
                    let lo = Swift.min(n, first + p * blockRows), hi = Swift.min(n, lo + blockRows)
                    if lo < hi { out[p] = rows(lo..<hi) }
                }
            }
            for b in blocks where !b.isEmpty { try take(b) }
            start = Swift.min(n, start + parts * blockRows)
        }
        let end = footer()
        if !end.isEmpty { try take(end) }
    }

    /// The lines of `range`'s rows: each column's cells of the block one after another (one
    /// look at the column's kind, then a loop of its own), then laid out a row at a time.
    func rows(_ range: Range<Int>) -> [UInt8] {
        let m = range.count, width = cells.count, first = range.lowerBound
        var json = false
        if case .json = framing { json = true }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(m * width * 8)
        // Where each cell ends in `bytes`, a column's cells together: cell (k, i) at k * m + i.
        var ends = [Int](repeating: 0, count: m * width)
        ends.withUnsafeMutableBufferPointer { end in
            for k in 0..<width {
                let valid = table.columns[k].validity
                let base = k * m
                @inline(__always) func each(_ write: (Int) -> Void) {
                    for i in 0..<m {
                        let r = first + i
                        if valid?[r] ?? true { write(r) } else if json { bytes.append(contentsOf: Self.null) }
                        end[base + i] = bytes.count
                    }
                }
                switch cells[k] {
                case .text(let codes, let texts, let starts):
                    texts.withUnsafeBufferPointer { t in
                        starts.withUnsafeBufferPointer { s in
                            func copy<C: FixedWidthInteger>(_ c: UnsafeBufferPointer<C>) {
                                each { r in
                                    let code = Int(c[r])
                                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: t[s[code]..<s[code + 1]]))
                                }
                            }
                            codes.withLanes(copy, copy, copy)
                        }
                    }
                case .int(let a): a.withUnsafeBufferPointer { p in each { Self.appendInt(&bytes, p[$0]) } }
                case .double(let a, let finiteOnly):
                    a.withUnsafeBufferPointer { p in
                        each { r in
                            if finiteOnly && !p[r].isFinite { bytes.append(contentsOf: Self.null) } else { Self.appendDouble(&bytes, p[r]) }
                        }
                    }
                case .bool(let a): a.withUnsafeBufferPointer { p in each { Self.appendUTF8(&bytes, p[$0] ? "true" : "false") } }
                case .time(let a, let zone, let quoted):
                    var times = ISOTimeWriter(zone: zone)
                    a.withUnsafeBufferPointer { p in
                        each { r in
                            if quoted { bytes.append(0x22) }
                            times.append(&bytes, p[r])
                            if quoted { bytes.append(0x22) }
                        }
                    }
                case .general(let cell):
                    switch framing {
                    case .delimited(let sep, let csvSafe):
                        let safe = csvSafe && cell.column.type == .string
                        each { r in
                            if let s = cell.text(r) { TableWriter.appendDelimited(&bytes, s, sep: sep, csvSafe: safe) }
                        }
                    case .json: each { r in Self.appendUTF8(&bytes, cell.json(r)) }
                    }
                case .empty: each { _ in if json { bytes.append(contentsOf: Self.null) } }
                }
            }
        }
        // Around each row: CSV's line end; JSON's braces, the names, and the array's commas.
        let (open, close): ([UInt8], [UInt8])
        switch framing {
        case .delimited: (open, close) = ([], [0x0A])
        case .json(let array): (open, close) = (array ? Array(",\n  {".utf8) : [0x7B], array ? [0x7D] : [0x7D, 0x0A])
        }
        var arrayStart = false
        if case .json(true) = framing, first == 0 { arrayStart = true }  // the first row has no comma before it
        let perRow = open.count + close.count + Swift.max(0, width - 1) + labels.reduce(0) { $0 + $1.count }
        let total = bytes.count + m * perRow
        return [UInt8](unsafeUninitializedCapacity: total) { out, made in
            var o = 0
            func put(_ p: UnsafeBufferPointer<UInt8>) {
                if p.isEmpty { return }
                (out.baseAddress! + o).initialize(from: p.baseAddress!, count: p.count)
                o += p.count
            }
            bytes.withUnsafeBufferPointer { b in
                ends.withUnsafeBufferPointer { end in
                    open.withUnsafeBufferPointer { openBytes in
                        for i in 0..<m {
                            put(arrayStart && i == 0 ? UnsafeBufferPointer(rebasing: openBytes[1...]) : openBytes)
                            for k in 0..<width {
                                if k > 0 { out[o] = separator; o += 1 }
                                labels[k].withUnsafeBufferPointer { put($0) }
                                let cell = k * m + i
                                let from = cell == 0 ? 0 : end[cell - 1]
                                put(UnsafeBufferPointer(rebasing: b[from..<end[cell]]))
                            }
                            close.withUnsafeBufferPointer { put($0) }
                        }
                    }
                }
            }
            made = o
        }
    }

    @inline(__always)
    static func appendUTF8(_ out: inout [UInt8], _ s: String) {
        var s = s
        s.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Decimal digits, as `String(v)` writes them.
    @inline(__always)
    static func appendInt(_ out: inout [UInt8], _ v: Int64) {
        if v < 0 { out.append(0x2D) }
        var m = v.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var i = 20
            repeat {
                i -= 1
                digits[i] = 0x30 &+ UInt8(truncatingIfNeeded: m % 10)
                m /= 10
            } while m != 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i..<20]))
        }
    }

    /// Numbers as `NumberText.double` writes them, whole ones without making a String.
    @inline(__always)
    static func appendDouble(_ out: inout [UInt8], _ v: Double) {
        if v == v.rounded(), abs(v) < 1e15 { appendInt(&out, Int64(v)) } else { appendUTF8(&out, NumberText.double(v)) }
    }
}

/// Times as `TimeText.iso` writes them (`2017-03-23T08:15:12.5+01:00`), a row at a time:
/// the zone's cursor, the last day's date and the last offset's text are kept, as the rows
/// of a log share them. Years outside 0...9999 take TimeText's way.
struct ISOTimeWriter {
    let zone: ZoneRules
    private var cursor: ZoneRules.Cursor
    private var day = Int64.min
    private var date: [UInt8] = []  // "2017-03-23T", empty for a year outside 0...9999
    private var offset = Int64.min
    private var offsetText: [UInt8] = []

    init(zone: ZoneRules) {
        self.zone = zone
        cursor = zone.makeCursor()
    }

    mutating func append(_ out: inout [UInt8], _ micros: Int64) {
        let wall = cursor.wall(micros)
        let days = CivilTime.floorDiv(wall, CivilTime.microsPerDay)
        if days != day {
            day = days
            let (y, m, d) = CivilTime.civilFromDays(days)
            date = []
            if y >= 0 && y <= 9999 {
                for n in [y / 100, y % 100] { date.append(0x30 &+ UInt8(n / 10)); date.append(0x30 &+ UInt8(n % 10)) }
                date.append(0x2D); date.append(0x30 &+ UInt8(m / 10)); date.append(0x30 &+ UInt8(m % 10))
                date.append(0x2D); date.append(0x30 &+ UInt8(d / 10)); date.append(0x30 &+ UInt8(d % 10))
                date.append(0x54)
            }
        }
        guard !date.isEmpty else {
            RowsWriter.appendUTF8(&out, TimeText.iso(micros, zone: zone))
            return
        }
        out.append(contentsOf: date)
        var rest = wall &- days &* CivilTime.microsPerDay
        let hour = Int(rest / CivilTime.microsPerHour); rest %= CivilTime.microsPerHour
        let minute = Int(rest / CivilTime.microsPerMinute); rest %= CivilTime.microsPerMinute
        let second = Int(rest / CivilTime.microsPerSecond), micro = Int(rest % CivilTime.microsPerSecond)
        func two(_ n: Int) { out.append(0x30 &+ UInt8(n / 10)); out.append(0x30 &+ UInt8(n % 10)) }
        two(hour); out.append(0x3A); two(minute); out.append(0x3A); two(second)
        if micro != 0 {
            out.append(0x2E)
            var f = micro, digits = 6
            while f % 10 == 0 { f /= 10; digits -= 1 }
            var scale = 1
            for _ in 1..<digits { scale *= 10 }
            while scale > 0 { out.append(0x30 &+ UInt8(f / scale % 10)); scale /= 10 }
        }
        let shift = wall &- micros
        if shift != offset {
            offset = shift
            offsetText = Array(TimeText.offsetText(Int(shift / 1_000_000)).utf8)
        }
        out.append(contentsOf: offsetText)
    }
}
