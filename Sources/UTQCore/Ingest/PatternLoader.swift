import Foundation

/// `load "days/*.csv"`: every file a pattern matches made one table. The files are read at
/// the same time, each by the reader its format has, then joined column by column in the
/// order of their names: columns are matched by name (a file without one has nulls there),
/// whole numbers and numbers make numbers, other mixes make text, each said in a warning
/// that names the file. A last column, `file`, says which file each row came from.
enum PatternLoader {
    /// `base`: where the pattern's folder is. Messages name files as the pattern does
    /// (`days/2024-03-01.csv`).
    static func load(_ request: LoadRequest, pattern: FilePattern, base: String) throws -> LoadResult {
        let matched = pattern.matches(in: base)
        guard !matched.isEmpty else { throw LoadError(path: pattern.text, nothingMatched(pattern, base: base)) }
        let written = matched.map { pattern.folder.isEmpty ? $0 : (pattern.folder as NSString).appendingPathComponent($0) }
        let full = matched.map { base + "/" + $0 }
        var total = 0
        for (k, path) in full.enumerated() {
            let (isDirectory, size) = try FileKind.check(path)
            // A workbook is a .zip too: its first sheet is a file of rows like any other.
            if isDirectory || ((path.lowercased().hasSuffix(".zip") || Loaders.isZip(path)) && !XLSXWorkbook.isWorkbook(path)) {
                throw LoadError(path: written[k], "is a GTFS feed (a folder or .zip of tables); a pattern makes one table of files of rows "
                                + "(CSV, TSV, JSON records, sheets), so load a feed on its own: load \(typed(written[k]))")
            }
            total += try Compression.textSize(path: path, fileSize: size)
        }
        // All the files' columns are held at once, and once more while they are joined.
        try MemoryBudget.check(path: pattern.text, fileSize: total, document: false, converted: false, setting: request.memoryLimit)
        request.progress?.setTotal(full.reduce(0) { $0 + ((try? FileKind.check($1).size) ?? 0) })

        let name = request.name ?? tableName(pattern)
        var (entries, warnings) = try read(request, full: full, written: written, name: name)
        if let files = Self.allDeferred(entries) {
            entries = []
            return try PatternColumns.load(files, request: request, matched: matched, written: written, name: name,
                                           pattern: pattern.text, warnings: Self.saidOnce(warnings, pattern: pattern.text))
        }
        // A file read whole after all where another read some of its columns.
        var tables = try entries.map { entry -> Table in
            switch entry {
            case .deferred(let d): return try d.whole(cancel: request.cancel)
            case .loaded(let t): return t
            case .remote: preconditionFailure("a file is not a database's table")
            }
        }
        entries = []
        var (table, notes) = join(&tables, files: matched, written: written, name: name, pattern: pattern.text, zone: request.zone)
        warnings += notes
        warnings += LoadNotes.wholeNumbersKeptAsText(table, path: pattern.text)
        table.name = name
        let summary = Loaders.summary(table, extra: "\(NumberText.counted(table.columns.count, "column")), from \(NumberText.counted(matched.count, "file"))")
        return LoadResult(tables: [table], summary: summary, warnings: warnings)
    }

    /// A path as it is typed after load: in quotes when it holds more than letters, digits
    /// and / . _ - ~.
    static func typed(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "/._-~".unicodeScalars.contains($0) }
        return plain ? path : "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The files' tables when every file read only the columns a script names (NamedColumns).
    static func allDeferred(_ entries: [CatalogEntry]) -> [DeferredTable]? {
        let files = entries.compactMap { entry -> DeferredTable? in if case .deferred(let d) = entry { return d } else { return nil } }
        return files.count == entries.count ? files : nil
    }

    /// The files' warnings, those that say the same of several files (a column of zero-padded
    /// codes in each of thirty days) said once, of the pattern.
    static func saidOnce(_ warnings: [LoadWarning], pattern: String) -> [LoadWarning] {
        var seen: [String: Int] = [:]
        for w in warnings where w.line == nil { seen[w.message, default: 0] += 1 }
        var out: [LoadWarning] = []
        var said = Set<String>()
        for var w in warnings {
            if w.line == nil, seen[w.message, default: 0] > 1 {
                guard said.insert(w.message).inserted else { continue }
                w.path = pattern
            }
            out.append(w)
        }
        return out
    }

    /// Each file by the reader its format has, all at once; the first error (in the files'
    /// order) is the load's. Nothing but the tables returned holds their columns after. A
    /// file's table is deferred when the request names the columns a script uses.
    static func read(_ request: LoadRequest, full: [String], written: [String], name: String) throws -> ([CatalogEntry], [LoadWarning]) {
        var outcomes: [Result<LoadResult, Error>] = {
            let results = ParallelParts<LoadResult>(count: full.count)
            DispatchQueue.concurrentPerform(iterations: full.count) { k in
                // After a failure the others are not begun.
                if results.failed { results.set(k, .failure(CancellationError())); return }
                var one = request
                one.path = full[k]
                one.name = name
                results.set(k, Result { try Loaders.read(one) })
            }
            return full.indices.map { results.own($0) }
        }()
        for k in full.indices {
            guard case .failure(let error) = outcomes[k], !(error is CancellationError) || request.cancel?.isCancelled == true else { continue }
            if var e = error as? LoadError, e.path == full[k] { e.path = written[k]; throw e }
            throw error
        }
        var tables: [CatalogEntry] = []
        var warnings: [LoadWarning] = []
        for k in full.indices {
            let result = try outcomes[k].get()
            let entries = result.entries
            guard entries.count == 1 else {
                throw LoadError(path: written[k], "holds \(entries.count) tables (\(entries.map(\.name).joined(separator: ", "))); "
                                + "a pattern makes one table of files of rows, so load this file on its own")
            }
            tables.append(entries[0])
            warnings += result.warnings.map { var w = $0; if w.path == full[k] { w.path = written[k] }; return w }
            outcomes[k] = .failure(CancellationError())  // its columns are the table's now
        }
        return (tables, warnings)
    }

    /// The tables one after another, column by column; each table's column is let go once
    /// it is copied, so the files' columns and the joined ones are not all held at once.
    /// `zone`: the session's, for times whose files each chose another.
    static func join(_ tables: inout [Table], files: [String], written: [String], name: String, pattern: String,
                     zone: ZoneRules) -> (Table, [LoadWarning]) {
        var warnings: [LoadWarning] = []
        let (shownIn, zoneNote) = commonZone(tables, written: written, default: zone)
        if let zoneNote { warnings.append(LoadWarning(path: pattern, zoneNote)) }
        let matching = Matching(tables.map { $0.columns.map(\.name) }, written: written)
        warnings += matching.warnings
        let order = matching.order
        // Each joined column's pieces in a box of its own: the columns are joined at the same
        // time, and each lets its pieces go once it is made.
        let boxes = order.indices.map { s in
            PiecesBox(tables.indices.map { k in
                Column.Piece(column: matching.place(k, s).map { tables[k].columns[$0] }, count: tables[k].rowCount, zone: tables[k].zone)
            })
        }
        let rowCounts = tables.map(\.rowCount)
        let first = tables.first
        tables.removeAll()
        for (s, columnName) in order.enumerated() {
            let (_, mixed) = Column.unifiedType(boxes[s].pieces.compactMap { $0.column?.type })
            if mixed { warnings.append(mixedWarning(columnName, boxes[s].pieces.map { $0.column?.type }, written: written)) }
        }
        let made = ParallelParts<Column>(count: order.count)
        let names = order
        DispatchQueue.concurrentPerform(iterations: names.count) { s in
            let box = boxes[s]
            let type = Column.unifiedType(box.pieces.compactMap { $0.column?.type }).type
            made.set(s, .success(Column.concatenate(box.pieces, name: names[s], type: type)))
            box.pieces = []
        }
        var joined = order.indices.map { (try? made.get($0)) ?? Column.nulls(order[$0], count: 0) }
        // Which file each row came from, by its name under the pattern's folder.
        let (fileColumn, note) = matching.fileColumn(pattern: pattern)
        warnings += note
        joined.append(fileNames(fileColumn, files: files, rowCounts: rowCounts))
        var table = Table(name: name, columns: joined, zone: shownIn, rowNoun: first?.rowNoun ?? "rows")
        if let time = first?.timeColumn, table.column(time)?.type == .timestamp { table.timeColumn = time }
        table.rowCount = rowCounts.reduce(0, +)
        return (table, warnings)
    }

    /// The files' columns matched by name, in the order first met: each file's place for each
    /// (nil where it has none; a file's list stops at the columns met so far), and a warning
    /// for each file that has columns the files before it lack, or lacks some they have.
    struct Matching {
        var order: [String] = []
        var slot: [String: Int] = [:]
        var places: [[Int?]] = []
        var warnings: [LoadWarning] = []

        init(_ names: [[String]], written: [String]) {
            for (k, columnNames) in names.enumerated() {
                var mine = [Int?](repeating: nil, count: order.count)
                var added: [String] = []
                for (i, name) in columnNames.enumerated() {
                    let key = name.lowercased()
                    if let s = slot[key] { if mine[s] == nil { mine[s] = i } ; continue }
                    slot[key] = order.count
                    order.append(name)
                    mine.append(i)
                    if k > 0 { added.append(name) }
                }
                places.append(mine)
                let missing = order.indices.filter { $0 < mine.count && mine[$0] == nil }.map { order[$0] }
                if !added.isEmpty {
                    warnings.append(LoadWarning(path: written[k], "has \(columns(added)), which the files before it do not have; their rows are empty (null) there"))
                }
                if !missing.isEmpty {
                    warnings.append(LoadWarning(path: written[k], "has no \(columns(missing)); its rows are empty (null) there"))
                }
            }
        }

        /// File `k`'s place for column `s`, nil when it has none.
        func place(_ k: Int, _ s: Int) -> Int? { s < places[k].count ? places[k][s] : nil }

        /// The name of the column that says each row's file: `file`, unless the files have one.
        func fileColumn(pattern: String) -> (String, [LoadWarning]) {
            var name = "file"
            var n = 2
            while slot[name.lowercased()] != nil { name = "file_\(n)"; n += 1 }
            if name == "file" { return (name, []) }
            return (name, [LoadWarning(path: pattern, "the files have a column called file; the name of the file each row came from is in \(name)")])
        }
    }

    /// Which file each row came from, by its name under the pattern's folder, in the files' order.
    static func fileNames(_ name: String, files: [String], rowCounts: [Int]) -> Column {
        var codes: [UInt32] = []
        codes.reserveCapacity(rowCounts.reduce(0, +))
        for (k, n) in rowCounts.enumerated() { codes.append(contentsOf: repeatElement(UInt32(k), count: n)) }
        return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: files, ordered: true)))
    }

    /// One joined column's pieces, let go by the worker that joins them.
    final class PiecesBox: @unchecked Sendable {
        var pieces: [Column.Piece]
        init(_ pieces: [Column.Piece]) { self.pieces = pieces }
    }

    /// The zone the joined times show in: the one every file with times chose (from the
    /// offsets its times were written with), else the session's, with a note that says which
    /// offsets came from which files and the zone that agrees with them all, as a file whose
    /// own offsets change gets.
    static func commonZone(_ tables: [Table], written: [String], default zone: ZoneRules) -> (ZoneRules, String?) {
        let timed = tables.indices.filter { tables[$0].columns.contains { $0.type == .timestamp } }
        guard let first = timed.first else { return (tables.first?.zone ?? zone, nil) }
        var seen: [(zone: ZoneRules, file: Int)] = []
        for k in timed where !seen.contains(where: { $0.zone.identifier == tables[k].zone.identifier }) { seen.append((tables[k].zone, k)) }
        if seen.count == 1 { return (tables[first].zone, nil) }
        var readings: [(instant: Int64, offset: Int32)] = []
        for k in timed where tables[k].zone.isFixed {
            if let (lo, _) = tables[k].timeRange() { readings.append((lo, tables[k].zone.offsetSeconds(atMicros: lo))) }
        }
        let listed = seen.map { "\($0.zone.identifier) in \(written[$0.file])" }.joined(separator: ", ")
        var note = "the files' times were written with different offsets (\(listed)); times show in \(zone.identifier)"
        if let best = ZoneGuess.zones(agreeingWith: readings).first { note += " — set timezone \(best) to see them in local time" }
        return (zone, note)
    }

    /// `column fee`, `columns fee and tip`, `columns a, b and c`.
    static func columns(_ names: [String]) -> String {
        if names.count == 1 { return "column \(names[0])" }
        return "columns " + names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// A column whose files hold different kinds of values: each kind with the first file
    /// that holds it, the warning filed under the first file that holds the second kind.
    static func mixedWarning(_ name: String, _ types: [DataType?], written: [String]) -> LoadWarning {
        var kinds: [(type: DataType, file: Int, files: Int)] = []
        for (k, type) in types.enumerated() {
            guard let type, type != .null else { continue }
            if let i = kinds.firstIndex(where: { $0.type == type }) { kinds[i].files += 1 } else { kinds.append((type, k, 1)) }
        }
        let listed = kinds.map { kind in
            "\(kind.type.displayName) in \(written[kind.file])" + (kind.files > 1 ? " (and \(NumberText.counted(kind.files - 1, "file")) more)" : "")
        }
        // Filed under the first file whose kind made the column text.
        let culprit = kinds.first { Column.unifiedType([kinds[0].type, $0.type]).mixed } ?? kinds[1]
        return LoadWarning(path: written[culprit.file], "column \(name) holds " + listed.joined(separator: ", ")
                           + "; it is text in the whole table (each value as save writes it)")
    }

    /// A table name for the files: what the pattern's last name has before its first
    /// wildcard (`rides-*.csv` → rides), else its folder's name (`days/*.csv` → days).
    static func tableName(_ pattern: FilePattern) -> String {
        let last = pattern.names.last ?? ""
        let before = String(last.prefix { !"*?[".contains($0) }).trimmingCharacters(in: CharacterSet(charactersIn: "-_. "))
        if !before.isEmpty { return Loaders.tableName(for: before) }
        let folder = (pattern.folder as NSString).lastPathComponent
        return folder.isEmpty || folder == "." || folder == "/" || folder == ".." ? "table" : Loaders.tableName(for: folder)
    }

    /// Why nothing matched, with what the nearest folder that is there holds.
    static func nothingMatched(_ pattern: FilePattern, base: String) -> String {
        var folder = base
        var shown = pattern.folder.isEmpty ? "." : pattern.folder
        var isDirectory: ObjCBool = false
        while !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue) {
            let up = (folder as NSString).deletingLastPathComponent
            if up == folder || up.isEmpty { break }
            folder = up
            shown = (shown as NSString).deletingLastPathComponent
            if shown.isEmpty { shown = "." }
        }
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        let start = folder == base ? "the pattern matched no file" : "the pattern matched no file (there is no folder \(pattern.folder))"
        if entries.isEmpty { return start + "; \(shown) is empty" }
        let listed = entries.prefix(8).joined(separator: ", ") + (entries.count > 8 ? ", … (\(entries.count) in all)" : "")
        return start + "; \(shown) holds \(listed)"
    }
}
