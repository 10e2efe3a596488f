/// An expression with its names resolved to columns and its types checked.
public indirect enum BoundExpr: Sendable {
    case column(Int, Field)
    case literal(Value, DataType)
    case unary(UnaryOp, BoundExpr, DataType)
    case binary(BinaryOp, BoundExpr, BoundExpr, DataType)
    case call(FunctionSpec, [BoundExpr], DataType)
    /// A time bucket of a timestamp (or of a duration, for GTFS service times), in a zone.
    case bucket(TimeBucket, BoundExpr, ZoneRules)
    case inList(BoundExpr, [Value], negated: Bool)
    case isNull(BoundExpr, negated: Bool)
    /// A widening conversion the binder inserted (integer to number).
    case cast(BoundExpr, DataType)

    public var type: DataType {
        switch self {
        case .column(_, let f): return f.type
        case .literal(_, let t): return t
        case .unary(_, _, let t), .binary(_, _, _, let t), .call(_, _, let t): return t
        case .bucket(let b, let e, _): return b.resultType(for: e.type)
        case .inList, .isNull: return .bool
        case .cast(_, let t): return t
        }
    }

    /// The display unit of the values this expression gives.
    public var unit: DisplayUnit {
        switch self {
        case .column(_, let f): return f.unit
        case .bucket(let b, let e, _): return b.unit(for: e.type)
        case .cast(let e, _): return e.unit
        // The time between two clock times (a headway: 07:30 - 07:15) is a span, 15 min;
        // a clock time moved by a span is a clock time.
        case .binary(.subtract, let l, let r, .duration) where l.unit == .clock && r.unit == .clock:
            return .automatic
        case .binary(_, let l, let r, let t) where t == .duration:
            return l.unit == .clock || r.unit == .clock ? .clock : .automatic
        case .binary(_, let l, _, let t) where t == .timestamp: return l.unit
        case .call(let f, _, _) where f.name == "clock_time": return .clock
        case .call(let f, let args, _) where ["coalesce", "min", "max", "if"].contains(f.name):
            return args.last?.unit ?? .automatic
        default: return .automatic
        }
    }

    /// For a geometry: lng/lat or a plane. A column says; a function's result follows its
    /// rule (`xy(x, y)` is on a plane, `centroid(g)` is where g is).
    public var space: GeoSpace {
        switch self {
        case .column(_, let f): return f.space
        case .literal(.geometry(let g), _): return g.space
        case .call(let f, let args, _): return f.space(args)
        case .cast(let e, _): return e.space
        default: return .lnglat
        }
    }

    /// The expression as a plan step shows it: without the parentheses around the whole.
    public var describeBare: String {
        let text = describe
        if case .binary = self, text.hasPrefix("("), text.hasSuffix(")") { return String(text.dropFirst().dropLast()) }
        return text
    }

    /// Compact text for plan listings.
    public var describe: String {
        switch self {
        case .column(_, let f): return f.name
        case .literal(let v, _): return v.literalSyntax
        case .unary(.not, let e, _): return "not \(e.describe)"
        case .unary(.negate, let e, _):
            let inner = e.describe
            return inner.hasPrefix("-") || inner.contains(" ") ? "-(\(inner))" : "-" + inner
        case .binary(let op, let l, let r, _): return "(\(l.describe) \(op.rawValue) \(r.describe))"
        case .call(let f, let a, _): return "\(f.name)(" + a.map(\.describe).joined(separator: ", ") + ")"
        case .bucket(let b, let e, _): return "\(b.name)(\(e.describe))"
        case .inList(let e, let v, let n): return "\(e.describe) \(n ? "not in" : "in") (" + v.map(\.literalSyntax).joined(separator: ", ") + ")"
        case .isNull(let e, let n): return "\(e.describe) is \(n ? "not " : "")null"
        // Integers widen to numbers where they meet numbers; that is no step a reader needs.
        case .cast(let e, .double) where e.type == .int: return e.describe
        case .cast(let e, let t): return "\(t.displayName)(\(e.describe))"
        }
    }
}

/// The time buckets: cuts of a timestamp in the table's zone.
public enum TimeBucket: Sendable, Equatable {
    case minute, hour, weekday, day, week, month, year
    /// `every 15m`: fixed spans of wall-clock time, aligned to midnight.
    case every(Int64)
    /// Hour and minute of the day as a duration since midnight (for clock-style keys).
    case timeOfDay
    /// Jan … Dec, sorted January first: the month of the year, whatever the year.
    case monthOfYear
    /// Calendar parts as whole numbers: 1–31, 1–366, the ISO week 1–53, 1–4.
    case dayOfMonth, dayOfYear, weekOfYear, quarter

    /// The names a word can give a bucket (not `every`), from the registry.
    public static var names: [String] { TimeBuckets.names }

    public static func named(_ word: String) -> TimeBucket? { TimeBuckets.named(word) }

    public var name: String { TimeBuckets.spec(self).name }

    public func resultType(for input: DataType) -> DataType {
        switch self {
        case .hour, .year, .dayOfMonth, .dayOfYear, .weekOfYear, .quarter: return .int
        case .weekday, .monthOfYear: return .string
        case .timeOfDay: return .duration
        case .minute, .every:
            return input == .duration ? .duration : .timestamp
        case .day, .week, .month:
            return input == .duration ? .int : .timestamp
        }
    }

    public func unit(for input: DataType) -> DisplayUnit {
        switch self {
        case .minute: return input == .duration ? .clock : .minute
        case .day: return .day
        case .week: return .week
        case .month: return .month
        case .timeOfDay: return .clock
        case .monthOfYear, .weekday: return .automatic
        // Hour and year keys are whole numbers; the unit tells a chart they are times of
        // day and years (labels 08, 12 …), not quantities.
        case .hour: return .hour
        case .year: return .year
        case .every(let step):
            if input == .duration { return .clock }
            return step >= CivilTime.microsPerDay ? .day : (step % CivilTime.microsPerMinute == 0 ? .minute : .second)
        default: return .automatic
        }
    }
}
