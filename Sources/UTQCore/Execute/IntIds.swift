/// Dense ids for 64-bit keys (ids of trips, riders, vehicles; a double's bits), numbered in
/// the order they are first seen. Open addressing with linear probing and a multiplicative
/// hash: keys and ids side by side in one array, so a lookup is one cache miss, where a
/// Dictionary's SipHash and its growing by doubling cost several times that at millions of keys.
struct IntIds {
    private var slots: [Slot]
    private var mask: Int
    private(set) var count = 0

    private struct Slot { var key: Int64; var id: Int32 }  // id -1: empty

    /// Room for `expected` keys without growing (it grows past that all the same).
    init(expected: Int) {
        var size = 16
        while size < expected * 2 { size <<= 1 }
        slots = Array(repeating: Slot(key: 0, id: -1), count: size)
        mask = size - 1
    }

    /// Room for as many keys as a sample of the rows suggests: the sample's distinct share
    /// of all the rows (a column of ids is nearly all distinct; a code of a few values,
    /// nearly none), so a table of millions of keys is made once instead of doubled 10 times.
    init(sampling n: Int, _ key: (Int) -> Int64) {
        let size = min(n, 1 << 14)
        guard size > 0 else { self.init(expected: 16); return }
        var sample = IntIds(expected: size)
        let stride = max(1, n / size)
        for k in 0..<size { _ = sample.id(key(k * stride)) }
        let share = Double(sample.count) / Double(size)
        self.init(expected: share > 0.5 ? n : max(sample.count * 2, Int(share * Double(n))))
    }

    @inline(__always) private static func hash(_ key: Int64) -> Int {
        // Fibonacci hashing: the high bits of the product, where every key bit has a say.
        let h = UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    /// The key's id, given the next one when it is new.
    @inline(__always) mutating func id(_ key: Int64) -> Int32 {
        if count * 2 >= slots.count { grow() }
        var i = Self.hash(key) & mask
        while true {
            let s = slots[i]
            if s.id < 0 {
                let id = Int32(count)
                slots[i] = Slot(key: key, id: id)
                count += 1
                return id
            }
            if s.key == key { return s.id }
            i = (i + 1) & mask
        }
    }

    /// The key's id, or -1 when it was never given one.
    @inline(__always) func find(_ key: Int64) -> Int32 {
        var i = Self.hash(key) & mask
        while true {
            let s = slots[i]
            if s.id < 0 { return -1 }
            if s.key == key { return s.id }
            i = (i + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(key: 0, id: -1), count: old.count * 2)
        mask = slots.count - 1
        for s in old where s.id >= 0 {
            var i = Self.hash(s.key) & mask
            while slots[i].id >= 0 { i = (i + 1) & mask }
            slots[i] = s
        }
    }
}
