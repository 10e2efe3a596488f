/// Something a loader read but did not like; the load goes on.
public struct LoadWarning: Sendable, CustomStringConvertible, Equatable {
    /// What a warning is about, set where it is raised, for code that treats some apart (a
    /// GTFS feed files them under its notices); the message says it in words.
    public enum Kind: Sendable, Equatable {
        /// A line with more or fewer cells than the header.
        case rowLength
        /// A cell that does not read as the type its column must have; it is left empty.
        case unreadableCell(CellType)
        /// Everything nothing needs to tell apart.
        case other
    }

    public var path: String
    public var line: Int?
    public var message: String
    public var kind: Kind
    /// For the line that closes a list of warnings of one kind ("6 more missing cells
    /// warnings"): how many it stands for. Nil for a warning itself.
    public var omitted: Int?
    /// The column the warning is about, where one column's cells made it (a column kept as
    /// text): a column read after its load says only these again.
    public var column: String?

    public init(path: String, line: Int? = nil, _ message: String, kind: Kind = .other, omitted: Int? = nil, column: String? = nil) {
        self.path = path; self.line = line; self.message = message; self.kind = kind; self.omitted = omitted; self.column = column
    }

    public var description: String {
        (line.map { "\(path):\($0)" } ?? path) + ": " + message
    }
}

/// Collects warnings, keeping the first few of each group and counting the rest, so a
/// file with ten thousand bad rows gives a readable report. A group is named in words
/// (`missing cells`), for the line that counts what was left out.
struct WarningLog {
    let path: String
    private(set) var items: [LoadWarning] = []
    private var groups: [String] = []
    private var perGroup: [String: Int] = [:]
    /// The kind of each group's warnings, for the line that counts those left out.
    private var kinds: [String: LoadWarning.Kind] = [:]
    let limitPerGroup = 3

    init(path: String) { self.path = path }

    mutating func add(_ group: String, line: Int?, _ message: String, kind: LoadWarning.Kind = .other) {
        let n = perGroup[group, default: 0]
        perGroup[group] = n + 1
        if kinds[group] == nil { kinds[group] = kind }
        if n < limitPerGroup { items.append(LoadWarning(path: path, line: line, message, kind: kind)); groups.append(group) }
    }

    /// Adds another part's warnings (the next stretch of the same file), whose lines were
    /// counted `lineShift` lines short.
    mutating func merge(_ other: WarningLog, lineShift: Int = 0) {
        var kept: [String: Int] = [:]
        for (item, group) in zip(other.items, other.groups) {
            kept[group, default: 0] += 1
            add(group, line: item.line.map { $0 + lineShift }, item.message, kind: item.kind)
        }
        for (group, n) in other.perGroup {
            let extra = n - (kept[group] ?? 0)
            if extra > 0 { perGroup[group, default: 0] += extra }
        }
    }

    /// The warnings, with a line for each group that had more than were kept.
    func finish() -> [LoadWarning] {
        var out = items
        for (group, n) in perGroup.sorted(by: { $0.key < $1.key }) where n > limitPerGroup {
            out.append(LoadWarning(path: path, "\(n - limitPerGroup) more \(group) warnings", kind: kinds[group] ?? .other,
                                   omitted: n - limitPerGroup))
        }
        return out
    }
}
