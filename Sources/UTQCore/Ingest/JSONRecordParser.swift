import Foundation

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
    /// The column met at each member position of the last record: records of one file
    /// usually list their members in the same order, so a key is checked, not hashed.
    private var predicted: [Int32] = []
    private var member = 0
    /// The name of the member being read when it can be used in place (a top-level member
    /// without escapes); otherwise the name is built in `keyPath`.
    private var currentKey: UnsafeRawBufferPointer?
    private var recordNumber: Int32 = 0
    private(set) var duplicateKeys = 0
    /// For each column met, whether the load skips it (`commit`'s `skipped`).
    private var skips: [Bool] = []
    /// Where each top-level member's name lies in the buffer, quotes included, and whether the
    /// record was flat: every member a plain name with a scalar value, none repeated. Such a
    /// record is the template the next ones are read by (RecordTemplate).
    private(set) var memberKeys: [Range<Int>] = []
    private(set) var isFlat = true

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
        member = 0
        currentKey = nil
        memberKeys.removeAll(keepingCapacity: true)
        isFlat = true
        let duplicatesBefore = duplicateKeys
        do {
            r.skipWhitespace()
            guard let c = r.peek() else { throw r.fail("expected a value") }
            if c == 0x7B {
                try parseObject(&r, depth: 0)
            } else {
                // A record that is not an object becomes one column called "value".
                isFlat = false
                keyPath.append(contentsOf: "value".utf8)
                try parseMember(&r, depth: 0)
            }
        } catch {
            // A record cut by the end of a chunk is read again whole: its repeats count once.
            duplicateKeys = duplicatesBefore
            throw error
        }
        if duplicateKeys != duplicatesBefore { isFlat = false }
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
            let keyStart = r.pos
            let keyRange = try r.readString()
            if depth == 0 {
                if keyRange == nil { isFlat = false } else { memberKeys.append(keyStart..<r.pos) }
            } else {
                isFlat = false
            }
            try r.expect(0x3A, "':' after a member name")
            r.skipWhitespace()
            if prefixLength == 0, let keyRange, r.peek() != 0x7B {
                // A top-level member with a plain value: its name is read where it lies.
                currentKey = UnsafeRawBufferPointer(rebasing: r.bytes[keyRange])
            } else {
                currentKey = nil
                if keyPath.count > prefixLength { keyPath.removeSubrange(prefixLength...) }
                if prefixLength > 0 { keyPath.append(0x2E) }
                if let keyRange { keyPath.append(contentsOf: UnsafeRawBufferPointer(rebasing: r.bytes[keyRange])) } else { keyPath.append(contentsOf: r.scratch) }
            }
            try parseMember(&r, depth: depth + 1)
            r.skipWhitespace()
            guard let d = r.peek() else { throw r.fail("expected ',' or '}'") }
            r.pos += 1
            if d == 0x2C { continue }
            if d == 0x7D {
                if keyPath.count > prefixLength { keyPath.removeSubrange(prefixLength...) }
                currentKey = nil
                return
            }
            r.pos -= 1
            throw r.fail("expected ',' or '}' after a member, found \(r.describe(d))")
        }
    }

    private mutating func column() -> Int32 {
        if let key = currentKey { return column(key) }
        return keyPath.withUnsafeBytes { column($0) }
    }

    private mutating func column(_ key: UnsafeRawBufferPointer) -> Int32 {
        let m = member
        member += 1
        if m < predicted.count {
            let guess = predicted[m]
            if keys.equals(Int(guess), key) { return guess }
        }
        let id = Int32(keys.intern(key))
        if m < predicted.count { predicted[m] = id } else { predicted.append(id) }
        return id
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
            isFlat = false
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

    /// Appends the parsed record to the column builders (creating columns as they appear),
    /// first making sure the columns, a cell for each record in each, fit in `budget`.
    /// `skipped`: columns the load does not read; their builders are made, to keep each
    /// column's place, and left empty.
    mutating func commit(into builders: inout [ColumnBuilder], plan: [String: CellType], row: Int, zone: ZoneRules,
                         bytes b: UnsafeRawBufferPointer, capacity: Int = 0, budget: ColumnBudget,
                         slabs: [String: AnyObject] = [:], part: Int = 0, skipped: Set<String> = []) throws {
        // A new column is filled at once with a missing cell for each record before it; the
        // member names met so far are the columns there will be after this record.
        try budget.check(rows: row + 1, columns: max(builders.count, columnCount))
        do {
            for cell in cells {
                let k = Int(cell.column)
                while builders.count <= k {
                    let name = columnName(builders.count)
                    let skip = !skipped.isEmpty && skipped.contains(name)
                    let builder = ColumnBuilder(name: name, index: builders.count, type: plan[name] ?? .undetermined, zone: zone,
                                                capacity: skip ? 0 : capacity, slab: skip ? nil : slabs[name], part: part)
                    if !skip { for _ in 0..<row { builder.appendNull() } }
                    builders.append(builder)
                    skips.append(skip)
                }
                if skips[k] { continue }
                let sink = Unmanaged.passUnretained(builders[k])
                try sink._withUnsafeGuaranteedRef { builder in
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
                    case .string:
                        try withText(cell, b) { try builder.appendText($0, emptyIsNull: false) }
                    case .nested:
                        // Arrays are kept as compact JSON text, the same however the file spaced them.
                        var compact = withText(cell, b) { raw -> String in
                            var r = JSONReader(raw)
                            return (try? r.parseDocument())?.text ?? String(decoding: raw, as: UTF8.self)
                        }
                        try compact.withUTF8 { try builder.appendText(UnsafeRawBufferPointer($0), emptyIsNull: false) }
                    }
                }
            }
        } catch let conflict as TypeConflict {
            throw JSONRecordLoader.RecordConflict(column: builders[conflict.column].name, widened: conflict.widened)
        }
    }

}
