/// The warnings of a feed, gathered per file so that a file's problems are listed together
/// (what reading found, then what the checks found), a few of each kind and a count of
/// the rest.
struct GTFSReport {
    /// About the feed as a whole: missing or unknown files, its time zone.
    private var feed: [LoadWarning] = []
    private var order: [String] = []
    private var read: [String: [LoadWarning]] = [:]
    private var checks: [String: WarningLog] = [:]
    /// How many warnings each notice code has, those left out of the list included.
    private(set) var counts: [String: Int] = [:]

    mutating func feed(_ path: String, _ message: String) {
        feed.append(LoadWarning(path: path, coded(message)))
    }

    /// Warnings that came with reading a file.
    mutating func read(_ file: GTFSFileTable) {
        touch(file.path)
        read[file.path, default: []].append(contentsOf: file.readWarnings.map { w in
            var w = w
            w.message = coded(w.message)
            return w
        })
    }

    /// A message with its notice's code at the end, counted. A line that stands for warnings
    /// left out ("12 more missing cells warnings") counts as that many.
    private mutating func coded(_ message: String) -> String {
        guard let code = GTFSNotices.code(forMessage: message) else { return message }
        let words = message.split(separator: " ", maxSplits: 2)
        if words.count == 3, words[1] == "more", let n = Int(words[0]), message.hasSuffix(" warnings") {
            counts[code, default: 0] += n
            return message
        }
        counts[code, default: 0] += 1
        return "\(message) [\(code)]"
    }

    /// A warning about a file; `row` gives the line, nil means the file as a whole, and
    /// `header` means its first line.
    mutating func add(_ file: GTFSFileTable, _ kind: String, row: Int? = nil, header: Bool = false, _ message: String) {
        add(path: file.path, kind, line: header ? 1 : row.flatMap(file.line), message)
    }

    mutating func add(path: String, _ kind: String, line: Int?, _ message: String) {
        touch(path)
        // The notice's code ends the message, to look up (`help gtfs CODE`) and to compare with validators.
        let code = GTFSNotices.code(for: kind)
        if let code { counts[code, default: 0] += 1 }
        checks[path, default: WarningLog(path: path)].add(kind, line: line, code.map { "\(message) [\($0)]" } ?? message)
    }

    private mutating func touch(_ path: String) {
        if read[path] == nil && checks[path] == nil { order.append(path) }
        if read[path] == nil { read[path] = [] }
    }

    /// `notices: invalid_row_length 65 · duplicate_key 1`, most first; nil when there are none.
    var noticeCounts: String? {
        guard !counts.isEmpty else { return nil }
        let sorted = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        return "notices: " + sorted.map { "\($0.key) \(NumberText.grouped($0.value))" }.joined(separator: " · ")
            + " (help gtfs CODE says what each means)"
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
