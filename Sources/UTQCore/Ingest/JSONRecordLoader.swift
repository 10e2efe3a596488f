import Foundation

/// Reads a JSON array of objects, or newline-delimited JSON, straight into typed columns.
/// Nested objects are flattened (`position.x`); nested arrays are kept as JSON text.
/// The file is read in chunks, so memory holds the columns, not the text.
public enum JSONRecordLoader {
    public static func load(path: String, name: String, zone: ZoneRules, chunkSize: Int = 4 << 20,
                            cancel: CancellationFlag? = nil) throws -> LoadedTable {
        var plan: [String: CellType]? = nil
        for _ in 0..<64 {
            do {
                return try read(path: path, name: name, zone: zone, chunkSize: chunkSize, plan: &plan, cancel: cancel)
            } catch let conflict as RecordConflict {
                plan![conflict.column] = conflict.widened
            }
        }
        throw LoadError(path: path, "column types kept changing while reading")
    }

    struct RecordConflict: Error { let column: String; let widened: CellType }

    enum Layout { case array, lines }

    private static func read(path: String, name: String, zone: ZoneRules, chunkSize: Int,
                             plan: inout [String: CellType]?, cancel: CancellationFlag?) throws -> LoadedTable {
        let stream = try ByteStream(path: path)
        var buffer: [UInt8] = []
        var eof = !(try stream.read(into: &buffer, chunk: chunkSize))
        var parser = RecordParser()
        var base = 0  // file offset of buffer[0], for error positions
        var pos = 0
        let layout: Layout
        // Find the first value.
        var first = JSONReader(buffer.withUnsafeBytes { $0 }, pos: 0, isFinal: eof)
        first.skipWhitespace()
        guard let c = first.peek() else { throw LoadError(path: path, "the file is empty") }
        if c == 0x5B { layout = .array; pos = first.pos + 1 } else { layout = .lines; pos = first.pos }

        if plan == nil {
            plan = try buffer.withUnsafeBytes { b in try sniff(b, from: pos, layout: layout, isFinal: eof, path: path) }
        }
        let columnPlan = plan!
        var builders: [ColumnBuilder] = []
        var rows = 0
        var expectComma = false
        var finished = false

        while !finished {
            var needMore = false
            try buffer.withUnsafeBytes { b in
                while true {
                    var r = JSONReader(b, pos: pos, isFinal: eof)
                    r.skipWhitespace()
                    guard let c = r.peek() else {
                        if eof {
                            if layout == .array { throw located(JSONSyntaxError(offset: r.pos, message: "the array is not closed with ']'"), b, base, path, stream) }
                            finished = true
                        } else { needMore = true }
                        return
                    }
                    if layout == .array {
                        if c == 0x5D { pos = r.pos; finished = true; return }
                        if expectComma {
                            guard c == 0x2C else {
                                throw located(JSONSyntaxError(offset: r.pos, message: "expected ',' or ']' between array elements, found \(r.describe(c))"), b, base, path, stream)
                            }
                            r.pos += 1
                            r.skipWhitespace()
                            if r.peek() == nil { if eof { throw located(JSONSyntaxError(offset: r.pos, message: "the array is not closed with ']'"), b, base, path, stream) }; needMore = true; return }
                        }
                    } else if c == 0x2C {
                        r.pos += 1  // tolerate commas between lines
                        pos = r.pos
                        continue
                    }
                    do {
                        try parser.parseRecord(&r)
                    } catch is JSONIncomplete {
                        needMore = true
                        return
                    } catch let e as JSONSyntaxError {
                        throw located(e, b, base, path, stream)
                    }
                    try parser.commit(into: &builders, plan: columnPlan, row: rows, zone: zone, bytes: b)
                    rows += 1
                    pos = r.pos
                    expectComma = true
                    if rows & 0x3FFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                }
            }
            if finished { break }
            if needMore {
                if eof { throw LoadError(path: path, "the file ends inside a value") }
                base += pos
                buffer.removeSubrange(0..<pos)
                pos = 0
                if !(try stream.read(into: &buffer, chunk: chunkSize)) { eof = true }
            }
        }
        // Anything after the closing bracket must be whitespace.
        if layout == .array {
            pos += 1
            while true {
                let trailing = buffer.withUnsafeBytes { b -> Int? in
                    var r = JSONReader(b, pos: pos, isFinal: true)
                    r.skipWhitespace()
                    return r.pos < b.count ? r.pos : nil
                }
                if let t = trailing {
                    let e = JSONSyntaxError(offset: t, message: "unexpected text after the closing ']'")
                    throw buffer.withUnsafeBytes { located(e, $0, base, path, stream) }
                }
                if eof { break }
                base += buffer.count; buffer.removeAll(keepingCapacity: true); pos = 0
                if !(try stream.read(into: &buffer, chunk: chunkSize)) { eof = true }
            }
        }
        for b in builders where b.count < rows { for _ in b.count..<rows { b.appendNull() } }
        var warnings = WarningLog(path: path)
        if stream.nulBytes > 0 { warnings.add("encoding", line: nil, "\(stream.nulBytes) NUL bytes were removed") }
        if parser.duplicateKeys > 0 {
            warnings.add("duplicate keys", line: nil, "\(parser.duplicateKeys) objects repeat a member name; the first value is kept")
        }
        let columns = builders.map { $0.finish() }
        return LoadedTable(table: Table(name: name, columns: columns, zone: inferredZone(builders, default: zone)), warnings: warnings.finish())
    }

    /// A syntax error with its line and column in the file.
    static func located(_ e: JSONSyntaxError, _ b: UnsafeRawBufferPointer, _ base: Int, _ path: String, _ stream: ByteStream) -> Error {
        let absolute = base + e.offset
        if base == 0 {
            let (line, column) = lineAndColumn(of: e.offset, in: b)
            return LoadError(path: path, line: line, column: column, "invalid JSON: " + e.message)
        }
        // The error is past the first chunk: count lines from the start of the file.
        if let all = try? ByteStream(path: path).readAll() {
            let (line, column) = all.withUnsafeBytes { lineAndColumn(of: absolute, in: $0) }
            return LoadError(path: path, line: line, column: column, "invalid JSON: " + e.message)
        }
        return LoadError(path: path, "invalid JSON at byte \(absolute): " + e.message)
    }

    /// Decides column types from the records in the first chunk.
    static func sniff(_ b: UnsafeRawBufferPointer, from start: Int, layout: Layout, isFinal: Bool, path: String) throws -> [String: CellType] {
        var parser = RecordParser()
        var votes: [Int: ColumnVote] = [:]
        var pos = start
        var records = 0
        while records < 2000 {
            var r = JSONReader(b, pos: pos, isFinal: isFinal)
            r.skipWhitespace()
            guard let c = r.peek() else { break }
            if c == 0x5D { break }
            if c == 0x2C { r.pos += 1 }
            do { try parser.parseRecord(&r) } catch { break }
            for cell in parser.cells { votes[Int(cell.column), default: ColumnVote()].add(cell, parser: parser, bytes: b) }
            records += 1
            pos = r.pos
        }
        var plan: [String: CellType] = [:]
        for (column, vote) in votes { plan[parser.columnName(column)] = vote.result }
        return plan
    }

    /// The kinds of values one column showed in the sample.
    struct ColumnVote {
        var numbers = 0, integers = 0, bools = 0, strings = 0, nested = 0
        var text = TypeVote()

        mutating func add(_ cell: RecordParser.Cell, parser: RecordParser, bytes: UnsafeRawBufferPointer) {
            switch cell.kind {
            case .int: numbers += 1; integers += 1
            case .double: numbers += 1
            case .bool: bools += 1
            case .null: break
            case .string:
                strings += 1
                parser.withText(cell, bytes) { text.add($0) }
            case .nested: nested += 1
            }
        }

        var result: CellType {
            let kinds = (numbers > 0 ? 1 : 0) + (bools > 0 ? 1 : 0) + (strings > 0 ? 1 : 0) + (nested > 0 ? 1 : 0)
            if kinds == 0 { return .undetermined }
            if kinds > 1 { return .string }
            if numbers > 0 { return integers == numbers ? .int : .double }
            if bools > 0 { return .bool }
            if nested > 0 { return .string }
            // JSON strings stay strings unless they are times or durations: a quoted
            // "123" in JSON was written as text on purpose.
            switch text.result {
            case .timestamp(let o): return .timestamp(o)
            case .duration(let s): return .duration(s)
            default: return .string
            }
        }
    }
}


/// Parses one JSON value as a record into a list of cells, without committing them, so a
/// record cut by the end of a chunk can be parsed again once more bytes are read.
struct RecordParser {
    enum Kind: UInt8 { case int, double, bool, null, string, nested }

    struct Cell {
        var column: Int32
        var kind: Kind
        /// Text range in the buffer, or in `arena` when `inArena`.
        var start: Int
        var end: Int
        var inArena: Bool
        var int: Int64
        var double: Double
    }

    private(set) var cells: [Cell] = []
    private var arena: [UInt8] = []
    private var keys = ByteInterner()
    private var keyPath: [UInt8] = []
    private var seen: [Int32] = []   // column -> record number last seen, to catch repeats
    private var recordNumber: Int32 = 0
    private(set) var duplicateKeys = 0

    func columnName(_ column: Int) -> String {
        String(decoding: keys.bytes(of: column), as: UTF8.self)
    }

    var columnCount: Int { keys.count }

    func withText<R>(_ cell: Cell, _ b: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if cell.inArena { return try arena.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[cell.start..<cell.end])) } }
        return try body(UnsafeRawBufferPointer(rebasing: b[cell.start..<cell.end]))
    }

    mutating func parseRecord(_ r: inout JSONReader) throws {
        cells.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
        keyPath.removeAll(keepingCapacity: true)
        recordNumber &+= 1
        r.skipWhitespace()
        guard let c = r.peek() else { throw r.fail("expected a value") }
        if c == 0x7B {
            try parseObject(&r, depth: 0)
        } else {
            // A record that is not an object becomes one column called "value".
            keyPath.append(contentsOf: "value".utf8)
            try parseMember(&r, depth: 0)
        }
    }

    private mutating func parseObject(_ r: inout JSONReader, depth: Int) throws {
        guard depth < JSONReader.maxDepth else { throw r.fail("objects are nested more than \(JSONReader.maxDepth) deep") }
        r.pos += 1
        r.skipWhitespace()
        if r.peek() == 0x7D { r.pos += 1; return }
        let prefixLength = keyPath.count
        while true {
            r.skipWhitespace()
            guard r.peek() == 0x22 else { throw r.fail("expected a member name in quotes, found \(r.describe(r.peek()))") }
            let keyRange = try r.readString()
            keyPath.removeSubrange(prefixLength...)
            if prefixLength > 0 { keyPath.append(0x2E) }
            if let keyRange { keyPath.append(contentsOf: UnsafeRawBufferPointer(rebasing: r.bytes[keyRange])) } else { keyPath.append(contentsOf: r.scratch) }
            try r.expect(0x3A, "':' after a member name")
            try parseMember(&r, depth: depth + 1)
            r.skipWhitespace()
            guard let d = r.peek() else { throw r.fail("expected ',' or '}'") }
            r.pos += 1
            if d == 0x2C { continue }
            if d == 0x7D { keyPath.removeSubrange(prefixLength...); return }
            r.pos -= 1
            throw r.fail("expected ',' or '}' after a member, found \(r.describe(d))")
        }
    }

    private mutating func column() -> Int32 {
        let id = keyPath.withUnsafeBytes { keys.intern($0) }
        return Int32(id)
    }

    private mutating func add(_ kind: Kind, start: Int = 0, end: Int = 0, inArena: Bool = false, int: Int64 = 0, double: Double = 0) {
        let col = column()
        if Int(col) >= seen.count { seen.append(contentsOf: repeatElement(0, count: Int(col) + 1 - seen.count)) }
        if seen[Int(col)] == recordNumber { duplicateKeys += 1; return }
        seen[Int(col)] = recordNumber
        cells.append(Cell(column: col, kind: kind, start: start, end: end, inArena: inArena, int: int, double: double))
    }

    private mutating func parseMember(_ r: inout JSONReader, depth: Int) throws {
        r.skipWhitespace()
        guard let c = r.peek() else { throw r.fail("expected a value") }
        switch c {
        case 0x22:
            if let range = try r.readString() {
                add(.string, start: range.lowerBound, end: range.upperBound)
            } else {
                let s = arena.count
                arena.append(contentsOf: r.scratch)
                add(.string, start: s, end: arena.count, inArena: true)
            }
        case 0x2D, 0x30...0x39:
            let n = try r.readNumber()
            if let i = n.int { add(.int, start: n.range.lowerBound, end: n.range.upperBound, int: i, double: n.double) }
            else { add(.double, start: n.range.lowerBound, end: n.range.upperBound, double: n.double) }
        case 0x7B:
            try parseObject(&r, depth: depth)
        case 0x5B:
            let start = r.pos
            _ = try r.parseValue(depth: depth)
            add(.nested, start: start, end: r.pos)
        default:
            let v = try r.readLiteral()
            switch v {
            case .bool(let b): add(.bool, int: b ? 1 : 0)
            case .number(let d, _): add(.double, double: d)
            default: add(.null)
            }
        }
    }

    /// Appends the parsed record to the column builders (creating columns as they appear).
    mutating func commit(into builders: inout [ColumnBuilder], plan: [String: CellType], row: Int, zone: ZoneRules,
                         bytes b: UnsafeRawBufferPointer) throws {
        do {
            for cell in cells {
                let k = Int(cell.column)
                while builders.count <= k {
                    let name = columnName(builders.count)
                    let builder = ColumnBuilder(name: name, index: builders.count, type: plan[name] ?? .undetermined, zone: zone)
                    for _ in 0..<row { builder.appendNull() }
                    builders.append(builder)
                }
                let builder = builders[k]
                if builder.count < row { for _ in builder.count..<row { builder.appendNull() } }
                if builder.type == .undetermined, cell.kind == .string || cell.kind == .nested {
                    // A column first seen after the sample: JSON text stays text unless it is a time.
                    var vote = TypeVote()
                    withText(cell, b) { vote.add($0) }
                    switch vote.result {
                    case .timestamp, .duration: builder.settle(vote.result)
                    default: builder.settle(.string)
                    }
                }
                    switch cell.kind {
                    case .null: builder.appendNull()
                    case .bool: try builder.appendBool(cell.int != 0)
                    case .int, .double:
                        let raw = UnsafeRawBufferPointer(rebasing: b[cell.start..<cell.end])
                        try builder.appendNumber(int: cell.kind == .int ? cell.int : nil, double: cell.double, raw: raw)
                    case .string, .nested:
                        try withText(cell, b) { try builder.appendText($0, emptyIsNull: false) }
                    }
            }
        } catch let conflict as TypeConflict {
            throw JSONRecordLoader.RecordConflict(column: builders[conflict.column].name, widened: conflict.widened)
        }
    }

}
