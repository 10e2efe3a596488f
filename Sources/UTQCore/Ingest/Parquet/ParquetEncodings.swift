/// Parquet's value encodings, decoded from a page's bytes: the RLE / bit-packing hybrid
/// (levels, dictionary indexes, booleans), DELTA_BINARY_PACKED and the byte-array deltas, and
/// BYTE_STREAM_SPLIT. Each decoder reads from a buffer it checks every offset against, so a
/// damaged page gives a `PageError`, never a read past its end.
struct PageError: Error {
    let message: String
    /// Whether the message already says the page is damaged, so the reader does not add it.
    let saysDamaged: Bool
    init(_ message: String, saysDamaged: Bool = false) { self.message = message; self.saysDamaged = saysDamaged }
}

/// Reads `width` bits (up to 64) at a bit offset, least significant bit first; bits past
/// the end of the buffer read as zeros (a last bit-packed group may be cut short).
@inline(__always)
func readBits(_ b: UnsafeRawBufferPointer, bit: Int, width: Int) -> UInt64 {
    if width == 0 { return 0 }
    let byte = bit >> 3, shift = bit & 7
    if width <= 56 && byte + 8 <= b.count {
        let word = b.loadUnaligned(fromByteOffset: byte, as: UInt64.self)
        return (word >> UInt64(shift)) & (UInt64.max >> UInt64(64 - width))
    }
    var v: UInt64 = 0
    var got = 0
    var i = byte
    var s = shift
    while got < width {
        let bits = i < b.count ? UInt64(b[i]) >> UInt64(s) : 0
        v |= bits << UInt64(got)
        got += 8 - s
        s = 0
        i += 1
    }
    return width == 64 ? v : v & ((1 << UInt64(width)) - 1)
}

/// An unsigned LEB128 number at `pos`, which moves past it.
@inline(__always)
func readVarint(_ b: UnsafeRawBufferPointer, _ pos: inout Int) throws -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
        guard pos < b.count else { throw PageError("a number runs past the end of the page") }
        let byte = b[pos]
        pos += 1
        result |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return result }
        shift += 7
        if shift > 63 { throw PageError("a number is longer than ten bytes") }
    }
}

@inline(__always)
func readZigzag(_ b: UnsafeRawBufferPointer, _ pos: inout Int) throws -> Int64 {
    let v = try readVarint(b, &pos)
    return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
}

/// The RLE / bit-packing hybrid: runs of one repeated value, and groups of eight values
/// packed `bitWidth` bits each.
struct HybridDecoder {
    let data: UnsafeRawBufferPointer
    let bitWidth: Int
    private var pos = 0
    private var repeatLeft = 0
    private var repeatValue: UInt32 = 0
    private var packedLeft = 0
    private var packedBit = 0
    private var packedData: UnsafeRawBufferPointer
    /// No value decoded so far is larger: the repeated values', and the most `bitWidth` bits
    /// hold once a packed value is decoded (dictionary indexes are checked only when it is
    /// as large as the dictionary).
    private(set) var largestPossible: UInt32 = 0

    init(_ data: UnsafeRawBufferPointer, bitWidth: Int) throws {
        guard bitWidth >= 0 && bitWidth <= 32 else { throw PageError("values are \(bitWidth) bits wide; at most 32 are allowed") }
        self.data = data
        self.bitWidth = bitWidth
        packedData = data
    }

    /// Starts the next run; false at the end of the data.
    private mutating func nextRun() throws -> Bool {
        guard pos < data.count else { return false }
        let header = try readVarint(data, &pos)
        let count = Int(clamping: header >> 1)
        if header & 1 == 0 {
            let bytes = (bitWidth + 7) / 8
            guard data.count - pos >= bytes else { throw PageError("a repeated value runs past the end of the page") }
            var v: UInt32 = 0
            for k in 0..<bytes { v |= UInt32(data[pos + k]) << UInt32(8 * k) }
            pos += bytes
            repeatValue = v
            repeatLeft = count
        } else {
            // Groups of eight values; a writer may leave out the bytes of a last group's
            // unused values, which then read as zeros.
            let (groupsBytes, o) = count.multipliedReportingOverflow(by: bitWidth)
            let end = o || groupsBytes > data.count - pos ? data.count : pos + groupsBytes
            packedData = UnsafeRawBufferPointer(rebasing: data[pos..<end])
            packedBit = 0
            let (values, o2) = count.multipliedReportingOverflow(by: 8)
            packedLeft = o2 ? Int.max : values
            pos = end
        }
        return true
    }

    /// Fills `count` values; throws when the data ends first.
    mutating func decode(into out: UnsafeMutablePointer<UInt32>, count: Int) throws {
        var filled = 0
        while filled < count {
            if repeatLeft > 0 {
                let k = min(repeatLeft, count - filled)
                (out + filled).update(repeating: repeatValue, count: k)
                largestPossible = max(largestPossible, repeatValue)
                filled += k
                repeatLeft -= k
            } else if packedLeft > 0 {
                let k = min(packedLeft, count - filled)
                largestPossible = max(largestPossible, UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(bitWidth)) &- 1))
                unpack(into: out + filled, count: k)
                filled += k
                packedLeft -= k
            } else if try !nextRun() {
                throw PageError("the encoded values end after \(filled) of \(count)")
            }
        }
    }

    /// `k` bit-packed values. Values up to 8 bits wide (dictionary indexes of a column with
    /// few values) come from 64-bit loads, as many whole groups of eight as one holds, each
    /// width its own loop so that the shifts are constants.
    private mutating func unpack(into out: UnsafeMutablePointer<UInt32>, count k: Int) {
        var i = 0
        let w = bitWidth
        if w >= 1 && w <= 8 && packedBit & 7 == 0 {
            var byte = packedBit >> 3
            switch w {
            case 1: Self.unpackLoads(packedData, &byte, out, &i, k, width: 1)
            case 2: Self.unpackLoads(packedData, &byte, out, &i, k, width: 2)
            case 3: Self.unpackLoads(packedData, &byte, out, &i, k, width: 3)
            case 4: Self.unpackLoads(packedData, &byte, out, &i, k, width: 4)
            case 5: Self.unpackLoads(packedData, &byte, out, &i, k, width: 5)
            case 6: Self.unpackLoads(packedData, &byte, out, &i, k, width: 6)
            case 7: Self.unpackLoads(packedData, &byte, out, &i, k, width: 7)
            default: Self.unpackLoads(packedData, &byte, out, &i, k, width: 8)
            }
            packedBit = byte << 3
        } else if w > 8 && w <= 32 && packedBit & 7 == 0 {
            var byte = packedBit >> 3
            switch w {
            case 9: Self.unpackGroups(packedData, &byte, out, &i, k, width: 9)
            case 10: Self.unpackGroups(packedData, &byte, out, &i, k, width: 10)
            case 11: Self.unpackGroups(packedData, &byte, out, &i, k, width: 11)
            case 12: Self.unpackGroups(packedData, &byte, out, &i, k, width: 12)
            case 13: Self.unpackGroups(packedData, &byte, out, &i, k, width: 13)
            case 14: Self.unpackGroups(packedData, &byte, out, &i, k, width: 14)
            case 15: Self.unpackGroups(packedData, &byte, out, &i, k, width: 15)
            case 16: Self.unpackGroups(packedData, &byte, out, &i, k, width: 16)
            default: Self.unpackGroups(packedData, &byte, out, &i, k, width: w)
            }
            packedBit = byte << 3
        }
        while i < k {
            out[i] = UInt32(truncatingIfNeeded: readBits(packedData, bit: packedBit, width: w))
            packedBit += w
            i += 1
        }
    }

    @inline(__always)
    private static func unpackLoads(_ data: UnsafeRawBufferPointer, _ byte: inout Int, _ out: UnsafeMutablePointer<UInt32>, _ i: inout Int,
                                    _ k: Int, width w: Int) {
        let per = (64 / w) & ~7
        let step = per * w / 8
        let mask: UInt64 = (1 << UInt64(w)) &- 1
        while k - i >= per && byte + 8 <= data.count {
            let word = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: byte, as: UInt64.self))
            for t in 0..<per { out[i + t] = UInt32(truncatingIfNeeded: (word >> UInt64(t * w)) & mask) }
            i += per
            byte += step
        }
    }

    /// Groups of eight values wider than 8 bits: each from a 64-bit load at its own byte.
    @inline(__always)
    private static func unpackGroups(_ data: UnsafeRawBufferPointer, _ byte: inout Int, _ out: UnsafeMutablePointer<UInt32>, _ i: inout Int,
                                     _ k: Int, width w: Int) {
        let mask: UInt64 = (1 << UInt64(w)) &- 1
        // The last value's load starts at bit 7w of the group and reads 8 bytes.
        let reach = ((7 * w) >> 3) + 8
        while k - i >= 8 && byte + reach <= data.count {
            for t in 0..<8 {
                let bit = t * w
                let word = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: byte + (bit >> 3), as: UInt64.self))
                out[i + t] = UInt32(truncatingIfNeeded: (word >> UInt64(bit & 7)) & mask)
            }
            i += 8
            byte += w
        }
    }

    /// Definition levels of a flat optional column (0 null, 1 a value) as bits in `words`
    /// from bit `offset`, which start cleared; returns how many are set.
    mutating func decodeLevels(count: Int, maxLevel: UInt32, into words: UnsafeMutablePointer<UInt64>, offset: Int) throws -> Int {
        var filled = 0
        var set = 0
        while filled < count {
            if repeatLeft > 0 {
                let k = min(repeatLeft, count - filled)
                if repeatValue == maxLevel {
                    setBits(words, from: offset + filled, count: k)
                    set += k
                } else if repeatValue > maxLevel {
                    throw PageError("a definition level is \(repeatValue); at most \(maxLevel) is allowed")
                }
                filled += k
                repeatLeft -= k
            } else if packedLeft > 0 {
                let k = min(packedLeft, count - filled)
                for i in 0..<k {
                    let v = UInt32(truncatingIfNeeded: readBits(packedData, bit: packedBit, width: bitWidth))
                    packedBit += bitWidth
                    if v == maxLevel {
                        let bit = offset + filled + i
                        words[bit >> 6] |= 1 << UInt64(bit & 63)
                        set += 1
                    } else if v > maxLevel {
                        throw PageError("a definition level is \(v); at most \(maxLevel) is allowed")
                    }
                }
                filled += k
                packedLeft -= k
            } else if try !nextRun() {
                throw PageError("the definition levels end after \(filled) of \(count) rows")
            }
        }
        return set
    }
}

/// Sets `count` bits from bit `from`.
func setBits(_ words: UnsafeMutablePointer<UInt64>, from: Int, count: Int) {
    var i = from
    let end = from + count
    while i < end && i & 63 != 0 { words[i >> 6] |= 1 << UInt64(i & 63); i += 1 }
    while i + 64 <= end { words[i >> 6] = ~0; i += 64 }
    while i < end { words[i >> 6] |= 1 << UInt64(i & 63); i += 1 }
}

/// The number of bits a level up to `max` takes.
func bitWidth(of max: Int) -> Int { max <= 0 ? 0 : Int.bitWidth - max.leadingZeroBitCount }

/// DELTA_BINARY_PACKED: a first value, then blocks of deltas from a minimum, bit-packed in
/// miniblocks. Arithmetic wraps, as the encoding defines it (INT32 columns wrap at 32 bits,
/// which truncating the 64-bit result gives).
enum DeltaBinaryPacked {
    /// Decodes `count` values into `out`; returns the offset just past the values used.
    static func decode(_ b: UnsafeRawBufferPointer, from start: Int = 0, count: Int, into out: UnsafeMutablePointer<Int64>) throws -> Int {
        var pos = start
        let blockSize = try readVarint(b, &pos)
        let miniblocks = try readVarint(b, &pos)
        let total = try readVarint(b, &pos)
        var value = try readZigzag(b, &pos)
        guard blockSize > 0, blockSize % 128 == 0, blockSize <= 1 << 20, miniblocks > 0, blockSize % miniblocks == 0,
              (blockSize / miniblocks) % 32 == 0 else {
            throw PageError("a DELTA_BINARY_PACKED header is damaged (blocks of \(blockSize) in \(miniblocks) parts)", saysDamaged: true)
        }
        guard total >= UInt64(count) else { throw PageError("the page holds \(total) values where \(count) were expected") }
        if count == 0 { return pos }
        let perMini = Int(blockSize / miniblocks)
        let minis = Int(miniblocks)
        out[0] = value
        var filled = 1
        var widths = [Int](repeating: 0, count: minis)
        while filled < count {
            let minDelta = try readZigzag(b, &pos)
            guard b.count - pos >= minis else { throw PageError("a block's bit widths run past the end of the page") }
            for m in 0..<minis { widths[m] = Int(b[pos + m]) }
            pos += minis
            for m in 0..<minis where filled < count {
                let w = widths[m]
                guard w <= 64 else { throw PageError("deltas are \(w) bits wide; at most 64 are allowed") }
                let bytes = perMini * w / 8
                guard b.count - pos >= bytes else { throw PageError("a block of deltas runs past the end of the page") }
                let mini = UnsafeRawBufferPointer(rebasing: b[pos..<(pos + bytes)])
                let k = min(perMini, count - filled)
                for i in 0..<k {
                    value = value &+ minDelta &+ Int64(bitPattern: readBits(mini, bit: i * w, width: w))
                    out[filled + i] = value
                }
                filled += k
                pos += bytes
            }
        }
        return pos
    }
}

/// Byte-array values as places in a buffer: starts and lengths.
struct ByteSpans {
    var starts: [Int] = []
    var lengths: [Int] = []

    mutating func reset(reserving n: Int) {
        starts.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        starts.reserveCapacity(n)
        lengths.reserveCapacity(n)
    }

    /// PLAIN BYTE_ARRAY: a 4-byte length before each value.
    mutating func plain(_ b: UnsafeRawBufferPointer, count: Int) throws {
        reset(reserving: count)
        var pos = 0
        for i in 0..<count {
            guard b.count - pos >= 4 else { throw PageError("value \(i + 1) of \(count) runs past the end of the page") }
            let n = Int(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: pos, as: UInt32.self)))
            pos += 4
            guard n <= b.count - pos else { throw PageError("value \(i + 1) says it has \(n) bytes, more than the page has left") }
            starts.append(pos)
            lengths.append(n)
            pos += n
        }
    }

    /// FIXED_LEN_BYTE_ARRAY: values of `width` bytes one after another.
    mutating func fixed(_ b: UnsafeRawBufferPointer, count: Int, width: Int) throws {
        let (need, o) = count.multipliedReportingOverflow(by: width)
        guard width >= 0, !o, need <= b.count else {
            throw PageError("\(count) values of \(width) bytes need more than the page's \(b.count) bytes")
        }
        reset(reserving: count)
        for i in 0..<count { starts.append(i * width); lengths.append(width) }
    }

    /// DELTA_LENGTH_BYTE_ARRAY: the lengths (delta-packed), then the bytes of all values.
    mutating func deltaLength(_ b: UnsafeRawBufferPointer, from start: Int = 0, count: Int) throws -> Int {
        // One more than needed, so that no values still has memory to point at.
        var lens = [Int64](repeating: 0, count: count + 1)
        var pos = try lens.withUnsafeMutableBufferPointer { try DeltaBinaryPacked.decode(b, from: start, count: count, into: $0.baseAddress!) }
        reset(reserving: count)
        for (i, n) in lens.prefix(count).enumerated() {
            guard n >= 0, n <= Int64(b.count - pos) else { throw PageError("value \(i + 1) says it has \(n) bytes, more than the page has left") }
            starts.append(pos)
            lengths.append(Int(n))
            pos += Int(n)
        }
        return pos
    }

    /// DELTA_BYTE_ARRAY: each value shares a prefix with the one before; the values are made
    /// whole in `built`, which the spans then point into.
    mutating func deltaStrings(_ b: UnsafeRawBufferPointer, count: Int, built: inout [UInt8], limit: Int) throws {
        var prefixes = [Int64](repeating: 0, count: count + 1)
        let afterPrefixes = try prefixes.withUnsafeMutableBufferPointer { try DeltaBinaryPacked.decode(b, count: count, into: $0.baseAddress!) }
        var suffixes = ByteSpans()
        _ = try suffixes.deltaLength(b, from: afterPrefixes, count: count)
        built.removeAll(keepingCapacity: true)
        reset(reserving: count)
        var previous: [UInt8] = []
        for i in 0..<count {
            let p = prefixes[i]
            guard p >= 0, p <= Int64(previous.count) else {
                throw PageError("value \(i + 1) shares \(p) bytes with a value of \(previous.count)")
            }
            guard built.count + Int(p) + suffixes.lengths[i] <= limit else {
                throw PageError("the page's values would take more than \(MemoryBudget.describe(limit))")
            }
            previous.removeSubrange(Int(p)...)
            previous.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[suffixes.starts[i]..<(suffixes.starts[i] + suffixes.lengths[i])]))
            starts.append(built.count)
            lengths.append(previous.count)
            built.append(contentsOf: previous)
        }
    }
}

/// BYTE_STREAM_SPLIT: byte k of every value, then byte k + 1 … put back together into
/// values of `width` bytes in `out`.
func unsplitStreams(_ b: UnsafeRawBufferPointer, count: Int, width: Int, into out: UnsafeMutableRawPointer) throws {
    let (need, o) = count.multipliedReportingOverflow(by: width)
    guard width > 0, !o, need <= b.count else { throw PageError("\(count) values of \(width) bytes need more than the page's \(b.count) bytes") }
    if count == 0 { return }
    // The streams are as long as the page's values, which may be more than are asked for.
    let stream = b.count / width
    let dst = out.assumingMemoryBound(to: UInt8.self)
    let src = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
    for k in 0..<width {
        let s = src + k * stream
        for i in 0..<count { dst[i * width + k] = s[i] }
    }
}
