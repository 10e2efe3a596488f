/// A deflate Huffman code (RFC 1951) as a lookup table: the next `rootBits` bits of the
/// stream index one entry, which says the symbol and how many bits its code takes; a code
/// longer than that points to a subtable indexed by the bits after. One look-up a symbol for
/// all but the rare long codes, where zlib walks its table a level at a time.
///
/// An entry is one UInt32, laid out so the decoding loop tests and shifts without masks (as
/// libdeflate's are): bits 0-5 the bits it takes at this level (a length's or a distance's
/// code and its extra bits together, so they are taken in one shift; a 64-bit shift uses
/// only these six bits), bits 6-7 its kind when it is not a literal, bits 8-11 the bits of
/// the code alone (or a subtable's index bits), bits 16-30 its value (a literal byte, a length
/// or distance base, a subtable's start), bit 31 set for a literal (a sign test).
struct HuffmanTable: ~Copyable {
    static let literal: UInt32 = 0x8000_0000, length: UInt32 = 0x00, endOfBlock: UInt32 = 0x40,
               subtable: UInt32 = 0x80, invalid: UInt32 = 0xC0, kindMask: UInt32 = 0xC0

    let rootBits: Int
    let capacity: Int
    let entries: UnsafeMutablePointer<UInt32>

    init(rootBits: Int, capacity: Int) {
        self.rootBits = rootBits
        self.capacity = capacity
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: HuffmanTable.invalid, count: capacity)
    }

    deinit { entries.deallocate() }

    /// What a symbol decodes to, before its code's length is added (a length's or distance's
    /// extra bits are in bits 0-5 already): literal/length symbols
    /// (0-255 literals, 256 the end of a block, 257-285 lengths) or distance symbols.
    static func litlenEntry(_ symbol: Int) -> UInt32 {
        if symbol < 256 { return literal | UInt32(symbol) << 16 }
        if symbol == 256 { return endOfBlock }
        let k = symbol - 257
        guard k < lengthBase.count else { return invalid }
        return length | UInt32(lengthExtra[k]) | UInt32(lengthBase[k]) << 16
    }

    static func distanceEntry(_ symbol: Int) -> UInt32 {
        guard symbol < distanceBase.count else { return invalid }
        return length | UInt32(distanceExtra[symbol]) | UInt32(distanceBase[symbol]) << 16
    }

    static let lengthBase: [UInt16] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [UInt16] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                                         2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [UInt8] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// Fills the table from each symbol's code length (0: the symbol has no code). Returns
    /// false for lengths that make no code: more codes than the lengths have room for, or
    /// fewer, which only a code of one symbol may have (as zlib allows). Bits that match no
    /// code decode to `invalid`.
    mutating func build(lengths: UnsafeBufferPointer<UInt8>, entry: (Int) -> UInt32) -> Bool {
        var count = [Int](repeating: 0, count: 16)
        for l in lengths { count[Int(l)] += 1 }
        count[0] = 0
        var left = 1
        var maxLength = 0
        for l in 1...15 {
            left = left << 1 - count[l]
            if left < 0 { return false }  // over-subscribed
            if count[l] > 0 { maxLength = l }
        }
        if left > 0 && maxLength > 1 { return false }  // incomplete
        // Symbols in canonical order: by length, then by symbol.
        var offset = [Int](repeating: 0, count: 16)
        for l in 1..<15 { offset[l + 1] = offset[l] + count[l] }
        var sorted = [Int](repeating: 0, count: lengths.count)
        for (s, l) in lengths.enumerated() where l > 0 {
            sorted[offset[Int(l)]] = s
            offset[Int(l)] += 1
        }
        let root = rootBits
        let rootSize = 1 << root
        entries.update(repeating: HuffmanTable.invalid, count: rootSize)
        var next = rootSize  // where the next subtable starts
        var code = 0  // the canonical code, most significant bit first
        var index = 0
        var subtablePrefix = -1, subtableStart = 0, subtableBits = 0
        let total = lengths.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        for l in 1...15 {
            for _ in 0..<count[l] {
                let symbol = sorted[index]
                let value = entry(symbol)
                if l <= root {
                    // Every index whose low l bits are the code, read least significant first.
                    let reversed = HuffmanTable.reverse(code, bits: l)
                    let e = HuffmanTable.withLength(value, l)
                    var i = reversed
                    while i < rootSize { entries[i] = e; i += 1 << l }
                } else {
                    let prefix = HuffmanTable.reverse(code >> (l - root), bits: root)
                    if prefix != subtablePrefix {
                        // A new subtable: as wide as the longest code with this prefix, the last
                        // such in canonical order.
                        var lastLength = l
                        var probe = code, probeLength = l, k = index
                        while k + 1 < total {
                            let nextLength = Int(lengths[sorted[k + 1]])
                            let nextCode = (probe + 1) << (nextLength - probeLength)
                            if nextCode >> (nextLength - root) != code >> (l - root) { break }
                            (probe, probeLength, lastLength) = (nextCode, nextLength, nextLength)
                            k += 1
                        }
                        subtableBits = lastLength - root
                        subtableStart = next
                        next += 1 << subtableBits
                        if next > capacity { return false }
                        entries.advanced(by: subtableStart).update(repeating: HuffmanTable.invalid, count: 1 << subtableBits)
                        entries[prefix] = HuffmanTable.subtable | UInt32(root) | UInt32(subtableBits) << 8 | UInt32(subtableStart) << 16
                        subtablePrefix = prefix
                    }
                    let rest = l - root
                    let reversed = HuffmanTable.reverse(code & ((1 << rest) - 1), bits: rest)
                    let e = HuffmanTable.withLength(value, rest)
                    var i = reversed
                    while i < 1 << subtableBits { entries[subtableStart + i] = e; i += 1 << rest }
                }
                code += 1
                index += 1
            }
            code <<= 1
        }
        return true
    }

    /// An entry with its code's length: added to the extra bits in bits 0-5, and alone in 8-11.
    static func withLength(_ value: UInt32, _ bits: Int) -> UInt32 {
        value &+ UInt32(bits) | UInt32(bits) << 8
    }

    @inline(__always)
    static func reverse(_ code: Int, bits: Int) -> Int {
        var r = 0, c = code
        for _ in 0..<bits { r = r << 1 | c & 1; c >>= 1 }
        return r
    }
}
