import CCompression

/// A page's header (PageHeader in parquet.thrift), with the parts of the data page (v1 or
/// v2) and dictionary page headers a reader of flat columns uses.
struct ParquetPageHeader {
    enum Kind: Int32 { case data = 0, index = 1, dictionary = 2, dataV2 = 3 }

    var type: Int32 = -1
    var uncompressedSize: Int32 = 0
    var compressedSize: Int32 = 0
    /// Values in the page, nulls included (for a flat column, its rows).
    var numValues: Int32 = 0
    var encoding: Int32 = 0
    var definitionEncoding: Int32 = 3
    /// Data page v2: the levels' byte lengths (they are never compressed), and whether the
    /// values are.
    var definitionLength: Int32 = 0
    var repetitionLength: Int32 = 0
    var isCompressed = true

    var kind: Kind? { Kind(rawValue: type) }

    init(_ r: inout ThriftReader) throws {
        try r.readStruct { r, id, type in
            switch id {
            case 1: self.type = try r.int32(type)
            case 2: uncompressedSize = try r.int32(type)
            case 3: compressedSize = try r.int32(type)
            case 5:
                try r.expect(type, .structure)
                try r.readStruct { r, id, type in
                    switch id {
                    case 1: numValues = try r.int32(type)
                    case 2: encoding = try r.int32(type)
                    case 3: definitionEncoding = try r.int32(type)
                    default: try r.skip(type)
                    }
                }
            case 7:
                try r.expect(type, .structure)
                try r.readStruct { r, id, type in
                    switch id {
                    case 1: numValues = try r.int32(type)
                    case 2: encoding = try r.int32(type)
                    default: try r.skip(type)
                    }
                }
            case 8:
                try r.expect(type, .structure)
                try r.readStruct { r, id, type in
                    switch id {
                    case 1: numValues = try r.int32(type)
                    case 4: encoding = try r.int32(type)
                    case 5: definitionLength = try r.int32(type)
                    case 6: repetitionLength = try r.int32(type)
                    case 7: isCompressed = try r.bool(type)
                    default: try r.skip(type)
                    }
                }
            default: try r.skip(type)
            }
        }
        guard compressedSize >= 0, uncompressedSize >= 0, numValues >= 0, definitionLength >= 0, repetitionLength >= 0 else {
            throw ThriftError("a page header has a negative size or count")
        }
    }
}

/// The compression codecs (CompressionCodec), named for messages.
enum ParquetCodec: Int32 {
    case uncompressed = 0, snappy = 1, gzip = 2, lzo = 3, brotli = 4, lz4 = 5, zstd = 6, lz4Raw = 7

    var name: String {
        switch self {
        case .uncompressed: return "none"
        case .snappy: return "Snappy"
        case .gzip: return "gzip"
        case .lzo: return "LZO"
        case .brotli: return "Brotli"
        case .lz4, .lz4Raw: return "LZ4"
        case .zstd: return "zstd"
        }
    }

    /// Why a chunk compressed so cannot be read, or nil when it can.
    static func refusal(_ code: Int32) -> String? {
        guard let codec = ParquetCodec(rawValue: code) else { return "is compressed with codec number \(code), which Parquet does not define" }
        switch codec {
        case .uncompressed, .snappy, .gzip, .zstd: return nil
        default:
            return "is compressed with \(codec.name), which utq does not unpack; write it again with Snappy or zstd "
                + "(pyarrow: compression='zstd'; DuckDB: COPY … TO 'f.parquet' (FORMAT parquet, COMPRESSION zstd))"
        }
    }
}

/// Unpacks pages into memory kept from one page to the next (one inflater per worker).
final class PageInflater {
    private var memory: UnsafeMutableRawPointer?
    private var capacity = 0
    /// The largest page unpacked: a header that says more is damaged (or from a file no one
    /// could read back).
    static let maxPageSize = 1 << 30

    init() {}
    deinit { memory?.deallocate() }

    /// The bytes of `source` unpacked with `codec` into `expected` bytes; they stay valid
    /// until the next call.
    func inflate(_ source: UnsafeRawBufferPointer, codec: ParquetCodec, expected: Int) throws -> UnsafeRawBufferPointer {
        guard expected >= 0 else { throw PageError("a page says it unpacks to \(expected) bytes") }
        guard expected <= Self.maxPageSize else { throw PageError("a page says it unpacks to \(expected) bytes") }
        if capacity < expected || memory == nil {
            // Left uninitialised: a damaged header that asks for much is not paid for in
            // memory unless the codec really writes that much.
            memory?.deallocate()
            capacity = max(expected, capacity * 2, 4096)
            memory = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }
        let out = UnsafeMutableRawBufferPointer(start: memory, count: expected)
        let got: Int
        switch codec {
        case .snappy:
            var length = 0
            guard source.count > 0,
                  snappy_uncompressed_length(source.baseAddress!.assumingMemoryBound(to: CChar.self), source.count, &length) == SNAPPY_OK,
                  length == expected else { throw PageError("its Snappy data is damaged", saysDamaged: true) }
            var n = expected
            guard snappy_uncompress(source.baseAddress!.assumingMemoryBound(to: CChar.self), source.count,
                                    memory!.assumingMemoryBound(to: CChar.self), &n) == SNAPPY_OK else {
                throw PageError("its Snappy data is damaged", saysDamaged: true)
            }
            got = n
        case .zstd:
            guard source.count > 0 else { throw PageError("its zstd data is empty") }
            let n = ZSTD_decompress(memory, expected, source.baseAddress, source.count)
            if ZSTD_isError(n) != 0 { throw PageError("its zstd data is damaged (\(String(cString: ZSTD_getErrorName(n))))", saysDamaged: true) }
            got = n
        case .gzip:
            got = try Self.gunzip(source, into: out)
        default:
            throw PageError("it is compressed with \(codec.name)")
        }
        guard got == expected else { throw PageError("it unpacks to \(got) bytes where its header says \(expected)") }
        return UnsafeRawBufferPointer(out)
    }

    /// gzip members (or a zlib stream) inflated into `out`; returns the bytes written.
    static func gunzip(_ source: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) throws -> Int {
        var stream = z_stream()
        // 15 + 32: a window of 32 KB, and the gzip or zlib header detected.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PageError("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(source.count)
        stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(out.count)
        while true {
            let status = CCompression.inflate(&stream, Z_NO_FLUSH)
            if status == Z_STREAM_END {
                // Another gzip member may follow.
                if stream.avail_in == 0 || stream.avail_out == 0 { break }
                guard inflateReset(&stream) == Z_OK else { throw PageError("its gzip data is damaged", saysDamaged: true) }
                continue
            }
            if status == Z_BUF_ERROR && stream.avail_out == 0 { break }
            guard status == Z_OK else { throw PageError("its gzip data is damaged", saysDamaged: true) }
            if stream.avail_in == 0 { throw PageError("its gzip data ends early") }
        }
        return out.count - Int(stream.avail_out)
    }
}
