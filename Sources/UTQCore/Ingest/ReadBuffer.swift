import Foundation

/// The bytes a reader has read and not used yet, in memory it keeps for the whole read. A
/// chunk is read straight into room already there: an Array can only grow by being filled
/// first (with zeros, then overwritten by the read), a second pass over every byte of the file.
final class ReadBuffer {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0
    /// Whether the memory is this buffer's own, to free.
    private var owned = true

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(byteCount: self.capacity, alignment: 64)
    }

    /// Bytes read already, in memory the caller keeps alive and lets this buffer change
    /// (a chunk of a compressed file's text, StreamChunks).
    init(borrowing bytes: UnsafeMutableRawPointer, count: Int) {
        base = bytes
        capacity = count
        self.count = count
        owned = false
    }

    deinit { if owned { base.deallocate() } }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Drops the first `n` bytes, moving the rest to the front.
    func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count)
        if n < count { memmove(base, base + n, count - n) }
        count -= n
    }

    /// Reads up to `n` bytes of the source's text from `offset` onto the end: how many bytes
    /// of the text were read (NUL bytes are read and dropped, counted in `nuls`).
    func read(from source: FileSource, at offset: Int, count n: Int, nuls: inout Int) throws -> Int {
        if count + n > capacity {
            var grown = capacity
            while grown < count + n { grown *= 2 }
            let fresh = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 64)
            fresh.copyMemory(from: base, byteCount: count)
            if owned { base.deallocate() }
            base = fresh
            owned = true
            capacity = grown
        }
        let (read, kept) = try source.read(at: offset, count: n, into: base + count, nuls: &nuls)
        count += kept
        return read
    }
}
