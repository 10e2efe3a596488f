import CCompression
import CIntrinsics

/// gzip's CRC-32 of text as it is made: folded 64 bytes at a time with carry-less
/// multiplication where the processor has it (CIntrinsics/crc32.h), zlib's crc32 for the
/// last bytes and on processors without it. The same value as zlib's crc32 (tested).
enum CRC32 {
    static let folds = utq_crc32_fold_available() != 0

    static func update(_ crc: UInt32, _ bytes: UnsafePointer<UInt8>, count: Int) -> UInt32 {
        var c = crc, p = bytes, n = count
        if folds && n >= 64 {
            let body = n & ~15
            c = ~utq_crc32_fold(p, body, ~c)
            p += body
            n -= body
        }
        if n > 0 { c = UInt32(truncatingIfNeeded: crc32(UInt(c), p, uInt(n))) }
        return c
    }
}
