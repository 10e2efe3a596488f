import CCompression
import Foundation

/// A column chunk as encoded: its pages, and what the footer says about it.
struct ParquetEncodedChunk {
    var bytes: [UInt8] = []
    /// Offsets in the chunk until `place`, then in the file.
    var start: Int64 = 0
    var dictionaryOffset: Int64?
    var dataOffset: Int64 = 0
    var uncompressedSize: Int64 = 0
    var compressedSize: Int64 = 0
    var encodings: [Int32] = []
    var nullCount = 0
    var min: [UInt8]?
    var max: [UInt8]?

    mutating func place(at offset: Int64) {
        start = offset
        dataOffset += offset
        if let d = dictionaryOffset { dictionaryOffset = d + offset }
    }
}

/// How one column is written, decided once for the table; `encode` makes the chunk of a row
/// group (called from several workers at once, so it changes nothing of its own).
final class ParquetColumnEncoder: @unchecked Sendable {
    enum Kind { case int, double, bool, text, timestamp(utc: Bool), date, duration, null }

    let column: Column
    let zone: ZoneRules
    let kind: Kind
    /// Text: each dictionary entry's UTF-8 bytes, one after another.
    private var utf8: [UInt8] = []
    private var utf8Starts: [Int] = []
    /// Text repeats enough for a dictionary to pay.
    private var dictionary = false
    private(set) var note: String?

    static let pageRows = 1 << 17
    static let pageBytes = 1 << 20

    var isDuration: Bool { if case .duration = kind { return true } else { return false } }

    init(column original: Column, zone: ZoneRules, rows: Int) {
        // Geometries are written as their well-known text, which GIS tools read.
        let column = original.type == .geometry ? original.asWKTText() : original
        self.column = column
        self.zone = zone
        switch column.storage {
        case .int: kind = .int
        case .double: kind = .double
        case .bool: kind = .bool
        case .string(let s):
            kind = .text
            utf8Starts.reserveCapacity(s.dictionary.count + 1)
            utf8Starts.append(0)
            for var entry in s.dictionary {
                entry.withUTF8 { utf8.append(contentsOf: $0) }
                utf8Starts.append(utf8.count)
            }
            dictionary = s.dictionary.count * 2 <= Swift.max(rows, 2) && utf8.count <= 64 << 20
        case .timestamp(let values):
            kind = column.unit == .day && Self.allMidnights(values, column: column, zone: zone) ? .date : .timestamp(utc: !column.floating)
        case .duration:
            kind = .duration
            note = "\(column.name) is a duration: written as whole microseconds (INT64), which utq reads back as a duration and other tools as a number"
        case .null, .geometry: kind = .null
        }
        if original.type == .geometry {
            note = "\(column.name) holds geometries: written as well-known text (WKT), which utq reads back as geometries"
        }
    }

    /// Whether every time is midnight in the zone, so the column can be written as dates.
    static func allMidnights(_ values: [Int64], column: Column, zone: ZoneRules) -> Bool {
        var cursor = zone.makeCursor()
        for (i, v) in values.enumerated() where column.isValid(i) {
            if CivilTime.floorMod(cursor.wall(v), CivilTime.microsPerDay) != 0 { return false }
        }
        return true
    }

    // MARK: Schema and metadata

    var physical: ParquetPhysical {
        switch kind {
        case .int, .timestamp, .duration: return .int64
        case .double: return .double
        case .bool: return .boolean
        case .text: return .byteArray
        case .date, .null: return .int32
        }
    }

    func schemaElement(_ w: inout ThriftWriter) {
        w.field(1, i32: physical.rawValue)
        w.field(3, i32: 1)  // OPTIONAL
        w.field(4, string: column.name)
        switch kind {
        case .text:
            w.field(6, i32: 0)  // UTF8
            w.field(10, struct: { w in w.field(1, struct: { _ in }) })
        case .date:
            w.field(6, i32: 6)
            w.field(10, struct: { w in w.field(6, struct: { _ in }) })
        case .timestamp(let utc):
            // The converted type means adjusted to UTC; wall-clock times have only the logical type.
            if utc { w.field(6, i32: 10) }
            w.field(10, struct: { w in
                w.field(8, struct: { w in
                    w.field(1, bool: utc)
                    w.field(2, struct: { w in w.field(2, struct: { _ in }) })
                })
            })
        case .null:
            w.field(10, struct: { w in w.field(11, struct: { _ in }) })
        default: break
        }
    }

    func columnMetadata(_ w: inout ThriftWriter, _ c: ParquetEncodedChunk, rows: Int) {
        w.field(1, i32: physical.rawValue)
        w.field(2, i32List: c.encodings)
        w.field(3, stringList: [column.name])
        w.field(4, i32: ParquetCodec.snappy.rawValue)
        w.field(5, i64: Int64(rows))
        w.field(6, i64: c.uncompressedSize)
        w.field(7, i64: c.compressedSize)
        w.field(9, i64: c.dataOffset)
        if let d = c.dictionaryOffset { w.field(11, i64: d) }
        w.field(12, struct: { w in
            w.field(3, i64: Int64(c.nullCount))
            if let max = c.max { w.field(5, binary: max) }
            if let min = c.min { w.field(6, binary: min) }
        })
    }

    // MARK: Chunks

    func encode(_ range: Range<Int>) throws -> ParquetEncodedChunk {
        var chunk = ParquetEncodedChunk()
        var pages = PageAssembler()
        var localCodes: [UInt32] = []
        var dictionaryWidth = 0
        chunk.nullCount = column.type == .null ? range.count : range.count - (column.validity.map { v in range.reduce(0) { $0 + (v[$1] ? 1 : 0) } } ?? range.count)
        if case .text = kind, dictionary, case .string(let s) = column.storage {
            // The row group's own dictionary: the entries its rows use, in the order met.
            var local = [UInt32](repeating: .max, count: s.dictionary.count)
            var entries: [UInt32] = []
            localCodes.reserveCapacity(range.count)
            func number<C: FixedWidthInteger>(_ codes: UnsafeBufferPointer<C>) {
                for i in range where column.isValid(i) {
                    let code = Int(codes[i])
                    if local[code] == .max { local[code] = UInt32(entries.count); entries.append(UInt32(code)) }
                    localCodes.append(local[code])
                }
            }
            s.codes.withLanes(number, number, number)
            var values: [UInt8] = []
            for code in entries { appendPlainText(&values, Int(code)) }
            chunk.dictionaryOffset = Int64(pages.bytes.count)
            try pages.add(values, dictionaryEntries: entries.count)
            dictionaryWidth = Swift.max(1, bitWidth(of: entries.count - 1))
        }
        chunk.dataOffset = Int64(pages.bytes.count)
        var stats = ParquetStatistics()
        var page = range.lowerBound
        var dense = 0  // values written so far, for the dictionary codes
        while page < range.upperBound {
            let end = pageEnd(from: page, limit: range.upperBound, dictionary: dictionaryWidth > 0)
            var body = ParquetLevels.encode(column, page..<end)
            let encoding: Int32
            if dictionaryWidth > 0 {
                let present = (page..<end).reduce(0) { $0 + (column.isValid($1) ? 1 : 0) }
                body.append(UInt8(dictionaryWidth))
                ParquetLevels.bitPack(localCodes[dense..<(dense + present)], width: dictionaryWidth, into: &body)
                dense += present
                encoding = ChunkDecoder.rleDictionary
            } else {
                appendPlainValues(&body, page..<end, stats: &stats)
                encoding = ChunkDecoder.plain
            }
            try pages.add(body, values: end - page, encoding: encoding)
            page = end
        }
        chunk.encodings = dictionaryWidth > 0 ? [ChunkDecoder.plain, ChunkDecoder.rle, ChunkDecoder.rleDictionary] : [ChunkDecoder.plain, ChunkDecoder.rle]
        chunk.bytes = pages.bytes
        chunk.compressedSize = Int64(pages.bytes.count)
        chunk.uncompressedSize = pages.uncompressed
        (chunk.min, chunk.max) = stats.bounds()
        return chunk
    }

    /// Where a page that starts at `row` ends: after `pageRows` rows, or once plain text
    /// reaches `pageBytes`.
    func pageEnd(from row: Int, limit: Int, dictionary: Bool) -> Int {
        let end = Swift.min(limit, row + Self.pageRows)
        guard case .text = kind, !dictionary, case .string(let s) = column.storage else { return end }
        var bytes = 0
        for i in row..<end where column.isValid(i) {
            let code = Int(s.codes[i])
            bytes += utf8Starts[code + 1] - utf8Starts[code] + 4
            if bytes >= Self.pageBytes { return i + 1 }
        }
        return end
    }

    func appendPlainText(_ out: inout [UInt8], _ code: Int) {
        let n = utf8Starts[code + 1] - utf8Starts[code]
        appendLittleEndian(&out, UInt32(n))
        out.append(contentsOf: utf8[utf8Starts[code]..<utf8Starts[code + 1]])
    }

    /// The values of the rows that hold one, PLAIN.
    func appendPlainValues(_ out: inout [UInt8], _ rows: Range<Int>, stats: inout ParquetStatistics) {
        switch column.storage {
        case .int(let a), .duration(let a):
            for i in rows where column.isValid(i) { appendLittleEndian(&out, UInt64(bitPattern: a[i])); stats.add(a[i]) }
        case .timestamp(let a):
            var cursor = zone.makeCursor()
            for i in rows where column.isValid(i) {
                switch kind {
                case .date:
                    let day = Int32(truncatingIfNeeded: CivilTime.floorDiv(cursor.wall(a[i]), CivilTime.microsPerDay))
                    appendLittleEndian(&out, UInt32(bitPattern: day))
                    stats.add(Int64(day), width: 4)
                case .timestamp(utc: false):
                    let wall = cursor.wall(a[i])
                    appendLittleEndian(&out, UInt64(bitPattern: wall))
                    stats.add(wall)
                default:
                    appendLittleEndian(&out, UInt64(bitPattern: a[i]))
                    stats.add(a[i])
                }
            }
        case .double(let a):
            for i in rows where column.isValid(i) { appendLittleEndian(&out, a[i].bitPattern); stats.add(a[i]) }
        case .bool(let a):
            var byte: UInt8 = 0, n = 0
            for i in rows where column.isValid(i) {
                if a[i] { byte |= 1 << UInt8(n & 7) }
                n += 1
                if n & 7 == 0 { out.append(byte); byte = 0 }
            }
            if n & 7 != 0 { out.append(byte) }
        case .string(let s):
            for i in rows where column.isValid(i) { appendPlainText(&out, Int(s.codes[i])) }
        case .null, .geometry:
            break
        }
    }
}

@inline(__always)
func appendLittleEndian<T: FixedWidthInteger>(_ out: inout [UInt8], _ v: T) {
    withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
}

/// Pages compressed with Snappy and put after their headers.
struct PageAssembler {
    var bytes: [UInt8] = []
    var uncompressed: Int64 = 0
    private var compressed: [UInt8] = []

    /// A data page (v1): levels and values, `values` rows.
    mutating func add(_ body: [UInt8], values: Int, encoding: Int32) throws {
        try append(body) { w in
            w.field(5, struct: { w in
                w.field(1, i32: Int32(values))
                w.field(2, i32: encoding)
                w.field(3, i32: ChunkDecoder.rle)
                w.field(4, i32: ChunkDecoder.rle)
            })
        }
    }

    /// The dictionary page.
    mutating func add(_ body: [UInt8], dictionaryEntries: Int) throws {
        try append(body, type: ParquetPageHeader.Kind.dictionary.rawValue) { w in
            w.field(7, struct: { w in
                w.field(1, i32: Int32(dictionaryEntries))
                w.field(2, i32: ChunkDecoder.plain)
            })
        }
    }

    private mutating func append(_ body: [UInt8], type: Int32 = 0, _ detail: (inout ThriftWriter) -> Void) throws {
        guard body.count < Int(Int32.max) else { throw AtomicFile.Failure(reason: "a page would be larger than Parquet allows", exists: false) }
        let room = snappy_max_compressed_length(body.count)
        if compressed.count < room { compressed = [UInt8](repeating: 0, count: room) }
        var length = room
        // An empty body still needs somewhere to point.
        let source = body.isEmpty ? [0] : body
        let status = source.withUnsafeBytes { src in
            compressed.withUnsafeMutableBytes { dst in
                snappy_compress(src.baseAddress!.assumingMemoryBound(to: CChar.self), body.count,
                                dst.baseAddress!.assumingMemoryBound(to: CChar.self), &length)
            }
        }
        guard status == SNAPPY_OK else { throw AtomicFile.Failure(reason: "Snappy could not compress a page", exists: false) }
        var w = ThriftWriter()
        w.structure { w in
            w.field(1, i32: type)
            w.field(2, i32: Int32(body.count))
            w.field(3, i32: Int32(length))
            detail(&w)
        }
        bytes.append(contentsOf: w.bytes)
        bytes.append(contentsOf: compressed[0..<length])
        uncompressed += Int64(w.bytes.count + body.count)
    }
}
