/// Turns byte strings into dense codes, storing each distinct string once.
/// Loaders feed it raw bytes straight from the file, so no Swift String is made per cell.
///
/// A slot of the table is three words: the hash's low 24 bits with the length and the code,
/// then the string's first and last eight bytes. Most cells are names, places and ids of at
/// most 16 bytes, which those two words hold whole: finding one reads one slot and nothing
/// else (the strings themselves, in `arena`, are read only for longer ones).
public struct ByteInterner: Sendable {
    private var arena: [UInt8] = []
    private var starts: [Int] = [0]
    /// `3 * size` words; a slot whose first word is 0 is empty.
    private var table: [UInt64]
    private var mask: Int
    public private(set) var count = 0

    public init(capacity: Int = 64) {
        var size = 16
        while size * 3 < capacity * 4 { size <<= 1 }
        table = Array(repeating: 0, count: 3 * size)
        mask = size - 1
    }

    /// The memory the interner holds, in bytes: its strings, their places and its table.
    public var byteSize: Int {
        arena.capacity + (starts.capacity + table.capacity) * 8
    }

    /// The code of these bytes, adding them if new.
    @inline(__always)
    public mutating func intern(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let n = bytes.count
        let (w0, w1) = ByteInterner.words(bytes)
        let h = ByteInterner.hash(bytes, words: (w0, w1))
        let key = (h & 0xFF_FFFF) << 40 | UInt64(min(n, 255)) << 32
        var slot = Int(truncatingIfNeeded: h) & mask
        let found: Int? = table.withUnsafeBufferPointer { t in
            while true {
                let s = t.baseAddress! + 3 * slot
                let meta = s[0]
                if meta == 0 { return nil }
                if meta & 0xFFFF_FFFF_0000_0000 == key && s[1] == w0 && s[2] == w1 {
                    let code = Int(truncatingIfNeeded: meta & 0xFFFF_FFFF) - 1
                    if n <= 16 || equals(code, bytes) { return code }
                }
                slot = (slot + 1) & mask
            }
        }
        if let found { return UInt32(truncatingIfNeeded: found) }
        let code = count
        count += 1
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        table[3 * slot] = key | UInt64(code + 1)
        table[3 * slot + 1] = w0
        table[3 * slot + 2] = w1
        if count * 4 > (mask + 1) * 3 { grow() }
        return UInt32(code)
    }

    public mutating func intern(_ string: String) -> UInt32 {
        var s = string
        return s.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `code` stands for exactly these bytes.
    func equals(_ code: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let start = starts[code], end = starts[code + 1]
        guard end - start == bytes.count else { return false }
        return arena.withUnsafeBytes { a in
            bytes.count == 0 || sameBytes(a.baseAddress! + start, bytes.baseAddress!, bytes.count)
        }
    }

    /// Twice the slots, each string placed again by its hash: the bits the slot keeps, up
    /// to 2^24 slots; past that, the hash taken again from the string.
    private mutating func grow() {
        let old = table
        let size = (mask + 1) * 2
        table = Array(repeating: 0, count: 3 * size)
        mask = size - 1
        arena.withUnsafeBytes { a in
            table.withUnsafeMutableBufferPointer { t in
                var k = 0
                while k < old.count {
                    let meta = old[k]
                    if meta != 0 {
                        var slot: Int
                        if size <= 1 << 24 {
                            slot = Int(truncatingIfNeeded: meta >> 40) & mask
                        } else {
                            let code = Int(truncatingIfNeeded: meta & 0xFFFF_FFFF) - 1
                            let bytes = UnsafeRawBufferPointer(rebasing: a[starts[code]..<starts[code + 1]])
                            slot = Int(truncatingIfNeeded: ByteInterner.hash(bytes, words: ByteInterner.words(bytes))) & mask
                        }
                        while t[3 * slot] != 0 { slot = (slot + 1) & mask }
                        t[3 * slot] = meta
                        t[3 * slot + 1] = old[k + 1]
                        t[3 * slot + 2] = old[k + 2]
                    }
                    k += 3
                }
            }
        }
    }

    /// The distinct strings, in code order. Invalid UTF-8 is repaired with U+FFFD.
    public func strings() -> [String] {
        arena.withUnsafeBufferPointer { a in
            (0..<count).map { code in
                String(decoding: UnsafeBufferPointer(rebasing: a[starts[code]..<starts[code + 1]]), as: UTF8.self)
            }
        }
    }

    public func bytes(of code: Int) -> ArraySlice<UInt8> { arena[starts[code]..<starts[code + 1]] }

    /// Two words that, with the length, tell apart any two strings of at most 16 bytes: the
    /// first and last eight bytes (overlapping below 16), or for shorter strings loads that
    /// between them cover every byte. No load reaches outside the string.
    @inline(__always)
    static func words(_ b: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let n = b.count
        if n >= 8 {
            return (b.loadUnaligned(as: UInt64.self), n > 8 ? b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) : 0)
        }
        if n >= 4 {
            return (UInt64(b.loadUnaligned(as: UInt32.self)) | UInt64(b.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)) << 32, 0)
        }
        if n == 0 { return (0, 0) }
        return (UInt64(b[0]) | UInt64(b[n / 2]) << 8 | UInt64(b[n - 1]) << 16, 0)
    }

    /// A fast 64-bit hash (wyhash-style mixing) of the two words, the length and, past 16
    /// bytes, the words between.
    @inline(__always)
    static func hash(_ b: UnsafeRawBufferPointer, words: (UInt64, UInt64)) -> UInt64 {
        let n = b.count
        var h = mix(words.0 ^ 0x9E37_79B9_7F4A_7C15 ^ UInt64(n), 0xA076_1D64_78BD_642F)
        h = mix(h ^ words.1, 0xE703_7ED1_A0B4_28DB)
        var i = 8
        while i + 8 < n {
            h = mix(h ^ b.loadUnaligned(fromByteOffset: i, as: UInt64.self), 0x8EBC_6AF0_9C88_C6E3)
            i += 8
        }
        return h
    }

    @inline(__always)
    static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let r = a.multipliedFullWidth(by: b)
        return r.high ^ r.low
    }
}

import Foundation

/// Whether two runs of `n` bytes are equal. The names and values a loader compares are
/// mostly short: a word or two of loads beats a call into the C library.
@inline(__always)
func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
    if n > 64 { return memcmp(a, b, n) == 0 }
    if n >= 8 {
        var i = 0
        while i + 8 <= n {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        return i == n || a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    }
    if n >= 4 {
        return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
            && a.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
    }
    var i = 0
    while i < n {
        if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
        i += 1
    }
    return true
}
