import Foundation
@testable import UTQCore

/// Random tables and pipelines for the differential oracle: each pipeline is written twice,
/// in utq and in DuckDB's SQL with utq's documented semantics (floored %, division by zero
/// is null, text `contains` ignores case, nulls last in either direction), so the two
/// engines must give the same rows.
struct OracleRandom {
    private var source: SeededRandom

    init(seed: UInt64) { source = SeededRandom(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }

    /// SplitMix64 (the project's SeededRandom): small, fast and the same on every machine.
    mutating func next() -> UInt64 { source.next() }

    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }
    mutating func pick<T>(_ a: [T]) -> T { a[int(0...(a.count - 1))] }
}

/// An expression written both ways.
struct Twin {
    var utq: String
    var sql: String
    /// A whole number (utq's integer arithmetic, checked for overflow, as DuckDB's BIGINT is).
    var whole = false
    init(_ utq: String, _ sql: String, whole: Bool = false) { self.utq = utq; self.sql = sql; self.whole = whole }
    init(_ both: String, whole: Bool = false) { utq = both; sql = both; self.whole = whole }
}

/// One case: the pipeline both ways, the part of the language it exercises, and whether
/// the rows come in an order that must be kept.
struct OracleCase {
    var id: Int
    var area: String
    var utq: String
    var sql: String
    var ordered: Bool
    /// Queries that make DuckDB compute each new column of a `let` on every row: DuckDB
    /// skips a column nothing reads, where utq computes it and may find it out of range.
    var forces: [String] = []
    /// The conditions and new columns of the pipeline in utq, to compute alone on table a:
    /// DuckDB may compute one on rows a join would drop, and find it out of range.
    var expressions: [String] = []
}

/// The tables a run works on: `a` (every type, nulls, extreme numbers, times around changes
/// of clock) and `r` (a key with duplicates and nulls, for joins).
struct OracleTables {
    static let zone = ZoneRules.named("Europe/Oslo")!

    var a: Table
    var r: Table

    /// Instants near what makes time buckets hard in Oslo: both changes of clock in 2021,
    /// new year, midnight in summer, and ordinary hours.
    static let times: [Int64] = {
        func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Int64 {
            (CivilTime.daysFromCivil(year: y, month: m, day: d) * 86_400 + Int64(h * 3600 + mi * 60 + s)) * 1_000_000
        }
        return [utc(2021, 3, 28, 0, 30), utc(2021, 3, 28, 0, 59, 59), utc(2021, 3, 28, 1, 0), utc(2021, 3, 28, 1, 30),
                utc(2021, 10, 31, 0, 15), utc(2021, 10, 31, 0, 45), utc(2021, 10, 31, 1, 0), utc(2021, 10, 31, 1, 15), utc(2021, 10, 31, 2, 5),
                utc(2021, 12, 31, 22, 59, 59), utc(2021, 12, 31, 23, 0), utc(2022, 1, 1, 0, 0),
                utc(2021, 6, 15, 21, 59, 59), utc(2021, 6, 15, 22, 0), utc(2021, 6, 16, 7, 12, 30), utc(2021, 1, 4, 11, 5),
                utc(2020, 12, 31, 23, 30), utc(2021, 8, 2, 8, 20)]
    }()

    static let texts: [String?] = ["Bike", "bike", "BIKE", "Walking", "Straße", "Øst", "é", "a,b", "say \"hi\"", "Line 2",
                                   "Line 10", "x", "😀", " padded ", nil]
    static let ints: [Int64?] = [0, 1, -1, 2, 3, 7, -7, 10, 100, 1_000_000_000_000_000, -1_000_000_000_000_000, 123_456_789, 42, nil]
    static let doubles: [Double?] = [0, 0.5, -0.25, 1.123456789012, 3.141592653589, -2.5, 1e15, -1e15, 184, 1e-12, 2.75, 0.1, nil]

    init(_ g: inout OracleRandom) {
        let n = g.int(1...36)
        var i: [Int64?] = [], d: [Double?] = [], s: [String?] = [], b: [Bool?] = [], t: [Int64?] = [], k: [Int64?] = []
        for _ in 0..<n {
            i.append(g.pick(Self.ints))
            // NaN and the infinities, which have one place everywhere (above every number).
            if g.chance(0.08) {
                d.append(g.pick([Double.nan, .nan, .infinity, -.infinity]))
            } else if g.chance(0.3) {
                let places = g.int(0...12)
                let scale = pow(10.0, Double(places))
                d.append((Double(g.int(-100_000...100_000)) * 1000 + Double(g.int(0...999))) / scale)
            } else {
                d.append(g.pick(Self.doubles))
            }
            s.append(g.pick(Self.texts))
            b.append(g.chance(0.15) ? nil : g.chance(0.5))
            t.append(g.chance(0.1) ? nil : g.pick(Self.times))
            k.append(g.chance(0.15) ? nil : Int64(g.int(1...5)))
        }
        a = Table(name: "a", columns: [
            Column.ints("id", (1...n).map { Int64($0) }), Column.ints("i", i), Column.doubles("d", d), Column.texts("s", s),
            Column.bools("b", b), Column.timestamps("t", t), Column.ints("k", k),
        ], zone: Self.zone, timeColumn: "t")
        let m = g.int(0...12)
        var rk: [Int64?] = [], rv: [Int64?] = [], rw: [String?] = []
        for _ in 0..<m {
            rk.append(g.chance(0.15) ? nil : Int64(g.int(1...6)))
            rv.append(g.pick(Self.ints))
            rw.append(g.pick(Self.texts))
        }
        r = Table(name: "r", columns: [Column.ints("k", rk), Column.ints("v", rv), Column.texts("w", rw)], zone: Self.zone)
    }

    /// The tables as CSV for DuckDB, with their SQL types.
    static func csv(_ t: Table) -> String {
        var out = t.columnNames.joined(separator: ",") + "\n"
        for row in 0..<t.rowCount {
            out += t.columns.map { c -> String in
                switch c.value(at: row) {
                case .null: return ""
                case .int(let v): return String(v)
                case .double(let v): return "\(v)"
                case .bool(let v): return v ? "true" : "false"
                case .string(let v): return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                case .timestamp(let v): return TimeText.iso(v, zone: .utc)
                case .duration(let v): return String(v)
                case .geometry(let g): return "\"" + WKT.text(g) + "\""
                }
            }.joined(separator: ",") + "\n"
        }
        return out
    }

    static func sqlTypes(_ t: Table) -> [[String]] {
        t.columns.map { c in
            let type: String
            switch c.type {
            case .int: type = "BIGINT"
            case .double: type = "DOUBLE"
            case .bool: type = "BOOLEAN"
            case .timestamp: type = "TIMESTAMPTZ"
            default: type = "VARCHAR"
            }
            return [c.name, type]
        }
    }
}

/// Makes pipelines over the tables, in both languages.
struct OracleGenerator {
    var g: OracleRandom
    /// The values of b in table a, in utq's order (false, true, then null): the columns a
    /// pivot on b makes.
    var bValues: [Bool?] = []
    /// Cases whose rows depend on an order only utq fixes: sorts that leave ties, windows and
    /// limits over a table's own order or a join's, first and last of a group. Their SQL is not
    /// written (DuckDB has no such order); they are for engines compared with utq in memory.
    var orderFree = false

    // MARK: expressions

    mutating func intLiteral() -> Twin {
        let v = g.pick([0, 1, -1, 2, 3, 5, 7, -3, 10, 100, 1_000_000_000_000_000] as [Int64])
        return Twin(String(v), v < 0 ? "(\(v))" : String(v), whole: true)
    }

    mutating func doubleLiteral() -> Twin {
        let v = g.pick([0.5, -0.25, 2.5, 0.1, 1e15, 184.0, 3.75, -1.5])
        let text = NumberText.double(v).contains(".") || NumberText.double(v).contains("e") ? NumberText.double(v) : NumberText.double(v) + ".0"
        return Twin(text, v < 0 ? "(\(text)::DOUBLE)" : "\(text)::DOUBLE")
    }

    mutating func intExpr(_ depth: Int) -> Twin {
        if depth <= 0 || g.chance(0.45) {
            return g.chance(0.7) ? Twin(g.pick(["i", "k", "id"]), whole: true) : intLiteral()
        }
        let l = intExpr(depth - 1), r = intExpr(depth - 1)
        switch g.int(0...3) {
        case 0: return Twin("(\(l.utq) + \(r.utq))", "(\(l.sql) + \(r.sql))", whole: true)
        case 1: return Twin("(\(l.utq) - \(r.utq))", "(\(l.sql) - \(r.sql))", whole: true)
        case 2: return Twin("(\(l.utq) * \(r.utq))", "(\(l.sql) * \(r.sql))", whole: true)
        default:
            // utq's % is floored: the result has the divisor's sign; by zero it is null.
            return Twin("(\(l.utq) % \(r.utq))", "(CASE WHEN \(r.sql) = 0 THEN NULL ELSE ((\(l.sql) % \(r.sql)) + \(r.sql)) % \(r.sql) END)", whole: true)
        }
    }

    mutating func numExpr(_ depth: Int) -> Twin {
        // round to digits, on the binary value, half away from zero (the DuckDB side's
        // utq_round does it on the exact decimal value of the double).
        if depth > 0 && g.chance(0.08) {
            let x = numExpr(depth - 1)
            let places = g.pick([-2, -1, 0, 1, 2, 3, 5, 30])
            // DuckDB reads a Python function's NaN back as null, so NaN goes round it.
            let v = "(\(x.sql))::DOUBLE"
            return Twin("round(\(x.utq), \(places))", "CASE WHEN isnan(\(v)) THEN \(v) ELSE utq_round(\(v), \(places)) END")
        }
        if depth <= 0 || g.chance(0.4) {
            switch g.int(0...3) {
            case 0: return Twin("d")
            case 1: return doubleLiteral()
            default: return intExpr(0)
            }
        }
        let l = numExpr(depth - 1), r = numExpr(depth - 1)
        // Whole numbers stay whole (and checked) unless a decimal or a division is in them.
        let whole = l.whole && r.whole
        let (x, y) = whole ? (l.sql, r.sql) : ("\(l.sql)::DOUBLE", "\(r.sql)::DOUBLE")
        switch g.int(0...3) {
        case 0: return Twin("(\(l.utq) + \(r.utq))", "(\(x) + \(y))", whole: whole)
        case 1: return Twin("(\(l.utq) - \(r.utq))", "(\(x) - \(y))", whole: whole)
        case 2: return Twin("(\(l.utq) * \(r.utq))", "(\(x) * \(y))", whole: whole)
        default:
            // Division gives a number; by zero it is null.
            return Twin("(\(l.utq) / \(r.utq))", "(\(l.sql)::DOUBLE / NULLIF(\(r.sql)::DOUBLE, 0))")
        }
    }

    mutating func textLiteral() -> Twin {
        let v = g.pick(["Bike", "bike", "Walking", "Straße", "x", "Line 2", "say \"hi\"", "ø", "😀"])
        return Twin("\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\"", "'" + v.replacingOccurrences(of: "'", with: "''") + "'")
    }

    mutating func timeLiteral() -> Twin {
        // Local times in Oslo, none in the hour skipped in spring (its reading is a choice).
        let v = g.pick(["2021-03-28 01:30", "2021-03-28 03:00", "2021-10-31 04:00", "2021-06-16 00:00", "2022-01-01 00:00", "2021-08-02 10:20"])
        return Twin("\"\(v)\"", "'\(v):00'::TIMESTAMP AT TIME ZONE 'Europe/Oslo'")
    }

    mutating func condition(_ depth: Int) -> Twin {
        if depth > 0 && g.chance(0.35) {
            let l = condition(depth - 1), r = condition(depth - 1)
            switch g.int(0...2) {
            case 0: return Twin("(\(l.utq) and \(r.utq))", "(\(l.sql) AND \(r.sql))")
            case 1: return Twin("(\(l.utq) or \(r.utq))", "(\(l.sql) OR \(r.sql))")
            default: return Twin("not (\(l.utq))", "NOT (\(l.sql))")
            }
        }
        let ops = ["=", "!=", "<", "<=", ">", ">="]
        switch g.int(0...9) {
        case 0, 1:
            let op = g.pick(ops)
            let l = numExpr(1), r = numExpr(1)
            return Twin("\(l.utq) \(op) \(r.utq)", "\(l.sql) \(op == "!=" ? "<>" : op) \(r.sql)")
        case 2:
            let op = g.pick(["=", "!="])
            let r = g.chance(0.7) ? textLiteral() : Twin("s")
            return Twin("s \(op) \(r.utq)", "s \(op == "!=" ? "<>" : op) \(r.sql)")
        case 3:
            let needle = g.pick(["b", "BI", "ing", "ß", "x", "\""])
            let u = "\"" + needle.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return Twin("s contains \(u)", "contains(lower(s), lower('\(needle.replacingOccurrences(of: "'", with: "''"))'))")
        case 4:
            var items: [Twin] = (0..<g.int(1...4)).map { _ in intLiteral() }
            if g.chance(0.4) { items.append(Twin("null", "NULL")) }
            let negated = g.chance(0.4)
            let x = intExpr(1)
            return Twin("\(x.utq) \(negated ? "not in" : "in") (" + items.map(\.utq).joined(separator: ", ") + ")",
                        "\(x.sql) \(negated ? "NOT IN" : "IN") (" + items.map(\.sql).joined(separator: ", ") + ")")
        case 5:
            let x = numExpr(1), lo = numExpr(0), hi = numExpr(0)
            let negated = g.chance(0.3)
            return Twin("\(x.utq) \(negated ? "not between" : "between") \(lo.utq) and \(hi.utq)",
                        "\(x.sql) \(negated ? "NOT BETWEEN" : "BETWEEN") \(lo.sql) AND \(hi.sql)")
        case 6:
            let c = g.pick(["i", "d", "s", "b", "t", "k"])
            let negated = g.chance(0.5)
            return Twin("\(c) is \(negated ? "not " : "")null", "\(c) IS \(negated ? "NOT " : "")NULL")
        case 7:
            if g.chance(0.5) { return Twin("b") }
            let value = g.chance(0.5) ? "true" : "false"
            return Twin("b = \(value)", "b = \(value)")
        default:
            let op = g.pick(ops)
            let lit = timeLiteral()
            return Twin("t \(op) \(lit.utq)", "t \(op == "!=" ? "<>" : op) (\(lit.sql))")
        }
    }

    // MARK: pipelines

    /// A group key: a column, or a time bucket of t in Oslo time.
    mutating func key() -> Twin {
        switch g.int(0...11) {
        case 0: return Twin("s")
        case 1: return Twin("k")
        case 2: return Twin("b")
        case 3: return Twin("i")
        case 4: return Twin("hour", "hour(t)")
        case 5: return Twin("day", "date_trunc('day', t)")
        case 6: return Twin("weekday", "strftime(t, '%a')")
        case 7: return Twin("month", "date_trunc('month', t)")
        case 8: return Twin("week", "date_trunc('week', t)")
        case 9: return Twin("year", "year(t)")
        case 10: return Twin("minute", "date_trunc('minute', t)")
        default: return Twin("every 15m", "time_bucket(INTERVAL '15 minutes', t, 'Europe/Oslo')")
        }
    }

    mutating func aggregate(_ k: Int) -> Twin {
        if orderFree && g.chance(0.1) { return Twin("\(g.pick(["first", "last"])) \(g.pick(["i", "s", "t"])) as a\(k)", "") }
        let col = g.pick(["i", "d", "k"])
        switch g.int(0...10) {
        case 0: return Twin("count as a\(k)", "count(*)")
        case 1: return Twin("count \(col) as a\(k)", "count(\(col))")
        case 2: return Twin("count distinct \(g.pick(["s", "k", "b"])) as a\(k)", "") // filled below
        // Sums and means of decimals are taken exactly (as DECIMAL): utq's are compensated,
        // DuckDB's plain doubles lose digits next to 1e15.
        case 3: return Twin("sum \(col) as a\(k)", col == "d" ? Self.exact("sum", "d") : "sum(\(col))")
        case 4: return Twin("avg \(col) as a\(k)", col == "d" ? Self.exact("avg", "d") : "avg(\(col))")
        case 5: return Twin("\(g.chance(0.5) ? "min" : "max") \(col) as a\(k)", "")
        case 6: return Twin("median \(col) as a\(k)", "quantile_cont(\(col), 0.5)")
        case 7:
            let p = g.pick([10, 25, 90, 99])
            return Twin("p\(p) \(col) as a\(k)", "quantile_cont(\(col), \(Double(p) / 100))")
        case 8: return Twin("stddev \(col) as a\(k)", "stddev_samp(\(col))")
        case 9: return Twin("\(g.chance(0.5) ? "min" : "max") t as a\(k)", "")
        default:
            let (f, y, x) = pairedCall()
            // As a call or as a verb with the columns split by a comma.
            return Twin((g.chance(0.5) ? "\(f)(\(y), \(x))" : "\(f) \(y), \(x)") + " as a\(k)", Self.paired(f, y, x))
        }
    }

    /// Whether a summary as written (`corr(i, d) as a0`, `covar i, d`) is of two columns.
    static func isPaired(_ written: String) -> Bool {
        pairedNames.contains(String(written.prefix { $0 != "(" && $0 != " " }))
    }

    /// The summaries of two columns, as utq names them.
    static let pairedNames = ["corr", "covar", "covar_samp", "covar_pop", "regr_slope", "regr_intercept", "regr_r2"]

    /// A summary of two columns over whole numbers and decimals (with nulls, NaN and the
    /// infinities among them), a column at times paired with itself.
    mutating func pairedCall() -> (String, String, String) {
        (g.pick(Self.pairedNames), g.pick(["i", "d", "k", "id"]), g.pick(["d", "i", "k", "id"]))
    }

    /// A summary of two columns in DuckDB with utq's documented answers where DuckDB's
    /// differ: null where a column is the same in every pair and the answer divides by its
    /// spread (DuckDB: NaN), NaN where a pair holds NaN or an infinity (DuckDB: null for
    /// regr_intercept). Pairs are the rows where both have a value. The number itself is the
    /// exact one (utq_pair, in fractions, over the pairs DuckDB collects): DuckDB's running
    /// sums lose digits where products nearly cancel (covar of 3, 5, 5 and 2, 1e15, -1e15
    /// is -4/3; DuckDB finds -1.56, -1.11 or -1.33 by the order of the rows), which utq
    /// keeps. `over` makes it a window's.
    static func paired(_ f: String, _ y: String, _ x: String, over: String = "") -> String {
        let pair = "\(y) IS NOT NULL AND \(x) IS NOT NULL"
        func aggregate(_ a: String, _ condition: String = "") -> String { "\(a) FILTER (WHERE \(pair)\(condition))\(over)" }
        let n = aggregate("count(*)")
        let special = aggregate("count(*)", " AND (isnan(\(y)::DOUBLE) OR isinf(\(y)::DOUBLE) OR isnan(\(x)::DOUBLE) OR isinf(\(x)::DOUBLE))")
        func constant(_ v: String) -> String { "\(aggregate("min(\(v))")) = \(aggregate("max(\(v))"))" }
        let value = "utq_pair('\(f)', \(aggregate("list([\(y)::DOUBLE, \(x)::DOUBLE])")))"
        let first = "CASE WHEN \(n) < \(f == "covar_pop" ? 1 : 2) THEN NULL WHEN \(special) > 0 THEN 'nan'::DOUBLE"
        switch f {
        case "corr": return first + " WHEN \(constant(x)) OR \(constant(y)) THEN NULL ELSE \(value) END"
        case "regr_slope", "regr_intercept": return first + " WHEN \(constant(x)) THEN NULL ELSE \(value) END"
        case "regr_r2": return first + " WHEN \(constant(x)) THEN NULL WHEN \(constant(y)) THEN 1::DOUBLE ELSE \(value) END"
        default: return first + " ELSE \(value) END"
        }
    }

    /// A sum or mean of decimals taken exactly (as DECIMAL), unless NaN or an infinity is
    /// among them: then it is that (or NaN), as doubles add. `over` makes it a window's.
    static func exact(_ f: String, _ x: String, over: String = "") -> String {
        let special = "count(*) FILTER (WHERE isnan(\(x)) OR isinf(\(x)))\(over)"
        // Through its text: DuckDB casts a double to a decimal by scaling it as a double
        // (-93603990.0 became -93603990.000000008192, 1e15 gained 0.013).
        let finite = "(CASE WHEN isnan(\(x)) OR isinf(\(x)) THEN NULL ELSE \(x) END)::VARCHAR::DECIMAL(38,12)"
        // DuckDB turns a DECIMAL into a DOUBLE a last place off at times, and its mean of
        // decimals divides such a double: the exact sum goes through its text (correctly
        // rounded) and is divided here, so the mean of one value is that value.
        let value = f == "avg"
            ? "(sum(\(finite))\(over)::VARCHAR::DOUBLE / count(\(finite))\(over))"
            : "\(f)(\(finite))\(over)::VARCHAR::DOUBLE"
        return "(CASE WHEN \(special) > 0 THEN \(f)(\(x))\(over) ELSE \(value) END)"
    }

    /// Fills the SQL of aggregates whose SQL depends on the words chosen.
    func sqlOf(_ a: Twin) -> String {
        if !a.sql.isEmpty { return a.sql }
        let words = a.utq.split(separator: " ").map(String.init)
        if words[0] == "count" && words[1] == "distinct" { return "count(DISTINCT \(words[2]))" }
        return "\(words[0])(\(words[1]))"
    }

    /// A function of `let … by`, and the same as a SQL window function.
    mutating func windowFunction(orderSQL: String, partition: String?) -> (String, String) {
        let over = "OVER (" + (partition.map { "PARTITION BY \($0) " } ?? "") + "ORDER BY \(orderSQL)"
        let whole = "OVER (" + (partition.map { "PARTITION BY \($0)" } ?? "") + ")"
        let col = g.pick(["i", "d", "k", "t", "s"])
        let num = g.pick(["i", "d", "k"])
        switch g.int(0...9) {
        case 0:
            let n = g.int(1...3)
            return ("prev(\(col)\(n == 1 ? "" : ", \(n)"))", "lag(\(col), \(n)) \(over))")
        case 1:
            let n = g.int(1...2)
            return ("next(\(col)\(n == 1 ? "" : ", \(n)"))", "lead(\(col), \(n)) \(over))")
        case 2: return ("row_number()", "row_number() \(over))")
        case 3:
            // A null has no rank; the others rank among themselves, largest first.
            let p = (partition.map { "\($0), " } ?? "") + "(\(num) IS NULL)"
            return ("rank(\(num))", "CASE WHEN \(num) IS NULL THEN NULL ELSE rank() OVER (PARTITION BY \(p) ORDER BY \(num) DESC) END")
        case 4:
            let running = " \(over) ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"
            return ("running_sum(\(num))", num == "d" ? Self.exact("sum", "d", over: running) : "sum(\(num))\(running)")
        case 5:
            return ("sum(\(num))", num == "d" ? Self.exact("sum", "d", over: " " + whole) : "sum(\(num)) \(whole)")
        case 6: return (g.chance(0.5) ? "count()" : "count(\(num))", "")
        case 7: return ("\(g.chance(0.5) ? "min" : "max")(\(num))", "")
        case 8:
            let (f, y, x) = pairedCall()
            return ("\(f)(\(y), \(x))", Self.paired(f, y, x, over: " " + whole))
        default:
            return ("avg(\(num)) - \(num)", (num == "d" ? Self.exact("avg", "d", over: " " + whole) : "avg(\(num)) \(whole)::DOUBLE") + " - \(num)")
        }
    }

    mutating func makeCase(id: Int) -> OracleCase {
        var utq: [String] = []
        var sql = "SELECT * FROM a"
        var area = "filter"
        var columns = ["id", "i", "d", "s", "b", "t", "k"]
        var ordered = false
        var joined = false
        var joinArea: String? = nil
        var forces: [String] = []
        var expressions: [String] = []
        // Rows first: where, let, join, in any mix.
        for _ in 0..<g.int(0...2) {
            switch g.int(0...4) {
            case 0, 1:
                let c = condition(2)
                utq.append("where \(c.utq)")
                expressions.append(c.utq)
                sql = "SELECT * FROM (\(sql)) q WHERE \(c.sql)"
            case 2, 3:
                let name = "x\(utq.count)"
                let e = g.chance(0.5) ? intExpr(2) : numExpr(2)
                utq.append("let \(name) = \(e.utq)")
                expressions.append(e.utq)
                sql = "SELECT *, \(e.sql) AS \(name) FROM (\(sql)) q"
                forces.append("SELECT list(\(name)) FROM (\(sql)) q")
                columns.append(name)
                area = area == "filter" ? "let" : area
            default:
                guard !columns.contains("v") else { continue }
                let left = g.chance(0.5)
                let keep = columns.map { "q.\($0)" }.joined(separator: ", ")
                if g.chance(0.4) {
                    // A range join: on a value between two of r's, or a comparison, maybe beside the key.
                    let x = g.pick(["id", "i", "d"])
                    let withKey = g.chance(0.4)
                    let (cu, cs): (String, String)
                    switch g.int(0...2) {
                    case 0: (cu, cs) = ("\(x) between k and v", "q.\(x) BETWEEN r.k AND r.v")
                    case 1: (cu, cs) = ("\(x) < v", "q.\(x) < r.v")
                    default: (cu, cs) = ("\(x) >= v and id <= k", "q.\(x) >= r.v AND q.id <= r.k")
                    }
                    utq.append("\(left ? "left join" : "join") r on " + (withKey ? "k, " : "") + cu)
                    sql = "SELECT \(keep), \(withKey ? "" : "r.k, ")r.v, r.w FROM (\(sql)) q \(left ? "LEFT JOIN" : "JOIN") r ON "
                        + (withKey ? "q.k = r.k AND " : "") + cs
                    columns += withKey ? ["v", "w"] : ["r.k", "v", "w"]
                    joinArea = left ? "left range join" : "range join"
                } else {
                    utq.append("\(left ? "left join" : "join") r on k")
                    sql = "SELECT \(keep), r.v, r.w FROM (\(sql)) q \(left ? "LEFT JOIN" : "JOIN") r ON q.k = r.k"
                    columns += ["v", "w"]
                    joinArea = left ? "left join" : "join"
                }
                joined = true
            }
        }
        // Then what is asked of them.
        // After a join, id repeats: only questions whose answer does not depend on an order.
        var ask = g.int(0...14)
        if joined && !orderFree && (ask == 3 || ask == 4 || (ask >= 6 && ask != 12)) { ask = 0 }
        if joined && ask >= 13 { ask = 0 }
        if ask == 8 {
            // pivot on b of a summary of all the rows: one column per value of b present.
            let agg = g.pick(["count", "sum i", "avg d"])
            let name = agg == "count" ? "count" : agg.replacingOccurrences(of: " ", with: "_")
            var cols: [String] = []
            for v in bValues {
                let cond = v.map { "b = \($0)" } ?? "b IS NULL"
                switch agg {
                case "count": cols.append("count(*) FILTER (WHERE \(cond))")
                // A sum of no rows is unknown: empty, as a spreadsheet's pivot leaves it.
                case "sum i": cols.append("sum(i) FILTER (WHERE \(cond))")
                default:
                    let special = "count(*) FILTER (WHERE (\(cond)) AND (isnan(d) OR isinf(d)))"
                    let finiteD = "(CASE WHEN isnan(d) OR isinf(d) THEN NULL ELSE d END)::VARCHAR::DECIMAL(38,12)"
                    cols.append("(CASE WHEN \(special) > 0 THEN avg(d) FILTER (WHERE \(cond)) ELSE (sum(\(finiteD)) FILTER (WHERE \(cond))::VARCHAR::DOUBLE / count(\(finiteD)) FILTER (WHERE \(cond))) END)")
                }
            }
            return OracleCase(id: id, area: "pivot", utq: "a | \(agg) by k, b | pivot b values \(name)",
                              sql: "SELECT k" + cols.map { ", " + $0 }.joined() + " FROM a GROUP BY k", ordered: false)
        }
        if ask >= 11 { return nextQuestion(ask, id: id, utq: utq, sql: sql, joinArea: joinArea) }
        switch ask {
        case 0, 1:
            let keys = (0..<g.int(0...3)).map { _ in key() }
            var seen = Set<String>()
            let unique = keys.filter { seen.insert($0.utq).inserted }
            let aggs = (0..<g.int(1...3)).map { aggregate($0) }
            utq.append(aggs.map(\.utq).joined(separator: ", ") + (unique.isEmpty ? "" : " by " + unique.map(\.utq).joined(separator: ", ")))
            let select = (unique.map(\.sql) + aggs.enumerated().map { "\(sqlOf($1)) AS a\($0)" }).joined(separator: ", ")
            sql = "SELECT \(select) FROM (\(sql)) q" + (unique.isEmpty ? "" : " GROUP BY " + unique.map(\.sql).joined(separator: ", "))
            area = "summary" + (unique.contains { ["hour", "day", "weekday", "month", "week", "year", "minute", "every 15m"].contains($0.utq) } ? " by time" : "")
            if aggs.contains(where: { Self.isPaired($0.utq) }) { area = unique.isEmpty ? "correlation" : "correlation by key" }
            if g.chance(0.25) && !aggs[0].utq.contains(" t as") {
                utq.append("where a0 > 1")
                sql = "SELECT * FROM (\(sql)) q WHERE a0 > 1"
            }
            // The groups, in their key order, joined, numbered along, or with a key dropped.
            if orderFree && !unique.isEmpty && g.chance(0.4) {
                // A key's column: its name, but t for `every 15m`.
                func column(_ key: Twin) -> String { key.utq.hasPrefix("every") ? "t" : key.utq }
                let first = column(unique[0])
                switch g.int(0...3) {
                case 0 where unique.contains { $0.utq == "k" } && !joined: utq.append("join r on k")
                case 1: utq.append("let w = \(g.pick(["row_number()", "running_sum(a0)", "prev(a0)", "sum(a0)", "rank(a0)"])) by \(first)")
                case 2 where unique.count > 1: utq.append("select \(unique.dropFirst().map(column).joined(separator: ", ")), a0")
                default: utq.append("let w = \(g.pick(["row_number()", "prev(a0)", "rank(a0)"]))")
                }
            }
        case 2:
            let cols = (0..<g.int(1...2)).map { _ in g.pick(["s", "k", "b", "i"]) }
            let unique = Array(NSOrderedSet(array: cols)) as! [String]
            utq.append("distinct " + unique.joined(separator: ", "))
            sql = "SELECT DISTINCT \(unique.joined(separator: ", ")) FROM (\(sql)) q"
            area = "distinct"
        case 3:
            // A total order: the key, then id, which is unique.
            let keyCol = g.pick(["i", "d", "t", "k", "b"])
            let desc = g.chance(0.5)
            let n = g.int(0...6)
            let tie = orderFree && g.chance(0.5)
            utq.append("sort \(keyCol)\(desc ? " desc" : "")\(tie ? "" : ", id") | limit \(n)")
            sql = "SELECT * FROM (\(sql)) q ORDER BY \(keyCol) \(desc ? "DESC" : "ASC") NULLS LAST, id ASC LIMIT \(n)"
            ordered = true
            area = "sort"
        case 4:
            let keyCol = g.pick(["i", "d", "t", "k"])
            let n = g.int(1...5)
            let tie = orderFree && g.chance(0.5)
            utq.append("top \(n) by \(keyCol)\(tie ? "" : ", id asc")")
            sql = "SELECT * FROM (\(sql)) q ORDER BY \(keyCol) DESC NULLS LAST, id ASC LIMIT \(n)"
            ordered = true
            area = "top"
        case 6, 7:
            // A window: the rows in a total order (a key, then the unique id), then a
            // function of each row's group, in that order.
            let keyCol = g.pick(["i", "d", "t", "k", "b"])
            let desc = g.chance(0.5)
            let byKey = g.chance(0.8) ? g.pick(["k", "b", "s"]) : nil
            var (fu, fs) = windowFunction(orderSQL: "\(keyCol) \(desc ? "DESC" : "ASC") NULLS LAST, id ASC", partition: byKey)
            if fs.isEmpty {
                let whole = "OVER (" + (byKey.map { "PARTITION BY \($0)" } ?? "") + ")"
                fs = fu == "count()" ? "count(*) \(whole)" : "\(fu) \(whole)"
            }
            let sort = orderFree && g.chance(0.3) ? "" : "sort \(keyCol)\(desc ? " desc" : "")\(orderFree && g.chance(0.5) ? "" : ", id") | "
            utq.append(sort + "let w = \(fu)" + (byKey.map { " by \($0)" } ?? "") + " | select id, w")
            sql = "SELECT id, \(fs) AS w FROM (\(sql)) q ORDER BY \(keyCol) \(desc ? "DESC" : "ASC") NULLS LAST, id ASC"
            ordered = true
            area = Self.isPaired(fu) ? "correlation window" : "window"
        case 9:
            let picked = g.chance(0.5) ? ["i", "k"] : ["i", "k", "id"]
            utq.append("unpivot \(picked.joined(separator: ", ")) as col, val | select \((columns.contains("s") ? ["s"] : []).joined(separator: ", "))\(columns.contains("s") ? ", " : "")col, val")
            let keep = columns.contains("s") ? "s, " : ""
            sql = picked.map { "SELECT \(keep)'\($0)' AS col, \($0) AS val FROM (\(sql)) q" }.joined(separator: " UNION ALL ")
            area = "unpivot"
        case 10:
            // Columns matched by name; v is whole in r and a number here, so it becomes a number.
            utq.append("select id, s, d as v | union r")
            // The union's rows in utq's order: a's, then r's.
            if orderFree && g.chance(0.5) {
                utq.append(g.pick(["sort v", "sort k desc", "let n = running_sum(v) by k", "let n = prev(id)", "top 3 by k", "let n = rank(v) by k"]))
            }
            sql = "SELECT id, s, d AS v FROM (\(sql)) q UNION ALL BY NAME SELECT * FROM r"
            area = "union"
        case 5 where g.chance(0.6):
            // Summaries of two columns, with other summaries and keys or without.
            let keys = (0..<g.int(0...2)).map { _ in key() }
            var seen = Set<String>()
            let unique = keys.filter { seen.insert($0.utq).inserted }
            var aggs: [Twin] = []
            for k in 0..<g.int(1...3) {
                let (f, y, x) = pairedCall()
                aggs.append(k > 0 && g.chance(0.3) ? aggregate(k)
                    : Twin((g.chance(0.5) ? "\(f)(\(y), \(x))" : "\(f) \(y), \(x)") + " as a\(k)", Self.paired(f, y, x)))
            }
            utq.append(aggs.map(\.utq).joined(separator: ", ") + (unique.isEmpty ? "" : " by " + unique.map(\.utq).joined(separator: ", ")))
            let select = (unique.map(\.sql) + aggs.enumerated().map { "\(sqlOf($1)) AS a\($0)" }).joined(separator: ", ")
            sql = "SELECT \(select) FROM (\(sql)) q" + (unique.isEmpty ? "" : " GROUP BY " + unique.map(\.sql).joined(separator: ", "))
            area = unique.isEmpty ? "correlation" : "correlation by key"
        default:
            let distinct = g.chance(0.5)
            let col = g.pick(["s", "k", "i", "b"])
            utq.append(distinct ? "count distinct \(col)" : "count")
            sql = "SELECT \(distinct ? "count(DISTINCT \(col))" : "count(*)") FROM (\(sql)) q"
            area = distinct ? "count distinct" : area
        }
        // The first rows, in whatever order the pipeline gives them.
        if orderFree && g.chance(0.15) { utq.append("\(g.pick(["limit", "head"])) \(g.int(0...4))") }
        // A join is the hardest part of a pipeline: count the case under it.
        if let joinArea { area = joinArea }
        return OracleCase(id: id, area: area, utq: "a | " + utq.joined(separator: " | "), sql: sql, ordered: ordered, forces: forces, expressions: expressions)
    }

    /// Rolling windows over rows and over time, union and join of pipelines, cross joins and
    /// pivot totals, after the rows chosen so far (`utq`, `sql`).
    mutating func nextQuestion(_ ask: Int, id: Int, utq: [String], sql: String, joinArea: String?) -> OracleCase {
        var utq = utq
        let f = g.pick(["count", "sum", "avg", "min", "max"])
        let num = g.pick(["i", "d", "k"])
        let byKey = g.chance(0.7) ? g.pick(["k", "b", "s"]) : nil
        let partition = byKey.map { "PARTITION BY \($0) " } ?? ""
        func windowSQL(_ frame: String) -> String {
            let over = " OVER (\(partition)\(frame))"
            if f == "count" { return num == "i" && g.chance(0.5) ? "count(*)\(over)" : "count(\(num))\(over)" }
            if num == "d" && (f == "sum" || f == "avg") { return Self.exact(f, "d", over: over) }
            return f == "avg" ? "avg(\(num))\(over)::DOUBLE" : "\(f)(\(num))\(over)"
        }
        switch ask {
        case 11:
            // Over the last N rows of the group, in a total order.
            let keyCol = g.pick(["i", "d", "t", "k", "b"])
            let desc = g.chance(0.5)
            let n = g.int(1...4)
            let order = "ORDER BY \(keyCol) \(desc ? "DESC" : "ASC") NULLS LAST, id ASC"
            let ws = windowSQL("\(order) ROWS BETWEEN \(n - 1) PRECEDING AND CURRENT ROW")
            var fu = "\(f)(\(num)) over \(n) row\(n == 1 ? "" : "s")"
            if ws.hasPrefix("count(*)") { fu = "count() over \(n) rows" }
            utq.append("sort \(keyCol)\(desc ? " desc" : ""), id | let w = \(fu)" + (byKey.map { " by \($0)" } ?? "") + " | select id, w")
            return OracleCase(id: id, area: joinArea ?? "rolling rows", utq: "a | " + utq.joined(separator: " | "),
                              sql: "SELECT id, \(ws) AS w FROM (\(sql)) q \(order)", ordered: true)
        case 12:
            // Over a span of time, by the table's time t: (t − span, t], rows at t included; a
            // span of days on Oslo's calendar.
            let span = g.pick(["30m", "2h", "1d", "90s"])
            let micros: Int64 = ["30m": 1_800_000_000, "2h": 7_200_000_000, "1d": 86_400_000_000, "90s": 90_000_000][span]!
            let interval = span == "1d" ? "(INTERVAL 1 DAY - INTERVAL 1 MICROSECOND)" : "INTERVAL \(micros - 1) MICROSECOND"
            let ws = windowSQL("ORDER BY t RANGE BETWEEN \(interval) PRECEDING AND CURRENT ROW")
            let fu = ws.hasPrefix("count(*)") ? "count() over \(span)" : "\(f)(\(num)) over \(span)"
            utq.append("let w = \(fu)" + (byKey.map { " by \($0)" } ?? "") + " | select id, w")
            return OracleCase(id: id, area: joinArea ?? "rolling time", utq: "a | " + utq.joined(separator: " | "),
                              sql: "SELECT id, CASE WHEN t IS NULL THEN NULL ELSE \(ws) END AS w FROM (\(sql)) q", ordered: false)
        case 13:
            let c = condition(1)
            let x = g.pick(Self.smallInts)
            switch g.int(0...2) {
            case 0:
                // The rows so far, then those of another pipeline over a.
                utq.append("union (a | where \(c.utq)) | count by k, b")
                return OracleCase(id: id, area: "union of pipelines", utq: "a | " + utq.joined(separator: " | "),
                                  sql: "SELECT k, b, count(*) FROM (SELECT * FROM (\(sql)) q UNION ALL BY NAME SELECT * FROM a WHERE \(c.sql)) u GROUP BY k, b",
                                  ordered: false)
            case 1:
                utq.append("join (r | where v > \(x)) on k | count by k, w")
                return OracleCase(id: id, area: "join of a pipeline", utq: "a | " + utq.joined(separator: " | "),
                                  sql: "SELECT q.k, r.w, count(*) FROM (\(sql)) q JOIN (SELECT * FROM r WHERE v > \(x)) r ON q.k = r.k GROUP BY q.k, r.w",
                                  ordered: false)
            default:
                utq.append("cross join (r | where v > \(x)) | count by k, w")
                return OracleCase(id: id, area: "cross join", utq: "a | " + utq.joined(separator: " | "),
                                  sql: "SELECT q.k, r.w, count(*) FROM (\(sql)) q CROSS JOIN (SELECT * FROM r WHERE v > \(x)) r GROUP BY q.k, r.w",
                                  ordered: false)
            }
        default:
            // A pivot of counts or sums of all the rows (a column for each value of b in a),
            // with its total column and total row; the row key is written as text so the
            // total row can be named.
            let sum = g.chance(0.5)
            let agg = sum ? "sum i" : "count"
            let name = sum ? "sum_i" : "count"
            var cols: [String] = []
            for v in bValues {
                let cond = v.map { "b = \($0)" } ?? "b IS NULL"
                cols.append(sum ? "sum(i) FILTER (WHERE \(cond))" : "count(*) FILTER (WHERE \(cond))")
            }
            let total = sum ? "sum(i)" : "count(*)"
            let rows = "SELECT CAST(k AS VARCHAR) AS k" + cols.map { ", " + $0 }.joined() + ", \(total) AS total FROM a GROUP BY a.k"
            let totalRow = "SELECT 'total'" + cols.map { ", " + $0 }.joined() + ", \(total) FROM a HAVING count(*) > 0"
            return OracleCase(id: id, area: "pivot totals", utq: "a | \(agg) by k, b | pivot b values \(name) with totals",
                              sql: "\(rows) UNION ALL \(totalRow)", ordered: false)
        }
    }

    static let smallInts = [-1, 0, 1, 7, 42, 100]
}
