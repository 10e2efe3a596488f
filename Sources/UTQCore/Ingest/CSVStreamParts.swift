import Foundation

/// A compressed file's records parsed on several cores. Its text comes in order, so it cannot
/// be cut at guessed places as a plain file is; instead it is cut as it comes, after the last
/// line break outside quotes in each chunk (exact, since the reading started at a record),
/// and each chunk is parsed into columns of its own by a free worker while the next chunk is
/// decompressed and cut. The parts are joined as a plain file's are.
extension CSVLoader {
    /// `makeBuilders(first)`: empty columns for a part (the first takes in the others').
    /// The outcome of each part, in order; a part after the first that fails is a
    /// SplitMismatch, so the file is read again in one piece to say where, with its lines.
    static func readStreamParts(_ source: FileSource, from dataStart: Int, line: Int, delimiter: UInt8, width: Int,
                                makeBuilders: (Bool) -> [ColumnBuilder], rules: CSVRecordRules, options: CSVOptions,
                                cancel: CancellationFlag?, path: String) throws -> [Result<CSVPart, Error>] {
        let store = StreamPartStore()
        let pool = ChunkPool(size: options.chunkSize + 65536)
        let group = DispatchGroup()
        let gate = DispatchSemaphore(value: Workers.available)
        defer { group.wait() }  // no worker outlives the call, also when reading fails
        var buffer = pool.take()
        var offset = dataStart
        var boundaries = BoundarySearch(delimiter: delimiter)
        var index = 0
        var nuls = 0
        var final = false
        while !final {
            if store.failed || cancel?.isCancelled == true { break }
            let n = try source.read(at: offset, count: options.chunkSize, into: &buffer, nuls: &nuls)
            offset += n
            final = n == 0
            var end = buffer.count
            if !final {
                guard let e = buffer.withUnsafeBytes({ boundaries.find($0, from: 0) }) else { continue }
                end = e
            }
            if end == 0 { continue }
            var next = pool.take()
            next.append(contentsOf: buffer[end...])
            buffer.removeSubrange(end...)
            let chunk = ChunkBox(buffer)
            buffer = next
            let part = index
            index += 1
            let builders = UnsafeSendable(makeBuilders(part == 0))
            let partNuls = nuls
            nuls = 0
            gate.wait()
            DispatchQueue.global().async(group: group) {
                store.set(part, Result {
                    var records = CSVRecords(delimiter: delimiter, width: width, builders: builders.value, line: part == 0 ? line : 1,
                                             path: path, rules: rules)
                    do {
                        try chunk.bytes.withUnsafeBytes { try records.parse($0, 0, $0.count, cancel: cancel) }
                    } catch let u as CSVRecords.Unterminated {
                        if part > 0 { throw SplitMismatch() }
                        throw LoadError(path: path, line: u.line, column: u.column, "a quoted cell is never closed (the file ends inside quotes)")
                    }
                    return CSVPart(records: records, nuls: partNuls)
                })
                pool.put(chunk.take())
                gate.signal()
            }
        }
        group.wait()
        // Stopped between chunks: what was parsed is not the whole file.
        if cancel?.isCancelled == true { throw CancellationError() }
        if index == 0 {
            // No rows after the header: the columns, empty.
            let records = CSVRecords(delimiter: delimiter, width: width, builders: makeBuilders(true), line: line, path: path, rules: rules)
            store.set(0, .success(CSVPart(records: records, nuls: nuls)))
            index = 1
        }
        return store.outcomes(index)
    }
}

/// The parts of a stream as they are parsed, by index.
final class StreamPartStore: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Int: Result<CSVLoader.CSVPart, Error>] = [:]
    private var anyFailed = false

    var failed: Bool { lock.withLock { anyFailed } }

    func set(_ i: Int, _ r: Result<CSVLoader.CSVPart, Error>) {
        lock.withLock {
            slots[i] = r
            if case .failure = r { anyFailed = true }
        }
    }

    /// The first `count` parts' outcomes; one never parsed is a cancellation.
    func outcomes(_ count: Int) -> [Result<CSVLoader.CSVPart, Error>] {
        lock.withLock { (0..<count).map { slots[$0] ?? .failure(CancellationError()) } }
    }
}

/// A chunk handed to a worker, taken back whole (not copied) once parsed.
final class ChunkBox: @unchecked Sendable {
    var bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func take() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }
}

/// Chunks of text used again once parsed: a fresh array per chunk would be faulted into
/// memory page by page each time.
final class ChunkPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [[UInt8]] = []
    private let size: Int

    init(size: Int) { self.size = size }

    func take() -> [UInt8] {
        if let b = lock.withLock({ free.popLast() }) { return b }
        var b: [UInt8] = []
        b.reserveCapacity(size)
        return b
    }

    func put(_ chunk: [UInt8]) {
        var b = chunk
        b.removeAll(keepingCapacity: true)  // the only reference: no copy
        lock.withLock { free.append(b) }
    }
}
