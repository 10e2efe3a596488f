/// Turns byte strings into dense codes, storing each distinct string once.
/// Loaders feed it raw bytes straight from the file, so no Swift String is made per cell.
public struct ByteInterner: Sendable {
    private var arena: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// The high half of the hash above code + 1, or 0 when empty: a probe compares hashes
    /// without reading another array.
    private var slots: [UInt64]
    private var mask: Int

    public init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
    }

    public var count: Int { hashes.count }

    /// The memory the interner holds, in bytes: its strings, their places and its table.
    public var byteSize: Int {
        arena.capacity + (starts.capacity + hashes.capacity + slots.capacity) * 8
    }

    /// The code of these bytes, adding them if new.
    public mutating func intern(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let h = ByteInterner.hash(bytes)
        let tag = h & 0xFFFF_FFFF_0000_0000
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry & 0xFFFF_FFFF_0000_0000 == tag {
                let code = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                if equals(code, bytes) { return UInt32(code) }
            }
            slot = (slot + 1) & mask
        }
        let code = hashes.count
        hashes.append(h)
        arena.append(contentsOf: bytes)
        starts.append(arena.count)
        slots[slot] = tag | UInt64(code + 1)
        if hashes.count * 2 > slots.count { grow() }
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

    private mutating func grow() {
        let size = slots.count * 2
        slots = Array(repeating: 0, count: size)
        mask = size - 1
        for (code, h) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = h & 0xFFFF_FFFF_0000_0000 | UInt64(code + 1)
        }
    }

    /// The distinct strings, in code order. Invalid UTF-8 is repaired with U+FFFD.
    public func strings() -> [String] {
        arena.withUnsafeBufferPointer { a in
            (0..<hashes.count).map { code in
                String(decoding: UnsafeBufferPointer(rebasing: a[starts[code]..<starts[code + 1]]), as: UTF8.self)
            }
        }
    }

    public func bytes(of code: Int) -> ArraySlice<UInt8> { arena[starts[code]..<starts[code + 1]] }

    /// A fast 64-bit hash over 8-byte words (wyhash-style mixing).
    @inline(__always)
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        let n = bytes.count
        while i + 8 <= n {
            let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = mix(h ^ w, 0xA076_1D64_78BD_642F)
            i += 8
        }
        if i < n {
            // The last bytes in one or two loads that may overlap bytes already mixed in
            // (the length is in the seed, so overlapping loads still tell strings apart).
            let w: UInt64
            if n >= 8 {
                w = bytes.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            } else if n >= 4 {
                w = UInt64(bytes.loadUnaligned(as: UInt32.self)) | UInt64(bytes.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)) << 32
            } else {
                w = UInt64(bytes[0]) | UInt64(bytes[n / 2]) << 8 | UInt64(bytes[n - 1]) << 16
            }
            h = mix(h ^ w, 0xE703_7ED1_A0B4_28DB)
        }
        return mix(h, 0x8EBC_6AF0_9C88_C6E3)
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
