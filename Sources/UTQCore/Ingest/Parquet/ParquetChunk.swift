import Foundation

/// Where a chunk's values go: its row group's rows of the column being built.
enum LaneOutput {
    case int(UnsafeMutablePointer<Int64>)
    case double(UnsafeMutablePointer<Double>)
    case bool(UnsafeMutablePointer<Bool>)
    case code(UnsafeMutablePointer<UInt32>)
    /// Text whose dictionaries were read first: each index put through the map to the
    /// column's merged codes, in their width (ParquetNarrowText).
    case narrow(NarrowCodes)
    case none
}

/// Rows of merged text codes in one, two or four bytes, and one row group's map from its
/// dictionary's indexes to them.
struct NarrowCodes {
    let base: UnsafeMutableRawPointer
    let width: Int
    let map: UnsafePointer<UInt32>
    let mapCount: Int

    func advanced(by n: Int) -> NarrowCodes {
        NarrowCodes(base: base + n * width, width: width, map: map, mapCount: mapCount)
    }

    /// `count` rows from `row` on: the present ones take the dense indexes in turn through the
    /// map, the others 0 (`words` says which are present; nil when all are).
    func write(_ dense: UnsafePointer<UInt32>, rows count: Int, at row: Int, words: UnsafeMutablePointer<UInt64>?, present: Int) {
        func put<T: FixedWidthInteger>(_: T.Type) {
            let to = base.assumingMemoryBound(to: T.self) + row
            if let words, present < count {
                var k = 0
                for i in 0..<count {
                    let bit = row + i
                    if words[bit >> 6] >> UInt64(bit & 63) & 1 != 0 {
                        to[i] = T(truncatingIfNeeded: map[Int(dense[k])]); k += 1
                    } else {
                        to[i] = 0
                    }
                }
            } else {
                for i in 0..<count { to[i] = T(truncatingIfNeeded: map[Int(dense[i])]) }
            }
        }
        switch width {
        case 1: put(UInt8.self)
        case 2: put(UInt16.self)
        default: put(UInt32.self)
        }
    }
}

/// A chunk of a column read the narrow way holds a page the way cannot take (values not
/// from its dictionary, or a second dictionary): the column is read again the general way.
struct NotDictionaryOnly: Error {}

/// What decoding one column chunk gave besides its values.
struct ChunkOutcome {
    /// Which rows hold a value, a bit each; nil when all do.
    var validity: [UInt64]?
    /// A text column's strings, by the codes its rows hold.
    var interner: ByteInterner?
    var notUTF8 = false
    /// Times outside the years 1 to 9999, or durations past what utq holds: left empty.
    var outOfRange = 0
    /// UINT_64 values past Int64's largest.
    var pastInt64 = false
}

/// Decodes one column chunk (a column's pages in one row group), page by page, straight into
/// the column's rows. Each worker has its own decoder and scratch memory.
final class ChunkDecoder {
    let plan: ParquetColumnPlan
    let zone: ZoneRules
    let codec: ParquetCodec
    let scratch: ChunkScratch
    var inflater: PageInflater { scratch.inflater }
    var indexScratch: ScratchBuffer<UInt32> { scratch.indexes }
    var intScratch: ScratchBuffer<Int64> { scratch.ints }
    var byteScratch: ScratchBuffer<UInt8> { scratch.bytes }
    var doubleScratch: ScratchBuffer<Double> { scratch.doubles }
    var boolScratch: ScratchBuffer<Bool> { scratch.bools }
    var codeScratch: ScratchBuffer<UInt32> { scratch.codes }
    var spans = ByteSpans()
    var built: [UInt8] = []
    var interner = ByteInterner()
    var notUTF8 = false
    var dictionaryInts: [Int64] = []
    var dictionaryDoubles: [Double] = []
    var dictionaryBools: [Bool] = []
    var dictionaryCodes: [UInt32] = []
    /// Whether the dictionary's codes are 0, 1, 2 … (its values distinct, interned first).
    var dictionaryIsIdentity = false
    var dictionaryPages = 0

    init(plan: ParquetColumnPlan, codec: ParquetCodec, zone: ZoneRules, scratch: ChunkScratch) {
        self.plan = plan; self.codec = codec; self.zone = zone; self.scratch = scratch
    }

    /// Decodes `rows` rows from the chunk's bytes into `out`. Errors name the page.
    func decode(_ raw: UnsafeRawBufferPointer, rows: Int, into out: LaneOutput) throws -> ChunkOutcome {
        var validity: [UInt64]? = plan.maxDefinition > 0 ? [UInt64](repeating: 0, count: (rows + 63) / 64) : nil
        var done = 0, pos = 0, page = 0
        while done < rows {
            guard pos < raw.count else { throw PageError("the pages end after \(done) of the row group's \(rows) rows") }
            page += 1
            do {
                var r = ThriftReader(raw, from: pos)
                let header: ParquetPageHeader
                do { header = try ParquetPageHeader(&r) } catch let e as ThriftError { throw PageError("its header is damaged: \(e.message)", saysDamaged: true) }
                pos = r.pos
                let size = Int(header.compressedSize)
                guard size <= raw.count - pos else { throw PageError("it runs past the end of the column's bytes") }
                let body = UnsafeRawBufferPointer(rebasing: raw[pos..<(pos + size)])
                pos += size
                switch header.kind {
                case .dictionary? where out.isNarrow:
                    // Read with the other row groups' dictionaries before the rows.
                    dictionaryPages += 1
                    if dictionaryPages > 1 { throw NotDictionaryOnly() }
                case .dictionary?:
                    try dictionaryPage(try unpack(body, Int(header.uncompressedSize)), header: header)
                case .data?, .dataV2?:
                    let n = Int(header.numValues)
                    guard n <= rows - done else {
                        throw PageError("it holds \(n) values, more than the \(rows - done) rows the row group has left")
                    }
                    try validity.withOptionalWords { words in
                        try dataPage(body, header: header, rows: n, at: done, words: words, out: out)
                    }
                    done += n
                default:
                    continue
                }
            } catch let e as PageError {
                throw PageError("page \(page): \(e.message)")
            }
        }
        var outcome = ChunkOutcome(notUTF8: notUTF8)
        try finish(rows: rows, out: out, validity: &validity, outcome: &outcome)
        if let v = validity, !Self.allSet(v, count: rows) { outcome.validity = v }
        if case .code = out { outcome.interner = interner }
        return outcome
    }

    func unpack(_ body: UnsafeRawBufferPointer, _ expected: Int) throws -> UnsafeRawBufferPointer {
        codec == .uncompressed ? body : try inflater.inflate(body, codec: codec, expected: expected)
    }

    func dictionaryPage(_ data: UnsafeRawBufferPointer, header: ParquetPageHeader) throws {
        let n = Int(header.numValues)
        guard header.encoding == Self.plain || header.encoding == Self.plainDictionary else {
            throw PageError("its dictionary is encoded \(Self.encodingName(header.encoding)); Parquet writes dictionaries PLAIN")
        }
        // What a value takes at least, so that a damaged count is refused before memory is
        // set aside for it: its width, four bytes of length for BYTE_ARRAY, a bit for BOOLEAN.
        let fits: Bool
        switch plan.physical {
        case .boolean: fits = n <= data.count * 8
        case .int32, .float, .byteArray: fits = n <= data.count / 4
        case .int64, .double: fits = n <= data.count / 8
        case .int96: fits = n <= data.count / 12
        case .fixedLenByteArray: fits = n <= data.count / max(1, plan.typeLength)
        }
        guard fits else { throw PageError("its dictionary says it has \(n) values in \(data.count) bytes") }
        switch plan.lane {
        case .int: dictionaryInts = try Self.filled(n, 0) { try intLane(data, encoding: Self.plain, count: n, into: $0) }
        case .double: dictionaryDoubles = try Self.filled(n, 0) { try doubleLane(data, encoding: Self.plain, count: n, into: $0) }
        case .bool: dictionaryBools = try Self.filled(n, false) { try boolLane(data, encoding: Self.plain, count: n, into: $0) }
        case .code:
            dictionaryCodes = try Self.filled(n, 0) { try codeLane(data, encoding: Self.plain, count: n, into: $0) }
            dictionaryIsIdentity = dictionaryCodes.indices.allSatisfy { dictionaryCodes[$0] == UInt32($0) }
        case .none: break
        }
    }

    static func filled<T>(_ n: Int, _ zero: T, _ body: (UnsafeMutablePointer<T>) throws -> Void) throws -> [T] {
        var a = [T](repeating: zero, count: n)
        try a.withUnsafeMutableBufferPointer { if let p = $0.baseAddress { try body(p) } }
        return a
    }

    /// A data page: its definition levels into the validity bits, then its values.
    func dataPage(_ body: UnsafeRawBufferPointer, header: ParquetPageHeader, rows n: Int, at row: Int,
                  words: UnsafeMutablePointer<UInt64>?, out: LaneOutput) throws {
        var present = n
        let values: UnsafeRawBufferPointer
        if header.kind == .dataV2 {
            // Levels first, never compressed; the values after them may be.
            let levelBytes = Int(header.repetitionLength) + Int(header.definitionLength)
            guard levelBytes <= body.count else { throw PageError("its levels run past the end of the page") }
            if let words {
                let levels = UnsafeRawBufferPointer(rebasing: body[Int(header.repetitionLength)..<levelBytes])
                var decoder = try HybridDecoder(levels, bitWidth: 1)
                present = try decoder.decodeLevels(count: n, maxLevel: 1, into: words, offset: row)
            }
            let rest = UnsafeRawBufferPointer(rebasing: body[levelBytes...])
            values = header.isCompressed ? try unpack(rest, Int(header.uncompressedSize) - levelBytes) : rest
        } else {
            let data = try unpack(body, Int(header.uncompressedSize))
            var start = 0
            if let words {
                switch header.definitionEncoding {
                case Self.rle:
                    guard data.count >= 4 else { throw PageError("its definition levels are missing") }
                    let length = Int(data.loadUnaligned(as: UInt32.self).littleEndian)
                    guard length <= data.count - 4 else { throw PageError("its definition levels run past the end of the page") }
                    var decoder = try HybridDecoder(UnsafeRawBufferPointer(rebasing: data[4..<(4 + length)]), bitWidth: 1)
                    present = try decoder.decodeLevels(count: n, maxLevel: 1, into: words, offset: row)
                    start = 4 + length
                case Self.bitPacked:
                    // The old encoding: one bit a level, most significant bit first.
                    let length = (n + 7) / 8
                    guard length <= data.count else { throw PageError("its definition levels run past the end of the page") }
                    present = 0
                    for i in 0..<n where (data[i >> 3] >> UInt8(7 - i & 7)) & 1 == 1 {
                        words[(row + i) >> 6] |= 1 << UInt64((row + i) & 63)
                        present += 1
                    }
                    start = length
                default:
                    throw PageError("its definition levels are encoded \(Self.encodingName(header.definitionEncoding))")
                }
            }
            values = UnsafeRawBufferPointer(rebasing: data[start...])
        }
        let e = header.encoding
        // A page without nulls is decoded in place; one with nulls into scratch, then spread.
        func spread<T>(_ dense: UnsafeMutablePointer<T>, _ to: UnsafeMutablePointer<T>, _ zero: T) {
            guard let words, present < n else { return }
            var k = 0
            for i in 0..<n {
                let bit = row + i
                if words[bit >> 6] >> UInt64(bit & 63) & 1 != 0 { to[i] = dense[k]; k += 1 } else { to[i] = zero }
            }
        }
        switch out {
        case .int(let p):
            let dense = present < n ? intScratch.room(present) : p + row
            try intLane(values, encoding: e, count: present, into: dense)
            spread(dense, p + row, 0)
        case .double(let p):
            let dense = present < n ? doubleScratch.room(present) : p + row
            try doubleLane(values, encoding: e, count: present, into: dense)
            spread(dense, p + row, 0)
        case .bool(let p):
            let dense = present < n ? boolScratch.room(present) : p + row
            try boolLane(values, encoding: e, count: present, into: dense)
            spread(dense, p + row, false)
        case .code(let p):
            let dense = present < n ? codeScratch.room(present) : p + row
            try codeLane(values, encoding: e, count: present, into: dense)
            spread(dense, p + row, 0)
        case .narrow(let codes):
            guard e == Self.plainDictionary || e == Self.rleDictionary else { throw NotDictionaryOnly() }
            let dense = codeScratch.room(present)
            _ = try indexes(values, count: present, dictionarySize: codes.mapCount, into: dense)
            codes.write(dense, rows: n, at: row, words: words, present: present)
        case .none:
            if present > 0 { throw PageError("a column of the null type holds \(present) values") }
        }
    }

    static func allSet(_ words: [UInt64], count: Int) -> Bool {
        for (w, word) in words.enumerated() {
            let bits = min(64, count - w * 64)
            if bits <= 0 { break }
            let mask: UInt64 = bits == 64 ? ~0 : (1 << UInt64(bits)) - 1
            if word & mask != mask { return false }
        }
        return true
    }
}

/// A worker's memory for decoding chunks, kept from one chunk to the next: the chunk's bytes,
/// unpacked pages and the scratch of the lanes.
final class ChunkScratch: @unchecked Sendable {
    let chunk = ScratchBuffer<UInt8>()
    let inflater = PageInflater()
    let indexes = ScratchBuffer<UInt32>()
    let ints = ScratchBuffer<Int64>()
    let bytes = ScratchBuffer<UInt8>()
    let doubles = ScratchBuffer<Double>()
    let bools = ScratchBuffer<Bool>()
    let codes = ScratchBuffer<UInt32>()
}

/// Scratch for the workers of one load: a worker takes one and gives it back when its chunk
/// is done, so there are about as many as there are cores.
final class ChunkScratchPool: @unchecked Sendable {
    private var free: [ChunkScratch] = []
    private let lock = NSLock()

    func take() -> ChunkScratch {
        lock.lock()
        defer { lock.unlock() }
        return free.popLast() ?? ChunkScratch()
    }

    func give(_ s: ChunkScratch) {
        lock.lock()
        free.append(s)
        lock.unlock()
    }
}

extension Optional where Wrapped == [UInt64] {
    /// The words' memory for the body, or nil when there are none.
    mutating func withOptionalWords<R>(_ body: (UnsafeMutablePointer<UInt64>?) throws -> R) rethrows -> R {
        if self == nil { return try body(nil) }
        return try self!.withUnsafeMutableBufferPointer { try body($0.baseAddress) }
    }
}
