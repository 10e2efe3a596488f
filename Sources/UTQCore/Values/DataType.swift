/// The type of a column. Every column holds values of exactly one type (or nulls).
public enum DataType: String, Sendable, Hashable, CaseIterable {
    case int
    case double
    case bool
    case string
    /// An instant, stored as microseconds since 1970-01-01T00:00:00Z; shown in the table's time zone.
    case timestamp
    /// A span of time, stored as microseconds.
    case duration
    /// A point, line or polygon (or a multi- form of them), in lng/lat or on a plane.
    case geometry
    /// A column whose every value is null (nothing to infer a type from).
    case null

    /// The name used in `describe` and in messages.
    public var displayName: String {
        switch self {
        case .int: return "integer"
        case .double: return "number"
        case .bool: return "boolean"
        case .string: return "text"
        case .timestamp: return "timestamp"
        case .duration: return "duration"
        case .geometry: return "geometry"
        case .null: return "null"
        }
    }

    public var isNumeric: Bool { self == .int || self == .double }
    /// Types whose values have an order and a difference (number-like for min/max/avg).
    public var isOrdered: Bool { self != .bool && self != .null && self != .geometry }
}

/// How a column's values are best shown. Time buckets keep the unit they were cut to,
/// so a `day` bucket prints as a date and a `week` bucket as an ISO week.
public enum DisplayUnit: String, Sendable, Hashable {
    case automatic
    case second
    case minute
    case hour
    case day
    case week
    case month
    case year
    /// Durations shown as a clock (`25:10:00`), as GTFS service times are written.
    case clock
}
