import CCompression
import Foundation

/// Writes bytes to a file descriptor as a gzip or zstd stream, a block at a time, so the
/// compressed file is never held whole beside the text (`save rides.csv.gz`).
enum Compressor {
    /// Compresses `bytes` into `fd`; `level` nil is each tool's default (gzip 6, zstd 3).
    static func write(_ bytes: [UInt8], as kind: Compression, to fd: Int32, level: Int32? = nil) throws {
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { out.deallocate() }
        try bytes.withUnsafeBytes { input in
            switch kind {
            case .gzip: try gzip(input, into: fd, out, level: level ?? 6)
            case .zstd: try zstd(input, into: fd, out, level: level ?? 3)
            }
        }
    }

    private static func gzip(_ input: UnsafeRawBufferPointer, into fd: Int32, _ out: UnsafeMutableRawBufferPointer, level: Int32) throws {
        let z = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        z.initialize(to: z_stream())
        defer { z.deinitialize(count: 1); z.deallocate() }
        // 16 + 15 window bits: a gzip header and trailer; memory level 8 as gzip uses.
        guard deflateInit2_(z, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw AtomicFile.Failure(reason: "zlib could not start compressing", exists: false)
        }
        defer { deflateEnd(z) }
        var offset = 0
        while true {
            // zlib counts input in 32 bits: hand it at most a gigabyte at a time.
            let take = min(input.count - offset, 1 << 30)
            let last = offset + take == input.count
            z.pointee.next_in = UnsafeMutablePointer(mutating: (input.baseAddress ?? UnsafeRawPointer(out.baseAddress!)).advanced(by: offset)
                .assumingMemoryBound(to: Bytef.self))
            z.pointee.avail_in = uInt(take)
            var status: Int32
            repeat {
                z.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                z.pointee.avail_out = uInt(out.count)
                status = deflate(z, last ? Z_FINISH : Z_NO_FLUSH)
                if status == Z_STREAM_ERROR { throw AtomicFile.Failure(reason: "zlib failed while compressing", exists: false) }
                try AtomicFile.writeAll(fd, UnsafeRawBufferPointer(rebasing: out[0..<(out.count - Int(z.pointee.avail_out))]))
            } while z.pointee.avail_out == 0 || (last && status != Z_STREAM_END)
            offset += take
            if last { return }
        }
    }

    private static func zstd(_ input: UnsafeRawBufferPointer, into fd: Int32, _ out: UnsafeMutableRawBufferPointer, level: Int32) throws {
        guard let c = ZSTD_createCCtx() else { throw AtomicFile.Failure(reason: "zstd could not start compressing", exists: false) }
        defer { ZSTD_freeCCtx(c) }
        ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)
        // The size in the frame's header lets a reader know it before it reads.
        ZSTD_CCtx_setPledgedSrcSize(c, UInt64(input.count))
        var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        while true {
            var outBuffer = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
            let left = ZSTD_compressStream2(c, &outBuffer, &inBuffer, ZSTD_e_end)
            if ZSTD_isError(left) != 0 { throw AtomicFile.Failure(reason: "zstd failed: " + String(cString: ZSTD_getErrorName(left)), exists: false) }
            try AtomicFile.writeAll(fd, UnsafeRawBufferPointer(rebasing: out[0..<outBuffer.pos]))
            if left == 0 { return }
        }
    }

}
