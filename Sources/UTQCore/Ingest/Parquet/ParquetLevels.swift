/// The small encodings of the writer: definition levels and dictionary indexes in the RLE /
/// bit-packing hybrid, and a chunk's smallest and largest values for its statistics.
enum ParquetLevels {
    /// A page's definition levels (1 where a row holds a value) with their byte length in
    /// front, as a v1 data page has them: one run when no row is null, else a bit a row —
    /// which is the validity bitmap's own layout.
    static func encode(_ column: Column, _ rows: Range<Int>) -> [UInt8] {
        var runs: [UInt8] = []
        let n = rows.count
        let present = column.validity == nil ? (column.type == .null ? 0 : n) : rows.reduce(0) { $0 + (column.isValid($1) ? 1 : 0) }
        if present == n || present == 0 {
            varint(&runs, UInt64(n) << 1)
            runs.append(present == n ? 1 : 0)
        } else {
            let groups = (n + 7) / 8
            varint(&runs, UInt64(groups) << 1 | 1)
            var byte: UInt8 = 0
            for (k, row) in rows.enumerated() {
                if column.isValid(row) { byte |= 1 << UInt8(k & 7) }
                if k & 7 == 7 { runs.append(byte); byte = 0 }
            }
            if n & 7 != 0 { runs.append(byte) }
        }
        var out: [UInt8] = []
        out.reserveCapacity(runs.count + 4)
        appendLittleEndian(&out, UInt32(runs.count))
        out.append(contentsOf: runs)
        return out
    }

    /// Values of `width` bits as one bit-packed run (the last group padded with zeros).
    static func bitPack(_ values: ArraySlice<UInt32>, width: Int, into out: inout [UInt8]) {
        let groups = (values.count + 7) / 8
        varint(&out, UInt64(groups) << 1 | 1)
        out.reserveCapacity(out.count + groups * width)
        let start = out.count
        var buffer: UInt64 = 0
        var bits = 0
        for v in values {
            buffer |= UInt64(v) << UInt64(bits)
            bits += width
            while bits >= 8 {
                out.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                bits -= 8
            }
        }
        if bits > 0 { out.append(UInt8(truncatingIfNeeded: buffer)) }
        // The last group's missing values are zeros: eight values take `width` bytes.
        while out.count - start < groups * width { out.append(0) }
    }

    static func varint(_ out: inout [UInt8], _ v: UInt64) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
}

/// The smallest and largest value of a chunk, as Parquet's statistics write them (PLAIN
/// bytes). Doubles leave out NaN, and a zero is written -0.0 as the least and +0.0 as the
/// greatest, as the format asks.
struct ParquetStatistics {
    private var lo = Int64.max, hi = Int64.min, width = 8
    private var dlo = Double.infinity, dhi = -Double.infinity
    private var isDouble = false, any = false

    mutating func add(_ v: Int64, width: Int = 8) {
        self.width = width
        any = true
        if v < lo { lo = v }
        if v > hi { hi = v }
    }

    mutating func add(_ v: Double) {
        isDouble = true
        guard !v.isNaN else { return }
        any = true
        if v < dlo { dlo = v }
        if v > dhi { dhi = v }
    }

    func bounds() -> ([UInt8]?, [UInt8]?) {
        guard any else { return (nil, nil) }
        var a: [UInt8] = [], b: [UInt8] = []
        if isDouble {
            appendLittleEndian(&a, (dlo == 0 ? -0.0 : dlo).bitPattern)
            appendLittleEndian(&b, (dhi == 0 ? 0.0 : dhi).bitPattern)
        } else if width == 4 {
            appendLittleEndian(&a, Int32(truncatingIfNeeded: lo))
            appendLittleEndian(&b, Int32(truncatingIfNeeded: hi))
        } else {
            appendLittleEndian(&a, lo)
            appendLittleEndian(&b, hi)
        }
        return (a, b)
    }
}
