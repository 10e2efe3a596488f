/// Finds bytes that are not UTF-8, so a reader can say on which line a file is damaged.
/// The text itself is repaired later, when strings are made (each bad sequence becomes
/// U+FFFD); this only looks, eight bytes at a time while they are ASCII.
enum UTF8Check {
    /// Whether every sequence in `b` is well-formed UTF-8.
    static func isValid(_ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        var i = 0
        let high: UInt64 = 0x8080_8080_8080_8080
        while i < n {
            // Most text is ASCII: 32 bytes a test while it is.
            if i + 32 <= n && (b.loadUnaligned(fromByteOffset: i, as: UInt64.self) | b.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                               | b.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self) | b.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)) & high == 0 {
                i += 32
                continue
            }
            if i + 8 <= n && b.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let b0 = b[i]
            if b0 < 0x80 { i += 1; continue }
            guard let length = sequenceLength(b, at: i) else { return false }
            i += length
        }
        return true
    }

    /// The length of the well-formed sequence at `i` (a byte ≥ 0x80), or nil. The ranges
    /// are the table of well-formed sequences in the Unicode standard, section 3.9.
    private static func sequenceLength(_ b: UnsafeRawBufferPointer, at i: Int) -> Int? {
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch b[i] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let c = b[i + k]
            if k == 1 ? (c < low || c > high) : (c < 0x80 || c > 0xBF) { return nil }
        }
        return length
    }
}
