import CIntrinsics
import Foundation

/// Reads a stretch of CSV that holds whole records only, straight into column builders:
/// each field is found and handed to its column without an intermediate list of fields.
struct CSVRecords {
    let delimiter: UInt8
    let width: Int
    let builders: [ColumnBuilder]
    /// The builders without reference counting: a retain and release per cell costs as much
    /// as parsing the cell. `builders` keeps them alive.
    private let sinks: [Unmanaged<ColumnBuilder>]
    private var scratch: [UInt8] = []
    /// Records found but not yet handed to the columns.
    private let batch: CSVBatch
    /// Line of the next record (1-based, in the whole file).
    var line: Int
    var rows = 0
    var warnings: WarningLog
    /// The line each row starts on, when the reader asked for them.
    private(set) var rowLines: [Int32] = []
    let rules: CSVRecordRules
    /// The line the record being read starts on.
    private var recordLine = 0

    init(delimiter: UInt8, width: Int, builders: [ColumnBuilder], line: Int, path: String, rules: CSVRecordRules = CSVRecordRules()) {
        self.delimiter = delimiter
        self.width = width
        self.builders = builders
        self.sinks = builders.map { Unmanaged.passUnretained($0) }
        self.line = line
        self.rules = rules
        warnings = WarningLog(path: path)
        // A column whose type the caller fixed warns about bad cells as they come, so its
        // warnings keep their order among the others: then records go one at a time.
        batch = CSVBatch(width: width, rows: rules.promised.contains(true) ? 1 : CSVBatch.rows(forWidth: width))
    }

    struct Unterminated: Error { let line: Int; let column: Int }

    /// Parses every record in `b[start..<end]`; the stretch ends at a record boundary.
    mutating func parse(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int, cancel: CancellationFlag?) throws {
        let delim = delimiter
        // Most files are valid UTF-8 throughout: check the stretch once, and record by
        // record only when it is not, to say on which lines.
        let checkRecords = !UTF8Check.isValid(UnsafeRawBufferPointer(rebasing: b[start..<end]))
        var cellEnds = CellEnds(delimiter: delim)
        var i = start
        while i < end {
            // A blank line is no record.
            let first = b[i]
            if first == 0x0A { i += 1; noteLineEnd(.lf); line += 1; continue }
            if first == 0x0D {
                let crlf = i + 1 < end && b[i + 1] == 0x0A
                i += crlf ? 2 : 1
                noteLineEnd(crlf ? .crlf : .cr)
                line += 1
                continue
            }
            let recordStart = i
            recordLine = line
            let row = batch.row
            var k = 0
            var extraText = false
            var malformed = false
            record: while true {
                if i < end && b[i] == 0x22 {
                    // Quoted field.
                    let open = i
                    var j = i + 1
                    var doubled = false
                    var close = -1
                    while j < end {
                        guard let p = memchr(b.baseAddress! + j, 0x22, end - j) else { break }
                        let q = b.baseAddress!.distance(to: UnsafeRawPointer(p))
                        if q + 1 < end && b[q + 1] == 0x22 { doubled = true; j = q + 2; continue }
                        close = q
                        break
                    }
                    if close < 0 {
                        throw Unterminated(line: recordLine, column: column(of: open, in: b, lineStart: start))
                    }
                    var nl = open + 1
                    while nl < close, let p = memchr(b.baseAddress! + nl, 0x0A, close - nl) {
                        line += 1
                        nl = b.baseAddress!.distance(to: UnsafeRawPointer(p)) + 1
                    }
                    var after = close + 1
                    if after < end && b[after] != delim && b[after] != 0x0A && b[after] != 0x0D {
                        malformed = true
                        while after < end && b[after] != delim && b[after] != 0x0A && b[after] != 0x0D { after += 1 }
                        place(row, k, batch.keep(unquote(b, open, after)), &extraText)
                    } else if doubled {
                        place(row, k, batch.keep(unquote(b, open, close + 1)), &extraText)
                    } else {
                        place(row, k, UnsafeRawBufferPointer(rebasing: b[(open + 1)..<close]), &extraText)
                    }
                    i = after
                } else {
                    let s = i
                    i = cellEnds.next(in: b, from: i, end: end)
                    place(row, k, trimmed(UnsafeRawBufferPointer(rebasing: b[s..<i])), &extraText)
                }
                k += 1
                if i >= end { break record }
                let c = b[i]
                if c == delim {
                    i += 1
                    if i >= end {
                        // A delimiter right before the end: one more, empty field.
                        place(row, k, UnsafeRawBufferPointer(rebasing: b[i..<i]), &extraText)
                        k += 1
                        break record
                    }
                    continue record
                }
                let crlf = c == 0x0D && i + 1 < end && b[i + 1] == 0x0A
                i += crlf ? 2 : 1
                noteLineEnd(c == 0x0A ? .lf : crlf ? .crlf : .cr)
                break record
            }
            // Missing cells are empty, so null.
            if k < width { for m in k..<width { row[m] = UnsafeRawBufferPointer(start: nil, count: 0) } }
            if batch.add() { try flush() }
            if checkRecords && !UTF8Check.isValid(UnsafeRawBufferPointer(rebasing: b[recordStart..<i])) {
                warnings.add("UTF-8", line: recordLine, "bytes that are not UTF-8 are shown as U+FFFD (\u{FFFD})")
            }
            if rules.recordLines { rowLines.append(Int32(clamping: recordLine)) }
            line += 1
            if k < width {
                warnings.add("missing cells", line: recordLine, "\(k == 1 ? "1 cell" : "\(k) cells") where the header has \(width); the missing ones are empty",
                             kind: .rowLength)
            } else if k > width && (extraText || !rules.ignoresEmptyExtraCells) {
                warnings.add("extra cells", line: recordLine, "\(k) cells where the header has \(width); the extra cells are ignored",
                             kind: .rowLength)
            }
            if malformed { warnings.add("quote", line: recordLine, "text after a closing quote; kept as part of the cell") }
            rows += 1
            if rows & 0x1FFF == 0, cancel?.isCancelled == true { throw CancellationError() }
        }
        // The fields point into `b`: they are read before it goes.
        try flush()
    }

    @inline(__always)
    private func place(_ row: UnsafeMutablePointer<UnsafeRawBufferPointer>, _ k: Int, _ field: UnsafeRawBufferPointer, _ extraText: inout Bool) {
        guard k < width else {
            if field.count > 0 { extraText = true }
            return
        }
        row[k] = field
    }

    /// The batch's records into the columns, a column at a time.
    private mutating func flush() throws {
        let n = batch.count
        guard n > 0 else { return }
        let skipping = !rules.skipped.isEmpty
        for k in 0..<width {
            if skipping && rules.skipped[k] { continue }
            let fields = UnsafePointer(batch.fields + k)
            if rules.promised.indices.contains(k) && rules.promised[k] {
                // The caller fixed this column's type: a cell that does not fit is wrong, not the
                // type. Batches are one record long then, so `recordLine` is the cell's line.
                let builder = builders[k]
                for r in 0..<n {
                    let field = fields[r * width]
                    do { try builder.appendText(field) } catch is TypeConflict {
                        builder.appendNull()
                        warnings.add("bad \(builder.name)", line: recordLine,
                                     "\(builder.name) \"\(String(decoding: field, as: UTF8.self))\" is not \(builder.type.expectation); left empty",
                                     kind: .unreadableCell(builder.type))
                    }
                }
            } else {
                try sinks[k]._withUnsafeGuaranteedRef { try $0.appendTexts(fields, stride: width, count: n) }
            }
        }
        batch.reset()
    }

    /// Notes how a line ended, and warns when the file mixes line ends. Once a record: the
    /// test here, the warning apart.
    @inline(__always)
    private mutating func noteLineEnd(_ end: CSVScanner.LineEnd) {
        guard let expected = rules.lineEnd, expected != .none, end != expected else { return }
        warnMixedLineEnd(end, expected)
    }

    private mutating func warnMixedLineEnd(_ end: CSVScanner.LineEnd, _ expected: CSVScanner.LineEnd) {
        warnings.add("line ends", line: line, "this line ends with \(end.rawValue) but line 1 with \(expected.rawValue); each is read "
                     + "as a line end, so lines may be counted differently from an editor")
    }

    /// A quoted field's text with its quotes removed and doubled quotes made single.
    private mutating func unquote(_ b: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> UnsafeRawBufferPointer {
        scratch.removeAll(keepingCapacity: true)
        var i = s
        var inQuotes = false
        while i < e {
            let c = b[i]
            if c == 0x22 {
                if inQuotes && i + 1 < e && b[i + 1] == 0x22 { scratch.append(0x22); i += 2; continue }
                inQuotes.toggle()
                i += 1
                continue
            }
            scratch.append(c)
            i += 1
        }
        return scratch.withUnsafeBytes { $0 }  // valid until the next unquote; used at once
    }

    private func column(of offset: Int, in b: UnsafeRawBufferPointer, lineStart: Int) -> Int {
        var s = offset
        while s > lineStart && b[s - 1] != 0x0A { s -= 1 }
        return lineAndColumn(of: offset - s, in: UnsafeRawBufferPointer(rebasing: b[s...])).column
    }
}

/// Records whose fields were found but not yet handed to their columns: handing them over
/// a column at a time looks at each column's type once per batch, and keeps one column's
/// parser and storage busy at a time, instead of turning through every column per record.
final class CSVBatch {
    let width: Int
    let capacity: Int
    /// Row r's field k is `fields[r * width + k]`; it points into the bytes being parsed, or
    /// into `kept` for cells that had to be rewritten (doubled quotes).
    let fields: UnsafeMutablePointer<UnsafeRawBufferPointer>
    private(set) var count = 0
    private var kept: [UnsafeMutableRawBufferPointer] = []
    private var keptUsed = 0

    /// About 64 KB of fields: the batch stays in the cache while each column reads it.
    static func rows(forWidth width: Int) -> Int { max(1, min(1024, 4096 / max(1, width))) }

    init(width: Int, rows: Int) {
        self.width = width
        capacity = rows
        fields = .allocate(capacity: max(1, width * rows))
        fields.initialize(repeating: UnsafeRawBufferPointer(start: nil, count: 0), count: max(1, width * rows))
    }

    deinit {
        fields.deallocate()
        for block in kept { block.deallocate() }
    }

    /// Where the next record's fields go.
    var row: UnsafeMutablePointer<UnsafeRawBufferPointer> { fields + count * width }

    /// Counts the record just placed; true when the batch is full.
    @inline(__always)
    func add() -> Bool {
        count += 1
        return count == capacity
    }

    /// A copy of bytes that live only until the next rewrite, valid until `reset`. Blocks are
    /// never moved, since fields already point into them.
    func keep(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        if kept.isEmpty || keptUsed + bytes.count > kept[kept.count - 1].count {
            kept.append(.allocate(byteCount: max(65536, bytes.count), alignment: 8))
            keptUsed = 0
        }
        let block = kept[kept.count - 1]
        let start = block.baseAddress! + keptUsed
        if bytes.count > 0 { start.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        keptUsed += bytes.count
        return UnsafeRawBufferPointer(start: start, count: bytes.count)
    }

    /// Empties the batch; the first block of kept bytes is used again.
    func reset() {
        count = 0
        if kept.count > 1 {
            for block in kept.dropFirst() { block.deallocate() }
            kept.removeLast(kept.count - 1)
        }
        keptUsed = 0
    }
}

/// What a reader asks of the records beyond parsing them.
struct CSVRecordRules {
    /// Columns whose type the caller fixed: a cell that does not fit is left empty, with a warning.
    var promised: [Bool] = []
    /// Keep the line each row starts on.
    var recordLines = false
    /// Whether cells past the header's width that are empty go unreported (a trailing delimiter).
    var ignoresEmptyExtraCells = true
    /// How the header line ended; other line ends are reported.
    var lineEnd: CSVScanner.LineEnd?
    /// Columns whose cells are found but not read (empty: none).
    var skipped: [Bool] = []
}

/// Where each unquoted cell ends (the next delimiter or line break), from a mask of 64
/// bytes at a time (`utq_cell_ends64`): the cells of a block are its set bits in order, so
/// finding one costs the same whatever its length, and there is no branch to mispredict
/// per cell. The mask stays valid when the reader jumps (past a quoted cell): bytes are
/// marked by what they are, not by what the reader made of them.
struct CellEnds {
    let delimiter: UInt8
    /// Start of the 64 bytes `bits` describes; far below any position before the first block.
    private var block = -128
    private var bits: UInt64 = 0

    init(delimiter: UInt8) { self.delimiter = delimiter }

    @inline(__always)
    mutating func next(in b: UnsafeRawBufferPointer, from i: Int, end: Int) -> Int {
        var start = i
        let offset = i &- block
        if offset >= 0 && offset < 64 {
            let m = bits & (UInt64.max << UInt64(offset))
            if m != 0 { return block &+ m.trailingZeroBitCount }
            start = block &+ 64
        }
        let base = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
        while start &+ 64 <= end {
            block = start
            bits = utq_cell_ends64(base + start, delimiter)
            if bits != 0 { return start &+ bits.trailingZeroBitCount }
            start &+= 64
        }
        // Fewer than 64 bytes left: byte by byte, and the mask no longer holds.
        block = -128
        while start < end {
            let c = base[start]
            if c == delimiter || c == 0x0A || c == 0x0D { return start }
            start &+= 1
        }
        return end
    }
}

/// The end of the last whole record in a buffer that grows while a record is longer than
/// the chunks read so far: just after the last line break outside quotes, by the reader's
/// own rules (a quote opens a quoted cell only where a cell starts, `""` inside one is a
/// quote, a quote anywhere else is text). It remembers how far it looked, so a 50 MB cell
/// is searched once, not once more after every chunk.
struct BoundarySearch {
    let delimiter: UInt8
    /// Where the search started (a record start, outside quotes), and how far the state holds.
    private var from = -1
    private var scanned = 0
    private var inQuotes = false
    private var last: Int?

    init(delimiter: UInt8) { self.delimiter = delimiter }

    mutating func find(_ b: UnsafeRawBufferPointer, from: Int) -> Int? {
        if from != self.from { self.from = from; scanned = 0; inQuotes = false; last = nil }
        let n = b.count
        guard let base = b.baseAddress, from < n else { return nil }
        func nextQuote(_ p: Int) -> Int { memchr(base + p, 0x22, n - p).map { base.distance(to: UnsafeRawPointer($0)) } ?? n }
        var p = from + scanned
        while p < n {
            let q = nextQuote(p)
            if inQuotes {
                if q == n { p = n; break }
                // A quote as the last byte may be the first of "": look again with more bytes.
                if q + 1 == n { p = q; break }
                if b[q + 1] == 0x22 { p = q + 2; continue }
                inQuotes = false
                p = q + 1
            } else {
                // Line breaks before the quote end records; a \r as the very last byte may be
                // the first half of \r\n, so the cut is not made after it.
                var k = q - 1
                while k >= p {
                    let c = b[k]
                    if c == 0x0A || (c == 0x0D && k != n - 1) { last = k + 1; break }
                    k -= 1
                }
                if q == n { p = n; break }
                let before = q == from ? 0x0A : b[q - 1]
                inQuotes = before == delimiter || before == 0x0A || before == 0x0D
                p = q + 1
            }
        }
        // A trailing \r is looked at again once the next byte is there.
        scanned = (p == n && !inQuotes && b[n - 1] == 0x0D ? n - 1 : p) - from
        guard let end = last else { return nil }
        self.from = -1
        return end
    }
}

/// How many bytes equal `c`: vector compares in C (CIntrinsics/bytes.h), several times the
/// speed of a word at a time in Swift (no popcount instruction in the build's target).
func countByte(_ c: UInt8, in b: UnsafeRawBufferPointer) -> Int {
    guard let base = b.baseAddress, b.count > 0 else { return 0 }
    return utq_count_byte(base.assumingMemoryBound(to: UInt8.self), b.count, c)
}

/// Where to cut a file into `parts` stretches: after the first line break past each even
/// share. Nothing before the cut is read, so the cut may fall inside a quoted cell; the part
/// before it then ends inside quotes, and the loader reads the file in one piece instead.
func csvCandidateCuts(_ source: FileSource, dataStart: Int, parts: Int) throws -> [Int] {
    guard parts > 1 else { return [] }
    var cuts: [Int] = []
    var buffer: [UInt8] = []
    var nuls = 0
    for part in 1..<parts {
        var offset = max(dataStart + (source.size - dataStart) * part / parts, cuts.last ?? 0)
        var found = false
        while !found && offset < source.size {
            buffer.removeAll(keepingCapacity: true)
            let n = try source.read(at: offset, count: min(1 << 16, source.size - offset), into: &buffer, nuls: &nuls)
            if n == 0 { break }
            // With NUL bytes left out, a place in the buffer is no longer a place in the file.
            if buffer.count != n { return [] }
            let k = buffer.withUnsafeBytes { p in memchr(p.baseAddress!, 0x0A, p.count).map { p.baseAddress!.distance(to: UnsafeRawPointer($0)) } }
            if let k {
                offset += k + 1
                found = offset < source.size
            } else {
                offset += n
            }
        }
        if !found { break }
        cuts.append(offset)
    }
    return cuts
}
