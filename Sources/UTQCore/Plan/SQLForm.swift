/// How a function, a summary or a time bucket is written in SQL (PostgreSQL's), kept in the
/// registry beside its definition, as PRQL keeps `std.sql.prql`: a step goes to the database
/// only when every call in it has a form there, and explain says why when one has none.
/// `docs/language.md` shows, for each, whether it runs in the database.
public struct SQLForm: Sendable {
    private enum Kind: Sendable {
        case build(@Sendable (SQLCall) -> String?, otherwise: (@Sendable (SQLCall) -> String)?)
        case none(String?)
    }
    private let kind: Kind
    /// For a form some arguments have and others not: which, as the docs' column says it.
    public private(set) var only: String?

    /// A template: `abs({0})`; each `{k}` is argument k's SQL, `{*}` all of them joined by
    /// commas.
    public static func template(_ text: String) -> SQLForm {
        SQLForm(kind: .build({ call in
            var out = text.replacingOccurrences(of: "{*}", with: call.arguments.joined(separator: ", "))
            for (k, a) in call.arguments.enumerated() { out = out.replacingOccurrences(of: "{\(k)}", with: a) }
            return out
        }, otherwise: nil))
    }

    /// Made in code from the call: nil where these arguments have no form, and `otherwise`
    /// says why; `only` says for which the docs (`len`: of a geometry, not of text).
    public static func build(_ make: @escaping @Sendable (SQLCall) -> String?, otherwise: (@Sendable (SQLCall) -> String)? = nil,
                             only: String? = nil) -> SQLForm {
        SQLForm(kind: .build(make, otherwise: otherwise), only: only)
    }

    /// No form, and why: utq's meaning differs from the database's, and explain says so.
    public static func none(_ why: String) -> SQLForm { SQLForm(kind: .none(why)) }

    /// No form yet.
    public static let missing = SQLForm(kind: .none(nil))

    /// Whether there is a form (for some arguments at least).
    public var exists: Bool {
        if case .build = kind { return true }
        return false
    }

    /// Why there is none, when that is known.
    public var reason: String? {
        if case .none(let why) = kind { return why }
        return nil
    }

    /// The SQL of a call, or nil where it has none.
    public func sql(_ call: SQLCall) -> String? {
        if case .build(let make, _) = kind { return make(call) }
        return nil
    }

    /// Why a call has no SQL, where the form says.
    public func reason(for call: SQLCall) -> String? {
        switch kind {
        case .build(_, let otherwise): return otherwise?(call)
        case .none(let why): return why
        }
    }
}

/// A call as its SQL form sees it: its arguments' SQL and types, and for summaries whether
/// they count distinct values and the window they are taken over.
public struct SQLCall: Sendable {
    public var arguments: [String]
    public var types: [DataType]
    /// `count(distinct …)`.
    public var distinct = false
    /// ` OVER (PARTITION BY …)` for a summary over a window; empty for a group's.
    public var over = ""
    /// For a time bucket: the table's zone, as an SQL literal, and a fixed span's length.
    public var zone = ""
    public var step: Int64 = 0
    /// For geometries: each argument's space (lng/lat goes through PostGIS's geography).
    public var spaces: [GeoSpace] = []
    /// Each argument's value where it is a constant (a cell's size, geometry's "plane"), else nil.
    public var constants: [Value?] = []

    public init(arguments: [String], types: [DataType], distinct: Bool = false, over: String = "", zone: String = "", step: Int64 = 0) {
        self.arguments = arguments; self.types = types; self.distinct = distinct; self.over = over; self.zone = zone; self.step = step
    }

    /// Argument k, as a number (float8): integers and numbers alike.
    public func number(_ k: Int) -> String { types[k] == .double ? arguments[k] : "\(arguments[k])::float8" }

    /// Text in SQL's quotes.
    public static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
}

extension SQLForm {
    /// A function of one number whose value is null where utq's is (outside its domain), so
    /// the database never stops with an error utq does not give: `where` is the condition on
    /// the argument (`{0} > 0`). PostgreSQL orders NaN above every number, so a condition
    /// that keeps numbers above a bound must leave NaN out itself.
    static func numeric(_ call: String, where condition: String? = nil) -> SQLForm {
        .build { c in
            let x = c.number(0)
            let body = call.replacingOccurrences(of: "{0}", with: x)
            guard let condition else { return body }
            return "(CASE WHEN \(condition.replacingOccurrences(of: "{0}", with: x)) THEN \(body) END)"
        }
    }

    /// A number that is neither infinite nor NaN (on which PostgreSQL's trigonometry stops).
    static let finite = "{0} > '-Infinity'::float8 AND {0} < 'Infinity'::float8"

    /// sin, cos, tan: NaN where the angle is not finite, as utq gives.
    static func trigonometric(_ name: String) -> SQLForm {
        .build { c in
            let x = c.number(0)
            return "(CASE WHEN \(x) IS NULL THEN NULL WHEN \(finite.replacingOccurrences(of: "{0}", with: x)) THEN \(name)(\(x)) ELSE 'NaN'::float8 END)"
        }
    }

    /// A number rounded half away from zero, as utq rounds (PostgreSQL's round of a float8
    /// rounds halves to even, and through numeric it keeps only 15 digits).
    static func roundedHalfAway(_ x: String) -> String {
        "(CASE WHEN abs(\(x)) - floor(abs(\(x))) = 0.5 THEN sign(\(x)) * ceil(abs(\(x))) ELSE round(\(x)) END)"
    }
}
