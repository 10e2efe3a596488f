import Foundation

/// Memory a decoder reuses from page to page: the values of a page with nulls before they are
/// spread over its rows, dictionary indexes, whole numbers under decimals.
final class ScratchBuffer<T> {
    private(set) var pointer: UnsafeMutablePointer<T>
    private var capacity: Int

    init() {
        capacity = 1024
        pointer = .allocate(capacity: capacity)
    }

    deinit { pointer.deallocate() }

    /// Room for `count` values (what was there is not kept).
    func room(_ count: Int) -> UnsafeMutablePointer<T> {
        if count > capacity {
            pointer.deallocate()
            capacity = max(count, capacity * 2)
            pointer = .allocate(capacity: capacity)
        }
        return pointer
    }
}

/// Values of one page decoded into a lane: whole numbers, decimals, booleans or text codes,
/// from any encoding the column's physical type allows. `count` is the page's values that
/// are not null; dictionary encodings take their values from the chunk's dictionary.
extension ChunkDecoder {
    static let plain: Int32 = 0, plainDictionary: Int32 = 2, rle: Int32 = 3, bitPacked: Int32 = 4
    static let deltaBinaryPacked: Int32 = 5, deltaLengthByteArray: Int32 = 6, deltaByteArray: Int32 = 7
    static let rleDictionary: Int32 = 8, byteStreamSplit: Int32 = 9

    static let encodingNames = ["PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED",
                                "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"]

    static func encodingName(_ e: Int32) -> String {
        encodingNames.indices.contains(Int(e)) ? encodingNames[Int(e)] : "number \(e)"
    }

    /// Whether `count` values of `width` bytes fit in the page.
    static func fits(_ count: Int, _ width: Int, _ b: UnsafeRawBufferPointer) throws {
        let (need, o) = count.multipliedReportingOverflow(by: width)
        guard !o, need <= b.count else { throw PageError("\(count) values of \(width) bytes need more than the page's \(b.count) bytes") }
    }

    func unsupported(_ encoding: Int32) -> PageError {
        PageError("its values are encoded \(Self.encodingName(encoding)), which a \(plan.physical.name) column cannot have (or utq does not read)")
    }

    /// Dictionary indexes for `count` values: a byte giving their width, then the hybrid runs.
    /// Into `into` when given (a text column's rows, whose codes they become), else scratch.
    func indexes(_ b: UnsafeRawBufferPointer, count: Int, dictionarySize: Int, into: UnsafeMutablePointer<UInt32>? = nil) throws -> UnsafeMutablePointer<UInt32> {
        guard dictionarySize > 0 || count == 0 else { throw PageError("its values refer to a dictionary, and the chunk has none") }
        let out = into ?? indexScratch.room(count)
        if count == 0 { return out }
        guard b.count >= 1 else { throw PageError("its dictionary indexes are missing") }
        var decoder = try HybridDecoder(UnsafeRawBufferPointer(rebasing: b[1...]), bitWidth: Int(b[0]))
        try decoder.decode(into: out, count: count)
        // Checked one by one only when their width allows an index past the dictionary.
        if Int(decoder.largestPossible) >= dictionarySize {
            var largest: UInt32 = 0
            for i in 0..<count { largest = max(largest, out[i]) }
            if Int(largest) >= dictionarySize {
                throw PageError("a value refers to entry \(largest) of a dictionary of \(dictionarySize)")
            }
        }
        return out
    }

    /// Stored whole numbers (INT32 sign-extended, INT64, INT96 as wall-clock microseconds).
    func physicalInts(_ b: UnsafeRawBufferPointer, encoding: Int32, count: Int, into out: UnsafeMutablePointer<Int64>) throws {
        let width = plan.physical == .int32 ? 4 : plan.physical == .int64 ? 8 : 12
        switch encoding {
        case Self.plain:
            try Self.fits(count, width, b)
            switch plan.physical {
            case .int32: for i in 0..<count { out[i] = Int64(Int32(littleEndian: b.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self))) }
            case .int64: if count > 0 { memcpy(out, b.baseAddress!, count * 8) }
            case .int96:
                // Nanoseconds of the day, then the Julian day number.
                for i in 0..<count {
                    let nanos = Int64(littleEndian: b.loadUnaligned(fromByteOffset: 12 * i, as: Int64.self))
                    let day = Int64(Int32(littleEndian: b.loadUnaligned(fromByteOffset: 12 * i + 8, as: Int32.self)))
                    out[i] = (day &- 2_440_588) &* 86_400_000_000 &+ CivilTime.floorDiv(nanos, 1000)
                }
            default: throw unsupported(encoding)
            }
        case Self.deltaBinaryPacked where plan.physical != .int96:
            _ = try DeltaBinaryPacked.decode(b, count: count, into: out)
            if plan.physical == .int32 { for i in 0..<count { out[i] = Int64(Int32(truncatingIfNeeded: out[i])) } }
        case Self.byteStreamSplit where plan.physical != .int96:
            try unsplitStreams(b, count: count, width: width, into: UnsafeMutableRawPointer(out))
            if plan.physical == .int32 {
                // The 4-byte values sit packed at the front: widen from the back.
                let raw = UnsafeMutableRawPointer(out)
                for i in stride(from: count - 1, through: 0, by: -1) { out[i] = Int64(raw.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)) }
            }
        default: throw unsupported(encoding)
        }
    }

    /// Byte-array values (BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY) as spans of `bytes`, which is
    /// the page itself or the values rebuilt from front coding.
    func byteSpans(_ b: UnsafeRawBufferPointer, encoding: Int32, count: Int, body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let fixed = plan.physical == .fixedLenByteArray
        switch encoding {
        case Self.plain:
            if fixed { try spans.fixed(b, count: count, width: plan.typeLength) } else { try spans.plain(b, count: count) }
            try body(b)
        case Self.deltaLengthByteArray where !fixed:
            _ = try spans.deltaLength(b, count: count)
            try body(b)
        case Self.deltaByteArray:
            try spans.deltaStrings(b, count: count, built: &built, limit: PageInflater.maxPageSize)
            if fixed, let bad = spans.lengths.first(where: { $0 != plan.typeLength }) {
                throw PageError("a value has \(bad) bytes in a column of \(plan.typeLength)-byte values")
            }
            try built.withUnsafeBytes { try body($0) }
        case Self.byteStreamSplit where fixed:
            try Self.fits(count, plan.typeLength, b)
            let out = UnsafeMutableRawBufferPointer(start: byteScratch.room(max(1, count * plan.typeLength)), count: count * plan.typeLength)
            try unsplitStreams(b, count: count, width: plan.typeLength, into: out.baseAddress!)
            try spans.fixed(UnsafeRawBufferPointer(out), count: count, width: plan.typeLength)
            try body(UnsafeRawBufferPointer(out))
        default: throw unsupported(encoding)
        }
    }

    func intLane(_ b: UnsafeRawBufferPointer, encoding: Int32, count: Int, into out: UnsafeMutablePointer<Int64>) throws {
        if encoding == Self.plainDictionary || encoding == Self.rleDictionary {
            let idx = try indexes(b, count: count, dictionarySize: dictionaryInts.count)
            dictionaryInts.withUnsafeBufferPointer { d in for i in 0..<count { out[i] = d[Int(idx[i])] } }
            return
        }
        if plan.read == .interval {
            try byteSpans(b, encoding: encoding, count: count) { bytes in
                for i in 0..<count { out[i] = ParquetNumbers.interval(bytes, at: spans.starts[i]) }
            }
            return
        }
        try physicalInts(b, encoding: encoding, count: count, into: out)
    }

    func doubleLane(_ b: UnsafeRawBufferPointer, encoding: Int32, count: Int, into out: UnsafeMutablePointer<Double>) throws {
        if encoding == Self.plainDictionary || encoding == Self.rleDictionary {
            let idx = try indexes(b, count: count, dictionarySize: dictionaryDoubles.count)
            dictionaryDoubles.withUnsafeBufferPointer { d in for i in 0..<count { out[i] = d[Int(idx[i])] } }
            return
        }
        switch (plan.read, plan.physical) {
        case (.floats, .double):
            switch encoding {
            case Self.plain:
                try Self.fits(count, 8, b)
                if count > 0 { memcpy(out, b.baseAddress!, count * 8) }
            case Self.byteStreamSplit: try unsplitStreams(b, count: count, width: 8, into: UnsafeMutableRawPointer(out))
            default: throw unsupported(encoding)
            }
        case (.floats, _):
            switch encoding {
            case Self.plain:
                try Self.fits(count, 4, b)
                for i in 0..<count { out[i] = Double(Float(bitPattern: UInt32(littleEndian: b.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))) }
            case Self.byteStreamSplit:
                try unsplitStreams(b, count: count, width: 4, into: UnsafeMutableRawPointer(out))
                let raw = UnsafeMutableRawPointer(out)
                for i in stride(from: count - 1, through: 0, by: -1) { out[i] = Double(raw.loadUnaligned(fromByteOffset: 4 * i, as: Float.self)) }
            default: throw unsupported(encoding)
            }
        case (.decimal(let scale), .int32), (.decimal(let scale), .int64):
            let ints = intScratch.room(count)
            try physicalInts(b, encoding: encoding, count: count, into: ints)
            for i in 0..<count { out[i] = ParquetNumbers.decimal(ints[i], scale: scale) }
        case (.decimal(let scale), _):
            try byteSpans(b, encoding: encoding, count: count) { bytes in
                for i in 0..<count {
                    out[i] = ParquetNumbers.decimal(UnsafeRawBufferPointer(rebasing: bytes[spans.starts[i]..<(spans.starts[i] + spans.lengths[i])]), scale: scale)
                }
            }
        case (.float16, _):
            try byteSpans(b, encoding: encoding, count: count) { bytes in
                for i in 0..<count { out[i] = ParquetNumbers.half(UInt16(bytes[spans.starts[i]]) | UInt16(bytes[spans.starts[i] + 1]) << 8) }
            }
        default: throw unsupported(encoding)
        }
    }

    func boolLane(_ b: UnsafeRawBufferPointer, encoding: Int32, count: Int, into out: UnsafeMutablePointer<Bool>) throws {
        switch encoding {
        case Self.plain:
            guard (count + 7) / 8 <= b.count else { throw PageError("\(count) booleans need more than the page's \(b.count) bytes") }
            for i in 0..<count { out[i] = (b[i >> 3] >> UInt8(i & 7)) & 1 == 1 }
        case Self.rle:
            // Booleans in runs: the runs' byte length first.
            guard b.count >= 4 else { throw PageError("its booleans are missing") }
            let n = Int(b.loadUnaligned(as: UInt32.self).littleEndian)
            guard n <= b.count - 4 else { throw PageError("its booleans run past the end of the page") }
            var decoder = try HybridDecoder(UnsafeRawBufferPointer(rebasing: b[4..<(4 + n)]), bitWidth: 1)
            let tmp = indexScratch.room(count)
            try decoder.decode(into: tmp, count: count)
            for i in 0..<count { out[i] = tmp[i] != 0 }
        case Self.plainDictionary, Self.rleDictionary:
            let idx = try indexes(b, count: count, dictionarySize: dictionaryBools.count)
            for i in 0..<count { out[i] = dictionaryBools[Int(idx[i])] }
        default: throw unsupported(encoding)
        }
    }

    /// Text: each value interned in the chunk's own dictionary, its code stored.
    func codeLane(_ b: UnsafeRawBufferPointer, encoding: Int32, count: Int, into out: UnsafeMutablePointer<UInt32>) throws {
        if encoding == Self.plainDictionary || encoding == Self.rleDictionary {
            // The indexes go straight into the rows; they are the codes themselves when the
            // dictionary's values are distinct (as writers make them), else mapped in place.
            _ = try indexes(b, count: count, dictionarySize: dictionaryCodes.count, into: out)
            if !dictionaryIsIdentity {
                dictionaryCodes.withUnsafeBufferPointer { d in for i in 0..<count { out[i] = d[Int(out[i])] } }
            }
            return
        }
        try byteSpans(b, encoding: encoding, count: count) { bytes in
            let checks = plan.read == .text(.utf8) || plan.read == .text(.bytes)
            for i in 0..<count {
                let value = UnsafeRawBufferPointer(rebasing: bytes[spans.starts[i]..<(spans.starts[i] + spans.lengths[i])])
                let before = interner.count
                let code = interner.intern(value)
                out[i] = code
                if checks && interner.count > before && !notUTF8 && !UTF8Check.isValid(value) { notUTF8 = true }
            }
        }
    }
}

/// Numbers Parquet stores in forms utq does not: decimals, half floats, intervals.
enum ParquetNumbers {
    static let exactPowers: [Double] = (0...22).map { pow(10, Double($0)) }

    /// An unscaled decimal over 10^scale, rounded once: exactly when both fit a double's
    /// 53 bits, else through the decimal text.
    static func decimal(_ v: Int64, scale: Int) -> Double {
        if scale == 0 { return Double(v) }
        if v.magnitude < 1 << 53 && scale > 0 && scale <= 22 { return Double(v) / exactPowers[scale] }
        return Double("\(v)e\(-scale)") ?? .nan
    }

    /// A big-endian two's-complement decimal of any length.
    static func decimal(_ b: UnsafeRawBufferPointer, scale: Int) -> Double {
        if b.isEmpty { return 0 }
        let negative = b[0] & 0x80 != 0
        if b.count <= 8 {
            var v: UInt64 = negative ? ~0 : 0
            for byte in b { v = v << 8 | UInt64(byte) }
            return decimal(Int64(bitPattern: v), scale: scale)
        }
        if b.count <= 16 {
            var v: UInt128 = negative ? ~0 : 0
            for byte in b { v = v << 8 | UInt128(byte) }
            let s = Int128(bitPattern: v)
            if let small = Int64(exactly: s) { return decimal(small, scale: scale) }
            return Double("\(s)e\(-scale)") ?? .nan
        }
        var d = 0.0
        for byte in b { d = d * 256 + Double(byte) }
        if negative { d -= pow(256, Double(b.count)) }
        return d / pow(10, Double(scale))
    }

    /// IEEE 754 half precision.
    static func half(_ h: UInt16) -> Double {
        let sign: Double = h & 0x8000 != 0 ? -1 : 1
        let exponent = Int((h >> 10) & 0x1F), fraction = Double(h & 0x3FF)
        if exponent == 0 { return sign * fraction * pow(2, -24) }
        if exponent == 31 { return fraction == 0 ? sign * .infinity : .nan }
        return sign * (1 + fraction / 1024) * pow(2, Double(exponent - 15))
    }

    /// INTERVAL: months, days and milliseconds (unsigned, little-endian) as microseconds, a
    /// month taken as 30 days; past the range of durations it stops at the largest.
    static func interval(_ b: UnsafeRawBufferPointer, at i: Int) -> Int64 {
        let months = Int64(b.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian)
        let days = Int64(b.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self).littleEndian)
        let millis = Int64(b.loadUnaligned(fromByteOffset: i + 8, as: UInt32.self).littleEndian)
        let (d, o1) = (months * 30 + days).multipliedReportingOverflow(by: 86_400_000_000)
        let (r, o2) = d.addingReportingOverflow(millis * 1000)
        return o1 || o2 ? .max : r
    }
}
