import Foundation

/// A scalar function: how it is written, what types it takes, and how it computes.
public struct FunctionSpec: Sendable {
    public let name: String
    public let aliases: [String]
    public let usage: String
    public let summary: String
    public let examples: [String]
    let arity: ClosedRange<Int>
    /// The result type for the argument types, or a message saying what is wrong.
    let resultType: @Sendable ([DataType]) -> Result<DataType, FunctionTypeError>
    let evaluate: @Sendable ([Vector], DataType, Int, CallContext) throws -> Vector
    /// How it is written in SQL, or why it is not.
    public private(set) var sql: SQLForm = .missing
    /// For a function that gives a geometry: the space of its result, from its arguments
    /// (by default the first geometry argument's, else lng/lat).
    var spaceRule: (@Sendable ([BoundExpr]) -> GeoSpace)? = nil

    /// The space of a geometry this function gives from these arguments.
    func space(_ args: [BoundExpr]) -> GeoSpace {
        if let spaceRule { return spaceRule(args) }
        return args.first(where: { $0.type == .geometry })?.space ?? .lnglat
    }

    init(name: String, aliases: [String], usage: String, summary: String, examples: [String], arity: ClosedRange<Int>,
         resultType: @escaping @Sendable ([DataType]) -> Result<DataType, FunctionTypeError>,
         evaluate: @escaping @Sendable ([Vector], DataType, Int, CallContext) throws -> Vector) {
        self.name = name; self.aliases = aliases; self.usage = usage; self.summary = summary; self.examples = examples
        self.arity = arity; self.resultType = resultType; self.evaluate = evaluate
    }

    /// The same, with its SQL form.
    func inSQL(_ form: SQLForm) -> FunctionSpec {
        var f = self
        f.sql = form
        return f
    }

    /// The same, with the rule for its result's space.
    func inSpace(_ rule: @escaping @Sendable ([BoundExpr]) -> GeoSpace) -> FunctionSpec {
        var f = self
        f.spaceRule = rule
        return f
    }
}

struct FunctionTypeError: Error { let message: String }

/// The registry of scalar functions. Time buckets (`hour(t)`, `day(t)` …) are bound
/// separately, since they read the table's time zone.
public enum Functions {
    public static let all: [FunctionSpec] = MathFunctions.all + AngleFunctions.all + TextFunctions.all + ParsingFunctions.all + OtherFunctions.all
        + GeometryFunctions.all + GeometryMeasures.all

    private static let byName: [String: FunctionSpec] = {
        var m: [String: FunctionSpec] = [:]
        for f in all { m[f.name] = f; for a in f.aliases { m[a] = f } }
        return m
    }()

    public static func spec(_ name: String) -> FunctionSpec? { byName[name.lowercased()] }

    /// `text(x)`, which the binder puts in where ids read as numbers meet ids read as text.
    static let text = spec("text")!

    /// Whether a name is a function or a bucket (so `hour (t)` with a space still parses as a call).
    public static func isKnown(_ name: String) -> Bool {
        byName[name] != nil || TimeBucket.named(name) != nil || name == "bucket"
    }

    public static var names: [String] { all.map(\.name) + TimeBucket.names + ["bucket"] }
}

// MARK: helpers shared by the function families

/// Applies a function row by row on Values: simple, for functions off the hot path. Looks at
/// the cancellation flag every 4,096 rows.
func rowwise(_ args: [Vector], _ n: Int, _ type: DataType, _ context: CallContext, _ f: ([Value]) throws -> Value) throws -> Vector {
    if args.allSatisfy({ if case .constant = $0 { return true } else { return false } }) {
        return .constant(try f(args.map { $0.value(0) }), type)
    }
    var out = [Value](repeating: .null, count: n)
    for i in 0..<n {
        if i & 0xFFF == 0, context.cancel?.isCancelled == true { throw CancellationError() }
        do {
            out[i] = try f(args.map { $0.value(i) })
        } catch var r as ValueOutOfRange {
            r.row = i
            throw r
        }
    }
    return .column(Column.from(values: out, type: type))
}

/// A whole number from a double: NaN and ±∞ are null (no number), and a value past 64 bits
/// is out of range.
func whole(_ x: Double) throws -> Value {
    guard x.isFinite else { return .null }
    guard let i = Checked.int64(x) else { throw ValueOutOfRange(kind: .wholeNumber, row: 0) }
    return .int(i)
}

/// The common type of several arguments (int with double is double; null fits anything).
func commonType(_ types: [DataType]) -> DataType? {
    var result: DataType = .null
    for t in types {
        if t == .null { continue }
        if result == .null { result = t; continue }
        if result == t { continue }
        if result.isNumeric && t.isNumeric { result = .double; continue }
        return nil
    }
    return result
}

func numericArgs(_ name: String, _ types: [DataType], count: Int? = nil) -> FunctionTypeError? {
    for t in types.prefix(count ?? types.count) where !t.isNumeric && t != .null {
        return FunctionTypeError(message: "\(name) needs numbers, not \(t.displayName)")
    }
    return nil
}

enum MathFunctions {
    static func unaryDouble(_ name: String, _ summary: String, examples: [String], _ f: @escaping @Sendable (Double) -> Double?) -> FunctionSpec {
        FunctionSpec(name: name, aliases: [], usage: "\(name)(x)", summary: summary, examples: examples, arity: 1...1,
                     resultType: { t in numericArgs(name, t).map { .failure($0) } ?? .success(.double) },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in v[0].doubleValue.flatMap(f).map { .double($0) } ?? .null }
                     })
    }

    static let all: [FunctionSpec] = [
        FunctionSpec(name: "round", aliases: [], usage: "round(x [, digits])",
                     summary: "Round to a whole number, or to some digits after the point.",
                     examples: ["select legend, x = round(x), y = round(y, 1) | limit 3"], arity: 1...2,
                     resultType: { t in
                         if let e = numericArgs("round", t) { return .failure(e) }
                         return .success(t.count == 1 && t[0] == .int ? .int : (t.count == 1 ? .int : .double))
                     },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             // A whole number is itself (through a double it would lose digits past 2^53).
                             if v.count == 1, case .int(let i) = v[0] { return .int(i) }
                             guard let x = v[0].doubleValue else { return .null }
                             if v.count == 2 {
                                 guard let d = v[1].doubleValue, d.isFinite else { return .null }
                                 let places = Int(Swift.max(-400, Swift.min(400, d.rounded())))
                                 return .double(Rounding.halfAway(x, digits: places))
                             }
                             return try whole(x.rounded())
                         }
                     })
            .inSQL(.build { c in
                // Halves away from zero, as utq rounds; to digits, utq rounds the binary value and
                // PostgreSQL the decimal one.
                guard c.arguments.count == 1 else { return nil }
                if c.types[0] == .int { return c.arguments[0] }
                let x = c.number(0)
                return "(CASE WHEN \(x) > '-Infinity'::float8 AND \(x) < 'Infinity'::float8 THEN \(SQLForm.roundedHalfAway(x))::int8 END)"
            }),
        FunctionSpec(name: "floor", aliases: [], usage: "floor(x)", summary: "The whole number at or below x.",
                     examples: ["let column = floor(x / 206) | count by column"], arity: 1...1,
                     resultType: { t in numericArgs("floor", t).map { .failure($0) } ?? .success(.int) },
                     evaluate: { args, type, n, context in try rowwise(args, n, type, context) { v in try v[0].doubleValue.map { try whole($0.rounded(.down)) } ?? .null } })
            .inSQL(.build { c in
                c.types[0] == .int ? c.arguments[0] : "(CASE WHEN \(c.number(0)) > '-Infinity'::float8 AND \(c.number(0)) < 'Infinity'::float8 THEN floor(\(c.number(0)))::int8 END)"
            }),
        FunctionSpec(name: "ceil", aliases: ["ceiling"], usage: "ceil(x)", summary: "The whole number at or above x.",
                     examples: ["select x, up = ceil(x) | limit 3"], arity: 1...1,
                     resultType: { t in numericArgs("ceil", t).map { .failure($0) } ?? .success(.int) },
                     evaluate: { args, type, n, context in try rowwise(args, n, type, context) { v in try v[0].doubleValue.map { try whole($0.rounded(.up)) } ?? .null } })
            .inSQL(.build { c in
                c.types[0] == .int ? c.arguments[0] : "(CASE WHEN \(c.number(0)) > '-Infinity'::float8 AND \(c.number(0)) < 'Infinity'::float8 THEN ceil(\(c.number(0)))::int8 END)"
            }),
        FunctionSpec(name: "abs", aliases: [], usage: "abs(x)", summary: "The size of x without its sign.",
                     examples: ["where angle is not null | let turn = abs(angle) | avg turn by legend"], arity: 1...1,
                     resultType: { t in
                         if t[0] == .duration { return .success(.duration) }
                         return numericArgs("abs", t).map { .failure($0) } ?? .success(t[0] == .int ? .int : .double)
                     },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             switch v[0] {
                             case .int(let x):
                                 guard x != .min else { throw ValueOutOfRange(kind: .wholeNumber, row: 0) }
                                 return .int(Swift.abs(x))
                             case .double(let x): return .double(Swift.abs(x))
                             case .duration(let x):
                                 guard x != .min else { throw ValueOutOfRange(kind: .duration, row: 0) }
                                 return .duration(Swift.abs(x))
                             default: return .null
                             }
                         }
                     })
            .inSQL(.template("abs({0})")),
        unaryDouble("sqrt", "The square root.",
                    examples: ["let from_middle = sqrt(pow(x - 412, 2) + pow(y - 384, 2)) | avg from_middle by legend"]) { $0 >= 0 ? $0.squareRoot() : nil }
            .inSQL(.numeric("sqrt({0})", where: "{0} >= 0 AND {0} <> 'NaN'::float8")),
        unaryDouble("ln", "The natural logarithm.", examples: ["select x, ln_x = ln(x) | limit 3"]) { $0 > 0 ? Foundation.log($0) : nil }
            .inSQL(.numeric("ln({0})", where: "{0} > 0 AND {0} <> 'NaN'::float8")),
        unaryDouble("log10", "The base-10 logarithm.", examples: ["select x, digits = floor(log10(x)) + 1 | limit 3"]) { $0 > 0 ? Foundation.log10($0) : nil }
            .inSQL(.numeric("log({0})", where: "{0} > 0 AND {0} <> 'NaN'::float8")),
        FunctionSpec(name: "pow", aliases: ["power"], usage: "pow(x, y)", summary: "x to the power y.",
                     examples: ["let from_middle = sqrt(pow(x - 412, 2) + pow(y - 384, 2)) | avg from_middle by legend"], arity: 2...2,
                     resultType: { t in numericArgs("pow", t).map { .failure($0) } ?? .success(.double) },
                     evaluate: { args, type, n, context in
                         try rowwise(args, n, type, context) { v in
                             guard let x = v[0].doubleValue, let y = v[1].doubleValue else { return .null }
                             let r = Foundation.pow(x, y)
                             return r.isFinite ? .double(r) : .null
                         }
                     })
            .inSQL(.none("PostgreSQL's power stops with an error where utq gives null (a result too large)")),
        FunctionSpec(name: "distance", aliases: ["haversine", "st_distance"], usage: "distance(a, b) · distance(lat1, lng1, lat2, lng2)",
                     summary: "The distance between two geometries: geodesic metres in lng/lat (WGS 84), the plan's units on a plan; of four numbers, metres between two latitude-longitude points on a sphere (haversine, radius 6371 km).",
                     examples: ["select metres = round(distance(point(21.16, 42.66), point(21.17, 42.67))) | limit 1",
                                "select metres = round(distance(58.9700, 5.7320, 58.9694, 5.7327)) | limit 1"], arity: 2...4,
                     resultType: { t in
                         if t.count == 2 { return GeometryFunctions.geometryArgs("distance", t, count: 2).map { .failure($0) } ?? .success(.double) }
                         guard t.count == 4 else {
                             return .failure(FunctionTypeError(message: "distance takes two geometries, or four numbers: lat1, lng1, lat2, lng2"))
                         }
                         return numericArgs("distance", t).map { .failure($0) } ?? .success(.double)
                     },
                     evaluate: { args, type, n, context in
                         if args.count == 2 { return try GeometryMeasures.distance(args, n, context) }
                         return try rowwise(args, n, type, context) { v in
                             let d = v.compactMap(\.doubleValue)
                             guard d.count == 4 else { return .null }
                             return .double(Geo.haversine(lat1: d[0], lng1: d[1], lat2: d[2], lng2: d[3]))
                         }
                     })
            .inSQL(.build({ c in
                if c.arguments.count == 2 { return GeometrySQL.distance.sql(c) }
                // The haversine as utq computes it, step for step.
                let (lat1, lng1, lat2, lng2) = (c.number(0), c.number(1), c.number(2), c.number(3))
                let rad = "(pi() / 180)"
                let dLat = "((\(lat2) - \(lat1)) * \(rad))", dLng = "((\(lng2) - \(lng1)) * \(rad))"
                let a = "(sin(\(dLat) / 2) * sin(\(dLat) / 2) + cos(\(lat1) * \(rad)) * cos(\(lat2) * \(rad)) * sin(\(dLng) / 2) * sin(\(dLng) / 2))"
                // least() passes over nulls, so a null argument would give half the Earth.
                let root = "sqrt(\(a))"
                return "(2 * \(Geo.earthRadius) * asin(CASE WHEN \(root) > 1 THEN 1 ELSE \(root) END))"
            }, otherwise: { c in GeometrySQL.distance.reason(for: c) ?? "no SQL form" })),
    ]
}

/// Great-circle distance.
public enum Geo {
    public static let earthRadius = 6_371_000.0

    public static func haversine(lat1: Double, lng1: Double, lat2: Double, lng2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLng = (lng2 - lng1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }
}
