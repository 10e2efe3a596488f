import CCompression
import Foundation

/// The compressions utq reads and writes, known by a file's first bytes (reading) or by its
/// name's last suffix (writing): `rides.csv.gz` is a CSV file in a gzip stream.
enum Compression: Sendable, Equatable {
    case gzip, zstd

    var name: String { self == .gzip ? "gzip" : "zstd" }

    /// The compression a file's first bytes show, if any.
    static func of(_ head: some Collection<UInt8>) -> Compression? {
        if head.starts(with: [0x1F, 0x8B]) { return .gzip }
        if head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        return nil
    }

    /// The compression of the file at `path`, from its first bytes.
    static func of(path: String) -> Compression? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 4, 0) }
        return n > 0 ? of(head.prefix(n)) : nil
    }

    static let suffixes: [(String, Compression)] = [(".gz", .gzip), (".gzip", .gzip), (".zst", .zstd), (".zstd", .zstd)]

    /// The compression a file name asks for when written.
    static func forFile(_ path: String) -> Compression? {
        let lower = path.lowercased()
        return suffixes.first { lower.hasSuffix($0.0) }?.1
    }

    /// The name without its compression suffix: `rides.csv.gz` → `rides.csv`, whose own
    /// suffix says the format inside.
    static func innerName(_ path: String) -> String {
        let lower = path.lowercased()
        guard let (suffix, _) = suffixes.first(where: { lower.hasSuffix($0.0) }) else { return path }
        return String(path.dropLast(suffix.count))
    }
}

extension Compression {
    /// The first `count` bytes of a file's text (decompressed when it is compressed), and
    /// whether that is all of it.
    static func head(path: String, count: Int) throws -> (bytes: [UInt8], isAll: Bool) {
        if let kind = of(path: path) { return try Decompressor.head(path: path, kind: kind, count: count) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw LoadError(path: path, errno: errno) }
        defer { close(fd) }
        var raw = [UInt8](repeating: 0, count: count)
        let n = raw.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        guard n >= 0 else { throw LoadError(path: path, errno: errno) }
        raw.removeSubrange(n...)
        return (raw, n < count)
    }

    /// The size of a file's text: its size, or for a compressed file about what it holds
    /// decompressed (0 when it holds nothing).
    static func textSize(path: String, fileSize: Int) throws -> Int {
        guard let kind = of(path: path) else { return fileSize }
        return try Decompressor.estimatedSize(path: path, kind: kind, fileSize: fileSize)
    }
}

/// The bytes of a gzip or zstd file, decompressed in order a block at a time: the file is
/// never held whole, compressed or not. Concatenated gzip members and zstd frames read as one
/// stream (as `gzip -dc` and `zstd -dc` read them). A stream that is damaged or ends early is
/// a LoadError that says at which byte of the file.
final class Decompressor {
    let path: String
    let kind: Compression
    private let fd: Int32
    private var input: UnsafeMutableRawBufferPointer
    /// Compressed bytes in `input` not yet handed to the library: input[inputStart..<inputEnd].
    private var inputStart = 0, inputEnd = 0
    /// Bytes of the file read so far, and handed to the library so far.
    private var zstdFileRead = 0
    var fileRead: Int { inflater?.fileRead ?? zstdFileRead }
    var consumed: Int { inflater?.consumed ?? zstdFileRead - (inputEnd - inputStart) }
    private var fileEnded = false
    private var zstdFinished = false
    var finished: Bool { inflater?.finished ?? zstdFinished }
    /// gzip: utq's own deflate decoder (Inflater), which reads the file itself.
    private var inflater: Inflater?
    private var zstd: OpaquePointer?
    /// Whether the stream is between gzip members or zstd frames (where the file may end).
    private var atBoundary = false
    /// Counts the compressed bytes read, for a progress bar.
    private let progress: LoadProgress?

    init(path: String, kind: Compression, progress: LoadProgress? = nil, inputSize: Int = 1 << 18) throws {
        self.path = path
        self.kind = kind
        self.progress = progress
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw LoadError(path: path, errno: errno) }
        // No more room than the file needs: a small file is decompressed many times over
        // while its format is found.
        var st = stat()
        let size = fstat(fd, &st) == 0 ? Int(st.st_size) : inputSize
        let inputBytes = max(64, min(inputSize, size + 1))
        switch kind {
        case .gzip:
            input = .allocate(byteCount: 0, alignment: 16)
            inflater = Inflater(fd: fd, progress: progress, inputSize: inputBytes)
        case .zstd:
            input = .allocate(byteCount: inputBytes, alignment: 16)
            guard let d = ZSTD_createDStream() else {
                input.deallocate(); close(fd)
                throw LoadError(path: path, "cannot start reading zstd")
            }
            ZSTD_initDStream(d)
            zstd = d
        }
    }

    deinit {
        if let zstd { ZSTD_freeDStream(zstd) }
        input.deallocate()
        close(fd)
    }

    /// Fills `out` with the next decompressed bytes; fewer only at the end of the stream.
    /// Returns how many; 0 at the end.
    func read(into out: UnsafeMutableRawBufferPointer) throws -> Int {
        if let inflater {
            do {
                return try inflater.read(into: out)
            } catch let d as Inflater.Damaged {
                throw LoadError(path: path, d.whole ?? "the gzip stream is damaged at byte \(NumberText.grouped(inflater.consumed)) (\(d.why)); the file cannot be read past there")
            } catch is Inflater.Truncated {
                throw LoadError(path: path, "the gzip stream ends early at byte \(NumberText.grouped(inflater.fileRead)): the file is truncated")
            }
        }
        var made = 0
        while made < out.count && !finished {
            if inputStart == inputEnd && !fileEnded { try refill() }
            let before = made
            try zstdStep(out, &made)
            if made == before && inputStart == inputEnd && fileEnded { try end() }
        }
        return made
    }

    private func refill() throws {
        inputStart = 0
        inputEnd = 0
        while true {
            let n = Foundation.read(fd, input.baseAddress, input.count)
            if n < 0 { if errno == EINTR { continue }; throw LoadError(path: path, String(cString: strerror(errno))) }
            if n == 0 { fileEnded = true } else { progress?.advance(n) }
            inputEnd = n
            zstdFileRead += n
            return
        }
    }

    private func zstdStep(_ out: UnsafeMutableRawBufferPointer, _ made: inout Int) throws {
        guard let d = zstd else { return }
        var inBuffer = ZSTD_inBuffer(src: input.baseAddress! + inputStart, size: inputEnd - inputStart, pos: 0)
        var outBuffer = ZSTD_outBuffer(dst: out.baseAddress!, size: out.count, pos: made)
        let before = made
        let status = ZSTD_decompressStream(d, &outBuffer, &inBuffer)
        inputStart += inBuffer.pos
        made = outBuffer.pos
        if ZSTD_isError(status) != 0 {
            let why = String(cString: ZSTD_getErrorName(status))
            throw LoadError(path: path, "the zstd stream is damaged at byte \(NumberText.grouped(consumed)) (\(why)); the file cannot be read past there")
        }
        // 0: a frame is complete; another may follow. A call that moved nothing (no input
        // left) says nothing about where the stream is.
        if inBuffer.pos > 0 || outBuffer.pos > before { atBoundary = status == 0 }
    }

    /// The file is read whole: the stream must have ended with it.
    private func end() throws {
        zstdFinished = true
        guard atBoundary else {
            throw LoadError(path: path, "the \(kind.name) stream ends early at byte \(NumberText.grouped(fileRead)): the file is truncated")
        }
    }

    /// The first `count` decompressed bytes of a file (fewer when it holds fewer), and
    /// whether that is all of it.
    static func head(path: String, kind: Compression, count: Int) throws -> (bytes: [UInt8], isAll: Bool) {
        let reader = try Decompressor(path: path, kind: kind, inputSize: min(1 << 18, max(4096, count)))
        var out = [UInt8](repeating: 0, count: count)
        let n = try out.withUnsafeMutableBytes { try reader.read(into: $0) }
        out.removeSubrange(n...)
        var isAll = reader.finished
        if n == count && !isAll {
            var probe: UInt8 = 0
            isAll = try withUnsafeMutableBytes(of: &probe) { try reader.read(into: $0) } == 0
        }
        return (out, isAll)
    }

    /// The whole text of a file, decompressed if it is compressed: for the files read whole
    /// (converted from UTF-16 or Latin-1).
    static func all(path: String) throws -> [UInt8] {
        guard let kind = Compression.of(path: path) else { return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
        let reader = try Decompressor(path: path, kind: kind)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
            out.append(contentsOf: chunk[0..<n])
            if n < chunk.count { return out }
        }
    }

    /// About how many bytes the file holds decompressed, from how much the first megabyte
    /// of text took (exact when that was all of it): for the memory a load will need.
    static func estimatedSize(path: String, kind: Compression, fileSize: Int) throws -> Int {
        let reader = try Decompressor(path: path, kind: kind)
        var sample = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while total < 1 << 20 {
            let n = try sample.withUnsafeMutableBytes { try reader.read(into: $0) }
            total += n
            if n < sample.count { return total }
        }
        return scaled(text: total, compressed: reader.consumed, fileSize: fileSize)
    }

    /// The text a file of `fileSize` compressed bytes holds when it continues as its first
    /// `compressed` bytes did, with an eighth more for a rest that compresses better.
    static func scaled(text: Int, compressed: Int, fileSize: Int) -> Int {
        guard compressed > 0 else { return text }
        let ratio = Double(text) / Double(compressed)
        return Int(min(Double(Int.max / 4), Double(fileSize) * ratio * 9 / 8))
    }
}
