import Foundation

/// What `load` was asked to do.
public struct LoadRequest: Sendable {
    public var path: String
    /// The name given with `as`, else derived from the file name.
    public var name: String?
    /// `at PATH`: where the rows are inside a JSON document.
    public var at: String?
    /// Zone for times written without an offset (the session's default).
    public var zone: ZoneRules
    public var cancel: CancellationFlag?
    /// Counts the bytes read, for a progress bar.
    public var progress: LoadProgress?
    /// Bytes the load may take (`set memory-limit`); nil: what the system has free.
    public var memoryLimit: Int?
    /// What `with …` and `sheet NAME` said about the file.
    public var options = LoadOptions()
    /// A Parquet file larger than this many bytes becomes a table whose columns are read when
    /// a question first needs them; nil: every file is read whole (a pattern's files, tests
    /// of the reader).
    public var deferParquetAbove: Int?
    /// The names (lowercased) the rest of a script uses: a delimited file reads the columns
    /// so named, and its other columns when a question first needs them (NamedColumns).
    /// Nil: every column now (the prompt, where any question may come next).
    public var namedColumns: Set<String>?

    public init(path: String, name: String? = nil, at: String? = nil, zone: ZoneRules, cancel: CancellationFlag? = nil,
                progress: LoadProgress? = nil, memoryLimit: Int? = nil) {
        self.path = path; self.name = name; self.at = at; self.zone = zone; self.cancel = cancel; self.progress = progress
        self.memoryLimit = memoryLimit
    }
}

/// What a load produced: the tables, a summary line, warnings, and which table becomes
/// current (the first, unless `current` names another: a GTFS feed lists its tables in
/// GTFS's order but makes its timetable current).
public struct LoadResult: Sendable {
    public var tables: [Table]
    public var summary: String
    public var warnings: [LoadWarning]
    public var current: String? = nil
    /// A large Parquet file's table, its columns not read yet (then `tables` is empty).
    public var deferred: [DeferredTable] = []

    /// What the catalog keeps: the tables, and the tables still to be read.
    public var entries: [CatalogEntry] { tables.map(CatalogEntry.loaded) + deferred.map(CatalogEntry.deferred) }
}

/// Detects a file's format and hands it to the right reader.
public enum Loaders {
    public static func load(_ request: LoadRequest) throws -> LoadResult {
        var result = try read(request)
        for k in result.tables.indices {
            let (table, notes) = GeometryColumns.recognise(result.tables[k], path: request.path, crs: request.options.crs)
            result.tables[k] = table
            result.warnings += notes
        }
        for t in result.tables { result.warnings += LoadNotes.wholeNumbersKeptAsText(t, path: request.path) }
        return result
    }

    static func read(_ request: LoadRequest) throws -> LoadResult {
        let path = request.path
        let (isDirectory, diskSize) = try FileKind.check(path)
        // A compressed file's size is its text's (estimated), for the memory it will take.
        let fileSize = isDirectory ? 0 : try Compression.textSize(path: path, fileSize: diskSize)
        let name = request.name ?? tableName(for: path)
        if !isDirectory, let why = FileKind.refusal(try rawHead(path), path: path) { throw LoadError(path: path, why) }
        if !isDirectory, XLSXWorkbook.isWorkbook(path) { return try XLSXLoader.load(request, name: name) }
        if request.options.sheet != nil {
            throw LoadError(path: path, "sheet NAME is for .xlsx workbooks, and this is not one; load it without sheet")
        }
        if isDirectory || request.path.lowercased().hasSuffix(".zip") || isZip(path) {
            if request.at != nil {
                throw LoadError(path: path, "at PATH is for JSON documents; a GTFS feed gives all its tables")
            }
            return try GTFSLoader.load(request, name: name, isDirectory: isDirectory)
        }
        if fileSize == 0 {
            throw LoadError(path: path, "the file is empty", kind: .emptyFile)
        }
        if ParquetReader.isParquet(path: path, head: try rawHead(path)) { return try ParquetReader.load(request, name: name) }
        if RealtimeLoader.isRealtime(try rawHead(path)) { return try RealtimeLoader.load(request, name: name) }
        let head = try peek(path)
        let lower = Compression.innerName(path).lowercased()
        if looksBinary(try rawHead(path)) {
            throw LoadError(path: path, "looks like a binary file, not text (CSV, TSV or JSON)")
        }
        let first = head.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) })
        let json = first == UInt8(ascii: "[") || first == UInt8(ascii: "{") || lower.hasSuffix(".json") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl")
        if json {
            let streams = request.at == nil && (first == UInt8(ascii: "[") || JSONLoading.isLines(head))
            try MemoryBudget.check(path: path, fileSize: fileSize, document: !streams, converted: false, setting: request.memoryLimit)
            return try JSONLoading.load(request, name: name, head: head)
        }
        if request.at != nil {
            throw LoadError(path: path, "at PATH is for JSON documents, and this file is not JSON")
        }
        try MemoryBudget.check(path: path, fileSize: fileSize, document: false, converted: false, setting: request.memoryLimit, delimitedHead: head)
        if BehaviourMapperExport.looksLike(head) {
            return try BehaviourMapperExport.load(path: path, name: name, head: head, cancel: request.cancel)
        }
        if PLDP.looksLike(head) { return try PLDP.load(request, name: name, head: head) }
        if request.options.header == nil, request.options.columns == nil, PLDPExport.looksLike(head) { return try PLDPExport.load(request, name: name) }
        var options = CSVOptions(delimiter: request.options.delimiter)
        options.header = request.options.header
        options.columns = request.options.columns
        options.progress = request.progress
        var loaded: LoadedTable
        if let named = request.namedColumns {
            var some = options
            some.chooses = { names, types in NamedColumns.choose(names, types, named: named) }
            let identity = try FileIdentity(path: path)
            loaded = try CSVLoader.load(path: path, name: name, zone: request.zone, options: some, cancel: request.cancel)
            let reread: @Sendable (Set<String>, String) throws -> LoadedTable = { [options] wanted, time in
                var options = options
                options.progress = nil
                options.chooses = { names, _ in names.map(wanted.contains) }
                options.tableTimeColumn = time
                return try CSVLoader.load(path: path, name: name, zone: request.zone, options: options, cancel: nil)
            }
            if let (deferred, warnings) = NamedColumns.table(loaded, request: request, name: name, clocks: true, identity: identity, reread: reread) {
                return LoadResult(tables: [], summary: summary(.deferred(deferred)), warnings: warnings, deferred: [deferred])
            }
            if loaded.readPositions != nil {
                loaded = try CSVLoader.load(path: path, name: name, zone: request.zone, options: options, cancel: request.cancel)
            }
        } else {
            loaded = try CSVLoader.load(path: path, name: name, zone: request.zone, options: options, cancel: request.cancel)
        }
        let (table, notes) = ClockColumns.recognise(loaded.table, path: path)
        return LoadResult(tables: [table], summary: summary(table), warnings: loaded.warnings + notes)
    }

    /// The first bytes of a file as text, for telling formats apart: UTF-16 converted, NUL
    /// bytes left out. Other encodings are left as they are (the reader converts them), so a
    /// large binary file is never read whole just to be refused.
    static func peek(_ path: String, count: Int = 65536) throws -> [UInt8] {
        let (head, isAll) = try Compression.head(path: path, count: count)
        var raw = head
        if case .utf16 = TextEncoding.sniff(raw, isWholeFile: isAll) {
            let stream = try ByteStream(path: path)
            var buffer: [UInt8] = []
            _ = try stream.read(into: &buffer, chunk: count)
            return buffer
        }
        if raw.starts(with: [0xEF, 0xBB, 0xBF]) { raw.removeFirst(3) }
        return raw.filter { $0 != 0 }
    }

    /// The first bytes of a file as they are (decompressed, when it is compressed).
    static func rawHead(_ path: String, count: Int = 4096) throws -> [UInt8] {
        try Compression.head(path: path, count: count).bytes
    }

    /// Whether a file starts as a zip archive does (`PK`, then a local header or, when
    /// empty, the end record), whatever its name.
    static func isZip(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        return head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06]
    }

    /// Control bytes (NUL among them) in more than one byte in twenty of the first block:
    /// text has almost none, random bytes and compressed data about one in nine. UTF-16
    /// text, whose every other byte is NUL, is not binary.
    static func looksBinary(_ raw: [UInt8]) -> Bool {
        let sample = raw.prefix(4096)
        guard !sample.isEmpty else { return false }
        if case .utf16 = TextEncoding.sniff(Array(sample), isWholeFile: raw.count < 4096) { return false }
        let controls = sample.filter { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20 && $0 != 0x1B) }.count
        return controls * 20 > sample.count && controls >= 8
    }

    /// A table name from a file name: `datasets/market.json` → `market`.
    public static func tableName(for path: String) -> String {
        var base = (Compression.innerName(path) as NSString).lastPathComponent
        for ext in [".zip", ".xlsx", ".xlsm", ".parquet", ".json", ".ndjson", ".jsonl", ".csv", ".tsv", ".txt", ".tab", ".geojson"] where base.lowercased().hasSuffix(ext) {
            base = String(base.dropLast(ext.count))
            break
        }
        var out = ""
        for ch in base {
            if ch.isLetter || ch.isNumber || ch == "_" { out.append(ch) } else if !out.hasSuffix("_") { out.append("_") }
        }
        while out.hasSuffix("_") { out.removeLast() }
        if out.isEmpty { out = "table" }
        if out.first!.isNumber { out = "t" + out }
        return out
    }

    /// What a catalog entry is: a loaded table's summary, or a database's table's columns.
    public static func summary(_ entry: CatalogEntry) -> String {
        switch entry {
        case .loaded(let t): return summary(t)
        case .deferred(let d):
            return summary(name: d.name, rows: d.rowCount, noun: d.rowNoun, what: NumberText.counted(d.schema.fields.count, "column"),
                           span: d.timeRange, zone: d.schema.zone, unit: d.schema.timeSpanUnit)
        // A database's table is not counted here (that would read it).
        case .remote(let r): return "\(r.name): \(NumberText.counted(r.schema.fields.count, "column")), in database \(r.database)"
        }
    }

    /// `market: 516 entries, 8 legends · 2017-03-23 08:15 → 23:45 (Europe/Oslo)`.
    public static func summary(_ t: Table, extra: String? = nil) -> String {
        summary(name: t.name, rows: t.rowCount, noun: t.rowNoun, what: extra ?? NumberText.counted(t.columns.count, "column"),
                span: t.timeRange(), zone: t.zone, unit: t.timeSpanUnit)
    }

    static func summary(name: String, rows: Int, noun: String, what: String, span: (Int64, Int64)?, zone: ZoneRules, unit: DisplayUnit) -> String {
        var s = "\(name): \(NumberText.grouped(rows)) \(rows == 1 ? singular(noun) : noun), " + what
        if let (lo, hi) = span {
            let a = TimeText.display(lo, zone: zone, unit: unit)
            var b = TimeText.display(hi, zone: zone, unit: unit)
            if unit != .day && a.prefix(10) == b.prefix(10) { b = String(b.dropFirst(11)) }
            s += " · \(a) → \(b) (\(zone.identifier))"
        }
        return s
    }

    static func singular(_ noun: String) -> String {
        if noun.hasSuffix("ies") { return String(noun.dropLast(3)) + "y" }  // entries, agencies
        return noun.hasSuffix("s") ? String(noun.dropLast()) : noun
    }
}

/// JSON files: record arrays and NDJSON stream into columns; documents are read whole and
/// recognised (Behaviour Mapper projects), or their rows are found at a path.
enum JSONLoading {
    static func load(_ request: LoadRequest, name: String, head: [UInt8]) throws -> LoadResult {
        let path = request.path
        if request.at == nil, let first = head.first(where: { $0 > 0x20 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) {
            // A file named as lines is lines even when it has one (a single object).
            let lower = Compression.innerName(path).lowercased()
            let named = first == UInt8(ascii: "{") && (lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl"))
            if first == UInt8(ascii: "[") || named || isLines(head) {
                if let named = request.namedColumns {
                    let identity = try FileIdentity(path: path)
                    let zone = request.zone, memoryLimit = request.memoryLimit
                    let loaded = try JSONRecordLoader.load(path: path, name: name, zone: zone, parts: nil, cuts: nil, cancel: request.cancel,
                                                           progress: request.progress, memoryLimit: memoryLimit,
                                                           chooses: { names, types in NamedColumns.choose(names, types, named: named) })
                    let reread: @Sendable (Set<String>, String) throws -> LoadedTable = { wanted, _ in
                        try JSONRecordLoader.load(path: path, name: name, zone: zone, parts: nil, cuts: nil, memoryLimit: memoryLimit,
                                                  chooses: { names, _ in names.map(wanted.contains) })
                    }
                    if let (deferred, warnings) = NamedColumns.table(loaded, request: request, name: name, clocks: false, identity: identity, reread: reread) {
                        return LoadResult(tables: [], summary: Loaders.summary(.deferred(deferred)), warnings: warnings, deferred: [deferred])
                    }
                    if loaded.readPositions == nil {
                        return LoadResult(tables: [loaded.table], summary: Loaders.summary(loaded.table), warnings: loaded.warnings)
                    }
                }
                let loaded = try JSONRecordLoader.load(path: path, name: name, zone: request.zone, cancel: request.cancel,
                                                       progress: request.progress, memoryLimit: request.memoryLimit)
                return LoadResult(tables: [loaded.table], summary: Loaders.summary(loaded.table), warnings: loaded.warnings)
            }
        }
        let doc = try parseJSONDocument(path: path)
        if request.at == nil && GeoJSONLoader.isGeoJSON(doc) { return try GeoJSONLoader.load(doc, request: request, name: name) }
        if request.at == nil && BehaviourMapper.isProject(doc) {
            let (project, warnings) = try BehaviourMapper.load(project: doc, name: name, path: path)
            let legends = project.legends.rowCount
            let summary = Loaders.summary(project.entries, extra: "\(legends) legend\(legends == 1 ? "" : "s")")
            return LoadResult(tables: [project.entries, project.legends], summary: summary, warnings: warnings)
        }
        if request.at == nil && Prishtina.isRoutes(doc) {
            let (tables, warnings) = try Prishtina.loadRoutes(doc, name: name, path: path)
            let summary = "\(name): Prishtina routes, \(tables[0].rowCount) lines, \(tables[1].rowCount) stops (tables \(tables[0].name), \(tables[1].name))"
            return LoadResult(tables: tables, summary: summary, warnings: warnings)
        }
        if request.at == nil && Prishtina.isItineraries(doc) {
            let (tables, warnings) = try Prishtina.loadItineraries(doc, name: name, path: path)
            return LoadResult(tables: tables, summary: "\(tables[0].name): Prishtina itineraries, \(tables[0].rowCount) lines", warnings: warnings)
        }
        if request.at == nil && NVDB.isResponse(doc) {
            let (tables, warnings) = try NVDB.load(doc, name: name, path: path)
            var types = ""
            if case .string(let t)? = tables[0].column("type")?.storage { types = t.dictionary.joined(separator: ", ") }
            return LoadResult(tables: tables, summary: "\(name): NVDB, \(tables[0].rowCount) road objects on links (\(types))", warnings: warnings)
        }
        let rows: [JSONValue]
        if let at = request.at {
            let parts = at.split(separator: ".").map { String($0).replacingOccurrences(of: "[]", with: "") }
            guard let found = doc.at(path: parts) else {
                throw LoadError(path: path, "there is nothing at \(at)" + suggestion(doc))
            }
            rows = found.array ?? [found]
        } else if let array = doc.array {
            rows = array
        } else {
            let candidates = arrays(in: doc, prefix: "")
            if candidates.count == 1 {
                rows = doc.at(path: candidates[0].path.split(separator: ".").map(String.init))?.array ?? []
            } else if candidates.isEmpty {
                rows = [doc]  // an object with no list in it is one row, as DuckDB reads it
            } else {
                throw LoadError(path: path, "this JSON document is one object; say where its rows are with at PATH" + suggestion(doc))
            }
        }
        let table = try RecordTable.build(rows, name: name, zone: request.zone, path: path, memoryLimit: request.memoryLimit)
        return LoadResult(tables: [table], summary: Loaders.summary(table), warnings: [])
    }

    /// Whether the text holds one JSON value per line (NDJSON): a complete first value followed by another.
    static func isLines(_ head: [UInt8]) -> Bool {
        head.withUnsafeBytes { b in
            var r = JSONReader(b, pos: 0, isFinal: false)
            r.skipWhitespace()
            guard (try? r.parseValue(depth: 0)) != nil else { return false }
            r.skipWhitespace()
            guard let c = r.peek() else { return false }
            return c == UInt8(ascii: "{") || c == UInt8(ascii: "[")
        }
    }

    /// Arrays of objects inside a document, with their paths and sizes.
    static func arrays(in v: JSONValue, prefix: String, depth: Int = 0) -> [(path: String, count: Int)] {
        guard depth < 4, let members = v.objectMembers else { return [] }
        var out: [(String, Int)] = []
        for (k, child) in members {
            let p = prefix.isEmpty ? k : prefix + "." + k
            if let a = child.array, a.contains(where: { $0.objectMembers != nil }) { out.append((p, a.count)) }
            out += arrays(in: child, prefix: p, depth: depth + 1)
        }
        return out
    }

    static func suggestion(_ doc: JSONValue) -> String {
        let found = arrays(in: doc, prefix: "")
        guard !found.isEmpty else { return "" }
        return " (arrays of objects here: " + found.prefix(6).map { "\($0.path) (\($0.count))" }.joined(separator: ", ") + ")"
    }
}

/// Builds a table from JSON objects already parsed, flattening nested objects.
enum RecordTable {
    /// `memoryLimit`: the session's `set memory-limit`, which the columns must fit in.
    static func build(_ rows: [JSONValue], name: String, zone: ZoneRules, path: String, memoryLimit: Int? = nil) throws -> Table {
        var order: [String] = []
        var named: Set<String> = []
        var flat: [[String: JSONValue]] = []
        for (k, row) in rows.enumerated() {
            var record: [String: JSONValue] = [:]
            flatten(row, prefix: "", into: &record, order: &order, named: &named)
            flat.append(record)
            if order.count > ColumnBudget.maxColumns, let reason = ColumnBudget(memoryLimit: memoryLimit).refusal(rows: k + 1, columns: order.count) {
                throw LoadError(path: path, "record \(k + 1): " + reason)
            }
        }
        // Every column holds a value for every row: rows that each name other members make
        // a table far larger than the document.
        if let reason = ColumnBudget(memoryLimit: memoryLimit).refusal(rows: flat.count, columns: order.count) {
            throw LoadError(path: path, reason)
        }
        var columns: [Column] = []
        for (k, key) in order.enumerated() {
            let values = flat.map { $0[key] ?? .null }
            columns.append(try column(values, name: key, index: k, zone: zone))
        }
        // Objects without members are rows all the same, as in a file of records.
        var table = Table(name: name, columns: columns, zone: zone)
        table.rowCount = rows.count
        return table
    }

    /// `order`: the column names in the order first met; `named`: the same names, to look up.
    static func flatten(_ v: JSONValue, prefix: String, into record: inout [String: JSONValue], order: inout [String], named: inout Set<String>) {
        if let members = v.objectMembers {
            for (k, child) in members {
                flatten(child, prefix: prefix.isEmpty ? k : prefix + "." + k, into: &record, order: &order, named: &named)
            }
            return
        }
        let key = prefix.isEmpty ? "value" : prefix
        if record[key] == nil {
            if named.insert(key).inserted { order.append(key) }
            record[key] = v
        }
    }

    static func column(_ values: [JSONValue], name: String, index: Int, zone: ZoneRules) throws -> Column {
        var vote = JSONRecordLoader.ColumnVote()
        var text = TypeVote()
        var numbers = 0, integers = 0, bools = 0, strings = 0, nested = 0
        for v in values {
            switch v {
            case .integer: numbers += 1; integers += 1
            case .number(_, let isInt): numbers += 1; if isInt { integers += 1 }
            case .bool: bools += 1
            case .string(var s): strings += 1; s.withUTF8 { text.add(UnsafeRawBufferPointer($0)) }
            case .array, .object: nested += 1
            case .null: break
            }
        }
        vote.numbers = numbers; vote.integers = integers; vote.bools = bools; vote.strings = strings; vote.nested = nested; vote.text = text
        do {
            return try fill(values, ColumnBuilder(name: name, index: index, type: vote.result, zone: zone))
        } catch is TypeConflict {
            // A value the voted type cannot hold exactly (a whole number past 2^53 among
            // decimals): the column is text, as the streaming reader makes it.
            return try fill(values, ColumnBuilder(name: name, index: index, type: .string, zone: zone))
        }
    }

    static func fill(_ values: [JSONValue], _ builder: ColumnBuilder) throws -> Column {
        for v in values {
            switch v {
            case .null: builder.appendNull()
            case .bool(let b): try builder.appendBool(b)
            case .integer(let i):
                var raw = v.text
                try raw.withUTF8 { try builder.appendNumber(int: i, double: Double(i), raw: UnsafeRawBufferPointer($0)) }
            case .number(let d, let isInt):
                var raw = v.text
                try raw.withUTF8 { try builder.appendNumber(int: isInt && abs(d) < 9e15 ? Int64(d) : nil, double: d, raw: UnsafeRawBufferPointer($0)) }
            case .string(var s): try s.withUTF8 { try builder.appendText(UnsafeRawBufferPointer($0), emptyIsNull: false) }
            case .array, .object:
                var raw = v.text
                try raw.withUTF8 { try builder.appendText(UnsafeRawBufferPointer($0), emptyIsNull: false) }
            }
        }
        return builder.finish()
    }
}
