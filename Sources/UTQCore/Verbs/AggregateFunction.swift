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
    /// Summaries of two columns, over the rows where both have a value. Their arguments are
    /// in SQL's order: `regr_slope(y, x)` is the slope of y against x.
    case corr
    /// The sample covariance (`covar_samp`, pandas' `cov`); `covarPop` divides by n.
    case covar
    case covarPop
    case regrSlope
    case regrIntercept
    case regrR2
    /// The group's points in the rows' order, as one line (a vehicle's track, a shape).
    case path
    /// The group's geometries as one multi- geometry (a route's stops, a district's blocks).
    case collect
    /// The group's polygons merged into one: their union, shared edges gone (an isochrone
    /// from the walk around each stop reached, a district from its blocks).
    case dissolve

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
        case .corr: return "corr"
        case .covar: return "covar"
        case .covarPop: return "covar_pop"
        case .regrSlope: return "regr_slope"
        case .regrIntercept: return "regr_intercept"
        case .regrR2: return "regr_r2"
        case .path: return "path"
        case .collect: return "collect"
        case .dissolve: return "dissolve"
        }
    }

    /// Whether the summary takes two columns (`corr(x, y)`).
    public var isPaired: Bool { Self.paired.contains(self) }

    static let paired: [AggregateFunction] = [.corr, .covar, .covarPop, .regrSlope, .regrIntercept, .regrR2]

    /// Other words for a summary, each also a verb: `total x by legend` is `sum x by legend`.
    static let aliasTable: [String: [String]] = [
        "sum": ["total"], "avg": ["mean", "average"], "stddev": ["sd", "stdev"], "covar": ["covar_samp"],
    ]

    static func aliases(of name: String) -> [String] { aliasTable[name] ?? [] }

    static let plain: [AggregateFunction] = [.count, .sum, .avg, .min, .max, .median, .stddev, .first, .last, .circmean] + paired + [.path, .collect, .dissolve]

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
        // Two-word names (`regr_slope_y_x`) are matched whole.
        if paired.contains(where: { lower.hasPrefix($0.name + "_") }) { return true }
        return named(prefix) != nil && prefix != "n"
    }

    /// Whether the function needs a column (`count` does not).
    public var needsArgument: Bool { self != .count }
}

extension AggregateFunction {
    /// A number as an exact numeric, for sums in SQL. A float8 becomes its 15-digit cast (all
    /// PostgreSQL's own cast keeps: 1234568.1901234568 would add as 1234568.19012346) plus
    /// what that cast left out, which float8 subtracts exactly. Both are casts postgres_fdw
    /// sends to a shard (a cast through text is not). Near the largest doubles the 15 digits
    /// round past them and cannot come back: those, NaN and the infinities take the plain cast.
    public static func exactNumeric(_ argument: String, _ type: DataType) -> String {
        let x = "(\(argument))"
        guard type == .double else { return "\(x)::numeric" }
        return "(CASE WHEN abs(\(x)) < 1e300 THEN \(x)::numeric + (\(x) - \(x)::numeric::float8)::numeric ELSE \(x)::numeric END)"
    }

    /// The summary in two steps, for a table split over servers: what each part sums up
    /// (`parts`, over its own rows) and how those parts' columns (`combine`, given their names)
    /// make the summary's SQL, as `sql` would write it over all the rows. nil for a summary
    /// that does not split (medians, spreads, distinct counts), which then runs where the rows
    /// meet.
    public func splitSQL(_ c: SQLCall) -> (parts: [String], combine: @Sendable ([String]) -> String)? {
        guard !c.distinct, c.over.isEmpty else { return nil }
        let type = c.types.first
        switch self {
        case .count:
            let part = c.arguments.isEmpty ? "count(*)" : "count(\(c.arguments[0]))"
            return ([part], { "sum(\($0[0]))::int8" })
        case .sum:
            // Each part's sum is numeric (float8 added exactly), and so is their sum.
            guard let sum = sql.sql(c), [.double, .bool, .int, .duration].contains(type) else { return nil }
            if type == .double { return (["sum(\(Self.exactNumeric(c.arguments[0], .double)))"], { "(sum(\($0[0])))::float8" }) }
            return ([sum], { "sum(\($0[0]))" })
        case .avg:
            guard [.int, .double, .duration, .bool].contains(type) else { return nil }
            let x = type == .bool ? "(\(c.arguments[0]))::int::numeric" : Self.exactNumeric(c.arguments[0], type!)
            return (["sum(\(x))", "count(\(c.arguments[0]))"], { "(sum(\($0[0])) / NULLIF(sum(\($0[1])), 0))::float8" })
        case .min, .max:
            guard let part = sql.sql(c) else { return nil }
            let combine = type == .bool ? (self == .min ? "bool_and" : "bool_or") : name
            return ([part], { "\(combine)(\($0[0]))" })
        default:
            return nil
        }
    }

    /// How the summary is written in SQL over a group, or over a window (`SQLCall.over`).
    /// Sums and means of numbers add exactly (numeric), as utq's compensated sums nearly do:
    /// adding 1e15, 0.5 and -1e15 in float8 loses the half.
    public var sql: SQLForm {
        @Sendable func distinct(_ c: SQLCall) -> String { c.distinct ? "DISTINCT " : "" }
        @Sendable func exact(_ c: SQLCall) -> String { Self.exactNumeric(c.arguments[0], c.types[0]) }
        switch self {
        case .count:
            return .build { c in c.arguments.isEmpty ? "count(*)\(c.over)" : "count(\(distinct(c))\(c.arguments[0]))\(c.over)" }
        case .sum:
            return .build({ c in
                switch c.types[0] {
                case .double: return "(sum(\(distinct(c))\(exact(c)))\(c.over))::float8"
                case .bool: return "sum(\(distinct(c))(\(c.arguments[0]))::int)\(c.over)"
                case .int, .duration: return "sum(\(distinct(c))\(c.arguments[0]))\(c.over)"
                default: return nil
                }
            }, otherwise: { c in "sum of \(c.types[0].displayName) has no SQL form" })
        case .avg:
            return .build({ c in
                switch c.types[0] {
                case .int, .double, .duration: return "(avg(\(distinct(c))\(exact(c)))\(c.over))::float8"
                case .bool: return "(avg(\(distinct(c))(\(c.arguments[0]))::int::numeric)\(c.over))::float8"
                default: return nil
                }
            }, otherwise: { c in "the mean of \(c.types[0].displayName) has no SQL form" })
        case .min, .max:
            let name = self.name
            return .build({ c in
                // Text has utq's natural order (or a column's own), which the database's min and max do not.
                // PostgreSQL has no min or max of booleans: false is below true, as bool_and and bool_or find.
                // Geometries have utq's order (by their coordinates in turn), which PostGIS's is not.
                switch c.types[0] {
                case .string, .geometry: return nil
                case .bool: return "\(name == "min" ? "bool_and" : "bool_or")(\(c.arguments[0]))\(c.over)"
                default: return "\(name)(\(c.arguments[0]))\(c.over)"
                }
            }, otherwise: { c in
                c.types.first == .geometry ? "\(name) of geometries follows utq's order of them, which PostGIS's order is not"
                    : "\(name) of text follows utq's natural order, which no collation of the database gives"
            })
        case .stddev:
            return .build({ c in
                [.int, .double, .duration].contains(c.types[0]) ? "(stddev_samp(\(exact(c)))\(c.over))::float8" : nil
            }, otherwise: { c in "stddev of \(c.types[0].displayName) has no SQL form" })
        case .median, .percentile:
            // utq's quantiles interpolate between ranks, as percentile_cont does; PostgreSQL has
            // it for groups only.
            let p = { () -> Double in if case .percentile(let p) = self { return Double(p) / 100 } else { return 0.5 } }()
            let name = self.name
            return .build({ c in
                guard c.over.isEmpty, !c.distinct, [.int, .double, .duration].contains(c.types[0]) else { return nil }
                let x = c.arguments[0]
                func cont(_ v: String) -> String { "percentile_cont(\(p)) WITHIN GROUP (ORDER BY \(v))" }
                guard c.types[0] == .double else { return cont(x) }
                // PostgreSQL interpolates next to an infinity as NaN (from -inf to 1, and even
                // from +inf to +inf); utq's answer is the infinity. Quantiles of marks that sort
                // as the values do tell those cases: the lower value is -inf and the upper is
                // neither +inf nor NaN, or both are +inf.
                let minusInfinity = cont("-((\(x) = '-Infinity'::float8)::int)")
                let high = cont("((\(x) = 'Infinity'::float8) OR (\(x) = 'NaN'::float8))::int")
                let notANumber = cont("(\(x) = 'NaN'::float8)::int")
                return "CASE WHEN \(minusInfinity) < 0 AND \(high) = 0 THEN '-Infinity'::float8 "
                    + "WHEN \(high) = 1 AND \(notANumber) = 0 THEN 'Infinity'::float8 ELSE \(cont(x)) END"
            }, otherwise: { c in c.over.isEmpty ? "\(name) of \(c.types[0].displayName) has no SQL form" : "PostgreSQL has no \(name) over a window" })
        case .first, .last:
            // The first (or last) value that is not null, in the rows' order: a summary's SQL
            // numbers its rows in utq's order as "utq_row" for it. A window's has no such order.
            let direction: String
            if case .first = self { direction = "" } else { direction = " DESC" }
            return .build({ c in
                guard c.over.isEmpty, !c.distinct else { return nil }
                let x = c.arguments[0]
                return "(array_agg(\(x) ORDER BY \"utq_row\"\(direction)) FILTER (WHERE \(x) IS NOT NULL))[1]"
            }, otherwise: { _ in "first and last take a window's rows in their order, which SQL's windows do not keep" })
        case .circmean:
            return .none("the vector mean of angles is utq's own")
        case .dissolve:
            return .none("utq's union of polygons is its own; PostGIS's ST_Union gives the same area with its rings started elsewhere")
        case .path, .collect:
            // PostGIS's aggregates, over the rows in utq's order ("utq_row").
            let function = self == .path ? "ST_MakeLine" : "ST_Collect"
            return .build { c in
                guard c.over.isEmpty, !c.distinct else { return nil }
                return "\(function)(\(c.arguments[0]) ORDER BY \"utq_row\") FILTER (WHERE \(c.arguments[0]) IS NOT NULL)"
            }
        case .corr, .covar, .covarPop, .regrSlope, .regrIntercept, .regrR2:
            let name = self.name
            return .build({ c in pairSQL(c) }, otherwise: { c in
                c.distinct ? "\(name) takes no distinct values" : "\(name) of \(c.types.map(\.displayName).joined(separator: " and ")) has no SQL form"
            })
        }
    }

    /// A two-column summary in PostgreSQL with utq's answers. PostgreSQL has all six, but
    /// its running sums in float8 lose digits where products nearly cancel (seven of 0.1
    /// against 1…7 correlate 0.79 there; the intercept of d against itself comes out
    /// 0.03125), so the sums are taken exactly in numeric, as sum and avg do: n·Σxy − Σx·Σy
    /// and its like are exact, and each answer is one division of them. Too few pairs, NaN
    /// and the infinities, and a column that does not vary are told apart first, as utq's
    /// own (CoMoments) does.
    func pairSQL(_ c: SQLCall) -> String? {
        guard !c.distinct, c.types.count == 2, c.types.allSatisfy(\.isNumeric) else { return nil }
        let (y, x) = (c.arguments[0], c.arguments[1])
        let pair = "\(y) IS NOT NULL AND \(x) IS NOT NULL"
        func over(_ aggregate: String, _ condition: String = "") -> String {
            "\(aggregate) FILTER (WHERE \(pair)\(condition))\(c.over)"
        }
        let (ey, ex) = (Self.exactNumeric(y, c.types[0]), Self.exactNumeric(x, c.types[1]))
        func total(_ e: String) -> String { over("sum(\(e))") }
        let n = "(\(over("count(*)")))::numeric"
        // n² times the population covariance, and the variances so.
        let nxy = "(\(n) * \(total("\(ex) * \(ey)")) - \(total(ex)) * \(total(ey)))"
        let nxx = "(\(n) * \(total("\(ex) * \(ex)")) - \(total(ex)) * \(total(ex)))"
        let nyy = "(\(n) * \(total("\(ey) * \(ey)")) - \(total(ey)) * \(total(ey)))"
        var cases = ["WHEN \(over("count(*)")) < \(self == .covarPop ? 1 : 2) THEN NULL"]
        let special = zip(c.arguments, c.types).filter { $0.1 == .double }
            .map { "\($0.0) IN ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8)" }
        if !special.isEmpty {
            cases.append("WHEN \(over("count(*)", " AND (" + special.joined(separator: " OR ") + ")")) > 0 THEN 'NaN'::float8")
        }
        let value: String
        switch self {
        case .covarPop: value = "\(nxy) / (\(n) * \(n))"
        case .covar: value = "\(nxy) / (\(n) * (\(n) - 1))"
        case .corr:
            cases.append("WHEN \(nxx) = 0 OR \(nyy) = 0 THEN NULL")
            value = "\(nxy) / sqrt(\(nxx) * \(nyy))"
        case .regrSlope:
            cases.append("WHEN \(nxx) = 0 THEN NULL")
            value = "\(nxy) / \(nxx)"
        case .regrIntercept:
            cases.append("WHEN \(nxx) = 0 THEN NULL")
            value = "(\(total(ey)) * \(nxx) - \(nxy) * \(total(ex))) / (\(n) * \(nxx))"
        case .regrR2:
            cases.append("WHEN \(nxx) = 0 THEN NULL WHEN \(nyy) = 0 THEN 1::float8")
            value = "(\(nxy) * \(nxy)) / (\(nxx) * \(nyy))"
        default: return nil
        }
        return "CASE " + cases.joined(separator: " ") + " ELSE (\(value))::float8 END"
    }
}
