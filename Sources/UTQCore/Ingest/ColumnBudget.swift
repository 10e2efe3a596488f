/// How many columns a file of records may make, and how many cells they may hold.
///
/// A JSON or NDJSON file makes a column of each member name it meets, and every column holds
/// a cell for every record, whether the record names that member or not: a file of a few
/// megabytes that names a new member on each line asks for rows × columns cells, nearly all
/// of them empty, and would run out of memory long before it was read. The size of the file
/// says nothing about that (`MemoryBudget.check` has passed it), so the columns are counted as
/// they appear and the cells weighed against the memory a load may take.
struct ColumnBudget: Sendable {
    /// The most columns a file may make, as for delimited files.
    static var maxColumns: Int { CSVLoader.maxColumns }
    /// What a cell takes at most: a 64-bit value, and the 32-bit row number that marks it
    /// missing.
    static let bytesPerCell = 12
    /// What a column takes whatever its rows: the stage its builder fills values through,
    /// and the builder.
    static let bytesPerColumn = StagedArray<Int64>.stageSize * MemoryLayout<Int64>.stride + 1024
    /// The memory the cells may take; nil when none is known.
    let bytes: Int?

    /// `shares`: how many readers fill columns at once, each with its share of the memory.
    init(memoryLimit setting: Int?, shares: Int = 1) {
        bytes = MemoryBudget.limit(setting: setting).map { $0 / max(1, shares) }
    }

    /// Why `rows` records with `columns` member names between them do not fit, or nil.
    func refusal(rows: Int, columns: Int) -> String? {
        if columns > Self.maxColumns {
            return "its records name more than \(NumberText.grouped(Self.maxColumns)) different members, a column each; "
                + "utq reads at most \(NumberText.grouped(Self.maxColumns)) columns"
        }
        guard let bytes else { return nil }
        let (cells, o1) = rows.multipliedReportingOverflow(by: columns)
        let (cellBytes, o2) = cells.multipliedReportingOverflow(by: Self.bytesPerCell)
        let (need, o3) = cellBytes.addingReportingOverflow(columns * Self.bytesPerColumn)
        let overflow = o1 || o2 || o3
        guard overflow || need > bytes else { return nil }
        return "\(NumberText.counted(rows, "record")) with \(NumberText.grouped(columns)) different members between them make a table of "
            + "\(o1 ? "more cells than can be counted" : NumberText.counted(cells, "cell")) (one for each record and member, named or not), "
            + "which takes about \(MemoryBudget.describe(overflow ? .max : need)) of memory, and \(MemoryBudget.describe(bytes)) is free "
            + "(set memory-limit SIZE changes the limit)"
    }

    /// Throws `ColumnsDoNotFit` when `rows` records with `columns` columns do not fit.
    func check(rows: Int, columns: Int) throws {
        if let reason = refusal(rows: rows, columns: columns) { throw ColumnsDoNotFit(reason: reason) }
    }
}

/// Records that would make more columns, or more cells, than a load may hold; the loader
/// says where in the file.
struct ColumnsDoNotFit: Error {
    let reason: String
}
