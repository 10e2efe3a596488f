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
        }
    }

    public static func named(_ word: String) -> AggregateFunction? {
        switch word.lowercased() {
        case "count", "n": return .count
        case "sum", "total": return .sum
        case "avg", "mean", "average": return .avg
        case "min": return .min
        case "max": return .max
        case "median": return .median
        case "stddev", "sd", "stdev": return .stddev
        case "first": return .first
        case "last": return .last
        default: return percentile(from: word.lowercased()).map { .percentile($0) }
        }
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
