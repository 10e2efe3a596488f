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

    static func load(_ request: LoadRequest, name: String) throws -> LoadResult {
        let path = request.path
        try refuseOptions(request)
        let file = try ParquetFile(path: path)
        let footer = file.footer
        var warnings: [LoadWarning] = []
        var (plans, notes, leaves): ([ParquetColumnPlan], [String], Int)
        do { (plans, notes, leaves) = try ParquetSchema.plans(footer.schema) } catch let e as ThriftError {
            throw LoadError(path: path, "its schema is damaged: \(e.message)")
        }
        plans = plans.filter { p in
            guard p.physical == .fixedLenByteArray, p.typeLength < 1 || p.typeLength > 1 << 20 else { return true }
            notes.append("\(p.name) is a FIXED_LEN_BYTE_ARRAY of \(p.typeLength) bytes, which cannot be; it is left out")
            return false
        }
        applyMetadata(footer, to: &plans)
        warnings += notes.map { LoadWarning(path: path, $0) }
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
            for plan in plans { try check(group.columns[plan.leaf], plan: plan, group: g, path: path) }
        }
        let rows = starts.last!
        try checkMemory(rows: rows, plans: plans, setting: request.memoryLimit, path: path)
        let zone = request.options.timezone == nil ? footer.value(forKey: zoneKey).flatMap(ZoneRules.named) ?? request.zone : request.zone

        let (chosen, rowStarts) = (plans, starts)
        let results = ParallelParts<(Column, [String])>(count: plans.count)
        let pool = ChunkScratchPool()
        DispatchQueue.concurrentPerform(iterations: plans.count) { k in
            if results.failed { results.set(k, .failure(CancellationError())); return }
            results.set(k, Result {
                try ParquetColumnReader(file: file, plan: chosen[k], starts: rowStarts, zone: zone, request: request, stop: results, pool: pool).read()
            })
        }
        var columns: [Column] = []
        for k in 0..<plans.count {
            let (column, notes) = try results.get(k)
            columns.append(column)
            warnings += notes.map { LoadWarning(path: path, $0) }
        }
        var table = Table(name: name, columns: uniqueNames(columns, warnings: &warnings, path: path), zone: zone)
        table.rowCount = rows
        return LoadResult(tables: [table], summary: Loaders.summary(table), warnings: warnings)
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
    static func uniqueNames(_ columns: [Column], warnings: inout [LoadWarning], path: String) -> [Column] {
        var taken = Set<String>()
        return columns.enumerated().map { k, c in
            var name = c.name.isEmpty ? "column_\(k + 1)" : c.name
            if taken.contains(name.lowercased()) {
                var n = 2
                while taken.contains("\(name)_\(n)".lowercased()) { n += 1 }
                warnings.append(LoadWarning(path: path, "column name \"\(name)\" appears twice; the second is called \(name)_\(n)"))
                name = "\(name)_\(n)"
            }
            taken.insert(name.lowercased())
            return c.renamed(name)
        }
    }
}
