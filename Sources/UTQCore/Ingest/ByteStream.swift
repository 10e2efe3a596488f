import Foundation

/// Reads a file in chunks as UTF-8 bytes. A UTF-8 byte-order mark is skipped; UTF-16 and
/// Latin-1 files are converted to UTF-8 first (see `TextEncoding`); NUL bytes
/// are dropped and counted so the reader can warn. A gzip or zstd file is decompressed as
/// it is read.
final class ByteStream {
    let path: String
    private var fd: Int32 = -1
    private var decompressor: Decompressor?
    /// Text decompressed to look at its encoding, not yet delivered.
    private var pending: [UInt8] = []
    private var converted: [UInt8]?
    private var convertedOffset = 0
    private(set) var encodingNote: String?
    private(set) var nulBytes = 0
    private(set) var firstNulOffset: Int?
    private var delivered = 0
    private(set) var fileSize: Int = 0
    private var atStart = true

    init(path: String) throws {
        self.path = path
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw LoadError(path: path, errno: errno)
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw LoadError(path: path, "is a folder, not a file", kind: .isFolder)
        }
        fileSize = Int(st.st_size)
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw LoadError(path: path, errno: errno) }
        try sniffEncoding()
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Looks at the first bytes: a UTF-16 or Latin-1 file is converted whole (such files are
    /// small exports); everything else streams.
    private func sniffEncoding() throws {
        var head = [UInt8](repeating: 0, count: TextEncoding.sniffSize)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 0 else { throw LoadError(path: path, String(cString: strerror(errno))) }
        head.removeSubrange(n...)
        var isWhole = n >= fileSize
        if let kind = Compression.of(head) {
            let reader = try Decompressor(path: path, kind: kind)
            head = [UInt8](repeating: 0, count: TextEncoding.sniffSize)
            let got = try head.withUnsafeMutableBytes { try reader.read(into: $0) }
            head.removeSubrange(got...)
            isWhole = reader.finished
            decompressor = reader
            pending = head
        }
        let encoding = TextEncoding.sniff(head, isWholeFile: isWhole)
        encodingNote = encoding.note
        if encoding.converts {
            converted = try encoding.convert(bytes: decompressor == nil ? [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) : try Decompressor.all(path: path),
                                             path: path)
            fileSize = converted!.count
        }
    }

    /// Appends up to `chunk` more bytes to `buffer`. Returns false at the end of the file.
    func read(into buffer: inout [UInt8], chunk: Int) throws -> Bool {
        let before = buffer.count
        if let converted {
            let end = min(converted.count, convertedOffset + chunk)
            if convertedOffset >= end { return false }
            buffer.append(contentsOf: converted[convertedOffset..<end])
            convertedOffset = end
        } else if let decompressor {
            let fromPending = min(chunk, pending.count)
            buffer.append(contentsOf: pending[0..<fromPending])
            pending.removeSubrange(0..<fromPending)
            let rest = chunk - fromPending
            buffer.append(contentsOf: [UInt8](repeating: 0, count: rest))
            let got = try buffer.withUnsafeMutableBytes { p in
                try decompressor.read(into: UnsafeMutableRawBufferPointer(rebasing: p[(before + fromPending)...]))
            }
            buffer.removeSubrange((before + fromPending + got)...)
            if fromPending + got == 0 { return false }
        } else {
            buffer.reserveCapacity(before + chunk)
            var got = 0
            // Grow without initialising twice: append zeros then read over them.
            buffer.append(contentsOf: [UInt8](repeating: 0, count: chunk))  // repeatElement costs a second per 4 MB in debug builds
            while got < chunk {
                let n = buffer.withUnsafeMutableBytes { p -> Int in
                    Foundation.read(fd, p.baseAddress! + before + got, chunk - got)
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    buffer.removeSubrange((before + got)...)
                    throw LoadError(path: path, String(cString: strerror(errno)))
                }
                if n == 0 { break }
                got += n
            }
            buffer.removeSubrange((before + got)...)
            if got == 0 { return false }
        }
        // A UTF-8 byte-order mark at the very start is not data.
        if atStart {
            atStart = false
            if buffer.count - before >= 3 && buffer[before] == 0xEF && buffer[before + 1] == 0xBB && buffer[before + 2] == 0xBF {
                buffer.removeSubrange(before..<(before + 3))
                encodingNote = encodingNote ?? "skipped a UTF-8 byte-order mark"
            }
        }
        stripNuls(&buffer, from: before)
        delivered += buffer.count - before
        return true
    }

    private func stripNuls(_ buffer: inout [UInt8], from start: Int) {
        let found = buffer.withUnsafeBytes { p -> Bool in
            memchr(p.baseAddress! + start, 0, buffer.count - start) != nil
        }
        guard found else { return }
        var w = start
        for r in start..<buffer.count {
            let b = buffer[r]
            if b == 0 {
                nulBytes += 1
                if firstNulOffset == nil { firstNulOffset = delivered + (r - start) }
                continue
            }
            buffer[w] = b
            w += 1
        }
        buffer.removeSubrange(w...)
    }

    /// The whole file at once (for formats read as one document).
    func readAll() throws -> [UInt8] {
        var all: [UInt8] = []
        all.reserveCapacity(fileSize + 16)
        while try read(into: &all, chunk: max(1 << 20, fileSize + 1)) {}
        return all
    }
}

/// Line and column (1-based, columns in characters) of a byte offset in a buffer.
func lineAndColumn(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
    var line = 1
    var lineStart = 0
    let end = min(offset, bytes.count)
    var i = 0
    while i < end {
        if bytes[i] == 0x0A { line += 1; lineStart = i + 1 }
        i += 1
    }
    var column = 1
    var j = lineStart
    while j < end {
        if bytes[j] & 0xC0 != 0x80 { column += 1 }
        j += 1
    }
    return (line, column)
}
