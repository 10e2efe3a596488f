import Foundation

/// Reads a Parquet file into a table: every flat column, each row group on its own worker,
/// values decoded from the pages straight into the column's memory. Nested columns (lists,
/// structs, maps) are left out with a warning that names them.
public enum ParquetReader {
    /// Whether a file is Parquet: its first bytes are `PAR1`, or its name says so (a damaged
    /// file named .parquet is told about as Parquet, not read as text).
    static func isParquet(path: String, head: [UInt8]) -> Bool {
        head.starts(with: ParquetFile.magic) || path.lowercased().hasSuffix(".parquet")
    }

    /// Keys of the file's metadata where utq notes what Parquet has no type for.
    static let zoneKey = "utq.zone"
    static let durationsKey = "utq.durations"

    /// Files larger than this many bytes are read column by column as questions need them
    /// (see ParquetColumnCache); smaller ones whole at load, unless the script that loads them
    /// names the columns it uses (as it reads only those of a CSV file): a million rides' 40 MB
    /// read whole took three times DuckDB's first question, which reads one column.
    /// UTQ_PARQUET_DEFER_BYTES sets it.
    static let deferBytes: Int = {
        if let text = Environment.value("UTQ_PARQUET_DEFER_BYTES"), let n = Int(text), n >= 0 { return n }
        return 64 << 20
    }()

    static func load(_ request: LoadRequest, name: String) throws -> LoadResult {
        try refuseOptions(request)
        let layout = try ParquetLayout(file: try ParquetFile(path: request.path), request: request)
        if let limit = request.deferParquetAbove, layout.file.size > limit || request.namedColumns != nil {
            return try ParquetColumnCache.load(layout, name: name)
        }
        var warnings = layout.warnings
        let decoded = try decode(layout.plans, layout: layout, request: request)
        var columns: [Column] = []
        for (column, notes) in decoded {
            columns.append(column)
            warnings += notes.map { LoadWarning(path: request.path, $0) }
        }
        var table = Table(name: name, columns: columns, zone: layout.zone)
        table.rowCount = layout.rows
        return LoadResult(tables: [table], summary: Loaders.summary(table), warnings: warnings + layout.nameWarnings)
    }

    /// The columns of some plans, each row group of each on its own worker; a column's
    /// notes are what reading it found (values left empty, bytes that are not text).
    static func decode(_ plans: [ParquetColumnPlan], layout: ParquetLayout, request: LoadRequest) throws -> [(Column, [String])] {
        let (file, starts, zone) = (layout.file, layout.starts, layout.zone)
        let results = ParallelParts<(Column, [String])>(count: plans.count)
        let pool = ChunkScratchPool()
        DispatchQueue.concurrentPerform(iterations: plans.count) { k in
            if results.failed { results.set(k, .failure(CancellationError())); return }
            results.set(k, Result {
                try ParquetColumnReader(file: file, plan: plans[k], starts: starts, zone: zone, request: request, stop: results, pool: pool).read()
            })
        }
        return try (0..<plans.count).map { try results.get($0) }
    }

    /// The options of `load … with` are for text files, except the zone (which a Parquet file
    /// needs for its wall-clock times).
    static func refuseOptions(_ request: LoadRequest) throws {
        if request.at != nil { throw LoadError(path: request.path, "at PATH is for JSON documents, and this file is Parquet") }
        let o = request.options
        let given = [o.header != nil ? "header" : nil, o.columns != nil ? "columns" : nil, o.delimiter != nil ? "delimiter" : nil,
                     o.sheet != nil ? "sheet" : nil].compactMap { $0 }
        if let first = given.first {
            throw LoadError(path: request.path, "\(first)= is for text and spreadsheet files; a Parquet file names and types its own columns "
                            + "(keep some with select after loading)")
        }
    }

    /// Durations utq saved (as whole microseconds) read back as durations.
    static func applyMetadata(_ footer: ParquetFooter, to plans: inout [ParquetColumnPlan]) {
        guard let text = footer.value(forKey: durationsKey), let data = text.data(using: .utf8),
              let units = (try? JSONSerialization.jsonObject(with: data)) as? [String: String] else { return }
        for k in plans.indices where plans[k].physical == .int64 && plans[k].read == .ints && plans[k].time == nil {
            guard let unit = units[plans[k].name] else { continue }
            plans[k].output = .duration(clock: unit == DisplayUnit.clock.rawValue)
            plans[k].time = .init(isTimestamp: false)
        }
    }

    static func check(_ c: ParquetColumnChunk, plan: ParquetColumnPlan, group: Int, path: String) throws {
        let place = "column \(plan.name), row group \(group + 1)"
        guard c.hasMetadata else { throw LoadError(path: path, "\(place): the chunk has no metadata; the file is damaged") }
        if let other = c.filePath, !other.isEmpty {
            throw LoadError(path: path, "\(place): its values are in another file (\(other)), which utq does not follow")
        }
        if let why = ParquetCodec.refusal(c.codec) { throw LoadError(path: path, "\(place) \(why)") }
        guard c.type == plan.physical.rawValue else {
            throw LoadError(path: path, "\(place): the chunk's type (number \(c.type)) is not the schema's \(plan.physical.name); the file is damaged")
        }
    }

    /// Refuses a table that would not fit in the memory a load may take.
    static func checkMemory(rows: Int, plans: [ParquetColumnPlan], setting: Int?, path: String) throws {
        var perRow = 0
        for p in plans {
            switch p.lane {
            case .int, .double: perRow += 8
            case .code: perRow += 4
            case .bool: perRow += 1
            case .none: break
            }
        }
        let (need, o) = rows.multipliedReportingOverflow(by: perRow + 1)
        guard let limit = MemoryBudget.limit(setting: setting), o || need > limit else { return }
        throw LoadError(path: path, "holds \(NumberText.counted(rows, "row")) in \(NumberText.counted(plans.count, "column")), "
                        + "which take about \(MemoryBudget.describe(o ? .max : need)) of memory, and \(MemoryBudget.describe(limit)) is free "
                        + "(set memory-limit SIZE changes the limit)")
    }

    /// Column names as Parquet allows them (any text, repeated) made into names utq can
    /// tell apart: a repeated name gets a number.
    static func uniqueNames(_ names: [String], warnings: inout [LoadWarning], path: String) -> [String] {
        var taken = Set<String>()
        return names.enumerated().map { k, written in
            var name = written.isEmpty ? "column_\(k + 1)" : written
            if taken.contains(name.lowercased()) {
                var n = 2
                while taken.contains("\(name)_\(n)".lowercased()) { n += 1 }
                warnings.append(LoadWarning(path: path, "column name \"\(name)\" appears twice; the second is called \(name)_\(n)"))
                name = "\(name)_\(n)"
            }
            taken.insert(name.lowercased())
            return name
        }
    }
}

/// What the footer says of a file before any page is read: the plans of the columns utq
/// reads (under the names it gives them), where each row group's rows start, and the zone.
struct ParquetLayout {
    let file: ParquetFile
    var plans: [ParquetColumnPlan]
    /// The first row of each row group, and the total at the end.
    let starts: [Int]
    let zone: ZoneRules
    /// What the schema made utq leave out or read otherwise.
    var warnings: [LoadWarning]
    /// Names given to columns whose names repeat, said after what reading the columns found.
    var nameWarnings: [LoadWarning] = []

    var rows: Int { starts.last! }

    init(file: ParquetFile, request: LoadRequest) throws {
        let path = request.path
        self.file = file
        let footer = file.footer
        var (plans, notes, leaves): ([ParquetColumnPlan], [String], Int)
        do { (plans, notes, leaves) = try ParquetSchema.plans(footer.schema) } catch let e as ThriftError {
            throw LoadError(path: path, "its schema is damaged: \(e.message)")
        }
        plans = plans.filter { p in
            guard p.physical == .fixedLenByteArray, p.typeLength < 1 || p.typeLength > 1 << 20 else { return true }
            notes.append("\(p.name) is a FIXED_LEN_BYTE_ARRAY of \(p.typeLength) bytes, which cannot be; it is left out")
            return false
        }
        ParquetReader.applyMetadata(footer, to: &plans)
        warnings = notes.map { LoadWarning(path: path, $0) }
        if plans.isEmpty {
            throw LoadError(path: path, leaves == 0 ? "has no columns" : "has no column utq can read: " + notes.joined(separator: "; "))
        }
        var starts: [Int] = [0]
        for (g, group) in footer.rowGroups.enumerated() {
            guard group.columns.count == leaves else {
                throw LoadError(path: path, "row group \(g + 1) has \(group.columns.count) columns where the schema has \(leaves); the file is damaged")
            }
            guard group.numRows >= 0, let sum = Checked.add(Int64(starts[g]), group.numRows), sum <= Int64(Int32.max) else {
                throw LoadError(path: path, "row group \(g + 1) says it has \(group.numRows) rows; utq holds at most \(NumberText.grouped(Int(Int32.max))) rows in a table")
            }
            starts.append(Int(sum))
            for plan in plans { try ParquetReader.check(group.columns[plan.leaf], plan: plan, group: g, path: path) }
        }
        self.starts = starts
        try ParquetReader.checkMemory(rows: starts.last!, plans: plans, setting: request.memoryLimit, path: path)
        zone = request.options.timezone == nil ? footer.value(forKey: ParquetReader.zoneKey).flatMap(ZoneRules.named) ?? request.zone : request.zone
        let names = ParquetReader.uniqueNames(plans.map(\.name), warnings: &nameWarnings, path: path)
        for k in plans.indices { plans[k].name = names[k] }
        self.plans = plans
    }
}
