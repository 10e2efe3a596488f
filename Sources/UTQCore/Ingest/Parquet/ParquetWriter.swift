import Foundation

/// Writes a table as a Parquet file: every column optional (nulls as definition levels),
/// whole numbers INT64, decimals DOUBLE, booleans BOOLEAN, text BYTE_ARRAY (STRING) with a
/// dictionary where values repeat, times INT64 TIMESTAMP(MICROS) — adjusted to UTC, or wall
/// clock for times read without an offset — and dates INT32 DATE. Parquet has no duration
/// type: durations are INT64 microseconds, named in the file's metadata so utq reads them back
/// as durations. Pages are Snappy-compressed, row groups hold about a million rows, and a row
/// group's columns are encoded in parallel before it is written.
public enum ParquetWriter {
    public static func isParquetPath(_ path: String) -> Bool { path.lowercased().hasSuffix(".parquet") }

    public static let rowGroupSize = 1 << 20

    /// Writes `table` to the open file; returns notes for the user (what Parquet cannot say).
    @discardableResult
    public static func write(_ table: Table, to fd: Int32, rowGroupSize: Int = rowGroupSize, cancel: CancellationFlag? = nil) throws -> [String] {
        let plans = table.columns.map { ParquetColumnEncoder(column: $0, zone: table.zone, rows: table.rowCount) }
        var out = FileWriter(fd: fd)
        try out.write(ParquetFile.magic)
        var groups: [ParquetWrittenGroup] = []
        var start = 0
        // A table without rows has no row groups.
        while start < table.rowCount {
            let rows = min(rowGroupSize, table.rowCount - start)
            if cancel?.isCancelled == true { throw CancellationError() }
            let parts = ParallelParts<ParquetEncodedChunk>(count: plans.count)
            let range = start..<(start + rows)
            DispatchQueue.concurrentPerform(iterations: plans.count) { k in
                parts.set(k, Result { try plans[k].encode(range) })
            }
            var group = ParquetWrittenGroup(rows: rows)
            for k in 0..<plans.count {
                var chunk = try parts.get(k)
                chunk.place(at: out.offset)
                try out.write(chunk.bytes)
                chunk.bytes = []
                group.chunks.append(chunk)
            }
            groups.append(group)
            start += rows
        }
        let footer = footerBytes(table, plans: plans, groups: groups)
        try out.write(footer)
        var end: [UInt8] = []
        appendLittleEndian(&end, UInt32(footer.count))
        try out.write(end + ParquetFile.magic)
        return plans.compactMap(\.note)
    }

    /// FileMetaData: the schema, the row groups and where their chunks are, and utq's notes.
    static func footerBytes(_ table: Table, plans: [ParquetColumnEncoder], groups: [ParquetWrittenGroup]) -> [UInt8] {
        var w = ThriftWriter()
        w.structure { w in
            w.field(1, i32: 2)
            w.field(2, structList: plans.count + 1) { w, k in
                if k == 0 {
                    w.field(4, string: "schema")
                    w.field(5, i32: Int32(plans.count))
                } else {
                    plans[k - 1].schemaElement(&w)
                }
            }
            w.field(3, i64: Int64(table.rowCount))
            w.field(4, structList: groups.count) { w, g in
                let group = groups[g]
                w.field(1, structList: group.chunks.count) { w, k in
                    let c = group.chunks[k]
                    w.field(2, i64: c.start)
                    w.field(3, struct: { w in plans[k].columnMetadata(&w, c, rows: group.rows) })
                }
                w.field(2, i64: group.chunks.reduce(0) { $0 + $1.uncompressedSize })
                w.field(3, i64: Int64(group.rows))
                w.field(5, i64: group.chunks.first?.start ?? 4)
                w.field(6, i64: group.chunks.reduce(0) { $0 + $1.compressedSize })
                w.field(7, i32: Int32(g))
            }
            var metadata: [(String, String)] = [(ParquetReader.zoneKey, table.zone.identifier)]
            let durations = plans.filter(\.isDuration).map { ($0.column.name, $0.column.unit.rawValue) }
            if !durations.isEmpty,
               let json = try? JSONSerialization.data(withJSONObject: Dictionary(durations, uniquingKeysWith: { a, _ in a }), options: [.sortedKeys]) {
                metadata.append((ParquetReader.durationsKey, String(decoding: json, as: UTF8.self)))
            }
            w.field(5, structList: metadata.count) { w, k in
                w.field(1, string: metadata[k].0)
                w.field(2, string: metadata[k].1)
            }
            w.field(6, string: "utq")
        }
        return w.bytes
    }
}

/// A row group as written: its rows and its chunks' places.
struct ParquetWrittenGroup {
    var rows: Int
    var chunks: [ParquetEncodedChunk] = []
}

/// Writes bytes to a descriptor in full, counting them.
struct FileWriter {
    let fd: Int32
    private(set) var offset: Int64 = 0

    mutating func write(_ bytes: [UInt8]) throws {
        var done = 0
        try bytes.withUnsafeBytes { p in
            while done < p.count {
                let n = Foundation.write(fd, p.baseAddress! + done, p.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw AtomicFile.Failure(errno: errno)
                }
                done += n
            }
        }
        offset += Int64(bytes.count)
    }
}
