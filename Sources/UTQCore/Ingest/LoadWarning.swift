/// Something a loader read but did not like; the load goes on.
public struct LoadWarning: Sendable, CustomStringConvertible, Equatable {
    public var path: String
    public var line: Int?
    public var message: String

    public init(path: String, line: Int? = nil, _ message: String) {
        self.path = path; self.line = line; self.message = message
    }

    public var description: String {
        (line.map { "\(path):\($0)" } ?? path) + ": " + message
    }
}

/// Collects warnings, keeping the first few of each kind and counting the rest,
/// so a file with ten thousand bad rows gives a readable report.
struct WarningLog {
    let path: String
    private(set) var items: [LoadWarning] = []
    private var kinds: [String] = []
    private var perKind: [String: Int] = [:]
    let limitPerKind = 3

    init(path: String) { self.path = path }

    mutating func add(_ kind: String, line: Int?, _ message: String) {
        let n = perKind[kind, default: 0]
        perKind[kind] = n + 1
        if n < limitPerKind { items.append(LoadWarning(path: path, line: line, message)); kinds.append(kind) }
    }

    /// Adds another part's warnings (the next stretch of the same file), whose lines were
    /// counted `lineShift` lines short.
    mutating func merge(_ other: WarningLog, lineShift: Int = 0) {
        var kept: [String: Int] = [:]
        for (item, kind) in zip(other.items, other.kinds) {
            kept[kind, default: 0] += 1
            add(kind, line: item.line.map { $0 + lineShift }, item.message)
        }
        for (kind, n) in other.perKind {
            let extra = n - (kept[kind] ?? 0)
            if extra > 0 { perKind[kind, default: 0] += extra }
        }
    }

    /// The warnings, with a line for each kind that had more than were kept.
    func finish() -> [LoadWarning] {
        var out = items
        for (kind, n) in perKind.sorted(by: { $0.key < $1.key }) where n > limitPerKind {
            out.append(LoadWarning(path: path, "\(n - limitPerKind) more \(kind) warnings"))
        }
        return out
    }
}
