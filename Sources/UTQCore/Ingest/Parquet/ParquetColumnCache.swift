import Foundation

/// A large Parquet file loaded as a table whose columns are read when a question first needs
/// them: load reads the footer only (and the few columns whose type depends on their values),
/// and each column asked for later is decoded once, every row group on its own worker, and
/// kept. The file stays open; before reading, its size and time of change are compared with
/// those at load, so a file changed since is said to be, never read as if it were the same.
final class ParquetColumnCache: ColumnSource, @unchecked Sendable {
    let layout: ParquetLayout
    private let identity: FileIdentity
    private let lock = NSLock()
    private var decoded: [Int: Column] = [:]
    private var reads = 0

    private init(layout: ParquetLayout) throws {
        self.layout = layout
        identity = try FileIdentity(path: layout.file.path)
    }

    /// The table of a file whose columns are read later. Its schema must not change after
    /// load, so columns whose type their values decide are read now: UINT64 (decimals when a
    /// value passes Int64) and BYTE_ARRAY without an annotation (hexadecimal when a value is
    /// not UTF-8). The time span comes from the footer's statistics where they say it exactly.
    static func load(_ layout: ParquetLayout, name: String) throws -> LoadResult {
        let cache = try ParquetColumnCache(layout: layout)
        let path = layout.file.path
        let now = layout.plans.indices.filter { layout.plans[$0].read == .unsigned64 || layout.plans[$0].read == .text(.bytes) }
        var warnings = layout.warnings
        warnings += try cache.columns(now, cancel: nil, phase: nil, request: LoadRequest(path: path, zone: layout.zone)).warnings
        let fields = cache.fields()
        let schema = Schema(fields: fields, zone: layout.zone, timeColumn: fields.first { $0.type == .timestamp }?.name)
        var table = DeferredTable(name: name, schema: schema, rowCount: layout.rows, path: path, timeRange: nil, source: cache)
        table.timeRange = try table.rangeOfTimeColumn(cancel: nil)
        return LoadResult(tables: [], summary: Loaders.summary(.deferred(table)), warnings: warnings + layout.nameWarnings, deferred: [table])
    }

    /// The columns as they will be read: from the plans, or from the column itself when it
    /// is read already.
    func fields() -> [Field] {
        lock.withLock {
            layout.plans.indices.map { k in decoded[k].map(Field.init) ?? layout.plans[k].field }
        }
    }

    var readPositions: Set<Int> { lock.withLock { Set(decoded.keys) } }
    var readCount: Int { lock.withLock { reads } }

    func columns(_ positions: [Int], cancel: CancellationFlag?, phase: (@Sendable (Bool) -> Void)? = nil) throws -> (columns: [Column], warnings: [LoadWarning]) {
        try columns(positions, cancel: cancel, phase: phase, request: LoadRequest(path: layout.file.path, zone: layout.zone, cancel: cancel))
    }

    /// Reads the columns not read yet, all at once (a question's columns side by side), and
    /// keeps them only when every one could be read.
    private func columns(_ positions: [Int], cancel: CancellationFlag?, phase: (@Sendable (Bool) -> Void)?,
                         request: LoadRequest) throws -> (columns: [Column], warnings: [LoadWarning]) {
        lock.lock()
        defer { lock.unlock() }
        var missing: [Int] = []
        for p in positions where decoded[p] == nil && !missing.contains(p) { missing.append(p) }
        var warnings: [LoadWarning] = []
        if !missing.isEmpty {
            try identity.check(path: layout.file.path)
            phase?(true)
            defer { phase?(false) }
            let read = try ParquetReader.decode(missing.map { layout.plans[$0] }, layout: layout, request: request)
            reads += missing.count
            for (k, p) in missing.enumerated() {
                let (column, notes) = read[k]
                decoded[p] = column
                warnings += notes.map { LoadWarning(path: layout.file.path, $0) }
                warnings += LoadNotes.wholeNumbersKeptAsText(Table(name: "", columns: [column]), path: layout.file.path)
            }
        }
        return (positions.map { decoded[$0]! }, warnings)
    }

    func release(_ positions: [Int]) {
        lock.withLock { for p in positions { decoded[p] = nil } }
    }

    func timeRange(of position: Int, cancel: CancellationFlag?) throws -> (Int64, Int64)? {
        let plan = layout.plans[position]
        let notRead = lock.withLock { decoded[position] == nil }
        if notRead, let range = ParquetChunkStatistics.timeRange(plan, footer: layout.file.footer, zone: layout.zone) { return range }
        let column = try columns([position], cancel: cancel).columns[0]
        return Table(name: "", columns: [column], zone: layout.zone, timeColumn: column.name).timeRange()
    }
}

/// What a file was when it was loaded: its size, time of change and identity on disk.
struct FileIdentity {
    let size: Int64
    let seconds: Int
    let nanoseconds: Int
    let device: UInt64
    let inode: UInt64

    init(path: String) throws {
        var st = stat()
        guard stat(path, &st) == 0 else { throw LoadError(path: path, errno: errno) }
        self.init(st)
    }

    init(_ st: stat) {
        size = Int64(st.st_size)
        seconds = Int(st.st_mtim.tv_sec)
        nanoseconds = Int(st.st_mtim.tv_nsec)
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    func same(as other: FileIdentity) -> Bool {
        size == other.size && seconds == other.seconds && nanoseconds == other.nanoseconds && device == other.device && inode == other.inode
    }

    /// Throws when the file at the path is no longer the one loaded.
    func check(path: String) throws {
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw SourceChanged(message: "it is no longer there (it was loaded, and its columns are read when a question first needs them)")
        }
        guard same(as: FileIdentity(st)) else {
            throw SourceChanged(message: "it has changed since it was loaded (its size or time of change is not what it was then), "
                                + "so the columns not read yet would not match the ones read")
        }
    }
}

extension ParquetColumnPlan {
    /// The column this plan makes, as the binder sees it, without reading it.
    var field: Field {
        switch output {
        case .int: return Field(name: name, type: .int)
        case .double: return Field(name: name, type: .double)
        case .bool: return Field(name: name, type: .bool)
        case .text: return Field(name: name, type: .string)
        case .null: return Field(name: name, type: .null)
        case .timestamp(let day, let floating): return Field(name: name, type: .timestamp, unit: day ? .day : .automatic, floating: floating)
        case .duration(let clock): return Field(name: name, type: .duration, unit: clock ? .clock : .automatic)
        }
    }
}
