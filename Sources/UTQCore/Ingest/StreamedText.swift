import Foundation

/// A Decompressor on a thread of its own, a few blocks ahead of the reader: the text is
/// decompressed on one core while it is parsed on another. At most `depth` blocks are
/// decompressed and not yet read, so memory stays some megabytes whatever the file: 24 of
/// 1 MB, a chunk and a half of StreamChunks' 16 MB, so a worker taking a chunk seldom waits
/// for the decoder while the other holds the stream (571 MB of .csv.gz, six runs each in
/// turn: median 0.86 s against 0.95 with 4 blocks; the peak 20 MB more). The
/// thread ends with this object: it is stopped and waited for, so no file stays open and no
/// memory stays taken after a load.
final class DecompressAhead {
    /// What the two threads share, under `condition`.
    private final class Channel: @unchecked Sendable {
        let condition = NSCondition()
        var ready: [(block: UnsafeMutableRawBufferPointer, count: Int)] = []
        var spare: [UnsafeMutableRawBufferPointer] = []
        /// Blocks not yet made: they are made as the text needs them, so a small file takes one.
        var unmade: Int
        let blockSize: Int
        var ended = false
        var failure: Error?
        var stopped = false
        /// Decompressed bytes made so far, and the compressed bytes they took.
        var produced = 0, consumed = 0

        init(blocks: Int, size: Int) { unmade = blocks; blockSize = size }

        func freeBlocks() {
            for b in spare { b.deallocate() }
            for r in ready { r.block.deallocate() }
            spare = []
            ready = []
        }
    }

    /// What the thread is started with; it lets go of the reader (closing the file) as it ends.
    private final class Work {
        let reader: Decompressor
        let channel: Channel
        init(_ reader: Decompressor, _ channel: Channel) { self.reader = reader; self.channel = channel }
    }

    private let channel: Channel
    private var thread = pthread_t()
    /// The block being read from (the reader's own until handed back).
    private var current: UnsafeMutableRawBufferPointer?
    private var currentCount = 0, currentPosition = 0

    init(path: String, kind: Compression, progress: LoadProgress?, blockSize: Int = 1 << 20, depth: Int = 24) throws {
        let reader = try Decompressor(path: path, kind: kind, progress: progress)
        channel = Channel(blocks: depth, size: blockSize)
        let work = Unmanaged.passRetained(Work(reader, channel)).toOpaque()
        let started = pthread_create(&thread, nil, { raw in
            let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
            DecompressAhead.run(work.reader, work.channel)
            return nil
        }, work)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            throw LoadError(path: path, "cannot start a thread to decompress the file (\(String(cString: strerror(started))))")
        }
    }

    deinit {
        channel.condition.lock()
        channel.stopped = true
        if let current { channel.spare.append(current) }
        channel.condition.broadcast()
        channel.condition.unlock()
        pthread_join(thread, nil)
        channel.freeBlocks()
    }

    private static func run(_ reader: Decompressor, _ c: Channel) {
        while true {
            c.condition.lock()
            while c.spare.isEmpty && c.unmade == 0 && !c.stopped { c.condition.wait() }
            if c.stopped { c.condition.unlock(); return }
            if c.spare.isEmpty {
                c.unmade -= 1
                c.spare.append(.allocate(byteCount: c.blockSize, alignment: 64))
            }
            let block = c.spare.removeLast()
            c.condition.unlock()
            let result = Result { try reader.read(into: block) }
            c.condition.lock()
            defer { c.condition.broadcast(); c.condition.unlock() }
            switch result {
            case .success(let n):
                c.produced += n
                c.consumed = reader.consumed
                if n > 0 { c.ready.append((block, n)) } else { c.spare.append(block) }
                if n < block.count { c.ended = true; return }
            case .failure(let e):
                c.failure = e
                c.spare.append(block)
                return
            }
        }
    }

    /// Fills `out` with the next bytes; fewer only at the end. Returns how many.
    func read(into out: UnsafeMutableRawBufferPointer) throws -> Int {
        var made = 0
        while made < out.count {
            if let block = current, currentPosition < currentCount {
                let n = min(out.count - made, currentCount - currentPosition)
                (out.baseAddress! + made).copyMemory(from: block.baseAddress! + currentPosition, byteCount: n)
                currentPosition += n
                made += n
                continue
            }
            let c = channel
            c.condition.lock()
            if let block = current { c.spare.append(block); current = nil; c.condition.broadcast() }
            while c.ready.isEmpty && !c.ended && c.failure == nil { c.condition.wait() }
            if !c.ready.isEmpty {
                let next = c.ready.removeFirst()
                c.condition.unlock()
                current = next.block
                currentCount = next.count
                currentPosition = 0
                continue
            }
            let failure = c.failure
            c.condition.unlock()
            if let failure { throw failure }
            break
        }
        return made
    }

    /// Decompressed bytes made so far and the compressed bytes they took, for estimating the
    /// size of the whole.
    var ratio: (text: Int, compressed: Int) {
        channel.condition.lock()
        defer { channel.condition.unlock() }
        return (channel.produced, channel.consumed)
    }
}

/// The text of a compressed file, as `FileSource` reads it: by offset, but in order. Its
/// first bytes (what a reader looks at before it reads on: the header, the sample it infers
/// types from) are kept, so they can be read again; a read further back starts the stream
/// over.
final class StreamedText: @unchecked Sendable {
    let path: String
    let kind: Compression
    /// The compressed file's size.
    let fileSize: Int
    private let progress: LoadProgress?
    private let lock = NSLock()
    private var ahead: DecompressAhead
    /// The offset in the text the stream stands at.
    private var position = 0
    /// The text's first bytes, kept while reads still start among them.
    private var head: [UInt8] = []
    /// Bytes of text in all, once the stream has ended.
    private var total: Int?

    init(path: String, kind: Compression, fileSize: Int, progress: LoadProgress?) throws {
        self.path = path
        self.kind = kind
        self.fileSize = fileSize
        self.progress = progress
        ahead = try DecompressAhead(path: path, kind: kind, progress: progress)
    }

    /// Bytes of text in all, once known (the stream has been read to its end).
    var knownSize: Int? { lock.withLock { total } }

    /// The text's size: exact once known, else the compressed size scaled by how well the
    /// text read so far compressed.
    var expectedSize: Int {
        lock.withLock {
            if let total { return total }
            let (text, compressed) = ahead.ratio
            return max(text, Decompressor.scaled(text: text, compressed: compressed, fileSize: fileSize))
        }
    }

    /// Reads up to `count` bytes of text from `offset` into `out`; fewer only at the end.
    func read(at offset: Int, count: Int, into out: UnsafeMutableRawPointer) throws -> Int {
        try lock.withLock {
            var done = 0
            if offset < head.count {
                done = min(count, head.count - offset)
                head.withUnsafeBytes { out.copyMemory(from: $0.baseAddress! + offset, byteCount: done) }
            } else if offset > 0 {
                head = []  // the reader has moved on past the head
            }
            let from = offset + done
            guard done < count else { return done }
            if from < position { try restart() }
            if from > position { try skip(from - position) }
            let n = try ahead.read(into: UnsafeMutableRawBufferPointer(start: out + done, count: count - done))
            if from == head.count && offset == 0 {
                head.append(contentsOf: UnsafeRawBufferPointer(start: out + done, count: n))
            }
            position += n
            if n < count - done { total = position }
            return done + n
        }
    }

    private func restart() throws {
        ahead = try DecompressAhead(path: path, kind: kind, progress: nil)
        position = 0
    }

    private func skip(_ bytes: Int) throws {
        var scratch = [UInt8](repeating: 0, count: min(bytes, 1 << 20))
        var left = bytes
        while left > 0 {
            let want = min(left, scratch.count)
            let n = try scratch.withUnsafeMutableBytes { try ahead.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want])) }
            position += n
            left -= n
            if n < want { total = position; return }
        }
    }
}
