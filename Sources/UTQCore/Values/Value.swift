import Foundation

/// One value, used for literals, single cells and messages. Columns never store these:
/// they store typed arrays (see `Column`).
public enum Value: Sendable, Hashable {
    case null
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case string(String)
    case timestamp(Int64)
    case duration(Int64)
    case geometry(Geometry)

    public var type: DataType {
        switch self {
        case .null: return .null
        case .int: return .int
        case .double: return .double
        case .bool: return .bool
        case .string: return .string
        case .timestamp: return .timestamp
        case .duration: return .duration
        case .geometry: return .geometry
        }
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The value as a Double when it is numeric (durations in seconds).
    public var doubleValue: Double? {
        switch self {
        case .int(let v): return Double(v)
        case .double(let v): return v
        case .duration(let v): return Double(v) / 1_000_000
        default: return nil
        }
    }
}

/// Number formatting shared by every writer: shortest text that reads back to the same value.
public enum NumberText {
    /// A count and its noun, singular for one: "1 row", "2,500 rows".
    public static func counted(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(grouped(n)) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// Full precision, no thousands separators, no exponent for ordinary magnitudes.
    public static func double(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v < 0 ? "-Infinity" : "Infinity" }
        if v == v.rounded(), abs(v) < 1e15 {
            return String(Int64(v))
        }
        let text = "\(v)"
        // Swift prints 1e-05 style for small magnitudes; keep it, it round-trips.
        return text
    }

    /// Fixed decimals for display in aligned tables.
    public static func fixed(_ v: Double, decimals: Int) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v < 0 ? "-∞" : "∞" }
        if decimals <= 0 {
            let r = v.rounded()
            if abs(r) < 9.2e18 { return String(Int64(r)) }
            return String(format: "%.0f", v)
        }
        return formatFixed(v, decimals)
    }

    private static func formatFixed(_ v: Double, _ decimals: Int) -> String {
        // Scale and round in integers where possible: faster and locale-free.
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (v * scale).rounded()
        if abs(scaled) < 9e15 {
            let n = Int64(scaled)
            let negative = n < 0
            let digits = String(negative ? -n : n)
            let padded = digits.count <= decimals
                ? String(repeating: "0", count: decimals - digits.count + 1) + digits : digits
            let cut = padded.index(padded.endIndex, offsetBy: -decimals)
            let text = padded[..<cut] + "." + padded[cut...]
            return (negative ? "-" : "") + text
        }
        return String(format: "%.\(decimals)f", v)
    }

    /// An integer with thin grouping for summaries ("516", "12,304").
    public static func grouped(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return n < 0 ? "-" + out : out
    }
}

extension Value {
    /// The value as plain text: text as it is, numbers in full, times in ISO 8601 (UTC),
    /// null as nothing. For names made from values and for text functions.
    public var plainText: String {
        switch self {
        case .string(let s): return s
        case .int(let x): return String(x)
        case .double(let x): return NumberText.double(x)
        case .bool(let b): return b ? "true" : "false"
        case .timestamp(let t): return TimeText.iso(t, zone: .utc)
        case .duration(let d): return TimeText.duration(d)
        case .geometry(let g): return WKT.text(g)
        case .null: return ""
        }
    }
}
