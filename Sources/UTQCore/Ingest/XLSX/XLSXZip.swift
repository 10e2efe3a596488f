import CCompression
import Foundation

/// The zip archive of a workbook, read from its central directory, each member inflated
/// with zlib from exactly the bytes the directory gives it. ZIPFoundation (which reads GTFS
/// zips) inflates until the deflate stream says it ends, reading on past the member and, at
/// the end of the file, for ever: a damaged workbook must fail, not hang, so workbooks are
/// read here, with every size checked against the file.
final class XLSXZip {
    struct Member {
        let name: String
        let method: UInt16
        let flags: UInt16
        let crc: UInt32
        let compressedSize: UInt64
        let size: UInt64
        let headerOffset: UInt64
    }

    /// Why the archive or a member cannot be read; the caller names the file.
    struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// A member unpacks to more than the caller may hold.
    struct TooLarge: Error {}

    let path: String
    private let fd: Int32
    let fileSize: UInt64
    private(set) var members: [Member] = []

    /// Central directories larger than this are no workbook's.
    static let maximumDirectoryBytes: UInt64 = 64 << 20

    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Problem("cannot be opened (\(String(cString: strerror(errno))))") }
        var st = stat()
        guard fstat(fd, &st) == 0 else { Glibc.close(fd); throw Problem("cannot be read") }
        fileSize = UInt64(max(0, st.st_size))
        do { members = try readDirectory() } catch { Glibc.close(fd); throw error }
    }

    deinit { Glibc.close(fd) }

    // MARK: the central directory

    private func readDirectory() throws -> [Member] {
        // The end record is in the last 22 bytes, or before a comment of up to 65,535.
        let tailSize = min(fileSize, 22 + 65_535)
        let tail = try read(at: fileSize - tailSize, count: Int(tailSize))
        guard tail.count >= 22, let end = (0...(tail.count - 22)).reversed().first(where: { tail.u32($0) == 0x0605_4B50 }) else {
            throw Problem("is not a zip archive (it has no zip directory); it is damaged or was not copied whole")
        }
        var count = UInt64(tail.u16(end + 10))
        var directorySize = UInt64(tail.u32(end + 12))
        var directoryOffset = UInt64(tail.u32(end + 16))
        // ZIP64: the counts and places are in a record the locator before the end record names.
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            let endInFile = fileSize - tailSize + UInt64(end)
            guard endInFile >= 20 else { throw Problem("has a damaged zip directory") }
            let locator = try read(at: endInFile - 20, count: 20)
            guard locator.u32(0) == 0x0706_4B50 else { throw Problem("has a damaged zip directory (its ZIP64 record is missing)") }
            let recordOffset = locator.u64(8)
            guard recordOffset < fileSize, fileSize - recordOffset >= 56 else { throw Problem("has a damaged zip directory") }
            let record = try read(at: recordOffset, count: 56)
            guard record.u32(0) == 0x0606_4B50 else { throw Problem("has a damaged zip directory (its ZIP64 record is missing)") }
            count = record.u64(32); directorySize = record.u64(40); directoryOffset = record.u64(48)
        }
        guard directoryOffset <= fileSize, directorySize <= fileSize - directoryOffset else {
            throw Problem("has a zip directory that points past the end of the file; it is damaged or was not copied whole")
        }
        guard directorySize <= Self.maximumDirectoryBytes else { throw Problem("has a zip directory of \(directorySize) bytes, too large for a workbook") }
        let directory = try read(at: directoryOffset, count: Int(directorySize))
        var out: [Member] = []
        var p = 0
        while out.count < count, p + 46 <= directory.count, directory.u32(p) == 0x0201_4B50 {
            let nameLength = Int(directory.u16(p + 28)), extraLength = Int(directory.u16(p + 30)), commentLength = Int(directory.u16(p + 32))
            let next = p + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else { break }
            var compressed = UInt64(directory.u32(p + 20)), size = UInt64(directory.u32(p + 24)), offset = UInt64(directory.u32(p + 42))
            // ZIP64 sizes and offset, in that order, for those written as 0xFFFFFFFF.
            var e = p + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = directory.u16(e), length = Int(directory.u16(e + 2))
                if id == 0x0001 {
                    var f = e + 4
                    let fieldEnd = min(extraEnd, f + length)
                    if size == 0xFFFF_FFFF, f + 8 <= fieldEnd { size = directory.u64(f); f += 8 }
                    if compressed == 0xFFFF_FFFF, f + 8 <= fieldEnd { compressed = directory.u64(f); f += 8 }
                    if offset == 0xFFFF_FFFF, f + 8 <= fieldEnd { offset = directory.u64(f) }
                }
                e += 4 + length
            }
            let name = String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            out.append(Member(name: name, method: directory.u16(p + 10), flags: directory.u16(p + 8), crc: directory.u32(p + 16),
                              compressedSize: compressed, size: size, headerOffset: offset))
            p = next
        }
        return out
    }

    // MARK: members

    /// A member's bytes, at most `limit` of them (else `TooLarge`), checked against its
    /// checksum.
    func bytes(of m: Member, limit: Int) throws -> [UInt8] {
        if m.flags & 1 != 0 { throw Problem("is encrypted") }
        guard m.headerOffset <= fileSize, fileSize - m.headerOffset >= 30 else { throw Problem("lies past the end of the file") }
        let header = try read(at: m.headerOffset, count: 30)
        guard header.u32(0) == 0x0403_4B50 else { throw Problem("has no zip header where the directory says it starts") }
        let start = m.headerOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
        guard start <= fileSize, m.compressedSize <= fileSize - start else { throw Problem("says it is longer than the file holds") }
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(m.size, UInt64(limit), 64 << 20)))
        switch m.method {
        case 0:
            guard m.compressedSize <= UInt64(limit) else { throw TooLarge() }
            out = try read(at: start, count: Int(m.compressedSize))
        case 8:
            try inflate(from: start, count: m.compressedSize, into: &out, limit: limit)
        default:
            throw Problem("is compressed with method \(m.method), which utq does not read (Excel uses deflate)")
        }
        let sum = out.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32(0, $0.baseAddress, uInt(out.count))) }
        guard sum == m.crc else { throw Problem("does not match its checksum") }
        return out
    }

    /// Raw deflate from exactly `count` bytes of the file; the stream must end within them.
    private func inflate(from start: UInt64, count: UInt64, into out: inout [UInt8], limit: Int) throws {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Problem("cannot be unpacked (zlib did not start)")
        }
        defer { inflateEnd(&stream) }
        let chunk = 1 << 20
        var window = [UInt8](repeating: 0, count: 256 << 10)
        var offset = start, left = count
        var ended = false
        while !ended {
            let input = try read(at: offset, count: Int(min(UInt64(chunk), left)))
            offset += UInt64(input.count); left -= UInt64(input.count)
            let last = left == 0
            try input.withUnsafeBufferPointer { inBuffer in
                stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
                stream.avail_in = uInt(inBuffer.count)
                repeat {
                    let before = stream.avail_in
                    let (result, produced) = window.withUnsafeMutableBufferPointer { w -> (Int32, Int) in
                        stream.next_out = w.baseAddress
                        stream.avail_out = uInt(w.count)
                        let r = CCompression.inflate(&stream, Z_NO_FLUSH)
                        return (r, w.count - Int(stream.avail_out))
                    }
                    if result == Z_STREAM_END { ended = true } else if result != Z_OK && !(result == Z_BUF_ERROR && produced == 0) {
                        throw Problem("cannot be unpacked (its compressed data is damaged)")
                    }
                    guard out.count + produced <= limit else { throw TooLarge() }
                    if out.count + produced > out.capacity { out.reserveCapacity(min(max(out.count + produced, out.capacity * 2), limit)) }
                    out.append(contentsOf: window[0..<produced])
                    if produced == 0 && stream.avail_in == 0 { break }
                    // No input taken and nothing made: the stream cannot go on.
                    if produced == 0 && stream.avail_in == before && !ended { throw Problem("cannot be unpacked (its compressed data is damaged)") }
                } while !ended && (stream.avail_in > 0 || stream.avail_out == 0)
            }
            if !ended && last { throw Problem("ends before its compressed data does") }
        }
    }

    private func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Problem("cannot be read to its end; it was not copied whole") }
            done += n
        }
        return out
    }
}

private extension Array where Element == UInt8 {
    func u16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
    func u64(_ i: Int) -> UInt64 { UInt64(u32(i)) | UInt64(u32(i + 4)) << 32 }
}
