import CCompression
import Foundation
@testable import UTQCore

/// utq's deflate decoder (Inflater) against zlib's, the reference. The first byte chooses:
/// - 0–127: the rest is text, compressed by zlib with the level and strategy the second byte
///   chooses (stored, fixed and dynamic blocks; small windows): the decoder must give the text
///   back exactly, read with a 64-byte input buffer and handed out in reads of odd sizes.
/// - 128–255: the rest is any bytes after a gzip header: where zlib reads one whole member
///   from them, the decoder must give the same text; where zlib refuses them, the decoder must
///   refuse them too; and what it gives before it stops is never other than zlib's text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInflate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let rest = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    if data[0] < 128 {
        let level = Int32(data[1] % 10)
        let strategies = [Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED]
        let strategy = strategies[Int(data[1] / 10) % strategies.count]
        let window = Int32(9 + Int(data[1] / 50) % 7)
        let gz = Fuzz.gzip(rest, level: level, strategy: strategy, windowBits: window)
        switch InflateFuzz.inflated(gz, chunk: 1 + Int(data[1]) % 97) {
        case .success(let text): if text != rest { fatalError("the text differs: \(text.count) bytes against \(rest.count)") }
        case .failure(let e): fatalError("zlib's own stream refused: \(e)")
        }
    } else {
        let gz: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03] + rest
        let reference = InflateFuzz.zlib(gz)
        let ours = InflateFuzz.inflated(gz, chunk: 4096)
        switch (reference.whole, ours) {
        case (true, .success(let text)):
            if text != reference.text { fatalError("a whole member decodes to other text: \(text.count) bytes against \(reference.text.count)") }
        case (true, .failure(let e)):
            fatalError("zlib reads the member, the decoder refuses it: \(e)")
        case (false, .success(let text)):
            // zlib stopped: at damage (the decoder must have refused it) or at bytes after the
            // member (which the decoder may read as zeros padding the file).
            if reference.damaged { fatalError("zlib refuses the stream, the decoder reads \(text.count) bytes") }
            if !text.starts(with: reference.text) { fatalError("after the member, other text") }
        case (false, .failure):
            break
        }
    }
    return 0
}

enum InflateFuzz {
    /// zlib's reading of one gzip member: its text, whether the member was whole and ended the
    /// input, and whether zlib found it damaged (rather than cut short).
    static func zlib(_ gz: [UInt8]) -> (text: [UInt8], whole: Bool, damaged: Bool) {
        var z = z_stream()
        guard inflateInit2_(&z, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { fatalError("inflateInit2") }
        defer { inflateEnd(&z) }
        var input = gz
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { i in
            z.next_in = i.baseAddress; z.avail_in = uInt(i.count)
            while status == Z_OK {
                let made = chunk.withUnsafeMutableBufferPointer { o -> Int in
                    z.next_out = o.baseAddress; z.avail_out = uInt(o.count)
                    status = inflate(&z, Z_NO_FLUSH)
                    return o.count - Int(z.avail_out)
                }
                text += chunk[0..<made]
                if status == Z_OK && made == 0 && z.avail_in == 0 { status = Z_BUF_ERROR }
                if text.count > 64 << 20 { status = Z_MEM_ERROR }
            }
        }
        let whole = status == Z_STREAM_END && z.avail_in == 0
        return (text, whole, status == Z_DATA_ERROR)
    }

    static func inflated(_ gz: [UInt8], chunk: Int) -> Result<[UInt8], Error> {
        let path = gz.withUnsafeBufferPointer { Fuzz.file("input.gz", $0.baseAddress!, $0.count) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let inflater = Inflater(fd: fd, progress: nil, inputSize: 64, outputSize: 1 << 16)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        return Result {
            while true {
                let n = try buffer.withUnsafeMutableBytes { try inflater.read(into: $0) }
                out += buffer[0..<n]
                if n < chunk { return out }
                if out.count > 64 << 20 { return out }
            }
        }
    }
}
