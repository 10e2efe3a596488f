import Foundation
import Synchronization

/// A file read by offset, so several workers can each read their own part. The bytes are
/// the file's text as UTF-8: a UTF-8 byte-order mark is skipped, and a UTF-16 or Latin-1
/// file is converted whole, in memory (see `TextEncoding`). The bytes may also be held in
/// memory from the start (a file unpacked from a zip archive). A gzip or zstd file is its
/// text decompressed as it is read (`streamed`): in order, by one reader, its size known only
/// at its end.
final class FileSource: @unchecked Sendable {
    let path: String
    private let fd: Int32
    /// The text when it is held in memory: given so, or converted.
    private let held: [UInt8]?
    /// The text of a compressed file, decompressed as it is read.
    private let streamed: StreamedText?
    /// Where the text starts in the file (after a byte-order mark).
    private let start: Int
    private let fixedSize: Int
    private(set) var note: String?

    /// A size no text reaches, for a compressed file's until its end is read: readers read
    /// on until a read gives nothing.
    static let unknownSize = Int.max / 4

    /// Bytes of text (`unknownSize` while a compressed file's is not known).
    var size: Int {
        guard let streamed else { return fixedSize }
        return streamed.knownSize.map { $0 - start } ?? FileSource.unknownSize
    }

    /// Whether the text is decompressed as it is read: it is read in one part, in order.
    var isStreamed: Bool { streamed != nil }

    /// Bytes of text, or for a compressed file about how many, for reserving memory.
    var expectedSize: Int {
        guard let streamed else { return fixedSize }
        return max(0, streamed.expectedSize - start)
    }

    /// `progress`, for a compressed file, counts the compressed bytes as they are read (the
    /// readers count a plain file's bytes themselves).
    init(path: String, progress: LoadProgress? = nil) throws {
        self.path = path
        var st = stat()
        guard stat(path, &st) == 0 else { throw LoadError(path: path, errno: errno) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw LoadError(path: path, "is a folder, not a file", kind: .isFolder) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw LoadError(path: path, errno: errno) }
        let fileSize = Int(st.st_size)
        var head = [UInt8](repeating: 0, count: min(TextEncoding.sniffSize, fileSize))
        let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        head = Array(head.prefix(max(0, got)))
        var isWhole = head.count >= fileSize
        var text: StreamedText? = nil
        if let kind = Compression.of(head) {
            close(fd)
            self.fd = -1
            let stream = try StreamedText(path: path, kind: kind, fileSize: fileSize, progress: progress)
            head = [UInt8](repeating: 0, count: TextEncoding.sniffSize)
            let n = try head.withUnsafeMutableBytes { try stream.read(at: 0, count: $0.count, into: $0.baseAddress!) }
            head.removeSubrange(n...)
            isWhole = stream.knownSize != nil
            text = stream
        } else {
            self.fd = fd
        }
        let encoding = TextEncoding.sniff(head, isWholeFile: isWhole)
        if encoding.converts {
            do {
                let raw = try text.map { _ in try Decompressor.all(path: path) } ?? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                held = try encoding.convert(bytes: raw, path: path)
            } catch { if fd >= 0 { close(fd) }; throw error }
            streamed = nil
            start = 0
            fixedSize = held!.count
        } else {
            held = nil
            streamed = text
            start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            fixedSize = fileSize - start
        }
        note = encoding.note
    }

    /// The compression the text is streamed from, if any.
    var compression: Compression? { streamed?.kind }

    /// The compressed file's size, when the text is streamed.
    var compressedSize: Int? { streamed?.fileSize }

    /// Text already in memory; `path` names it in messages (`feed.zip/stops.txt`).
    init(bytes: [UInt8], path: String) throws {
        self.path = path
        fd = -1
        start = 0
        streamed = nil
        let encoding = TextEncoding.sniff(Array(bytes.prefix(TextEncoding.sniffSize)), isWholeFile: bytes.count <= TextEncoding.sniffSize)
        if encoding.converts {
            held = try encoding.convert(bytes: bytes, path: path)
        } else {
            held = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        }
        note = encoding.note
        fixedSize = held?.count ?? 0
    }

    deinit { if fd >= 0 { close(fd) } }

    private static let zeros = [UInt8](repeating: 0, count: 1 << 16)

    /// Appends up to `count` bytes of text from `offset` to `buffer`; returns how many.
    /// NUL bytes are dropped (and counted in `nuls`).
    func read(at offset: Int, count: Int, into buffer: inout [UInt8], nuls: inout Int) throws -> Int {
        let n = max(0, min(count, size - offset))
        if n == 0 { return 0 }
        let before = buffer.count
        if let held {
            buffer.append(contentsOf: held[offset..<(offset + n)])
        } else if let streamed {
            FileSource.grow(&buffer, by: n)
            let got = try buffer.withUnsafeMutableBytes { p in try streamed.read(at: start + offset, count: n, into: p.baseAddress! + before) }
            buffer.removeSubrange((before + got)...)
            dropNuls(&buffer, from: before, nuls: &nuls)
            return got
        } else {
            FileSource.grow(&buffer, by: n)
            var got = 0
            while got < n {
                let r = buffer.withUnsafeMutableBytes { p in pread(fd, p.baseAddress! + before + got, n - got, off_t(start + offset + got)) }
                if r < 0 { if errno == EINTR { continue }; buffer.removeSubrange(before...); throw LoadError(path: path, String(cString: strerror(errno))) }
                if r == 0 { break }
                got += r
            }
            buffer.removeSubrange((before + got)...)
        }
        dropNuls(&buffer, from: before, nuls: &nuls)
        return n
    }

    /// Reads up to `count` bytes of text from `offset` into memory at `into`, which has room
    /// for them: how many bytes of text were read, and how many were kept (NUL bytes are
    /// dropped, counted in `nuls`).
    func read(at offset: Int, count: Int, into p: UnsafeMutableRawPointer, nuls: inout Int) throws -> (read: Int, kept: Int) {
        let n = max(0, min(count, size - offset))
        if n == 0 { return (0, 0) }
        var got = 0
        if let held {
            held.withUnsafeBytes { h in p.copyMemory(from: h.baseAddress! + offset, byteCount: n) }
            got = n
        } else if let streamed {
            got = try streamed.read(at: start + offset, count: n, into: p)
        } else {
            while got < n {
                let r = pread(fd, p + got, n - got, off_t(start + offset + got))
                if r < 0 { if errno == EINTR { continue }; throw LoadError(path: path, String(cString: strerror(errno))) }
                if r == 0 { break }
                got += r
            }
        }
        guard memchr(p, 0, got) != nil else { return (streamed == nil ? n : got, got) }
        var kept = 0
        for i in 0..<got {
            let c = p.load(fromByteOffset: i, as: UInt8.self)
            if c != 0 { p.storeBytes(of: c, toByteOffset: kept, as: UInt8.self); kept += 1 }
        }
        nuls += got - kept
        return (streamed == nil ? n : got, kept)
    }

    /// Room to read into, copied from one shared block of zeros: a fresh array per chunk
    /// would be mapped and faulted in page by page each time (a third of a load's time went
    /// to that), and repeatElement costs seconds per 50 MB in debug builds.
    private static func grow(_ buffer: inout [UInt8], by n: Int) {
        buffer.reserveCapacity(buffer.count + n)
        var grown = 0
        while grown < n {
            let k = min(n - grown, FileSource.zeros.count)
            buffer.append(contentsOf: FileSource.zeros[0..<k])
            grown += k
        }
    }

    private func dropNuls(_ buffer: inout [UInt8], from before: Int, nuls: inout Int) {
        let found = buffer.withUnsafeBytes { p in memchr(p.baseAddress! + before, 0, buffer.count - before) != nil }
        if found {
            let kept = buffer[before...].filter { $0 != 0 }
            nuls += buffer.count - before - kept.count
            buffer.removeSubrange(before...)
            buffer.append(contentsOf: kept)
        }
    }

    /// The lines (1-based) of the first NUL bytes in the text, which `read` drops.
    func linesWithNUL(limit: Int) throws -> [Int] {
        var lines: [Int] = []
        var line = 1
        var offset = 0
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        while offset < size && lines.count < limit {
            var n = min(chunk, size - offset)
            if let held {
                buffer.replaceSubrange(0..<n, with: held[offset..<(offset + n)])
            } else if let streamed {
                n = try buffer.withUnsafeMutableBytes { try streamed.read(at: start + offset, count: n, into: $0.baseAddress!) }
                if n == 0 { break }
            } else {
                let r = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, n, off_t(start + offset)) }
                if r < 0 { if errno == EINTR { continue }; throw LoadError(path: path, String(cString: strerror(errno))) }
                if r == 0 { break }
                n = r
            }
            for i in 0..<n {
                if buffer[i] == 0x0A { line += 1 } else if buffer[i] == 0, lines.last != line {
                    lines.append(line)
                    if lines.count == limit { break }
                }
            }
            offset += n
        }
        return lines
    }

    /// Where in the file, as `read` counts offsets, the text read from the start reaches
    /// `textCount` bytes. The two differ when NUL bytes, which the text leaves out, came first.
    func offset(afterText textCount: Int) throws -> Int {
        var buffer: [UInt8] = []
        var nuls = 0
        var offset = 0, text = 0
        while text < textCount {
            buffer.removeAll(keepingCapacity: true)
            let n = try read(at: offset, count: textCount - text, into: &buffer, nuls: &nuls)
            if n == 0 { break }
            offset += n
            text += buffer.count
        }
        return offset
    }

    /// The first `count` bytes of the file as text (fewer when it has NUL bytes: compare
    /// `count` with `size` to know whether the whole file was read).
    func head(_ count: Int) throws -> [UInt8] {
        var buffer: [UInt8] = []
        var nuls = 0
        _ = try read(at: 0, count: count, into: &buffer, nuls: &nuls)
        return buffer
    }
}

/// How many workers a file of this size is worth.
enum Workers {
    static var available: Int {
        if let s = Environment.value("UTQ_THREADS"), let n = Int(s), n >= 1 { return min(n, 64) }
        return max(1, min(ProcessInfo.processInfo.activeProcessorCount, 16))
    }

    /// Cores that share a pass over `rows` rows in memory: one below 262,144 rows, else one
    /// per 131,072 rows up to the cores there are.
    static func parts(rows: Int) -> Int {
        rows >= 1 << 18 ? max(1, min(available, rows >> 17)) : 1
    }

    /// Bytes worth a worker of their own: 8 MB, or UTQ_PART_BYTES (the sanitizer runs split
    /// small files so the parallel paths run on the tests' data).
    static var bytesPerPart: Int {
        if let s = Environment.value("UTQ_PART_BYTES"), let n = Int(s), n >= 1 { return n }
        return 8 << 20
    }

    /// One worker per 8 MB, up to the cores there are.
    static func count(forBytes bytes: Int) -> Int {
        max(1, min(available, bytes / bytesPerPart))
    }
}

/// Results of work split across threads, one slot per part. A failing part marks the whole
/// as failed so the others stop early.
final class ParallelParts<T>: @unchecked Sendable, PartsFailing {
    private var slots: [Result<T, Error>?]
    private let lock = NSLock()
    /// Read by every worker between chunks while another may set it: an atomic, so the
    /// thread sanitizer sees no race.
    private let failedFlag = Atomic<Bool>(false)
    var failed: Bool { failedFlag.load(ordering: .relaxed) }

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ r: Result<T, Error>) {
        lock.lock()
        slots[i] = r
        if case .failure = r { failedFlag.store(true, ordering: .relaxed) }
        lock.unlock()
    }

    /// The part's own result, whatever the others gave.
    func own(_ i: Int) -> Result<T, Error> {
        lock.lock()
        defer { lock.unlock() }
        return slots[i] ?? .failure(CancellationError())
    }

    /// The part's result; the first real error wins over the cancellations it caused.
    func get(_ i: Int) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        for slot in slots {
            if case .failure(let e)? = slot, !(e is CancellationError) || !failed { throw e }
        }
        for slot in slots { if case .failure(let e)? = slot { throw e } }
        guard case .success(let v)? = slots[i] else { throw CancellationError() }
        return v
    }
}
