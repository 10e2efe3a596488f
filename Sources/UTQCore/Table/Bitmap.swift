/// A packed bit per row. Columns use it to mark which rows hold a value.
public struct Bitmap: Sendable, Equatable {
    public private(set) var words: [UInt64]
    public private(set) var count: Int

    public init(count: Int, value: Bool) {
        self.count = count
        words = Array(repeating: value ? ~0 : 0, count: (count + 63) >> 6)
        if value { clearTail() }
    }

    public init() { words = []; count = 0 }

    /// Bits already packed, 64 to a word, the first row in the lowest bit (as a reader
    /// builds them); bits past `count` are cleared.
    public init(words: [UInt64], count: Int) {
        precondition(words.count == (count + 63) >> 6, "a bitmap of \(count) bits takes \((count + 63) >> 6) words")
        self.words = words
        self.count = count
        clearTail()
    }

    @inline(__always)
    public subscript(i: Int) -> Bool {
        get { (words[i >> 6] >> UInt64(i & 63)) & 1 == 1 }
        set {
            if newValue { words[i >> 6] |= 1 << UInt64(i & 63) } else { words[i >> 6] &= ~(1 << UInt64(i & 63)) }
        }
    }

    public mutating func append(_ bit: Bool) {
        if count & 63 == 0 { words.append(0) }
        if bit { words[count >> 6] |= 1 << UInt64(count & 63) }
        count += 1
    }

    /// A word at a time once the last word is full: a million rows of one bit are sixteen
    /// thousand stores.
    public mutating func append(repeating bit: Bool, count n: Int) {
        var left = n
        while left > 0 && count & 63 != 0 { append(bit); left -= 1 }
        let whole = left >> 6
        words.append(contentsOf: repeatElement(bit ? ~0 : 0, count: whole))
        count += whole << 6
        for _ in 0..<(left & 63) { append(bit) }
    }

    /// Another bitmap's bits after these, a word at a time (shifted into place when this
    /// one does not end on a word).
    public mutating func append(contentsOf other: Bitmap) {
        let shift = count & 63
        if shift == 0 {
            words.append(contentsOf: other.words)
            count += other.count
            return
        }
        words.reserveCapacity((count + other.count + 63) >> 6)
        for w in other.words {
            words[words.count - 1] |= w << UInt64(shift)
            words.append(w >> UInt64(64 - shift))
        }
        count += other.count
        // Words past the last bit are dropped; the bits past it are zero already.
        words.removeLast(words.count - ((count + 63) >> 6))
    }

    public mutating func reserveCapacity(_ n: Int) { words.reserveCapacity((n + 63) >> 6) }

    /// Sets bit `i`, the bits between the last and it clear: a store, where appending them
    /// would be a step a bit (a loader marking its null rows as they come).
    @inline(__always)
    public mutating func set(growingTo i: Int) {
        let needed = (i >> 6) + 1
        if words.count < needed { words.append(contentsOf: repeatElement(0, count: needed - words.count)) }
        words[i >> 6] |= 1 << UInt64(i & 63)
        // Bits past `count` are clear, so those before `i` read as clear once it moves.
        if i >= count { count = i + 1 }
    }

    /// Number of set bits.
    public var setCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }
    public var allSet: Bool { setCount == count }

    private mutating func clearTail() {
        let extra = count & 63
        if extra != 0, !words.isEmpty { words[words.count - 1] &= (1 << UInt64(extra)) - 1 }
    }

    public static func & (a: Bitmap, b: Bitmap) -> Bitmap {
        var r = a
        for i in 0..<r.words.count { r.words[i] &= b.words[i] }
        return r
    }

    public static func | (a: Bitmap, b: Bitmap) -> Bitmap {
        var r = a
        for i in 0..<r.words.count { r.words[i] |= b.words[i] }
        return r
    }

    public static prefix func ~ (a: Bitmap) -> Bitmap {
        var r = a
        for i in 0..<r.words.count { r.words[i] = ~r.words[i] }
        r.clearTail()
        return r
    }

    /// Indices of set bits, in order.
    public func setIndices() -> [Int32] {
        let total = setCount
        return [Int32](unsafeUninitializedCapacity: total) { out, made in
            // Written through a pointer: an append checks the capacity at every index.
            let o = out.baseAddress
            var k = 0
            words.withUnsafeBufferPointer { w in
                for i in 0..<w.count {
                    var bits = w[i]
                    while bits != 0 {
                        o![k] = Int32(truncatingIfNeeded: i << 6 | bits.trailingZeroBitCount)
                        k &+= 1
                        bits &= bits &- 1
                    }
                }
            }
            made = k
        }
    }
}
