import Foundation

/// Options for reading delimited text.
public struct CSVOptions: Sendable {
    /// Field separator; detected from the first lines when nil.
    public var delimiter: UInt8?
    /// Rows read to decide each column's type before the full read.
    public var sampleRows = 2000
    /// A column's type decided by the caller instead of by inference (GTFS ids stay text).
    public var typeOverride: (@Sendable (String) -> CellType?)?
    /// Bytes read at a time.
    public var chunkSize = 4 << 20

    public init(delimiter: UInt8? = nil) { self.delimiter = delimiter }
}

/// The result of reading one file into one table.
public struct LoadedTable: Sendable {
    public var table: Table
    public var warnings: [LoadWarning]
}

/// Reads CSV, TSV and other delimited text into typed columns. Types come from a sample
/// of rows; when a later cell does not fit, that column is widened and the file read again,
/// so no value is ever changed by inference.
public enum CSVLoader {
    public static func load(path: String, name: String, zone: ZoneRules, options: CSVOptions = CSVOptions(),
                            cancel: CancellationFlag? = nil) throws -> LoadedTable {
        var types: [CellType]? = nil
        for _ in 0..<64 {
            do {
                return try read(path: path, name: name, zone: zone, options: options, types: &types, cancel: cancel)
            } catch let conflict as TypeConflict {
                types![conflict.column] = conflict.widened
            }
        }
        throw LoadError(path: path, "column types kept changing while reading")
    }

    private static func read(path: String, name: String, zone: ZoneRules, options: CSVOptions,
                             types: inout [CellType]?, cancel: CancellationFlag?) throws -> LoadedTable {
        let stream = try ByteStream(path: path)
        var warnings = WarningLog(path: path)
        var buffer: [UInt8] = []
        var eof = !(try stream.read(into: &buffer, chunk: options.chunkSize))
        if buffer.isEmpty {
            throw LoadError(path: path, "the file is empty")
        }
        let delimiter = buffer.withUnsafeBytes { detectDelimiter(UnsafeRawBufferPointer(rebasing: $0[0..<min($0.count, 65536)]), hint: options.delimiter) }
        var scanner = CSVScanner(delimiter: delimiter)
        var pos = 0
        var line = 1
        let decimalComma = delimiter == UInt8(ascii: ";")

        // Header.
        var header: [String] = []
        while header.isEmpty {
            let next = try scanChecked(&scanner, &buffer, &pos, &eof, stream, options, path: path, line: line)
            guard let next else { throw LoadError(path: path, "the file has no header line") }
            let isBlank = scanner.isBlank
            if !isBlank {
                header = buffer.withUnsafeBytes { b in (0..<scanner.fieldCount).map { scanner.fieldString($0, in: b) } }
            }
            line += scanner.linesSpanned
            pos = next
        }
        let names = cleanHeader(header, warnings: &warnings)
        let width = names.count

        // Types from a sample of rows, unless a previous pass fixed them.
        if types == nil {
            var votes = (0..<width).map { _ in TypeVote(decimalComma: decimalComma) }
            var p = pos
            var rows = 0
            var sampleScanner = CSVScanner(delimiter: delimiter)
            buffer.withUnsafeBytes { b in
                while rows < options.sampleRows, let next = try? sampleScanner.scanRecord(b, from: p, isFinal: eof) {
                    if next == p { break }
                    if !sampleScanner.isBlank {
                        for k in 0..<min(width, sampleScanner.fieldCount) {
                            let keep = sampleScanner.quoted[k]
                            sampleScanner.withField(k, in: b) { votes[k].add(keep ? $0 : trimmed($0)) }
                        }
                        rows += 1
                    }
                    p = next
                }
            }
            types = votes.enumerated().map { k, vote in options.typeOverride?(names[k]) ?? vote.result }
        }
        let builders = (0..<width).map { k in
            ColumnBuilder(name: names[k], index: k, type: types![k], zone: zone, decimalComma: decimalComma,
                          capacity: min(stream.fileSize / max(1, width * 4), 1 << 24))
        }

        // Rows.
        var rowsRead = 0
        while true {
            let recordLine = line
            guard let next = try scanChecked(&scanner, &buffer, &pos, &eof, stream, options, path: path, line: line) else { break }
            line += scanner.linesSpanned
            defer { pos = next }
            if scanner.isBlank { continue }
            let fields = scanner.fieldCount
            if fields > width {
                // A trailing delimiter on every line (Behaviour Mapper's export) is not an extra cell.
                let extraEmpty = buffer.withUnsafeBytes { b in (width..<fields).allSatisfy { scanner.withField($0, in: b) { $0.count == 0 } } }
                if !extraEmpty {
                    warnings.add("extra cells", line: recordLine, "\(fields) cells where the header has \(width); the extra cells are ignored")
                }
            } else if fields < width {
                warnings.add("missing cells", line: recordLine, "\(fields) cells where the header has \(width); the missing ones are empty")
            }
            if scanner.malformedQuote {
                warnings.add("quote", line: recordLine, "text after a closing quote; kept as part of the cell")
            }
            try buffer.withUnsafeBytes { b in
                for k in 0..<width {
                    if k < fields {
                        let keep = scanner.quoted[k]  // spaces inside quotes are part of the cell
                        try scanner.withField(k, in: b) { try builders[k].appendText(keep ? $0 : trimmed($0)) }
                    } else {
                        builders[k].appendNull()
                    }
                }
            }
            rowsRead += 1
            if rowsRead & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
        }
        if stream.nulBytes > 0 {
            warnings.add("encoding", line: nil, "\(stream.nulBytes) NUL bytes were removed")
        }
        if let note = stream.encodingNote, note.contains("UTF-16") {
            warnings.add("encoding", line: nil, note)
        }
        var columns = builders.map { $0.finish() }
        // A header cell that is empty over a column that is empty is a trailing delimiter.
        while let last = columns.last, last.name.hasPrefix("column_"), last.type == .null, header.last?.isEmpty ?? false {
            columns.removeLast(); header.removeLast()
        }
        let table = Table(name: name, columns: columns, zone: inferredZone(builders, default: zone))
        return LoadedTable(table: table, warnings: warnings.finish())
    }

    /// Scans one record, reading more of the file when the buffer ends inside it.
    private static func scanChecked(_ scanner: inout CSVScanner, _ buffer: inout [UInt8], _ pos: inout Int, _ eof: inout Bool,
                                    _ stream: ByteStream, _ options: CSVOptions, path: String, line: Int) throws -> Int? {
        while true {
            if pos >= buffer.count && eof { return nil }
            let result: Int?
            do {
                result = try buffer.withUnsafeBytes { try scanner.scanRecord($0, from: pos, isFinal: eof) }
            } catch CSVScanner.ScanError.unterminatedQuote(let offset) {
                let col = buffer.withUnsafeBytes { lineAndColumn(of: offset, in: UnsafeRawBufferPointer(rebasing: $0[pos...])).column }
                throw LoadError(path: path, line: line, column: col, "a quoted cell is never closed (the file ends inside quotes)")
            }
            if let result { return result }
            // Keep the unread tail and read the next chunk after it.
            buffer.removeSubrange(0..<pos)
            pos = 0
            if !(try stream.read(into: &buffer, chunk: options.chunkSize)) { eof = true }
        }
    }

    /// Header names: trimmed, empty ones named `column_N`, repeated ones numbered.
    static func cleanHeader(_ header: [String], warnings: inout WarningLog) -> [String] {
        var seen: [String: Int] = [:]
        var out: [String] = []
        for (i, raw) in header.enumerated() {
            var name = raw.trimmingCharacters(in: .whitespaces)
            if name.isEmpty {
                name = "column_\(i + 1)"
                if i != header.count - 1 { warnings.add("header", line: 1, "column \(i + 1) has no name; called \(name)") }
            }
            if let n = seen[name.lowercased()] {
                let renamed = "\(name)_\(n + 1)"
                warnings.add("header", line: 1, "column name \"\(name)\" appears twice; the second is called \(renamed)")
                seen[name.lowercased()] = n + 1
                name = renamed
            } else {
                seen[name.lowercased()] = 1
            }
            out.append(name)
        }
        return out
    }
}

/// Drops spaces around a cell; CSV written by hand often has them after the delimiter.
@inline(__always)
func trimmed(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    var s = 0, e = b.count
    if e == 0 || (b[0] != 0x20 && b[e - 1] != 0x20) { return b }
    while s < e && b[s] == 0x20 { s += 1 }
    while e > s && b[e - 1] == 0x20 { e -= 1 }
    return UnsafeRawBufferPointer(rebasing: b[s..<e])
}
