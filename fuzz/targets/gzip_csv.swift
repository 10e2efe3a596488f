import CCompression
import Foundation
@testable import UTQCore

/// Compressed files. The first byte chooses what the rest is:
/// - 0–63 (gzip) and 64–127 (zstd): text, compressed in two members (frames) cut where the
///   second byte says: `load` of it must give what `load` of the plain text gives, cell for
///   cell and warning for warning, or fail as it does; and the CSV reader on the stream with
///   tiny reads, and parsing it in tiny chunks on every core, must agree with the plain file
///   read in one piece.
/// - 128–191: bytes after a gzip header; 192–255: bytes after zstd's magic number: damaged
///   streams must fail as a LoadError (never a crash, never another error), and the
///   decompressing reader must end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzipCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let mode = data[0]
    let rest = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    if mode < 128 {
        let plain = Fuzz.file("input.csv", data + 2, size - 2)
        let cut = rest.isEmpty ? 0 : Int(data[1]) % (rest.count + 1)
        let (a, b) = (Array(rest[..<cut]), Array(rest[cut...]))
        let gzip = mode < 64
        let bytes = gzip ? Fuzz.gzip(a) + Fuzz.gzip(b) : GzipFuzz.zstd(a) + GzipFuzz.zstd(b)
        let path = bytes.withUnsafeBufferPointer { Fuzz.file(gzip ? "input.csv.gz" : "input.csv.zst", $0.baseAddress!, $0.count) }
        GzipFuzz.same(plain: plain, compressed: path)
    } else {
        let header: [UInt8] = mode < 192 ? [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03] : [0x28, 0xB5, 0x2F, 0xFD]
        let bytes = header + rest
        let path = bytes.withUnsafeBufferPointer { Fuzz.file(mode < 192 ? "raw.csv.gz" : "raw.csv.zst", $0.baseAddress!, $0.count) }
        if let loaded = Fuzz.expectingUserErrors("load of a damaged stream", { try Loaders.load(LoadRequest(path: path, name: "t", zone: .utc)) }) {
            loaded.tables.forEach(Fuzz.show)
        }
        // The reader alone, to its end or its error.
        _ = Fuzz.expectingUserErrors("decompressing") { try Decompressor.all(path: path) }
    }
    return 0
}

enum GzipFuzz {
    /// One zstd frame, in one call.
    static func zstd(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
        let n = out.withUnsafeMutableBytes { o in bytes.withUnsafeBytes { i in ZSTD_compress(o.baseAddress, o.count, i.baseAddress, i.count, 1) } }
        if ZSTD_isError(n) != 0 { fatalError("ZSTD_compress failed") }
        return Array(out.prefix(n))
    }

    /// The compressed file loads as the plain one: the same cells and warnings, or both fail.
    static func same(plain: String, compressed: String) {
        let a = Fuzz.expectingUserErrors("load plain") { try Loaders.load(LoadRequest(path: plain, name: "t", zone: .utc)) }
        let b = Fuzz.expectingUserErrors("load compressed") { try Loaders.load(LoadRequest(path: compressed, name: "t", zone: .utc)) }
        switch (a, b) {
        case let (a?, b?):
            if a.tables.count != b.tables.count { fatalError("\(compressed): \(a.tables.count) tables vs \(b.tables.count)") }
            for (x, y) in zip(a.tables, b.tables) { Fuzz.same(x, y, "\(compressed) and the plain file") }
            let messages = { (r: LoadResult) in r.warnings.map { "\($0.line ?? -1) \($0.message)" } }
            if messages(a) != messages(b) { fatalError("\(compressed): warnings differ: \(messages(a)) vs \(messages(b))") }
            b.tables.forEach(Fuzz.show)
        case (nil, nil): break
        default: fatalError("\(compressed): one load failed and the other did not")
        }
        // The CSV reader on the stream in tiny chunks, against the plain file in one piece.
        var one = CSVOptions()
        one.parts = 1
        var tiny = CSVOptions()
        tiny.chunkSize = 16
        let c = Fuzz.expectingUserErrors("csv plain") { try CSVLoader.load(path: plain, name: "t", zone: .utc, options: one) }
        let d = Fuzz.expectingUserErrors("csv stream") { try CSVLoader.load(path: compressed, name: "t", zone: .utc, options: tiny) }
        // And parsed in 64-byte chunks by every core (StreamChunks), each chunk a part.
        var chunked = tiny
        chunked.parts = 2
        let e = Fuzz.expectingUserErrors("csv stream in chunks") { try CSVLoader.load(path: compressed, name: "t", zone: .utc, options: chunked) }
        for (what, other) in [("in 16-byte reads", d), ("parsed in 64-byte chunks", e)] {
            switch (c, other) {
            case let (c?, d?):
                Fuzz.same(c.table, d.table, "csv of \(compressed) \(what)")
                let lines = { (w: [LoadWarning]) in w.map { "\($0.line ?? -1) \($0.message)" } }
                if lines(c.warnings) != lines(d.warnings) { fatalError("csv \(what): warnings differ: \(c.warnings) vs \(d.warnings)") }
            case (nil, nil): break
            default: fatalError("csv of \(compressed) \(what): one reading failed and the other did not")
            }
        }
    }
}
