import Foundation

/// An open Parquet file: its size, its footer, and reads of its column chunks by offset
/// (several workers read at once, each its own chunk).
final class ParquetFile: @unchecked Sendable {
    let path: String
    let size: Int
    let footer: ParquetFooter
    /// Where the footer starts: column chunks lie between the leading magic and it.
    let footerStart: Int
    private let fd: Int32

    static let magic: [UInt8] = Array("PAR1".utf8)

    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw LoadError(path: path, errno: errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { let e = errno; close(fd); throw LoadError(path: path, errno: e) }
        size = Int(st.st_size)
        do {
            (footer, footerStart) = try Self.readFooter(fd: fd, size: size, path: path)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// Reads `count` bytes at `offset`.
    static func read(fd: Int32, offset: Int, count: Int, path: String) throws -> [UInt8] {
        guard count > 0 else { return [] }
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var got = 0
            while got < count {
                let n = pread(fd, buffer.baseAddress! + got, count - got, off_t(offset + got))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw LoadError(path: path, String(cString: strerror(errno)))
                }
                if n == 0 { throw LoadError(path: path, "the file became shorter while it was read") }
                got += n
            }
            initialized = count
        }
    }

    /// The footer: its length and `PAR1` close the file; the footer is just before them.
    static func readFooter(fd: Int32, size: Int, path: String) throws -> (ParquetFooter, Int) {
        guard size >= 12 else {
            throw LoadError(path: path, "is too short to be a Parquet file (\(size) bytes; a Parquet file starts and ends with PAR1)")
        }
        let head = try read(fd: fd, offset: 0, count: 4, path: path)
        guard head == magic else {
            throw LoadError(path: path, "is named .parquet but does not start with PAR1, so it is not a Parquet file (or it is damaged)")
        }
        let tail = try read(fd: fd, offset: size - 8, count: 8, path: path)
        if Array(tail[4...]) == Array("PARE".utf8) {
            throw LoadError(path: path, "is an encrypted Parquet file; utq cannot read encrypted files")
        }
        guard Array(tail[4...]) == magic else {
            throw LoadError(path: path, "is a Parquet file that does not end with PAR1: it is cut short (perhaps it was still "
                            + "being written, or a download stopped) or damaged")
        }
        let length = tail.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
        guard length <= size - 12 else {
            throw LoadError(path: path, "its footer (the table of contents at the end) says it has \(length) bytes, more than the file holds; the file is damaged")
        }
        let start = size - 8 - length
        let bytes = try read(fd: fd, offset: start, count: length, path: path)
        do {
            return (try bytes.withUnsafeBytes { b in
                var reader = ThriftReader(b)
                return try ParquetFooter(&reader)
            }, start)
        } catch let e as ThriftError {
            throw LoadError(path: path, "its footer (the table of contents at the end) is damaged: \(e.message)")
        }
    }

    /// A column chunk's first page (its header, then its body), read without the rest of the
    /// chunk; nil when the chunk's bytes are not where the footer says or the header does not
    /// read (the whole chunk's read then says what is wrong).
    func leadingPage(_ c: ParquetColumnChunk, into buffer: ScratchBuffer<UInt8>) -> (ParquetPageHeader, UnsafeRawBufferPointer)? {
        let (start, count) = c.byteRange
        guard start >= 4, count > 0, start <= Int64(footerStart), count <= Int64(footerStart) - start else { return nil }
        // A header is tens of bytes, more with statistics; a dictionary often fits with it.
        var want = min(Int(count), 64 << 10)
        while true {
            guard let bytes = try? read(at: Int(start), count: want, into: buffer) else { return nil }
            var r = ThriftReader(bytes)
            if let header = try? ParquetPageHeader(&r) {
                let end = r.pos + Int(header.compressedSize)
                guard header.compressedSize >= 0, end <= Int(count) else { return nil }
                if end <= want { return (header, UnsafeRawBufferPointer(rebasing: bytes[r.pos..<end])) }
                want = end
            } else {
                guard want < Int(count) else { return nil }
                want = min(Int(count), want * 4)
            }
        }
    }

    /// `count` bytes at `offset` into `buffer`.
    private func read(at offset: Int, count n: Int, into buffer: ScratchBuffer<UInt8>) throws -> UnsafeRawBufferPointer {
        let p = buffer.room(max(n, 1))
        var got = 0
        while got < n {
            let r = pread(fd, p + got, n - got, off_t(offset + got))
            if r < 0 {
                if errno == EINTR { continue }
                throw LoadError(path: path, String(cString: strerror(errno)))
            }
            if r == 0 { throw LoadError(path: path, "the file became shorter while it was read") }
            got += r
        }
        return UnsafeRawBufferPointer(start: p, count: n)
    }

    /// A column chunk's bytes, after checking that they lie inside the file, read into
    /// `buffer` (a worker's, kept from chunk to chunk: fresh memory for every chunk was a
    /// third of a load's time, the kernel clearing pages).
    func chunk(_ c: ParquetColumnChunk, into buffer: ScratchBuffer<UInt8>) throws -> UnsafeRawBufferPointer {
        let (start, count) = c.byteRange
        guard start >= 4, count >= 0, start <= Int64(footerStart), count <= Int64(footerStart) - start else {
            throw PageError("its bytes (\(count) from offset \(start)) lie outside the file's data, which ends at \(footerStart)")
        }
        return try read(at: Int(start), count: Int(count), into: buffer)
    }
}
