import Foundation

/// One value of a record read by a template: its text in the buffer (a string's without
/// quotes), or no address for null; a number the scan could read exactly also carries its
/// value, so the column need not parse its text again.
struct JSONCell {
    enum Kind: UInt8 { case text, int, double }
    var text: UnsafeRawPointer?
    var count: Int32
    var kind: Kind
    var bits: UInt64

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: text, count: Int(count)) }
}

/// Reads records shaped like the last one the general parser read: the same member names in
/// the same order, each value a string without escapes, a number, a literal or null of a kind
/// its column's type takes. Nearly every record of a file written by a program has that
/// shape, and for those a record is checked byte by byte against what it must hold and its
/// values are written into a batch; the batch then goes into the columns a member at a time
/// (`ColumnBuilder.appendJSONCells`), as the CSV reader's batches do. A program writes the
/// bytes between two values — a comma, spaces, a line break and indent, the next name and
/// its colon — the same way in every record, so once one record has been read those gaps
/// are compared whole, a few words at a time; a record spaced otherwise is read member by
/// member, skipping any whitespace.
///
/// A record that differs in any way — another member, an escape, a nested value, a kind its
/// column does not take, the end of the buffer — is left to the general parser (RecordParser),
/// which reads it and commits it. Nothing of a record enters the batch until the whole record
/// has been read, so a record cut by the end of a chunk leaves nothing behind.
struct RecordTemplate {
    private struct Member {
        var key: Pattern       // the name with its quotes, as the file writes it
        var gap: Pattern       // from the end of the value before (or the `{`) to this value
        var column: Int        // the builder it fills
        var accepts: UInt8     // Kinds bits
    }
    private enum Kinds {
        static let string: UInt8 = 1, number: UInt8 = 2, bool: UInt8 = 4, null: UInt8 = 8
        /// A column the load does not read: any scalar is passed over, a number unread.
        static let skipped: UInt8 = 16 | 1 | 2 | 4 | 8
    }
    /// Columns the load does not read (by name).
    var skipped: Set<String> = []

    /// Bytes to find in place: up to 32 as four words and masks (most names and gaps compare
    /// with a few loads), the rest in `bytes`.
    private struct Pattern {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var masks: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var start = 0      // in `patternBytes`
        var length = 0     // 0: not known yet

        init() {}
        init(_ b: UnsafeRawBufferPointer, storedAt start: Int) {
            self.start = start
            length = b.count
            for (k, byte) in b.prefix(32).enumerated() {
                let shift = UInt64(k % 8 * 8)
                switch k / 8 {
                case 0: words.0 |= UInt64(byte) << shift; masks.0 |= 0xFF << shift
                case 1: words.1 |= UInt64(byte) << shift; masks.1 |= 0xFF << shift
                case 2: words.2 |= UInt64(byte) << shift; masks.2 |= 0xFF << shift
                default: words.3 |= UInt64(byte) << shift; masks.3 |= 0xFF << shift
                }
            }
        }

        @inline(__always)
        func matches(_ p: UnsafeRawPointer, at i: Int, end n: Int, stored: UnsafeRawPointer) -> Bool {
            guard length > 0, i + length <= n else { return false }
            if i + 32 <= n {
                @inline(__always) func word(_ k: Int) -> UInt64 { p.loadUnaligned(fromByteOffset: i + 8 * k, as: UInt64.self) }
                guard word(0) & masks.0 == words.0, word(1) & masks.1 == words.1 else { return false }
                if length > 16 { guard word(2) & masks.2 == words.2, word(3) & masks.3 == words.3 else { return false } }
                return length <= 32 || memcmp(p + i + 32, stored + start + 32, length - 32) == 0
            }
            return memcmp(p + i, stored + start, length) == 0
        }
    }

    private var patternBytes: [UInt8] = []
    private var members: [Member] = []
    /// From the end of the last value through the `}`.
    private var closing = Pattern()
    /// The batch: `width` cells a row, `capacity` rows; cells point into the buffer being read.
    private var cells: UnsafeMutablePointer<JSONCell>?
    private var width = 0
    private var capacity = 0
    private(set) var rows = 0
    /// Records the template read in all; records it was tried on and did not read, and did,
    /// since it last rested.
    private(set) var hits = 0
    private var misses = 0, recentHits = 0, missesInARow = 0
    private var triedAndMissed = false
    /// Records left to the general parser before the template is tried again: where records
    /// keep changing shape, trying each would read it twice.
    private var resting = 0

    var isReady: Bool { !members.isEmpty && resting == 0 }
    var isFull: Bool { rows == capacity }

    mutating func discard() { rows = 0 }

    mutating func release() {
        cells?.deallocate()
        cells = nil
    }

    /// After the parser has read and committed a record into `builders`: takes that record's
    /// shape when there is no template yet or the last two records tried did not fit it (one
    /// odd record among many of one shape does not change the template); else takes the
    /// columns' types afresh, which the record may have settled.
    mutating func learn(_ parser: RecordParser, bytes b: UnsafeRawBufferPointer, builders: [ColumnBuilder]) {
        precondition(rows == 0, "the batch is written out before the template changes")
        if resting > 0 { resting -= 1 }
        if triedAndMissed {
            triedAndMissed = false
            misses += 1
            missesInARow += 1
            if misses > 64 && misses * 2 > recentHits { resting = 4096; misses = 0; recentHits = 0 }
        }
        if !members.isEmpty && missesInARow < 2 {
            for m in members.indices { members[m].accepts = kinds(for: builders[members[m].column]) }
            return
        }
        missesInARow = 0
        members.removeAll(keepingCapacity: true)
        patternBytes.removeAll(keepingCapacity: true)
        closing = Pattern()
        guard parser.isFlat, parser.memberKeys.count == parser.cells.count, !parser.cells.isEmpty else { return }
        for (key, cell) in zip(parser.memberKeys, parser.cells) {
            let column = Int(cell.column)
            guard column < builders.count else { members.removeAll(); return }
            let pattern = Pattern(UnsafeRawBufferPointer(rebasing: b[key]), storedAt: patternBytes.count)
            patternBytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[key]))
            members.append(Member(key: pattern, gap: Pattern(), column: column, accepts: kinds(for: builders[column])))
        }
        if members.count != width || cells == nil {
            cells?.deallocate()
            width = members.count
            capacity = max(64, 8192 / width)
            cells = .allocate(capacity: width * capacity)
        }
    }

    /// Keeps the bytes between the values of a record the scan read member by member, to
    /// compare whole in the records after it.
    private mutating func learnGaps(_ p: UnsafeRawPointer, starts: UnsafePointer<Int>, ends: UnsafePointer<Int>, recordStart: Int, recordEnd: Int) {
        for m in members.indices {
            let from = m == 0 ? recordStart : ends[m - 1]
            let gap = UnsafeRawBufferPointer(start: p + from, count: starts[m] - from)
            members[m].gap = Pattern(gap, storedAt: patternBytes.count)
            patternBytes.append(contentsOf: gap)
        }
        let tail = UnsafeRawBufferPointer(start: p + ends[members.count - 1], count: recordEnd - ends[members.count - 1])
        closing = Pattern(tail, storedAt: patternBytes.count)
        patternBytes.append(contentsOf: tail)
    }

    private func kinds(for builder: ColumnBuilder) -> UInt8 {
        !skipped.isEmpty && skipped.contains(builder.name) ? Kinds.skipped : Self.kinds(for: builder.type)
    }

    /// The kinds of JSON value a column of this type takes by the short road: those that
    /// `appendJSONCells` reads as the general parser's commit does. A text column keeps any
    /// scalar's text as written; a number column reads a quoted number as the number.
    private static func kinds(for type: CellType) -> UInt8 {
        switch type {
        case .string: return Kinds.string | Kinds.number | Kinds.bool | Kinds.null
        case .timestamp, .duration: return Kinds.string | Kinds.null
        case .int, .double: return Kinds.number | Kinds.string | Kinds.null
        case .bool: return Kinds.bool | Kinds.null
        case .undetermined: return Kinds.null
        }
    }

    /// Reads the record whose `{` is at `start` into the batch; the offset after its `}`, or
    /// nil when the record is not of this shape (nothing is kept of it then).
    mutating func read(_ b: UnsafeRawBufferPointer, at start: Int) -> Int? {
        guard let end = scan(b, at: start) else {
            // Counted once the general parser has read the record (`learn`): a record the
            // end of the buffer cut is tried again after more is read, and was no miss.
            triedAndMissed = true
            return nil
        }
        hits += 1
        recentHits += 1
        missesInARow = 0
        rows += 1
        return end
    }

    private mutating func scan(_ b: UnsafeRawBufferPointer, at start: Int) -> Int? {
        guard let cells, rows < capacity else { return nil }
        let p = b.baseAddress!
        let n = b.count
        let row = cells + rows &* width
        let count = members.count
        // Where each value starts and ends, kept when the gaps are still to be learnt.
        let gapsKnown = closing.length > 0
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: gapsKnown ? 0 : 2 * count) { places -> Int? in
            var i = start
            @inline(__always) func skipSpace() {
                while i < n {
                    let c = p.load(fromByteOffset: i, as: UInt8.self)
                    guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
                    i += 1
                }
            }
            let end: Int? = patternBytes.withUnsafeBytes { stored -> Int? in
              members.withUnsafeBufferPointer { memberList -> Int? in
                let stored = stored.baseAddress!
                // Members are read in place: a copy of one is two patterns of eighty bytes.
                let list = memberList.baseAddress!
                for m in 0..<count {
                    let member = list + m
                    if member.pointee.gap.matches(p, at: i, end: n, stored: stored) {
                        i += member.pointee.gap.length
                    } else {
                        // Member by member: the separator, the name, the colon.
                        if m == 0 { i += 1 } else {
                            skipSpace()
                            guard i < n, p.load(fromByteOffset: i, as: UInt8.self) == 0x2C else { return nil }
                            i += 1
                        }
                        skipSpace()
                        guard member.pointee.key.matches(p, at: i, end: n, stored: stored) else { return nil }
                        i += member.pointee.key.length
                        skipSpace()
                        guard i < n, p.load(fromByteOffset: i, as: UInt8.self) == 0x3A else { return nil }
                        i += 1
                        skipSpace()
                    }
                    guard i < n else { return nil }
                    if !gapsKnown { places[2 * m] = i }
                    guard let next = Self.value(p, at: i, end: n, accepts: member.pointee.accepts, into: row + m) else { return nil }
                    i = next
                    if !gapsKnown { places[2 * m + 1] = i }
                }
                if closing.matches(p, at: i, end: n, stored: stored) { return i + closing.length }
                skipSpace()
                guard i < n, p.load(fromByteOffset: i, as: UInt8.self) == 0x7D else { return nil }
                return i + 1
              }
            }
            if let end, !gapsKnown {
                let starts = UnsafeMutablePointer<Int>.allocate(capacity: count), ends = UnsafeMutablePointer<Int>.allocate(capacity: count)
                defer { starts.deallocate(); ends.deallocate() }
                for m in 0..<count { starts[m] = places[2 * m]; ends[m] = places[2 * m + 1] }
                learnGaps(p, starts: starts, ends: ends, recordStart: start, recordEnd: end)
            }
            return end
        }
    }

    /// Reads one value at `i` into `cell` if it is of a kind the column takes; the offset
    /// after it.
    @inline(__always)
    private static func value(_ p: UnsafeRawPointer, at i: Int, end n: Int, accepts: UInt8, into cell: UnsafeMutablePointer<JSONCell>) -> Int? {
        let c = p.load(fromByteOffset: i, as: UInt8.self)
        if c == 0x22 {
            guard accepts & Kinds.string != 0, let close = closingQuote(p, from: i + 1, end: n) else { return nil }
            cell.pointee = JSONCell(text: p + i + 1, count: Int32(truncatingIfNeeded: close - i - 1), kind: .text, bits: 0)
            return close + 1
        }
        if c == 0x2D || c &- 0x30 <= 9 {
            guard accepts & Kinds.number != 0 else { return nil }
            if accepts == Kinds.skipped { return pastNumber(p, at: i, end: n) }
            return number(p, at: i, end: n, into: cell)
        }
        guard i + 5 <= n else { return nil }
        let word = p.loadUnaligned(fromByteOffset: i, as: UInt32.self)
        if word == 0x6C6C_756E {                                                            // "null"
            guard accepts & Kinds.null != 0 else { return nil }
            cell.pointee = JSONCell(text: nil, count: 0, kind: .text, bits: 0)
            return i + 4
        }
        if word == 0x6575_7274 {                                                            // "true"
            guard accepts & Kinds.bool != 0 else { return nil }
            cell.pointee = JSONCell(text: p + i, count: 4, kind: .text, bits: 0)
            return i + 4
        }
        if word == 0x736C_6166 && p.load(fromByteOffset: i + 4, as: UInt8.self) == 0x65 {  // "false"
            guard accepts & Kinds.bool != 0 else { return nil }
            cell.pointee = JSONCell(text: p + i, count: 5, kind: .text, bits: 0)
            return i + 5
        }
        return nil
    }

    /// The closing quote of a string whose text starts at `from`, if the string has no escape
    /// or control byte before it and ends in the buffer.
    @inline(__always)
    private static func closingQuote(_ p: UnsafeRawPointer, from: Int, end n: Int) -> Int? {
        var i = JSONReader.plainRun(p, from: from, end: n)
        while i < n {
            let c = p.load(fromByteOffset: i, as: UInt8.self)
            if c == 0x22 { return i }
            if c == 0x5C || c < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    /// The end of a number in a column not read: its bytes are passed over, not read as a
    /// number (a malformed one is still the parser's to report when the column is read).
    @inline(__always)
    private static func pastNumber(_ p: UnsafeRawPointer, at from: Int, end n: Int) -> Int? {
        var i = from + 1
        while i < n {
            let c = p.load(fromByteOffset: i, as: UInt8.self)
            guard c &- 0x30 <= 9 || c == 0x2E || c == 0x65 || c == 0x45 || c == 0x2B || c == 0x2D else { break }
            i += 1
        }
        return i < n ? i : nil
    }

    /// A number of the plain spelling (JSONReader.plainNumber), with its value when exact.
    @inline(__always)
    private static func number(_ p: UnsafeRawPointer, at from: Int, end n: Int, into target: UnsafeMutablePointer<JSONCell>) -> Int? {
        guard let number = JSONReader.plainNumber(p, from: from, end: n) else { return nil }
        var cell = JSONCell(text: p + from, count: Int32(truncatingIfNeeded: number.end - from), kind: .text, bits: 0)
        if let v = number.int {
            cell.kind = .int
            cell.bits = UInt64(bitPattern: v)
        } else if let v = number.double {
            cell.kind = .double
            cell.bits = v.bitPattern
        }
        target.pointee = cell
        return number.end
    }

    /// Writes the batch into the columns: first the rows before it, where a column missed them.
    mutating func flush(into builders: [ColumnBuilder], rowsBefore: Int, budget: ColumnBudget) throws {
        guard rows > 0, let cells else { return }
        defer { rows = 0 }
        try budget.check(rows: rowsBefore + rows, columns: builders.count)
        for (m, member) in members.enumerated() where member.accepts != Kinds.skipped {
            let builder = builders[member.column]
            while builder.count < rowsBefore { builder.appendNull() }
            do {
                try builder.appendJSONCells(cells + m, stride: width, count: rows)
            } catch let conflict as TypeConflict {
                throw JSONRecordLoader.RecordConflict(column: builder.name, widened: conflict.widened)
            }
        }
    }
}
