import Foundation

/// Reads a JSON array of objects, or newline-delimited JSON, straight into typed columns.
/// Nested objects are flattened (`position.x`); nested arrays are kept as JSON text.
/// The file is read in chunks, so memory holds the columns, not the text; a large file is
/// read by several workers, each from a record boundary of its own.
public enum JSONRecordLoader {
    /// `memoryLimit`: the session's `set memory-limit`, which the columns must fit in.
    public static func load(path: String, name: String, zone: ZoneRules, chunkSize: Int = 1 << 20,
                            parts: Int? = nil, cancel: CancellationFlag? = nil, progress: LoadProgress? = nil,
                            memoryLimit: Int? = nil) throws -> LoadedTable {
        try load(path: path, name: name, zone: zone, chunkSize: chunkSize, parts: parts, cuts: nil, cancel: cancel, progress: progress,
                 memoryLimit: memoryLimit)
    }

    /// `cuts`: where the parts start, in place of the cuts the reader finds (for tests that
    /// try every cut). `templates: false` reads every record with the general parser (the
    /// reference the template reader is tested against).
    ///
    /// `chooses`: which of the columns the sample found to read, given their names (in the
    /// order met) and types: false skips one (its values are passed over). Columns met only
    /// after the sample are read. The table then holds the columns read (NamedColumns).
    static func load(path: String, name: String, zone: ZoneRules, chunkSize: Int = 1 << 20, parts: Int?, cuts: [Int]?,
                     templates: Bool = true,
                     cancel: CancellationFlag? = nil, progress: LoadProgress? = nil, memoryLimit: Int? = nil,
                     chooses: (@Sendable ([String], [CellType]) -> [Bool]?)? = nil) throws -> LoadedTable {
        var cuts = cuts
        var plan: [String: CellType]? = nil
        var sampleOrder: [String] = []
        var parts = parts
        // Columns a value past the sample turned to text, with the type they had: the load says so.
        var widened: [String: CellType] = [:]
        for _ in 0..<64 {
            do {
                var loaded = try read(path: path, name: name, zone: zone, chunkSize: chunkSize, parts: parts, cuts: cuts, templates: templates, plan: &plan,
                                      order: &sampleOrder, chooses: chooses, cancel: cancel, progress: progress, memoryLimit: memoryLimit)
                let positions = Dictionary(loaded.table.columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
                let byPosition = Dictionary(widened.compactMap { name, was in positions[name].map { ($0, was) } }, uniquingKeysWith: { a, _ in a })
                loaded.warnings += ShapeDecision.textNotes(byPosition, loaded.table, rowLines: [], path: path)
                return loaded
            } catch let conflict as RecordConflict {
                if let was = plan?[conflict.column], widened[conflict.column] == nil, [.int, .double, .timestamp, .duration].contains(was.dataType) {
                    // A whole-number column takes fractions in place: only what is no number broke it.
                    widened[conflict.column] = was == .int ? .double : was
                }
                plan![conflict.column] = conflict.widened
            } catch is SplitMismatch {
                parts = 1  // a cut fell inside a record after all: read it in one piece
                cuts = nil
            }
        }
        throw LoadError(path: path, "column types kept changing while reading")
    }

    struct RecordConflict: Error { let column: String; let widened: CellType }
    /// A worker's stretch did not end where the next one began.
    struct SplitMismatch: Error {}

    enum Layout { case array, lines }

    private static func read(path: String, name: String, zone: ZoneRules, chunkSize: Int, parts: Int?, cuts forced: [Int]?, templates: Bool,
                             plan: inout [String: CellType]?, order sampleOrder: inout [String],
                             chooses: (@Sendable ([String], [CellType]) -> [Bool]?)?, cancel: CancellationFlag?, progress: LoadProgress?,
                             memoryLimit: Int?) throws -> LoadedTable {
        let source = try FileSource(path: path, progress: progress)
        let headRequest = max(chunkSize, 4 << 20)
        var head = try source.head(headRequest)
        let headIsAll = headRequest >= source.size
        let (layout, headDataStart): (Layout, Int) = try head.withUnsafeBytes { b in
            var r = JSONReader(b, pos: 0, isFinal: headIsAll)
            r.skipWhitespace()
            guard let c = r.peek() else { throw LoadError(path: path, "the file is empty", kind: .emptyFile) }
            return c == 0x5B ? (.array, r.pos + 1) : (.lines, r.pos)
        }
        if plan == nil {
            (plan, sampleOrder) = try head.withUnsafeBytes { b in try sniff(b, from: headDataStart, layout: layout, isFinal: headIsAll, path: path) }
        }
        // In the file, the data starts after the NUL bytes the head left out.
        let dataStart = try source.offset(afterText: headDataStart)
        let columnPlan = plan!
        var skipped = Set<String>()
        if let mask = chooses?(sampleOrder, sampleOrder.map { columnPlan[$0] ?? .undetermined }), mask.count == sampleOrder.count {
            skipped = Set(sampleOrder.indices.filter { !mask[$0] }.map { sampleOrder[$0] })
        }
        let skip = skipped
        // Rows per byte from the first chunk, to reserve the columns' memory once. Records
        // are counted by their opening braces (one per record whether the file is written on
        // one line, one record a line or pretty-printed; nested objects only make the room
        // larger), by lines when the records are not objects.
        let sampleRecords = max(1, head.withUnsafeBytes { b in
            let braces = countByte(0x7B, in: b)
            return braces > 0 ? braces : countByte(0x0A, in: b)
        })
        let bytesPerRecord = max(16, head.count / sampleRecords)
        head = []  // the sample is read; its memory goes back before the columns fill
        // A compressed file is read in order: one of a record a line, when large, is parsed in
        // chunks of whole lines by every core (StreamChunks); any other in one part.
        let chunked = source.isStreamed && layout == .lines
            && (parts ?? (Workers.available >= 2 && source.expectedSize - dataStart >= 2 * Workers.bytesPerPart ? 2 : 1)) >= 2
        let workers = source.isStreamed ? 1 : parts ?? Workers.count(forBytes: source.size)
        let cuts = try (source.isStreamed ? nil : forced) ?? jsonSplitPoints(source, from: dataStart, parts: workers, layout: layout)
        var stretches: [Range<Int>] = []
        var from = dataStart
        for cut in cuts { stretches.append(from..<cut); from = cut }
        stretches.append(from..<source.size)
        let ranges = stretches
        // Each part fills columns of its own at the same time as the others.
        let partBudget = ColumnBudget(memoryLimit: memoryLimit, shares: chunked ? Workers.available : ranges.count)
        // The parts write the columns the sample found into one slab each, every part into a
        // region with room to spare for its share of the records (ColumnSlab) — unless those
        // columns alone would not fit: a sparse file's sample names many members.
        let rooms = ranges.map { $0.count / bytesPerRecord * 5 / 4 + 1024 }
        var slabs: [String: AnyObject] = [:]
        if chunked {
            // Room for the estimate and half as much again: the size of a compressed file's
            // text is an estimate (a part that finds no room left fills arrays of its own).
            let capacity = source.expectedSize / bytesPerRecord * 3 / 2 + 1 << 16
            if ColumnBudget(memoryLimit: memoryLimit).refusal(rows: capacity, columns: columnPlan.count) == nil {
                for (name, type) in columnPlan where !skip.contains(name) { slabs[name] = ColumnSlabs.make(for: type, capacity: capacity) }
            }
        } else if ranges.count > 1, ColumnBudget(memoryLimit: memoryLimit).refusal(rows: rooms.reduce(0, +), columns: columnPlan.count) == nil {
            for (name, type) in columnPlan where !skip.contains(name) { slabs[name] = ColumnSlabs.make(for: type, rooms: rooms) }
        }
        let partSlabs = UnsafeSendable(slabs)  // read only while the parts run
        let partResults: [Result<JSONPart, Error>]
        var streamNuls = 0  // dropped as the chunks were read
        if chunked {
            // Each chunk's region of each slab is as long as its lines: a record a line.
            let chunks = StreamChunks(source: source, start: dataStart, end: source.size, chunkSize: 4 * chunkSize) { _, room in
                for slab in partSlabs.value.values { ColumnSlabs.addRegion(slab, room: room) }
                return []
            }
            partResults = try chunks.parseAll { chunk, buffer in
                return try readPart(source, 0..<chunk.count, part: chunk.part, last: chunk.last, layout: layout, plan: columnPlan,
                                    slabs: partSlabs.value, templates: templates, skipped: skip, zone: zone,
                                    rowEstimate: chunk.count / bytesPerRecord * 17 / 16 + 64, chunkSize: chunkSize, cancel: cancel,
                                    progress: nil, path: path, stop: chunks, budget: partBudget,
                                    text: ReadBuffer(borrowing: buffer.bytes, count: chunk.count))
            }
            streamNuls = chunks.nuls
        } else {
            let results = ParallelParts<JSONPart>(count: ranges.count)
            DispatchQueue.concurrentPerform(iterations: ranges.count) { w in
                results.set(w, Result {
                    try readPart(source, ranges[w], part: w, last: w == ranges.count - 1, layout: layout, plan: columnPlan, slabs: partSlabs.value,
                                 templates: templates, skipped: skip, zone: zone, rowEstimate: ranges[w].count / bytesPerRecord * 17 / 16 + 64,
                                 chunkSize: chunkSize, cancel: cancel, progress: progress, path: path, stop: results, budget: partBudget)
                })
            }
            partResults = ranges.indices.map { results.own($0) }
        }
        let budget = ColumnBudget(memoryLimit: memoryLimit)
        // Join the parts column by column, by name (a column may first appear in any part).
        var order: [String] = []
        var seen: Set<String> = []
        var partsRead: [JSONPart] = []
        var rows = 0
        var duplicates = 0, nuls = streamNuls, templateRecords = 0
        for w in partResults.indices {
            let part: JSONPart
            switch partResults[w] {
            case .success(let p): part = p
            case .failure(let e):
                if e is CancellationError, cancel?.isCancelled == true { throw e }
                // The parts before this one ended where records do, so it started where one
                // does and a type conflict in it is the file's. Any other error may come from
                // a cut inside a record, which makes the next part start mid-record (or this
                // one stop because that one failed): only a reading in one piece can tell
                // whether the file is broken, and where.
                if partResults.count == 1 || e is RecordConflict { throw e }
                throw SplitMismatch()
            }
            duplicates += part.duplicateKeys
            templateRecords += part.templateRecords
            nuls += part.nuls
            // The columns this part adds are filled for the rows before it.
            let added = part.builders.filter { !seen.contains($0.name) }
            if let reason = budget.refusal(rows: rows + part.rows, columns: order.count + added.count) {
                throw LoadError(path: path, reason)
            }
            for b in added { seen.insert(b.name); order.append(b.name) }
            rows += part.rows
            partsRead.append(part)
        }
        let builders = try joinParts(partsRead, order: order.filter { !skip.contains($0) }, zone: zone)
        var warnings = WarningLog(path: path)
        if nuls > 0 { warnings.add("encoding", line: nil, nuls == 1 ? "1 NUL byte was removed" : "\(NumberText.grouped(nuls)) NUL bytes were removed") }
        if duplicates > 0 {
            warnings.add("duplicate keys", line: nil, duplicates == 1 ? "1 object repeats a member name; the first value is kept" : "\(NumberText.grouped(duplicates)) objects repeat a member name; the first value is kept")
        }
        let columns = builders.map { $0.finish() }
        let guessedZone = inferredZone(builders, default: zone)
        if let note = guessedZone.note { warnings.add("zone", line: nil, note) }
        for note in timeNotes(builders, zone: guessedZone.zone) { warnings.add("times", line: nil, note) }
        // Objects without members are rows all the same: `[{}, {}]` is two rows of no columns.
        var table = Table(name: name, columns: columns, zone: guessedZone.zone)
        table.rowCount = rows
        var loaded = LoadedTable(table: table, warnings: warnings.finish())
        if !skip.isEmpty {
            loaded.fileColumns = order
            loaded.readPositions = order.indices.filter { !skip.contains(order[$0]) }
            for (k, name) in order.enumerated() where skip.contains(name) {
                loaded.unread[k] = ColumnBuilder(name: name, index: k, type: columnPlan[name] ?? .undetermined, zone: zone).finish()
            }
        }
        loaded.templateRecords = templateRecords
        loaded.columnsJoinedInPlace = builders.filter(\.joinedInPlace).count
        loaded.streamChunks = chunked ? partResults.count : 0
        return loaded
    }

    /// Each column of the parts joined into one, every column on its own core: the moving is
    /// the load's last pass over its memory. A column some part has no cell of is filled with
    /// missing cells there.
    private static func joinParts(_ parts: [JSONPart], order: [String], zone: ZoneRules) throws -> [ColumnBuilder] {
        let byName = parts.map { part in Dictionary(part.builders.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }) }
        let rowsBefore = parts.indices.map { w in parts[..<w].reduce(0) { $0 + $1.rows } }
        let rows = parts.reduce(0) { $0 + $1.rows }
        let partRows = parts.map(\.rows)
        let shared = UnsafeSendable((byName, order))  // each column's builders are touched by one worker only
        let outcomes = ParallelParts<ColumnBuilder>(count: order.count)
        DispatchQueue.concurrentPerform(iterations: order.count) { k in
            let (byName, order) = shared.value
            let name = order[k]
            let own = byName.map { $0[name] }
            outcomes.set(k, Result {
                // A part's column ends at the last record that had it: its rows after are missing.
                for (w, b) in own.enumerated() { if let b { while b.count < partRows[w] { b.appendNull() } } }
                do {
                    if own.allSatisfy({ $0 != nil }) {
                        let joined = try ColumnBuilder.join(own.map { $0! })
                        return joined
                    }
                    let joined = ColumnBuilder(name: name, index: k, type: .undetermined, zone: zone)
                    for (w, b) in own.enumerated() {
                        guard let b else { continue }
                        while joined.count < rowsBefore[w] { joined.appendNull() }
                        try joined.absorb(b)
                    }
                    while joined.count < rows { joined.appendNull() }
                    return joined
                } catch is TypeConflict {
                    throw RecordConflict(column: name, widened: .string)
                }
            })
        }
        return try order.indices.map { try outcomes.own($0).get() }
    }

    struct JSONPart {
        var builders: [ColumnBuilder]
        var rows: Int
        var duplicateKeys: Int
        var nuls: Int
        var templateRecords: Int
    }

    /// One worker's stretch: records from its start up to its end (the last one also reads
    /// the closing bracket and checks nothing follows it).
    static func readPart(_ source: FileSource, _ range: Range<Int>, part: Int, last: Bool, layout: Layout, plan: [String: CellType],
                         slabs: [String: AnyObject], templates: Bool, skipped: Set<String> = [],
                         zone: ZoneRules, rowEstimate: Int, chunkSize: Int, cancel: CancellationFlag?, progress: LoadProgress?, path: String,
                         stop: PartsFailing, budget: ColumnBudget, text: ReadBuffer? = nil) throws -> JSONPart {
        // Room for the rows expected in each column the sample found, unless those columns
        // alone would not fit: a sparse file's sample names many members.
        let capacity = budget.refusal(rows: rowEstimate, columns: plan.count) == nil ? rowEstimate : 0
        var parser = RecordParser()
        var template = RecordTemplate()
        template.skipped = skipped
        defer { template.release() }
        var builders: [ColumnBuilder] = []
        // `text`: the whole stretch, read already (a chunk of a compressed file's).
        let buffer = text ?? ReadBuffer(capacity: chunkSize + 4096)
        var base = range.lowerBound  // file offset of buffer[0]
        var offset = range.lowerBound
        var pos = 0
        var nuls = 0
        var rows = 0
        var expectComma = false
        var final = text != nil || range.isEmpty
        var closed = false
        func refill() throws {
            if pos > 0 { buffer.removeFirst(pos); base += pos; pos = 0 }
            let n = try buffer.read(from: source, at: offset, count: min(chunkSize, range.upperBound - offset), nuls: &nuls)
            offset += n
            if !source.isStreamed { progress?.advance(n) }  // a stream counts its compressed bytes
            final = n == 0 || offset >= range.upperBound
        }
        if !final { try refill() }
        loop: while true {
            if stop.failed { throw CancellationError() }
            var needMore = false
            try buffer.withUnsafeBytes { b in
                // The batch points into this buffer: it goes into the columns before the
                // buffer moves, whichever way this pass ends.
                var lastRecordStart = pos
                func flush() throws {
                    do {
                        try template.flush(into: builders, rowsBefore: rows - template.rows, budget: budget)
                    } catch let tooMany as ColumnsDoNotFit {
                        throw located(tooMany.reason, at: lastRecordStart, base, path)
                    }
                }
                func pass() throws {
                while true {
                    // Only the last part ends where the file does; the others may end inside a
                    // record, which is a bad cut (SplitMismatch), not an error in the file.
                    var r = JSONReader(b, pos: pos, isFinal: final && last)
                    r.skipWhitespace()
                    guard let c = r.peek() else {
                        if !final { needMore = true }
                        pos = r.pos
                        return
                    }
                    if layout == .array {
                        if c == 0x5D {
                            guard last else { throw SplitMismatch() }
                            pos = r.pos + 1
                            closed = true
                            return
                        }
                        if expectComma {
                            guard c == 0x2C else {
                                throw located(JSONSyntaxError(offset: r.pos, message: "expected ',' or ']' between array elements, found \(r.describe(c))"), base, path)
                            }
                            r.pos += 1
                            r.skipWhitespace()
                            if r.peek() == nil {
                                if !final { needMore = true; return }
                                if !last { pos = r.pos; return }  // the next part starts with a record
                                throw located(JSONSyntaxError(offset: r.pos, message: "the array is not closed with ']'"), base, path)
                            }
                        }
                    } else if c == 0x2C {
                        r.pos += 1  // tolerate commas between lines
                        pos = r.pos
                        continue
                    }
                    let recordStart = r.pos
                    lastRecordStart = recordStart
                    if template.isReady, r.peek() == 0x7B, let end = template.read(b, at: recordStart) {
                        rows += 1
                        pos = end
                        expectComma = true
                        if template.isFull { try flush() }
                        if rows & 0x1FFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                        continue
                    }
                    try flush()
                    do {
                        try parser.parseRecord(&r)
                    } catch is JSONIncomplete {
                        if final { throw SplitMismatch() }
                        needMore = true
                        return
                    } catch let e as JSONSyntaxError {
                        throw located(e, base, path)
                    }
                    do {
                        try parser.commit(into: &builders, plan: plan, row: rows, zone: zone, bytes: b, capacity: capacity, budget: budget,
                                          slabs: slabs, part: part, skipped: skipped)
                    } catch let tooMany as ColumnsDoNotFit {
                        throw located(tooMany.reason, at: recordStart, base, path)
                    }
                    if templates, b[recordStart] == 0x7B { template.learn(parser, bytes: b, builders: builders) }
                    rows += 1
                    pos = r.pos
                    expectComma = true
                    if rows & 0x1FFF == 0, cancel?.isCancelled == true { throw CancellationError() }
                }
                }
                do { try pass() } catch {
                    template.discard()  // the part is read again or the load fails
                    throw error
                }
                try flush()
            }
            if closed { break loop }
            if needMore { try refill(); continue }
            // The stretch is used up.
            if layout == .array && last {
                throw located(JSONSyntaxError(offset: buffer.count, message: "the array is not closed with ']'"), base, path)
            }
            break
        }
        if closed {
            // Nothing but whitespace may follow the closing bracket.
            while true {
                let trailing = buffer.withUnsafeBytes { b -> Int? in
                    var r = JSONReader(b, pos: pos, isFinal: true)
                    r.skipWhitespace()
                    return r.pos < b.count ? r.pos : nil
                }
                if let t = trailing { throw located(JSONSyntaxError(offset: t, message: "unexpected text after the closing ']'"), base, path) }
                pos = buffer.count
                if final { break }
                try refill()
            }
        }
        for b in builders where b.count < rows && !skipped.contains(b.name) { for _ in b.count..<rows { b.appendNull() } }
        return JSONPart(builders: builders, rows: rows, duplicateKeys: parser.duplicateKeys, nuls: nuls, templateRecords: template.hits)
    }

    /// A syntax error with its line and column in the file (counted from the start only now,
    /// when it is needed).
    static func located(_ e: JSONSyntaxError, _ base: Int, _ path: String) -> Error {
        located("invalid JSON: " + e.message, at: e.offset, base, path)
    }

    /// An error at an offset in the buffer that starts at `base` in the file, with its line
    /// and column.
    static func located(_ message: String, at offset: Int, _ base: Int, _ path: String) -> Error {
        let absolute = base + offset
        if let all = try? FileSource(path: path), let bytes = try? all.head(absolute + 1) {
            let (line, column) = bytes.withUnsafeBytes { lineAndColumn(of: absolute, in: $0) }
            return LoadError(path: path, line: line, column: column, message)
        }
        return LoadError(path: path, "at byte \(absolute): " + message)
    }

    /// Decides column types from the records in the first chunk.
    /// The types, and the columns in the order met.
    static func sniff(_ b: UnsafeRawBufferPointer, from start: Int, layout: Layout, isFinal: Bool, path: String) throws -> ([String: CellType], [String]) {
        var parser = RecordParser()
        var votes: [Int: ColumnVote] = [:]
        var pos = start
        var records = 0
        while records < 2000 {
            var r = JSONReader(b, pos: pos, isFinal: isFinal)
            r.skipWhitespace()
            guard let c = r.peek() else { break }
            if c == 0x5D { break }
            if c == 0x2C { r.pos += 1 }
            do { try parser.parseRecord(&r) } catch { break }
            for cell in parser.cells { votes[Int(cell.column), default: ColumnVote()].add(cell, parser: parser, bytes: b) }
            records += 1
            pos = r.pos
        }
        var plan: [String: CellType] = [:]
        for (column, vote) in votes { plan[parser.columnName(column)] = vote.result }
        return (plan, votes.keys.sorted().map { parser.columnName($0) })
    }

    /// The kinds of values one column showed in the sample.
    struct ColumnVote {
        var numbers = 0, integers = 0, bools = 0, strings = 0, nested = 0
        var text = TypeVote()

        mutating func add(_ cell: RecordParser.Cell, parser: RecordParser, bytes: UnsafeRawBufferPointer) {
            switch cell.kind {
            case .int: numbers += 1; integers += 1
            case .double: numbers += 1
            case .bool: bools += 1
            case .null: break
            case .string:
                strings += 1
                parser.withText(cell, bytes) { text.add($0) }
            case .nested: nested += 1
            }
        }

        var result: CellType {
            let kinds = (numbers > 0 ? 1 : 0) + (bools > 0 ? 1 : 0) + (strings > 0 ? 1 : 0) + (nested > 0 ? 1 : 0)
            if kinds == 0 { return .undetermined }
            if kinds > 1 { return .string }
            if numbers > 0 { return integers == numbers ? .int : .double }
            if bools > 0 { return .bool }
            if nested > 0 { return .string }
            // JSON strings stay strings unless they are times or durations: a quoted
            // "123" in JSON was written as text on purpose.
            switch text.result {
            case .timestamp(let o): return .timestamp(o)
            case .duration(let s): return .duration(s)
            default: return .string
            }
        }
    }
}

/// Where to cut JSON records into parts: after a line break. A raw line break cannot be
/// inside a JSON string, so it always lies between tokens; for an array, the cut must also
/// be followed by `{` and preceded by `,` — and if it still falls inside a nested array,
/// the part before it will not end there, and the load is read again in one piece.
///
/// An array written on one line (as most APIs write it) has no line breaks: there the cut
/// is at the `{` of `},{"k` where k starts a name. That cannot be inside a string of a valid
/// document: the unescaped quote would end the string, and a name character may not follow
/// a string's end. A cut inside a nested array of objects is found out as above.
func jsonSplitPoints(_ source: FileSource, from dataStart: Int, parts: Int, layout: JSONRecordLoader.Layout) throws -> [Int] {
    guard parts > 1 else { return [] }
    var cuts: [Int] = []
    for part in 1..<parts {
        let offset = dataStart + (source.size - dataStart) * part / parts
        // A long record may carry one part's cut past where the next part would look.
        guard let cut = try jsonCut(source, from: max(offset, (cuts.last ?? 0) + 1), layout: layout), cut < source.size else { break }
        cuts.append(cut)
    }
    return cuts
}

/// The first place at or after `offset` where a part may start (see jsonSplitPoints).
func jsonCut(_ source: FileSource, from start: Int, layout: JSONRecordLoader.Layout) throws -> Int? {
    var offset = start
    var nuls = 0
    var buffer: [UInt8] = []
    var previousNonSpace: UInt8 = 0, beforePrevious: UInt8 = 0
    // The characters before the first candidate break.
    if offset > 0 {
        var before: [UInt8] = []
        let back = min(offset, 256)
        _ = try source.read(at: offset - back, count: back, into: &before, nuls: &nuls)
        let seen = before.filter { $0 > 0x20 }
        previousNonSpace = seen.last ?? 0
        beforePrevious = seen.dropLast().last ?? 0
    }
    while offset < source.size {
        buffer.removeAll(keepingCapacity: true)
        let n = try source.read(at: offset, count: min(1 << 16, source.size - offset), into: &buffer, nuls: &nuls)
        if n == 0 || buffer.count != n { return nil }  // NUL bytes would shift offsets: do not split
        for (j, c) in buffer.enumerated() {
            if c == 0x0A {
                let next = buffer[(j + 1)...].first(where: { $0 > 0x20 })
                let ok = layout == .lines ? next != nil : (next == 0x7B && previousNonSpace == 0x2C)
                if ok { return offset + j + 1 }
            } else if c > 0x20 {
                if layout == .array, c == 0x7B, previousNonSpace == 0x2C, beforePrevious == 0x7D,
                   j + 2 < buffer.count, buffer[j + 1] == 0x22, startsName(buffer[j + 2]) {
                    return offset + j
                }
                beforePrevious = previousNonSpace
                previousNonSpace = c
            }
        }
        offset += n
    }
    return nil
}

/// A byte that may start a member name but may not follow the end of a string: a letter,
/// a digit, `_`, `$`, `@`, or the first byte of a character past ASCII.
private func startsName(_ c: UInt8) -> Bool {
    (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x24 || c == 0x40 || c >= 0x80
}
