/// The warnings of a feed, gathered per file so that a file's problems are listed together
/// (what reading found, then what the checks found), a few of each kind and a count of
/// the rest. Each warning a notice covers ends with the notice's code, to look up
/// (`help gtfs CODE`) and to compare with validators.
struct GTFSReport {
    /// About the feed as a whole: missing or unknown files, its time zone.
    private var feed: [LoadWarning] = []
    private var order: [String] = []
    private var read: [String: [LoadWarning]] = [:]
    private var checks: [String: WarningLog] = [:]
    /// How many warnings each notice code has, those left out of the list included.
    private(set) var counts: [GTFSNoticeCode: Int] = [:]

    /// A warning about the feed as a whole, under `code` when a notice covers it.
    mutating func feed(_ path: String, code: GTFSNoticeCode?, _ message: String) {
        feed.append(coded(LoadWarning(path: path, message), code))
    }

    /// Warnings that came with reading a file, under the notice their kind is filed under.
    mutating func read(_ file: GTFSFileTable) {
        touch(file.path)
        read[file.path, default: []].append(contentsOf: file.readWarnings.map { coded($0, GTFSNoticeCode(reading: $0.kind)) })
    }

    /// A warning with its notice's code at the end, counted. A line that stands for warnings
    /// left out ("12 more missing cells warnings") counts as that many.
    private mutating func coded(_ warning: LoadWarning, _ code: GTFSNoticeCode?) -> LoadWarning {
        guard let code else { return warning }
        if let omitted = warning.omitted {
            counts[code, default: 0] += omitted
            return warning
        }
        counts[code, default: 0] += 1
        var w = warning
        w.message += " [\(code.rawValue)]"
        return w
    }

    /// A warning the checks found in a file: `group` names its kind in words (`duplicate
    /// stop_id`), a few of each being listed; `row` gives the line, nil means the file as a
    /// whole, and `header` means its first line.
    mutating func add(_ file: GTFSFileTable, _ group: String, code: GTFSNoticeCode, row: Int? = nil, header: Bool = false,
                      _ message: String) {
        touch(file.path)
        counts[code, default: 0] += 1
        checks[file.path, default: WarningLog(path: file.path)]
            .add(group, line: header ? 1 : row.flatMap(file.line), "\(message) [\(code.rawValue)]")
    }

    private mutating func touch(_ path: String) {
        if read[path] == nil && checks[path] == nil { order.append(path) }
        if read[path] == nil { read[path] = [] }
    }

    /// `notices: invalid_row_length 65 · duplicate_key 1`, most first; nil when there are none.
    var noticeCounts: String? {
        guard !counts.isEmpty else { return nil }
        let sorted = counts.map { (code: $0.key.rawValue, n: $0.value) }.sorted { ($0.n, $1.code) > ($1.n, $0.code) }
        return "notices: " + sorted.map { "\($0.code) \(NumberText.grouped($0.n))" }.joined(separator: " · ")
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
