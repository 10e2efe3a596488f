import Foundation

/// Reads records shaped like the last one the general parser read: the same member names in
/// the same order, each value a string without escapes, a number, a literal or null of a kind
/// its column's type takes. Nearly every record of a file written by a program has that
/// shape, and for those a record is checked byte by byte against the names it expects and
/// its values' places are written into a batch; the batch then goes into the columns a
/// member at a time (`ColumnBuilder.appendJSONCells`), as the CSV reader's batches do.
///
/// A record that differs in any way — another member, an escape, a nested value, a kind its
/// column does not take, the end of the buffer — is left to the general parser (RecordParser),
/// which reads it, commits it and becomes the next template. Nothing of a record enters the
/// batch until the whole record has been read, so a record cut by the end of a chunk leaves
/// nothing behind.
struct RecordTemplate {
    private struct Member {
        var keyStart: Int      // in `names`: the name with its quotes, as the file writes it
        var keyLength: Int
        /// The name's first sixteen bytes as two words, and masks for a shorter name: most
        /// names are compared with two loads.
        var head: (UInt64, UInt64)
        var headMask: (UInt64, UInt64)
        var column: Int        // the builder it fills
        var accepts: UInt8     // Kinds bits
    }
    private enum Kinds {
        static let string: UInt8 = 1, number: UInt8 = 2, bool: UInt8 = 4, null: UInt8 = 8
    }

    private var names: [UInt8] = []
    private var members: [Member] = []
    /// The batch: `width` cells a row, `capacity` rows; cells point into the buffer being read.
    private var cells: UnsafeMutablePointer<UnsafeRawBufferPointer>?
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
            for m in members.indices { members[m].accepts = Self.kinds(for: builders[members[m].column].type) }
            return
        }
        missesInARow = 0
        members.removeAll(keepingCapacity: true)
        names.removeAll(keepingCapacity: true)
        guard parser.isFlat, parser.memberKeys.count == parser.cells.count, !parser.cells.isEmpty else { return }
        for (key, cell) in zip(parser.memberKeys, parser.cells) {
            let column = Int(cell.column)
            guard column < builders.count else { members.removeAll(); return }
            let start = names.count
            names.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[key]))
            var head: (UInt64, UInt64) = (0, 0), mask: (UInt64, UInt64) = (0, 0)
            for (k, byte) in b[key].prefix(16).enumerated() {
                let shift = UInt64(k % 8 * 8)
                if k < 8 { head.0 |= UInt64(byte) << shift; mask.0 |= 0xFF << shift } else { head.1 |= UInt64(byte) << shift; mask.1 |= 0xFF << shift }
            }
            members.append(Member(keyStart: start, keyLength: key.count, head: head, headMask: mask, column: column,
                                  accepts: Self.kinds(for: builders[column].type)))
        }
        if members.count != width || cells == nil {
            cells?.deallocate()
            width = members.count
            capacity = max(64, 16_384 / width)
            cells = .allocate(capacity: width * capacity)
        }
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

    private func scan(_ b: UnsafeRawBufferPointer, at start: Int) -> Int? {
        guard let cells, rows < capacity else { return nil }
        let p = b.baseAddress!
        let n = b.count
        let row = cells + rows &* width
        var i = start + 1
        @inline(__always) func skipSpace() {
            while i < n {
                let c = p.load(fromByteOffset: i, as: UInt8.self)
                guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
                i += 1
            }
        }
        return names.withUnsafeBytes { keyBytes -> Int? in
            let keys = keyBytes.baseAddress!
            let last = members.count - 1
            for m in 0...last {
                let member = members[m]
                skipSpace()
                guard i + member.keyLength <= n else { return nil }
                if i + 16 <= n {
                    let w0 = UnsafeRawPointer(p).loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    let w1 = UnsafeRawPointer(p).loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                    guard w0 & member.headMask.0 == member.head.0, w1 & member.headMask.1 == member.head.1 else { return nil }
                    if member.keyLength > 16,
                       memcmp(p + i + 16, keys + member.keyStart + 16, member.keyLength - 16) != 0 { return nil }
                } else if memcmp(p + i, keys + member.keyStart, member.keyLength) != 0 {
                    return nil
                }
                i += member.keyLength
                skipSpace()
                guard i < n, p.load(fromByteOffset: i, as: UInt8.self) == 0x3A else { return nil }
                i += 1
                skipSpace()
                guard i < n else { return nil }
                let c = p.load(fromByteOffset: i, as: UInt8.self)
                if c == 0x22 {
                    guard member.accepts & Kinds.string != 0, let close = Self.closingQuote(p, from: i + 1, end: n) else { return nil }
                    row[m] = UnsafeRawBufferPointer(start: p + i + 1, count: close - i - 1)
                    i = close + 1
                } else if c == 0x2D || c &- 0x30 <= 9 {
                    guard member.accepts & Kinds.number != 0, let end = Self.numberEnd(p, from: i, end: n) else { return nil }
                    row[m] = UnsafeRawBufferPointer(start: p + i, count: end - i)
                    i = end
                } else {
                    guard i + 5 <= n else { return nil }
                    let word = UnsafeRawPointer(p).loadUnaligned(fromByteOffset: i, as: UInt32.self)
                    if word == 0x6C6C_756E {                                        // "null"
                        guard member.accepts & Kinds.null != 0 else { return nil }
                        row[m] = UnsafeRawBufferPointer(start: nil, count: 0)
                        i += 4
                    } else if word == 0x6575_7274 {                                 // "true"
                        guard member.accepts & Kinds.bool != 0 else { return nil }
                        row[m] = UnsafeRawBufferPointer(start: p + i, count: 4)
                        i += 4
                    } else if word == 0x736C_6166 && p.load(fromByteOffset: i + 4, as: UInt8.self) == 0x65 {  // "false"
                        guard member.accepts & Kinds.bool != 0 else { return nil }
                        row[m] = UnsafeRawBufferPointer(start: p + i, count: 5)
                        i += 5
                    } else {
                        return nil
                    }
                }
                skipSpace()
                guard i < n, p.load(fromByteOffset: i, as: UInt8.self) == (m == last ? 0x7D : 0x2C) else { return nil }
                i += 1
            }
            return i
        }
    }

    /// The closing quote of a string whose text starts at `from`, if the string has no escape
    /// or control byte before it and ends in the buffer. Eight bytes at a time, as
    /// JSONReader.readString scans.
    @inline(__always)
    private static func closingQuote(_ p: UnsafeRawPointer, from: Int, end n: Int) -> Int? {
        var i = from
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let w = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let q = w ^ 0x2222_2222_2222_2222, s = w ^ 0x5C5C_5C5C_5C5C_5C5C
            let marks = ((q &- ones) & ~q | (s &- ones) & ~s | (w &- 0x2020_2020_2020_2020) & ~w) & highs
            if marks != 0 { break }
            i += 8
        }
        while i < n {
            let c = p.load(fromByteOffset: i, as: UInt8.self)
            if c == 0x22 { return i }
            if c == 0x5C || c < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    /// The end of a number written `-?(0|[1-9][0-9]*)(.[0-9]+)?`; other spellings (exponents,
    /// leading zeros) are the general reader's.
    @inline(__always)
    private static func numberEnd(_ p: UnsafeRawPointer, from: Int, end n: Int) -> Int? {
        var i = from
        if p.load(fromByteOffset: i, as: UInt8.self) == 0x2D { i += 1 }
        let first = i
        while i < n, p.load(fromByteOffset: i, as: UInt8.self) &- 0x30 <= 9 { i += 1 }
        let whole = i - first
        guard whole > 0, i < n, whole == 1 || p.load(fromByteOffset: first, as: UInt8.self) != 0x30 else { return nil }
        var c = p.load(fromByteOffset: i, as: UInt8.self)
        if c == 0x2E {
            i += 1
            let fraction = i
            while i < n, p.load(fromByteOffset: i, as: UInt8.self) &- 0x30 <= 9 { i += 1 }
            guard i > fraction, i < n else { return nil }
            c = p.load(fromByteOffset: i, as: UInt8.self)
        }
        if c == 0x65 || c == 0x45 || c == 0x2E { return nil }
        return i
    }

    /// Writes the batch into the columns: first the rows before it, where a column missed them.
    mutating func flush(into builders: [ColumnBuilder], rowsBefore: Int, budget: ColumnBudget) throws {
        guard rows > 0, let cells else { return }
        defer { rows = 0 }
        try budget.check(rows: rowsBefore + rows, columns: builders.count)
        for (m, member) in members.enumerated() {
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
