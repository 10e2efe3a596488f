/// The warnings of a feed, gathered per file so that a file's problems are listed together
/// (what reading found, then what the checks found), a few of each kind and a count of
/// the rest.
struct GTFSReport {
    /// About the feed as a whole: missing or unknown files, its time zone.
    private var feed: [LoadWarning] = []
    private var order: [String] = []
    private var read: [String: [LoadWarning]] = [:]
    private var checks: [String: WarningLog] = [:]

    mutating func feed(_ path: String, _ message: String) {
        feed.append(LoadWarning(path: path, message))
    }

    /// Warnings that came with reading a file.
    mutating func read(_ file: GTFSFileTable) {
        touch(file.path)
        read[file.path, default: []].append(contentsOf: file.readWarnings)
    }

    /// A warning about a file; `row` gives the line, nil means the file as a whole, and
    /// `header` means its first line.
    mutating func add(_ file: GTFSFileTable, _ kind: String, row: Int? = nil, header: Bool = false, _ message: String) {
        add(path: file.path, kind, line: header ? 1 : row.flatMap(file.line), message)
    }

    mutating func add(path: String, _ kind: String, line: Int?, _ message: String) {
        touch(path)
        // The notice's code ends the message, to look up (`help gtfs CODE`) and to compare with validators.
        let coded = GTFSNotices.code(for: kind).map { "\(message) [\($0)]" } ?? message
        checks[path, default: WarningLog(path: path)].add(kind, line: line, coded)
    }

    private mutating func touch(_ path: String) {
        if read[path] == nil && checks[path] == nil { order.append(path) }
        if read[path] == nil { read[path] = [] }
    }

    func finish() -> [LoadWarning] {
        var out = feed
        for path in order {
            out += read[path] ?? []
            out += checks[path]?.finish() ?? []
        }
        return out
    }
}
