import Foundation
import Synchronization

/// A compressed file's text, decompressed once, in order, on a thread of its own
/// (StreamedText), and parsed by every core: each worker takes the next chunk of whole lines
/// and parses it as a part of the load, into its own region of each column's slab. Parsing
/// costs several times what decompressing does, so one decoder keeps both cores parsing.
/// (Reading a gzip file in two halves instead, each decompressed from the start, cost 1.4
/// decompressing passes and left the second core idle while it passed over the first half:
/// bench/README, "Compressed and split files".)
///
/// A chunk ends after the last line break in it; the rest of its last line starts the next.
/// A break inside a quoted cell makes a part end inside quotes: the part says so
/// (SplitMismatch) and the file is read again in one part, as a plain file's parts do. Each
/// part's region of a slab is as long as its chunk has line breaks, so the parts' values lie
/// one after another with no room between them, and joining them moves nothing.
final class StreamChunks: @unchecked Sendable {  // its state is taken under `lock`
    struct Chunk {
        let part: Int
        /// Bytes of text in the worker's buffer.
        let count: Int
        let builders: [ColumnBuilder]
        /// The last chunk, which ends where the text does.
        let last: Bool
    }

    /// A worker's memory for its chunk, grown for a line longer than a chunk.
    final class Buffer {
        private(set) var bytes: UnsafeMutableRawPointer
        private(set) var capacity: Int
        init(capacity: Int) {
            self.capacity = capacity
            bytes = .allocate(byteCount: capacity, alignment: 64)
        }
        deinit { bytes.deallocate() }
        func reserve(_ n: Int, keeping count: Int) {
            guard n > capacity else { return }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 64)
            grown.copyMemory(from: bytes, byteCount: count)
            bytes.deallocate()
            bytes = grown
            capacity = n
        }
    }

    private let lock = NSLock()
    private let source: FileSource
    let chunkSize: Int
    private var offset: Int
    private let end: Int
    private var carry: [UInt8] = []
    private var ended = false
    private var parts = 0
    private var nulCount = 0
    private var tailBytes: [UInt8] = []
    private var streamError: Error?
    private let makeBuilders: (_ part: Int, _ room: Int) -> [ColumnBuilder]
    private let failedFlag = Atomic<Bool>(false)

    /// The text from `start` to `end` (file offsets; `end` may be FileSource.unknownSize).
    /// `makeBuilders` gives a part's builders, with room for `room` rows; it is called in
    /// part order, one call at a time.
    init(source: FileSource, start: Int, end: Int, chunkSize: Int,
         makeBuilders: @escaping (_ part: Int, _ room: Int) -> [ColumnBuilder]) {
        self.source = source
        offset = start
        self.end = end
        self.chunkSize = max(1, chunkSize)
        self.makeBuilders = makeBuilders
    }

    /// Whether a part failed: the others stop at their next chunk.
    var failed: Bool { failedFlag.load(ordering: .relaxed) }
    func fail() { failedFlag.store(true, ordering: .relaxed) }

    /// Parts handed out so far (all of them, once the workers are done).
    var partCount: Int { lock.withLock { parts } }
    /// NUL bytes dropped from the text.
    var nuls: Int { lock.withLock { nulCount } }
    /// The text's last bytes (at least CSVShape.tailBytes of them, or all): its last line.
    var tail: [UInt8] { lock.withLock { tailBytes } }
    /// What stopped the stream (damage, a file cut short): the file's error, whatever the parts say.
    var error: Error? { lock.withLock { streamError } }

    /// The next chunk of whole lines, read into `buffer`; nil after the last.
    func next(into buffer: Buffer) -> Chunk? {
        lock.lock()
        defer { lock.unlock() }
        guard !ended, streamError == nil, !failed else { return nil }
        var count = carry.count
        buffer.reserve(count + chunkSize, keeping: 0)
        carry.withUnsafeBytes { if count > 0 { buffer.bytes.copyMemory(from: $0.baseAddress!, byteCount: count) } }
        carry = []
        do {
            while true {
                buffer.reserve(count + chunkSize, keeping: count)
                let want = min(chunkSize, end - offset)
                let got = want > 0 ? try source.read(at: offset, count: want, into: buffer.bytes + count, nuls: &nulCount) : (read: 0, kept: 0)
                offset += got.read
                keepTail(UnsafeRawBufferPointer(start: buffer.bytes + count, count: got.kept))
                count += got.kept
                if got.read < want || want == 0 || offset >= end { ended = true; break }
                // The rest of the last line starts the next chunk; a chunk with no line
                // break is one line longer than a chunk: read on.
                if let k = StreamChunks.lastLineBreak(buffer.bytes, count) {
                    let cut = k + 1
                    carry = [UInt8](UnsafeRawBufferPointer(start: buffer.bytes + cut, count: count - cut))
                    count = cut
                    break
                }
            }
        } catch {
            streamError = error
            fail()
            return nil
        }
        if ended && count == 0 && parts > 0 { return nil }
        let part = parts
        parts += 1
        // Rows are at most the line breaks, and one more in the last chunk (a last line with none).
        let room = countByte(0x0A, in: UnsafeRawBufferPointer(start: buffer.bytes, count: count)) + (ended ? 1 : 0)
        return Chunk(part: part, count: count, builders: makeBuilders(part, room), last: ended)
    }

    /// The last line break's offset (a line is short, so from the end back).
    static func lastLineBreak(_ p: UnsafeMutableRawPointer, _ count: Int) -> Int? {
        let bytes = p.assumingMemoryBound(to: UInt8.self)
        var k = count - 1
        while k >= 0 && bytes[k] != 0x0A { k -= 1 }
        return k >= 0 ? k : nil
    }

    private func keepTail(_ bytes: UnsafeRawBufferPointer) {
        tailBytes.append(contentsOf: bytes.suffix(2 * CSVShape.tailBytes))
        if tailBytes.count > 2 * CSVShape.tailBytes { tailBytes.removeFirst(tailBytes.count - CSVShape.tailBytes) }
    }
}

extension StreamChunks {
    /// Every core takes chunks and parses each with `parse` until the text ends: each
    /// chunk's result, in order. The stream's own error (damage, a file cut short) is thrown
    /// first, as the file's.
    func parseAll<T>(_ parse: @Sendable @escaping (Chunk, Buffer) throws -> T) throws -> [Result<T, Error>] {
        let results = PartResults<T>()
        DispatchQueue.concurrentPerform(iterations: Workers.available) { _ in
            let buffer = Buffer(capacity: chunkSize + 4096)
            while let chunk = next(into: buffer) {
                let result = Result { try parse(chunk, buffer) }
                if case .failure = result { fail() }
                results.set(chunk.part, result)
            }
        }
        if let error { throw error }
        return results.all(count: partCount)
    }
}

/// Whether a part of a load failed, so the others stop (ParallelParts, StreamChunks).
protocol PartsFailing: AnyObject, Sendable {
    var failed: Bool { get }
}

extension StreamChunks: PartsFailing {}

/// The results of parts whose number is known only at the end, set by several workers.
final class PartResults<T>: @unchecked Sendable {  // `results` is taken under `lock`
    private let lock = NSLock()
    private var results: [Int: Result<T, Error>] = [:]

    func set(_ part: Int, _ result: Result<T, Error>) { lock.withLock { results[part] = result } }

    /// Parts 0..<count in order; one never set stopped for another's failure.
    func all(count: Int) -> [Result<T, Error>] {
        lock.withLock { (0..<count).map { results[$0] ?? .failure(CancellationError()) } }
    }
}
