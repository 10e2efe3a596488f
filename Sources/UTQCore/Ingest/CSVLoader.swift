import Foundation

/// Options for reading delimited text.
public struct CSVOptions: Sendable {
    /// Field separator; detected from the first lines when nil.
    public var delimiter: UInt8?
    /// Rows read to decide each column's type before the full read.
    public var sampleRows = 2000
    /// Header names as written, spaces around them kept, for a caller that says what it does
    /// with them (GTFS warns: a feed that writes ` agency_name` breaks other tools).
    public var keepsHeaderSpaces = false
    /// A column's type decided by the caller instead of by inference (GTFS ids stay text).
    /// Such a type is a promise about the file: a cell that breaks it is left empty, with a
    /// warning naming its line, instead of widening the column.
    public var typeOverride: (@Sendable (String) -> CellType?)?
    /// Keep the line each row starts on (`LoadedTable.rowLines`), for checks that point
    /// at rows after the read (GTFS references between files).
    public var recordLines = false
    /// Cells past the header's width that are all empty are a trailing delimiter, not extra
    /// cells (Behaviour Mapper's export ends every line with one). Formats that define their
    /// columns exactly (GTFS) turn this off, so such cells are reported.
    public var ignoresEmptyExtraCells = true
    /// Bytes read at a time.
    public var chunkSize = 4 << 20
    /// Column names for a file without a header line (its first line is data).
    public var names: [String]?
    /// `with header=…`: whether the first line names the columns; nil: detected.
    public var header: Bool?
    /// `with columns=(…)`: names for the columns, instead of the header's.
    public var columns: [String]?
    /// Whether a last line that is a totals row is left out (with a warning).
    public var dropsFooter = true
    /// How many parts to read in parallel; by default one per core for large files.
    public var parts: Int?
    /// Counts the bytes read, for a progress bar.
    public var progress: LoadProgress?
    /// Which columns to read, given the names and the types voted on the sample: false skips
    /// a column (its cells are found, not read). Nil, or no answer: every column. A script's
    /// load reads first the columns the script names (NamedColumns).
    var chooses: (@Sendable (_ names: [String], _ types: [CellType]) -> [Bool]?)?
    /// The table's time column when this read adds columns to a table read before: notes
    /// about a column kept as text name it.
    var tableTimeColumn: String?

    public init(delimiter: UInt8? = nil) { self.delimiter = delimiter }
}

/// The result of reading one file into one table.
public struct LoadedTable: Sendable {
    public var table: Table
    public var warnings: [LoadWarning]
    /// The line each row starts on, when `CSVOptions.recordLines` asked for it.
    public var rowLines: [Int32] = []
    /// JSON records read by a template rather than the general parser (RecordTemplate).
    var templateRecords = 0
    /// Columns whose parts were joined in their slab rather than copied (ColumnSlab).
    var columnsJoinedInPlace = 0
    /// The chunks a compressed file's text was parsed in by every core (StreamChunks); 0 when
    /// it was read in one part.
    var streamChunks = 0
    /// When `CSVOptions.chooses` skipped columns: the file's column names, the positions of
    /// the table's columns among them, and each skipped column as its sample rows read it
    /// (its type, unit and whether its times float, until the column is read whole).
    var fileColumns: [String]?
    var readPositions: [Int]?
    var unread: [Int: Column] = [:]
}

/// Reads CSV, TSV and other delimited text into typed columns. Types come from a sample
/// of rows; when a later cell does not fit, that column is widened and the file read again,
/// so no value is ever changed by inference.
public enum CSVLoader {
    public static func load(path: String, name: String, zone: ZoneRules, options: CSVOptions = CSVOptions(),
                            cancel: CancellationFlag? = nil) throws -> LoadedTable {
        try load(try FileSource(path: path, progress: options.progress), name: name, zone: zone, options: options, cancel: cancel)
    }

    /// Delimited text already in memory (a file unpacked from a zip); `path` names it in messages.
    public static func load(bytes: [UInt8], path: String, name: String, zone: ZoneRules, options: CSVOptions = CSVOptions(),
                            cancel: CancellationFlag? = nil) throws -> LoadedTable {
        try load(try FileSource(bytes: bytes, path: path), name: name, zone: zone, options: options, cancel: cancel)
    }

    /// The widest file read: wider headers are most likely not headers, and each column
    /// costs memory whatever its rows.
    static let maxColumns = 100_000

    private static func load(_ source: FileSource, name: String, zone: ZoneRules, options: CSVOptions,
                             cancel: CancellationFlag?) throws -> LoadedTable {
        var types: [CellType]? = nil
        var options = options
        var shape = ShapeDecision()
        for _ in 0..<64 {
            do {
                var loaded = try read(source, name: name, zone: zone, options: options, types: &types, shape: &shape, cancel: cancel)
                if let time = options.tableTimeColumn { loaded.table.timeColumn = time }
                loaded.warnings = shape.notes(path: source.path) + loaded.warnings
                    + shape.textNotes(loaded.table, rowLines: loaded.rowLines, path: source.path, positions: loaded.readPositions)
                return loaded
            } catch let restart as ShapeDecision.FirstLineIsData {
                options.names = restart.names
                types = nil
            } catch is ShapeDecision.FooterAtEnd {
                types = nil
                shape.widened = [:]
            } catch let conflict as TypeConflict {
                if conflict.widened == .string, shape.widened[conflict.column] == nil {
                    // Said at the end, with the lines that broke the type.
                    shape.widened[conflict.column] = types![conflict.column]
                    options.recordLines = true
                }
                types![conflict.column] = conflict.widened
            } catch is SplitMismatch {
                options.parts = 1  // a cut fell inside a quoted cell after all: read it in one piece
            }
        }
        throw LoadError(path: source.path, "column types kept changing while reading")
    }

    private static func read(_ source: FileSource, name: String, zone: ZoneRules, options: CSVOptions,
                             types: inout [CellType]?, shape: inout ShapeDecision, cancel: CancellationFlag?) throws -> LoadedTable {
        let path = source.path
        var warnings = WarningLog(path: path)
        if source.size == 0 { throw LoadError(path: path, "the file is empty", kind: .emptyFile) }
        // At least 64 KB, whatever the chunk size: the delimiter is decided from the head, and
        // must not depend on how the file is then read.
        var headRequest = max(options.chunkSize, 65536)
        var head = try source.head(headRequest)
        let delimiter = head.withUnsafeBytes { detectDelimiter(UnsafeRawBufferPointer(rebasing: $0[0..<min($0.count, 65536)]), hint: options.delimiter) }
        let decimalComma = delimiter == UInt8(ascii: ";")

        // The header: the first line that is not blank (unless names were given).
        var scanner = CSVScanner(delimiter: delimiter)
        var pos = 0
        var line = 1
        var header: [String] = options.names ?? []
        while header.isEmpty {
            let headEnd = headRequest >= source.size
            let scanned: Int?
            do {
                scanned = try head.withUnsafeBytes { try scanner.scanRecord($0, from: pos, isFinal: headEnd) }
            } catch CSVScanner.ScanError.unterminatedQuote(let offset) {
                let column = head.withUnsafeBytes { lineAndColumn(of: offset - pos, in: UnsafeRawBufferPointer(rebasing: $0[pos...])).column }
                throw LoadError(path: path, line: line, column: column, "a quoted name in the header is never closed")
            }
            guard let next = scanned else {
                if headEnd { throw LoadError(path: path, "the file has no header line") }
                headRequest = min(source.size, headRequest * 4)  // a very long header line
                head = try source.head(headRequest)
                continue
            }
            if next == pos { throw LoadError(path: path, "the file has no header line") }
            if !scanner.isBlank {
                header = head.withUnsafeBytes { b in (0..<scanner.fieldCount).map { scanner.fieldString($0, in: b) } }
                if !head.withUnsafeBytes({ UTF8Check.isValid(UnsafeRawBufferPointer(rebasing: $0[pos..<next])) }) {
                    warnings.add("UTF-8", line: line, "bytes that are not UTF-8 are shown as U+FFFD (\u{FFFD})")
                }
                // A line of spaces is blank too, not a header of one unnamed column.
                if header.count == 1 && header[0].trimmingCharacters(in: .whitespaces).isEmpty { header = [] }
            }
            line += scanner.linesSpanned
            pos = next
        }
        let firstLine = header
        let headerLineEnd = scanner.lineEnd
        if options.names == nil, options.header == false {
            throw ShapeDecision.FirstLineIsData(names: try ShapeDecision.names(options.columns, width: header.count, path: path))
        }
        var cleaned = cleanHeader(header, keepingSpaces: options.keepsHeaderSpaces, warnings: &warnings)
        if options.names == nil, let given = options.columns {
            cleaned = try ShapeDecision.names(given, width: cleaned.count, path: path)
        }
        let names = cleaned
        let width = names.count
        guard width <= CSVLoader.maxColumns else {
            throw LoadError(path: path, line: 1, "has \(NumberText.grouped(width)) columns; utq reads at most \(NumberText.grouped(CSVLoader.maxColumns))")
        }
        // Where the data starts in the head, and in the file (they differ by the NUL bytes
        // the head left out).
        let headDataStart = pos
        let dataStart = try source.offset(afterText: pos)
        var rules = CSVRecordRules()
        rules.promised = names.map { options.typeOverride?($0) != nil }
        rules.recordLines = options.recordLines
        rules.ignoresEmptyExtraCells = options.ignoresEmptyExtraCells
        rules.lineEnd = options.names == nil ? headerLineEnd : nil

        // The last line, when it may be a totals row: looked at once, before the types are
        // voted, so its cells do not take part in the vote.
        if !shape.decided && options.dropsFooter {
            if !source.isStreamed {
                shape.lastLine = try CSVShape.lastLine(source, dataStart: dataStart, delimiter: delimiter)
            } else if source.size != FileSource.unknownSize, head.count - headDataStart == source.size - dataStart {
                // A compressed file the head holds whole (without NUL bytes): its last line
                // is known now, as a plain file's is. A longer one's, once it is read.
                shape.tailSeen = true
                shape.lastLine = CSVShape.lastLine(ofText: head[headDataStart...], endingAt: source.size, dataStart: dataStart, delimiter: delimiter)
            }
        }
        // Types from a sample of rows, unless a previous pass fixed them.
        if types == nil {
            var votes = (0..<width).map { _ in TypeVote(decimalComma: decimalComma) }
            var p = headDataStart
            var rows = 0
            var sampleScanner = CSVScanner(delimiter: delimiter)
            let whole = headRequest >= source.size
            let sampleEnd = shape.decided ? (shape.footer?.offset ?? Int.max) : (shape.lastLine?.offset ?? Int.max)
            head.withUnsafeBytes { b in
                while rows < options.sampleRows, dataStart + (p - headDataStart) < sampleEnd,
                      let next = try? sampleScanner.scanRecord(b, from: p, isFinal: whole) {
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
            let voted = votes.map(\.result)
            if !shape.decided {
                shape.decided = true
                shape.voted = voted
                if options.names == nil, options.header == nil,
                   CSVShape.firstLineIsData(firstLine, types: voted, decimalComma: decimalComma) {
                    shape.headerless = true
                    throw ShapeDecision.FirstLineIsData(names: try ShapeDecision.names(options.columns, width: width, path: path))
                }
                if let last = shape.lastLine, let why = CSVShape.footerReason(last.cells, types: voted, decimalComma: decimalComma) {
                    shape.footer = (last.offset, why, last.cells)
                }
            }
            types = votes.enumerated().map { k, vote in options.typeOverride?(names[k]) ?? vote.result }
            // A column of text but for a few cells of the sample says which, as one widened
            // after the sample does.
            for (k, vote) in votes.enumerated() where shape.widened[k] == nil && options.typeOverride?(names[k]) == nil {
                if let was = vote.mostly { shape.widened[k] = was }
            }
        }
        let voted = types!
        // Columns not chosen are built as nothing (their cells are skipped), and known by
        // their sample rows until they are read.
        let reads = options.chooses?(names, voted).flatMap { $0.count == width && $0.contains(false) ? $0 : nil }
        let plan = reads.map { r in voted.indices.map { r[$0] ? voted[$0] : .undetermined } } ?? voted
        var unread: [Int: Column] = [:]
        if let reads {
            rules.skipped = reads.map { !$0 }
            unread = sampleColumns(head, from: headDataStart, dataStart: dataStart, end: shape.footer?.offset ?? Int.max,
                                   whole: headRequest >= source.size, delimiter: delimiter, rows: options.sampleRows,
                                   columns: reads.indices.filter { !reads[$0] }, names: names, types: voted, zone: zone,
                                   decimalComma: decimalComma)
        }
        if shape.widened.keys.contains(where: { reads?[$0] ?? true }) { rules.recordLines = true }
        let recordRules = rules
        let dataEnd = shape.footer?.offset ?? source.size

        // The rest in parts, one worker each, cut at line breaks. Whether a break lies
        // outside quotes is known only from the start of the file, so the cuts are guesses
        // that the parts check: each part starts where a record does if the part before it
        // ended outside quotes. Parts after the first count lines from 1; their lines are
        // shifted once the lines before them are known.
        // A compressed file's text comes in order, from a thread of its own that decompresses
        // it ahead (StreamedText): a large one is parsed in chunks by every core (StreamChunks).
        let chunked: Bool
        let cuts: [Int]
        if source.isStreamed {
            // Chunks pay from two parts' worth of text, as parts of a plain file do (Workers).
            let parts = options.parts ?? (Workers.available >= 2 && source.expectedSize - dataStart >= 2 * Workers.bytesPerPart ? 2 : 1)
            chunked = parts >= 2
            cuts = []
        } else {
            chunked = false
            let parts = options.parts ?? Workers.count(forBytes: source.size - dataStart)
            cuts = try csvCandidateCuts(source, dataStart: dataStart, parts: parts).filter { $0 < dataEnd }
        }
        var stretches: [(range: Range<Int>, line: Int)] = []
        var from = dataStart
        for cut in cuts {
            stretches.append((from..<cut, stretches.isEmpty ? line : 1))
            from = cut
        }
        stretches.append((from..<dataEnd, stretches.isEmpty ? line : 1))
        let ranges = stretches
        let bytesPerRow = max(1, (head.count - headDataStart) / max(1, sampledRows(head, headDataStart)))
        let rowsInAll = max(0, min(dataEnd, source.expectedSize) - dataStart) / bytesPerRow * 17 / 16 + 16
        // A file the head holds whole (and no NUL byte, which the head leaves out) that would
        // be read in one chunk is parsed from the head, not read a second time: that was a
        // tenth of loading many small files. Not when a totals row is left out of the end.
        let oneChunk = !chunked && ranges.count == 1 && head.count == source.size && dataEnd == source.size && source.size - dataStart <= options.chunkSize
        let whole = oneChunk ? Preloaded(bytes: head, start: headDataStart) : nil
        head = []
        let partResults: [Result<CSVPart, Error>]
        var streamNuls = 0
        var streamTail: [UInt8]?
        if chunked {
            // Rows to reserve in each column's slab: the estimate and half as many again, as a
            // compressed file's size is an estimate (a part that finds no room left writes
            // into an array of its own).
            let slabs = UnsafeSendable((0..<width).map { k in ColumnSlabs.make(for: plan[k], capacity: rowsInAll * 3 / 2 + 1 << 16) })
            let chunks = StreamChunks(source: source, start: dataStart, end: dataEnd, chunkSize: 4 * options.chunkSize) { w, room in
                (0..<width).map { k in
                    ColumnSlabs.addRegion(slabs.value[k], room: room)
                    return ColumnBuilder(name: names[k], index: k, type: plan[k], zone: zone, decimalComma: decimalComma,
                                         capacity: room, slab: slabs.value[k], part: w)
                }
            }
            partResults = try readChunks(chunks, line: line, delimiter: delimiter, width: width, rules: recordRules,
                                         cancel: cancel, path: path)
            streamNuls = chunks.nuls
            streamTail = chunks.tail
        } else {
            // Parts write each column into one slab, each into a region with room to spare for
            // its share of the file's rows (ColumnSlab).
            let rooms = ranges.map { max(0, min($0.range.upperBound, source.expectedSize) - $0.range.lowerBound) / bytesPerRow * 5 / 4 + 1024 }
            let slabs = UnsafeSendable((0..<width).map { k in ColumnSlabs.make(for: plan[k], rooms: rooms) })  // read only
            let results = ParallelParts<CSVPart>(count: ranges.count)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { w in
                let builders = (0..<width).map { k in
                    ColumnBuilder(name: names[k], index: k, type: plan[k], zone: zone, decimalComma: decimalComma,
                                  capacity: rowsInAll, slab: slabs.value[k], part: w)
                }
                results.set(w, Result {
                    try readPart(source, ranges[w].range, line: ranges[w].line, last: w == ranges.count - 1,
                                 delimiter: delimiter, width: width, builders: builders, rules: recordRules, options: options, cancel: cancel,
                                 path: path, stop: results, preloaded: whole)
                })
            }
            partResults = ranges.indices.map { results.own($0) }
        }
        var partBuilders: [[ColumnBuilder]] = []
        var nuls = 0
        var rowLines: [Int32] = []
        var linesBefore = 0  // lines before the part's first, for the parts after the first
        var partTail = streamTail  // a compressed file's last bytes
        nuls += streamNuls
        for w in partResults.indices {
            let part: CSVPart
            switch partResults[w] {
            case .success(let p): part = p
            case .failure(let e):
                // The parts before this one ended where records do, so it started where one
                // does: its error is the file's, unless it only stopped because a later part
                // (perhaps started inside quotes) failed. Lines in its errors count from the
                // cut, except in the first part.
                if e is CancellationError, cancel?.isCancelled == true { throw e }
                if partResults.count == 1 || (w == 0 && !(e is CancellationError)) || e is TypeConflict { throw e }
                throw SplitMismatch()
            }
            nuls += part.nuls
            let shift = w == 0 ? 0 : linesBefore
            warnings.merge(part.records.warnings, lineShift: shift)
            rowLines += shift == 0 ? part.records.rowLines : part.records.rowLines.map { $0 + Int32(shift) }
            linesBefore = shift + part.records.line - 1
            partBuilders.append(part.records.builders)
            if let tail = part.tail { partTail = tail }
        }
        shape.footerLine = linesBefore + 1
        // A compressed file's last line, now that it has been read: a totals row is left out
        // as in the plain file, by reading it again without it.
        if source.isStreamed, options.dropsFooter, !shape.tailSeen, nuls == 0, let voted = shape.voted, let tail = partTail {
            shape.tailSeen = true
            if let last = CSVShape.lastLine(ofText: tail[...], endingAt: source.size, dataStart: dataStart, delimiter: delimiter),
               let why = CSVShape.footerReason(last.cells, types: voted, decimalComma: decimalComma) {
                shape.footer = (last.offset, why, last.cells)
                throw ShapeDecision.FooterAtEnd()
            }
        }
        let merged = try absorbParts(partBuilders, width: width)
        if nuls > 0 {
            // Rare enough to look for again, to say where they were.
            let lines = (try? source.linesWithNUL(limit: 3)) ?? []
            for l in lines { warnings.add("NUL", line: l, "a NUL byte (a zero byte, which is not text) was removed") }
            if nuls > lines.count { warnings.add("encoding", line: nil, "\(nuls) NUL bytes were removed in all") }
        }
        if let note = source.note { warnings.add("encoding", line: nil, note) }
        var columns = merged.map { $0.finish() }
        // A header cell that is empty over a column that is empty is a trailing delimiter.
        while let last = columns.last, last.name.hasPrefix("column_"), last.type == .null, header.last?.isEmpty ?? false {
            columns.removeLast(); header.removeLast()
        }
        let guessedZone = inferredZone(merged, default: zone)
        if let note = guessedZone.note { warnings.add("zone", line: nil, note) }
        for note in timeNotes(merged, zone: guessedZone.zone) { warnings.add("times", line: nil, note) }
        var readPositions: [Int]? = nil
        let fileWidth = columns.count
        if let reads {
            readPositions = columns.indices.filter { reads[$0] }
            columns = readPositions!.map { columns[$0] }
        }
        let table = Table(name: name, columns: columns, zone: guessedZone.zone)
        var loaded = LoadedTable(table: table, warnings: warnings.finish(), rowLines: rowLines)
        loaded.columnsJoinedInPlace = merged.filter(\.joinedInPlace).count
        loaded.streamChunks = chunked ? partResults.count : 0
        if reads != nil {
            loaded.fileColumns = Array(names.prefix(fileWidth))
            loaded.readPositions = readPositions
            loaded.unread = unread
        }
        return loaded
    }

    /// Columns as the sample rows at the start of the text read them (up to `rows` records,
    /// before `end`, a file offset): what is known of a column that is not read.
    static func sampleColumns(_ head: [UInt8], from start: Int, dataStart: Int, end: Int, whole: Bool, delimiter: UInt8, rows: Int,
                              columns: [Int], names: [String], types: [CellType], zone: ZoneRules, decimalComma: Bool) -> [Int: Column] {
        let builders = columns.map { ColumnBuilder(name: names[$0], index: $0, type: types[$0], zone: zone, decimalComma: decimalComma) }
        var scanner = CSVScanner(delimiter: delimiter)
        var p = start
        var n = 0
        head.withUnsafeBytes { b in
            while n < rows, dataStart + (p - start) < end, let next = try? scanner.scanRecord(b, from: p, isFinal: whole) {
                if next == p { break }
                if !scanner.isBlank {
                    for (builder, k) in zip(builders, columns) {
                        guard k < scanner.fieldCount else { builder.appendNull(); continue }
                        let keep = scanner.quoted[k]
                        scanner.withField(k, in: b) { field in
                            do { try builder.appendText(keep ? field : trimmed(field)) } catch { builder.appendNull() }
                        }
                    }
                    n += 1
                }
                p = next
            }
        }
        return Dictionary(uniqueKeysWithValues: zip(columns, builders.map { $0.finish() }))
    }

    /// The parts' columns joined into the first part's, every column on its own core: the
    /// moving is a load's last pass over its memory, and one column does not wait for another.
    static func absorbParts(_ parts: [[ColumnBuilder]], width: Int) throws -> [ColumnBuilder] {
        guard let first = parts.first else { return [] }
        if parts.count == 1 { return first }
        let errors = ParallelParts<Void>(count: width)
        let shared = UnsafeSendable(parts)  // each column's builders are touched by one worker only
        DispatchQueue.concurrentPerform(iterations: width) { k in
            errors.set(k, Result { _ = try ColumnBuilder.join(shared.value.map { $0[k] }) })
        }
        for k in 0..<width { if case .failure(let e) = errors.own(k) { throw e } }
        return first
    }

    /// Records in the first chunk, for estimating how many rows the file holds.
    static func sampledRows(_ head: [UInt8], _ from: Int) -> Int {
        // Eight bytes at a time: a byte at a time, this was a twentieth of loading many small files.
        max(1, head.withUnsafeBytes { countByte(0x0A, in: UnsafeRawBufferPointer(rebasing: $0[min(from, $0.count)...])) })
    }

    struct CSVPart {
        var records: CSVRecords
        var nuls: Int
        /// A compressed file's last bytes of text (at least `CSVShape.tailBytes` of them, or
        /// all): its last line, which could not be looked at before it was read.
        var tail: [UInt8]?
    }

    /// The whole text, read already, and where its records start.
    struct Preloaded: Sendable { var bytes: [UInt8]; var start: Int }

    /// A part's stretch did not end where a record does.
    struct SplitMismatch: Error {}

    /// One worker's stretch of the file, read in chunks; only whole records are parsed.
    static func readPart(_ source: FileSource, _ range: Range<Int>, line: Int, last: Bool, delimiter: UInt8, width: Int,
                         builders: [ColumnBuilder], rules: CSVRecordRules, options: CSVOptions, cancel: CancellationFlag?,
                         path: String, stop: ParallelParts<CSVPart>, preloaded: Preloaded? = nil) throws -> CSVPart {
        var records = CSVRecords(delimiter: delimiter, width: width, builders: builders, line: line, path: path, rules: rules)
        if let preloaded {
            if !source.isStreamed { options.progress?.advance(range.count) }
            try preloaded.bytes.withUnsafeBytes { try parse(&records, $0, preloaded.start, $0.count, last: last, path: path, cancel: cancel) }
            return CSVPart(records: records, nuls: 0, tail: nil)
        }
        let buffer = ReadBuffer(capacity: options.chunkSize + 4096)
        var offset = range.lowerBound
        var pos = 0
        var nuls = 0
        var final = range.isEmpty
        var boundaries = BoundarySearch(delimiter: delimiter)
        var tail: [UInt8]? = source.isStreamed && last ? [] : nil
        while true {
            if stop.failed { throw CancellationError() }
            if !final {
                if pos > 0 { buffer.removeFirst(pos); pos = 0 }
                let before = buffer.count
                let n = try buffer.read(from: source, at: offset, count: min(options.chunkSize, range.upperBound - offset), nuls: &nuls)
                offset += n
                if tail != nil {
                    buffer.withUnsafeBytes { tail!.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[before...])) }
                    if tail!.count > 2 * CSVShape.tailBytes { tail!.removeFirst(tail!.count - CSVShape.tailBytes) }
                }
                if !source.isStreamed { options.progress?.advance(n) }  // a stream counts its compressed bytes
                final = n == 0 || offset >= range.upperBound
            }
            let end: Int
            if final { end = buffer.count } else {
                guard let e = buffer.withUnsafeBytes({ boundaries.find($0, from: pos) }) else { continue }
                end = e
            }
            try buffer.withUnsafeBytes { try parse(&records, $0, pos, end, last: last, path: path, cancel: cancel) }
            pos = end
            if final { break }
        }
        return CSVPart(records: records, nuls: nuls, tail: tail)
    }

    /// Records from `from` to `end` of `b`. Only the last part ends where the file does:
    /// another one ending inside quotes means its cut fell inside a quoted cell.
    private static func parse(_ records: inout CSVRecords, _ b: UnsafeRawBufferPointer, _ from: Int, _ end: Int, last: Bool,
                              path: String, cancel: CancellationFlag?) throws {
        do {
            try records.parse(b, from, end, cancel: cancel)
        } catch let u as CSVRecords.Unterminated {
            if !last { throw SplitMismatch() }
            throw LoadError(path: path, line: u.line, column: u.column, "a quoted cell is never closed (the file ends inside quotes)")
        }
    }

    /// A compressed file's text parsed in chunks by every core (StreamChunks): each chunk's
    /// result, in order. The stream's own error (damage, a file cut short) is thrown first.
    static func readChunks(_ chunks: StreamChunks, line: Int, delimiter: UInt8, width: Int, rules: CSVRecordRules,
                           cancel: CancellationFlag?, path: String) throws -> [Result<CSVPart, Error>] {
        try chunks.parseAll { chunk, buffer in
            var records = CSVRecords(delimiter: delimiter, width: width, builders: chunk.builders,
                                     line: chunk.part == 0 ? line : 1, path: path, rules: rules)
            try parse(&records, UnsafeRawBufferPointer(start: buffer.bytes, count: chunk.count), 0, chunk.count,
                      last: chunk.last, path: path, cancel: cancel)
            return CSVPart(records: records, nuls: 0, tail: nil)
        }
    }

    /// Spaces and tabs around a name dropped (as `.whitespaces` does), without the trip through
    /// NSString that made a header of 65,535 names take a second.
    static func trimmedSpaces(_ s: String) -> String {
        func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || (c.value > 127 && CharacterSet.whitespaces.contains(c)) }
        let scalars = s.unicodeScalars
        guard let first = scalars.first, let last = scalars.last, isSpace(first) || isSpace(last) else { return s }
        guard let start = scalars.firstIndex(where: { !isSpace($0) }), let end = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[start...end])
    }

    /// Header names: trimmed, empty ones named `column_N`, repeated ones numbered, each name
    /// once: a number given never takes a name the header has further on (`a,a,a_2` gives
    /// a, a_3, a_2).
    static func cleanHeader(_ header: [String], keepingSpaces: Bool = false, warnings: inout WarningLog) -> [String] {
        func cleaned(_ raw: String) -> String {
            let name = trimmedSpaces(raw)
            return keepingSpaces && !name.isEmpty ? raw : name
        }
        let written = Set(header.map { cleaned($0).lowercased() })
        var taken = Set<String>()
        var out: [String] = []
        for (i, raw) in header.enumerated() {
            var name = cleaned(raw)
            if name.isEmpty {
                name = "column_\(i + 1)"
                var k = 2
                while written.contains(name.lowercased()) || taken.contains(name.lowercased()) { name = "column_\(i + 1)_\(k)"; k += 1 }
                if i != header.count - 1 { warnings.add("header", line: 1, "column \(i + 1) has no name; called \(name)") }
            }
            if taken.contains(name.lowercased()) {
                var n = 2
                while taken.contains("\(name)_\(n)".lowercased()) || written.contains("\(name)_\(n)".lowercased()) { n += 1 }
                let renamed = "\(name)_\(n)"
                warnings.add("header", line: 1, "column name \"\(name)\" appears twice; the second is called \(renamed)")
                name = renamed
            }
            taken.insert(name.lowercased())
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
