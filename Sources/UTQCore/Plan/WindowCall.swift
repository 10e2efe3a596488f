/// A function of `let … by` that looks at other rows of the row's group: the row before or
/// after, its number, its rank, a running sum, or a summary of the whole group repeated on
/// every row. The window node computes each as a column of its own, named as written.
public struct WindowCall: Sendable {
    public enum Kind: Sendable, Equatable {
        /// The value `offset` rows before (prev) or after (next) in the group.
        case prev(Int), next(Int)
        case rowNumber
        /// 1 for the largest value of the group; ties share a rank (1, 2, 2, 4).
        case rank
        case runningSum
        /// A summary over the whole group (`sum(count)`), on every row of it.
        case summary(AggregateFunction)
        /// A summary over a rolling window of the group (`avg(count) over 7 days`).
        case rolling(AggregateFunction, RollingFrame)
    }

    public var kind: Kind
    public var argument: BoundExpr?
    /// The call as written (`prev(departure_time)`): its column's name.
    public var name: String
    public var type: DataType
    public var unit: DisplayUnit
    /// The second column of a two-column summary: x in `regr_slope(y, x)`.
    public var second: BoundExpr? = nil

    public var describe: String {
        switch kind {
        case .prev(let k), .next(let k):
            let f = { if case .prev = kind { return "prev" } else { return "next" } }()
            return "\(f)(\(argument?.describeBare ?? "")" + (k == 1 ? ")" : ", \(k))")
        case .rowNumber: return "row_number()"
        case .rank: return "rank(\(argument?.describeBare ?? ""))"
        case .runningSum: return "running_sum(\(argument?.describeBare ?? ""))"
        case .summary(let f): return "\(f.name)(" + [argument, second].compactMap { $0?.describeBare }.joined(separator: ", ") + ")"
        case .rolling(let f, let frame): return "\(f.name)(\(argument?.describeBare ?? "")) over \(frame.describe)"
        }
    }

    /// The names that are window functions in `let` (summaries are too, there).
    static let rowFunctions = ["prev", "lag", "next", "lead", "row_number", "rank", "running_sum", "cumsum"]
}

/// How far a rolling window reaches back from each row: the row and the `rows - 1` before it
/// in the group (in the rows' order), or the rows of the group whose time is within `span`
/// of the row's, after it less than `span` before: (t − span, t], all rows at t included.
public enum RollingFrame: Sendable, Equatable {
    case rows(Int)
    case time(span: Int64, column: Int)

    public var describe: String {
        switch self {
        case .rows(let n): return "\(n) row" + (n == 1 ? "" : "s")
        case .time(let span, _): return Self.spanText(span)
        }
    }

    /// A span as a person writes it after over: 7 days, 2 hours, 90 seconds.
    static func spanText(_ micros: Int64) -> String {
        for (unit, size) in [("day", CivilTime.microsPerDay), ("hour", CivilTime.microsPerHour), ("minute", CivilTime.microsPerMinute), ("second", Int64(1_000_000))]
        where micros % size == 0 {
            let n = micros / size
            return "\(n) \(unit)" + (n == 1 ? "" : "s")
        }
        return TimeText.duration(micros)
    }

    /// The summaries a rolling window computes.
    static let functions: [AggregateFunction] = [.count, .sum, .avg, .min, .max]
}

/// The window calls met while binding the expressions of one `let … by`.
final class WindowCollector: @unchecked Sendable {
    /// How many columns the input has: calls become the columns after them.
    let base: Int
    private(set) var calls: [WindowCall] = []

    init(base: Int) { self.base = base }

    /// The column a call's result will be (the same call written twice is computed once).
    func column(for call: WindowCall) -> BoundExpr {
        let k = calls.firstIndex { $0.name == call.name } ?? { calls.append(call); return calls.count - 1 }()
        return .column(base + k, Field(name: calls[k].name, type: calls[k].type, unit: calls[k].unit))
    }
}
