import Foundation

/// `load "days/*.csv"` in a script that names the columns it uses: each file reads those and
/// its time (NamedColumns), they are joined as a pattern's columns are (PatternLoader), and
/// the other columns are read from every file, and joined, when a question first needs them.
/// Forty-nine days of rides loaded to be counted by hour read one column of twenty-one.
enum PatternColumns {
    /// The joined table of files each loaded with the columns a script names.
    static func load(_ files: [DeferredTable], request: LoadRequest, matched: [String], written: [String],
                     name: String, pattern: String, warnings: [LoadWarning]) throws -> LoadResult {
        // The files' own warnings, then the joining's, in the order a whole load says them.
        var warnings = warnings
        let matching = PatternLoader.Matching(files.map { $0.schema.fields.map(\.name) }, written: written)
        let timeSlot = files.first?.schema.timeColumn.flatMap { matching.slot[$0.lowercased()] }
        // Joined now: the columns every file that has them read, and the time.
        let now = matching.order.indices.filter { s in
            s == timeSlot || files.indices.allSatisfy { k in matching.place(k, s).map(files[k].source.readPositions.contains) ?? true }
        }
        // The zone the joined times show in, from the files' times.
        var timed: [Table] = []
        for (k, f) in files.enumerated() {
            let positions = now.compactMap { matching.place(k, $0) }
            let read = try f.reading { try f.source.columns(positions, cancel: request.cancel, phase: nil) }
            timed.append(Table(name: f.name, columns: read.columns, zone: f.schema.zone, timeColumn: f.schema.timeColumn))
        }
        let (zone, zoneNote) = PatternLoader.commonZone(timed, written: written, default: request.zone)
        timed = []
        if let zoneNote { warnings.append(LoadWarning(path: pattern, zoneNote)) }
        warnings += matching.warnings

        // The columns not read are typed by the files' guesses, joined as their columns will be.
        var warned = Set<Int>()
        var guessed: [Int: Field] = [:]
        for s in matching.order.indices where !now.contains(s) {
            let fields = files.indices.map { k in matching.place(k, s).map { files[k].schema.fields[$0] } }
            let (type, mixed) = Column.unifiedType(fields.compactMap { $0?.type })
            if mixed {
                warned.insert(s)
                warnings.append(PatternLoader.mixedWarning(matching.order[s], fields.map { $0?.type }, written: written))
            }
            let first = fields.lazy.compactMap { $0 }.first!
            guessed[s] = Field(name: matching.order[s], type: type, unit: mixed ? .automatic : first.unit, ordered: false,
                               floating: first.floating, space: first.space)
        }

        let (fileColumn, note) = matching.fileColumn(pattern: pattern)
        warnings += note
        let rows = files.reduce(0) { $0 + $1.rowCount }
        let fileNames = PatternLoader.fileNames(fileColumn, files: matched, rowCounts: files.map(\.rowCount))
        let source = PatternColumnSource(files: files, matching: matching, written: written, fileColumn: fileNames, warned: warned)
        let made = try source.columns(now, cancel: request.cancel, phase: nil)
        warnings += made.warnings
        var fields = matching.order.indices.map { guessed[$0] ?? Field(name: matching.order[$0], type: .null) }
        for (s, c) in zip(now, made.columns) { fields[s] = Field(c) }
        fields.append(Field(fileNames))
        var time: String? = nil
        if let timeSlot, fields[timeSlot].type == .timestamp { time = fields[timeSlot].name }
        let schema = Schema(fields: fields, zone: zone, timeColumn: time)
        var table = DeferredTable(name: name, schema: schema, rowCount: rows, path: pattern, timeRange: nil, source: source)
        table.rowNoun = files.first?.rowNoun ?? "rows"
        table.timeRange = try table.rangeOfTimeColumn(cancel: request.cancel)
        let summary = Loaders.summary(name: name, rows: rows, noun: table.rowNoun,
                                      what: "\(NumberText.counted(fields.count, "column")), from \(NumberText.counted(files.count, "file"))",
                                      span: table.timeRange, zone: zone, unit: schema.timeSpanUnit)
        return LoadResult(tables: [], summary: summary, warnings: warnings, deferred: [table])
    }
}

/// The columns of a pattern's files not read at load: a column is read from every file that
/// has it (the files at the same time, each by its own source), joined as the load joins
/// columns, and kept; each file lets go of its pieces once they are joined.
final class PatternColumnSource: ColumnSource, @unchecked Sendable {
    private let files: [DeferredTable]
    private let matching: PatternLoader.Matching
    private let written: [String]
    /// Columns whose kinds differ between files, said at load.
    private var warned: Set<Int>
    private let lock = NSLock()
    private var columns: [Int: Column]
    private var reads = 0

    init(files: [DeferredTable], matching: PatternLoader.Matching, written: [String], fileColumn: Column, warned: Set<Int>) {
        self.files = files; self.matching = matching; self.written = written; self.warned = warned
        columns = [matching.order.count: fileColumn]
    }

    var guessesTypes: Bool { true }
    var namesFiles: Bool { true }
    var readPositions: Set<Int> { lock.withLock { Set(columns.keys) } }
    var readCount: Int { lock.withLock { reads } }

    func columns(_ positions: [Int], cancel: CancellationFlag?, phase: (@Sendable (Bool) -> Void)?) throws -> (columns: [Column], warnings: [LoadWarning]) {
        lock.lock()
        defer { lock.unlock() }
        var missing: [Int] = []
        for p in positions where columns[p] == nil && !missing.contains(p) { missing.append(p) }
        var warnings: [LoadWarning] = []
        if !missing.isEmpty {
            phase?(true)
            defer { phase?(false) }
            warnings = try join(missing.sorted(), cancel: cancel)
            reads += missing.count
        }
        return (try positions.map { p in
            guard let c = columns[p] else { throw SourceChanged(message: "its column \(matching.order[p]) is no longer there") }
            return c
        }, warnings)
    }

    /// Reads the columns at these places from every file that has them and joins each.
    private func join(_ slots: [Int], cancel: CancellationFlag?) throws -> [LoadWarning] {
        let wanted = files.indices.map { k in slots.compactMap { matching.place(k, $0) } }
        let results = ParallelParts<(columns: [Column], warnings: [LoadWarning])>(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { k in
            if results.failed { results.set(k, .failure(CancellationError())); return }
            results.set(k, Result { try files[k].source.columns(wanted[k], cancel: cancel, phase: nil) })
        }
        var pieces: [[Column]] = []
        var warnings: [LoadWarning] = []
        for k in files.indices {
            switch results.own(k) {
            case .success(let read):
                pieces.append(read.columns)
                warnings += read.warnings.map { w in var w = w; if w.path == files[k].path { w.path = written[k] }; return w }
            case .failure(let error):
                if error is CancellationError, cancel?.isCancelled != true, results.failed { continue }
                throw named(error, k)
            }
        }
        for k in files.indices { files[k].source.release(wanted[k]) }
        // Each column's pieces in a box of its own, let go once the column is joined.
        let boxes = slots.map { s in
            PatternLoader.PiecesBox(files.indices.map { k in
                Column.Piece(column: matching.place(k, s).map { p in pieces[k][wanted[k].firstIndex(of: p)!] }, count: files[k].rowCount,
                             zone: files[k].schema.zone)
            })
        }
        pieces = []
        for (i, s) in slots.enumerated() {
            let types = boxes[i].pieces.map { $0.column?.type }
            if Column.unifiedType(types.compactMap { $0 }).mixed, warned.insert(s).inserted {
                warnings.append(PatternLoader.mixedWarning(matching.order[s], types, written: written))
            }
        }
        let made = ParallelParts<Column>(count: slots.count)
        let names = slots.map { matching.order[$0] }
        DispatchQueue.concurrentPerform(iterations: slots.count) { i in
            let box = boxes[i]
            let type = Column.unifiedType(box.pieces.compactMap { $0.column?.type }).type
            made.set(i, .success(Column.concatenate(box.pieces, name: names[i], type: type)))
            box.pieces = []
        }
        for (i, s) in slots.enumerated() { columns[s] = try made.get(i) }
        return warnings
    }

    /// An error of reading file `k`, naming it as the pattern does.
    private func named(_ error: Error, _ k: Int) -> Error {
        if var e = error as? LoadError {
            if e.path == files[k].path || e.path.isEmpty { e.path = written[k] }
            return e
        }
        if let e = error as? SourceChanged { return SourceChanged(message: "\(written[k]): \(e.message)") }
        if let e = error as? Diagnostic { return Diagnostic("\(written[k]): \(e.message)", hint: e.hint) }
        return error
    }

    func timeRange(of position: Int, cancel: CancellationFlag?) throws -> (Int64, Int64)? {
        let column = try columns([position], cancel: cancel, phase: nil).columns[0]
        return Table(name: "", columns: [column], zone: files.first?.schema.zone ?? .utc, timeColumn: column.name).timeRange()
    }
}
