/// A parsed JSON document, for the formats read as one document (Behaviour Mapper
/// projects, Prishtina routes, NVDB responses, `load FILE at PATH`). Large record arrays
/// do not go through this: `JSONRecordLoader` fills columns directly.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A whole number written without a point or exponent that fits 64 bits, kept exactly.
    case integer(Int64)
    /// Any other number (and whole numbers too large for 64 bits).
    case number(Double, isInteger: Bool)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x, _), .number(y, _)): return x == y
        case let (.integer(x), .integer(y)): return x == y
        case let (.integer(x), .number(y, _)), let (.number(y, _), .integer(x)): return Double(x) == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.0 == key })?.1
    }

    /// A member under any of several spellings (`time` or `_time`).
    public func member(_ keys: String...) -> JSONValue? {
        for k in keys { if let v = self[k] { return v } }
        return nil
    }

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var double: Double? {
        switch self {
        case .number(let d, _): return d
        case .integer(let i): return Double(i)
        case .string(let s): return NumberParser.double(s)
        default: return nil
        }
    }
    public var int: Int? {
        if case .integer(let i) = self { return Int(i) }
        return double.flatMap { $0 == $0.rounded() && abs($0) < 9e15 ? Int($0) : nil }
    }
    public var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectMembers: [(String, JSONValue)]? { if case .object(let m) = self { return m } else { return nil } }
    public var isNull: Bool { self == .null }

    /// Compact JSON text of this value.
    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .number(let d, let isInt): return isInt && abs(d) < 9e15 ? String(Int64(d)) : NumberText.double(d)
        case .string(let s): return JSONText.quote(s)
        case .array(let a): return "[" + a.map(\.text).joined(separator: ",") + "]"
        case .object(let m): return "{" + m.map { JSONText.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    /// The value at a dotted path (`routes.lines`); arrays along the way are searched
    /// by their elements' members and concatenated (`routes[].lines[]`).
    public func at(path: [String]) -> JSONValue? {
        guard let key = path.first else { return self }
        let rest = Array(path.dropFirst())
        switch self {
        case .object:
            return self[key]?.at(path: rest)
        case .array(let items):
            var out: [JSONValue] = []
            var found = false
            for item in items {
                guard let v = item[key]?.at(path: rest) else { continue }
                found = true
                if case .array(let inner) = v { out.append(contentsOf: inner) } else { out.append(v) }
            }
            return found ? .array(out) : nil
        default:
            return nil
        }
    }
}

/// Writing JSON strings.
public enum JSONText {
    public static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F || u.value == 0x2028 || u.value == 0x2029 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
