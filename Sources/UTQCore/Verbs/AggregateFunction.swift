/// The functions a summarising verb computes over each group.
public enum AggregateFunction: Sendable, Hashable {
    case count
    case sum
    case avg
    case min
    case max
    case median
    case stddev
    /// `p90`: the 90th percentile (linear interpolation between ranks).
    case percentile(Int)
    case first
    case last
    /// The mean direction of angles in degrees, by the vector mean (−180 to 180).
    case circmean

    public var name: String {
        switch self {
        case .count: return "count"
        case .sum: return "sum"
        case .avg: return "avg"
        case .min: return "min"
        case .max: return "max"
        case .median: return "median"
        case .stddev: return "stddev"
        case .percentile(let p): return "p\(p)"
        case .first: return "first"
        case .last: return "last"
        case .circmean: return "circmean"
        }
    }

    /// Other words for a summary, each also a verb: `total x by legend` is `sum x by legend`.
    static let aliasTable: [String: [String]] = [
        "sum": ["total"], "avg": ["mean", "average"], "stddev": ["sd", "stdev"],
    ]

    static func aliases(of name: String) -> [String] { aliasTable[name] ?? [] }

    static let plain: [AggregateFunction] = [.count, .sum, .avg, .min, .max, .median, .stddev, .first, .last, .circmean]

    public static func named(_ word: String) -> AggregateFunction? {
        let w = word.lowercased()
        // `n` counts too, after a comma (`avg x, n by legend`); it is no verb, since a column
        // called n is common.
        if w == "n" { return .count }
        if let f = plain.first(where: { $0.name == w || aliases(of: $0.name).contains(w) }) { return f }
        return percentile(from: w).map { .percentile($0) }
    }

    /// `p5`, `p90`, `p99` → 5, 90, 99.
    public static func percentile(from word: String) -> Int? {
        guard word.count >= 2, word.count <= 3, word.first == "p", let n = Int(word.dropFirst()), n >= 1, n <= 99 else { return nil }
        return n
    }

    /// Whether a column name is one a summary makes (`count`, `avg_angle`, `p90_wait`).
    static func madeBySummary(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower == "count" { return true }
        guard let underscore = lower.firstIndex(of: "_") else { return false }
        let prefix = String(lower[..<underscore])
        return named(prefix) != nil && prefix != "n"
    }

    /// Whether the function needs a column (`count` does not).
    public var needsArgument: Bool { self != .count }
}
