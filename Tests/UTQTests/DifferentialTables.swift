import Foundation
@testable import UTQCore

/// Fixed tables where engines are most likely to differ, each with pipelines over it, for
/// the differential suite (memory = one server = sharded, PostgresOracleTests): ties (many
/// equal sort keys and equal groups, where only utq's stable order decides), NaN, the
/// infinities, -0 and nulls, Unicode (ß, composed and decomposed accents, case variants,
/// emoji, the Turkish dotted I, text that sorts one way in C and another in a locale), and
/// times next to the changes of clock in Oslo and New York, in a session zone that is not UTC.
struct DifferentialTables: Sendable {
    var name: String
    var tables: [Table]
    var pipelines: [String]
    var sessionZone: String? = nil
    /// Pipelines known to give another answer in PostgreSQL, with why.
    var known: [String: String] = [:]

    static let all: [DifferentialTables] = [ties, numbers, unicode, zones]

    static func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> Int64 {
        (CivilTime.daysFromCivil(year: y, month: m, day: d) * 86_400 + Int64(h * 3600 + mi * 60 + s)) * 1_000_000
    }

    /// 48 rows in few groups: g is 0, 1, 2 or null, h two texts, x four values, t two instants,
    /// flag true, false or null; n numbers the rows, so an order shows which rows tied.
    static let ties: DifferentialTables = {
        let count = 48
        let rows = 0..<count
        let ties = Table(name: "ties", columns: [
            Column.ints("n", rows.map { Int64($0 + 1) }),
            Column.ints("g", rows.map { (i: Int) -> Int64? in i % 7 == 6 ? nil : Int64(i % 3) }),
            Column.texts("h", rows.map { $0 % 5 < 2 ? "x" : "y" }),
            Column.doubles("x", rows.map { Double(($0 * 7) % 4) * 0.5 }),
            Column.timestamps("t", rows.map { $0 % 2 == 0 ? utc(2021, 6, 1, 12, 0) : utc(2021, 6, 1, 13, 0) }),
            Column.bools("flag", rows.map { $0 % 9 == 0 ? nil : $0 % 4 < 2 }),
        ], zone: .utc)
        let other = Table(name: "other", columns: [
            Column.ints("g", [1, 0, 1, 2, nil, 0, 1]),
            Column.texts("label", ["one", "zero", "uno", "two", "none", "null", "ein"]),
        ], zone: .utc)
        return DifferentialTables(name: "ties", tables: [other, ties], pipelines: [
            "ties | sort g",
            "ties | sort g desc",
            "ties | sort x, g | limit 7",
            "ties | sort flag | head 6",
            "ties | sort t desc | limit 5",
            "ties | top 4 by g",
            "ties | top 5 by x",
            "ties | top 3 by t",
            "ties | limit 5",
            "ties | where g = 1 | limit 3",
            "ties | select n, g | limit 4",
            "ties | let r = rank(x) by g",
            "ties | let r = rank(g)",
            "ties | let r = rank(x) by g | sort r | limit 8",
            "ties | let k = row_number() by g",
            "ties | let k = row_number()",
            "ties | let s = running_sum(x) by h",
            "ties | let s = running_sum(n) by flag",
            "ties | let p = prev(n) by g",
            "ties | let q = next(n, 2) by h",
            "ties | let c = count() by g",
            "ties | let m = max(x) by h",
            "ties | count by g",
            "ties | count by g | sort count",
            "ties | count by x | sort count desc",
            "ties | count by h, g | sort count desc | limit 3",
            "ties | count by g, flag | top 2 by count",
            "ties | sum x by g, flag | pivot flag values sum_x",
            "ties | count by h, g | pivot h",
            "ties | distinct g, h",
            "ties | distinct x",
            "ties | first n, last n by g",
            "ties | sort x | first n, last n by g",
            "ties | join other on g",
            "ties | join other on g | sort g",
            "ties | join other on g | sort x desc | limit 6",
            "ties | join other on g | limit 6",
            "ties | join other on g | top 3 by x",
            "ties | left join other on g | let k = row_number() by label",
            "ties | join other on g | let r = rank(x) by label",
            "ties | join other on g | let s = running_sum(n)",
            "ties | join other on g and x < g",
            "ties | join other on x < g | sort x | limit 9",
            "ties | union ties | sort g | limit 9",
            "ties | union ties | limit 50",
            "ties | select n, g | union other | sort g",
            "ties | select n, g | union other | let k = row_number() by g",
            "ties | sort g | let k = row_number()",
            "ties | sort x desc | select n, x",
            "ties | where x > 0 | sort flag | head 4",
            "ties | sort g | where h = \"y\" | limit 6",
            "ties | count by g | join other on g | sort count",
        ])
    }()

    /// NaN (twice), both infinities, -0 and 0, nulls, the largest and smallest doubles, equal values.
    static let numbers: DifferentialTables = {
        let v: [Double?] = [.nan, .infinity, -.infinity, -0.0, 0.0, nil, 1.5, -2, .nan, 1e308, -1e308, 5e-324, 2.5, 2.5, nil, -0.0, 1e-300, 7]
        let nums = Table(name: "nums", columns: [
            Column.ints("id", (1...v.count).map { Int64($0) }),
            Column.doubles("v", v),
            Column.ints("w", (0..<v.count).map { (i: Int) -> Int64? in i % 5 == 4 ? nil : Int64((i * 37) % 11 - 5) }),
            Column.ints("g", (0..<v.count).map { Int64($0 % 3) }),
        ], zone: .utc)
        let keys = Table(name: "keys", columns: [
            Column.doubles("v", [.nan, 0.0, -0.0, .infinity, 2.5, nil]),
            Column.texts("name", ["nan", "zero", "minus zero", "inf", "two and a half", "null"]),
        ], zone: .utc)
        return DifferentialTables(name: "numbers", tables: [keys, nums], pipelines: [
            "nums | sort v",
            "nums | sort v desc",
            "nums | top 3 by v",
            "nums | top 4 by w",
            "nums | sort v | limit 4",
            "nums | sort w desc | limit 5",
            "nums | let r = rank(v)",
            "nums | let r = rank(v) by g",
            "nums | let r = rank(w) by g",
            "nums | let s = running_sum(w) by g",
            "nums | let s = running_sum(v)",
            "nums | let p = prev(v) by g",
            "nums | count by v",
            "nums | count by v | sort count desc",
            "nums | sum v by g",
            "nums | sum w by g",
            "nums | min v, max v by g",
            "nums | avg v by g",
            "nums | avg w, count w by g",
            "nums | median v by g",
            "nums | where v > 0",
            "nums | where v = 0",
            "nums | where v != v",
            "nums | where v is null",
            "nums | where v < 1e300 and v > -1e300",
            "nums | let x = v * 2 | sort x",
            "nums | let x = w / 0",
            "nums | let x = w % 3 | count by x",
            "nums | distinct v",
            "nums | count by g, v | pivot g",
            "nums | join keys on v",
            "nums | left join keys on v | sort id",
            "nums | join keys on v | count by name",
            "nums | union keys | sort v",
            "nums | sort v | let k = row_number()",
            "nums | let m = min(v) by g",
            "nums | corr(v, w), covar(v, w), covar_pop(w, v), regr_slope(v, w), regr_intercept(v, w), regr_r2(w, v) by g",
            "nums | where v < 1e300 and v > -1e300 | corr(v, w), covar(w, v), regr_slope(v, w), regr_intercept(v, w), regr_r2(v, w) by g",
            "nums | where v < 1e300 and v > -1e300 | let r = corr(w, v), b = regr_slope(w, v) by g",
        ], known: [
            "nums | let x = v * 2 | sort x": "PostgreSQL's float8 arithmetic refuses a result out of range (1e308 * 2), where utq's gives ∞",
        ])
    }()

    /// Texts that compare, sort and group differently across engines and collations.
    static let unicode: DifferentialTables = {
        let s: [String?] = ["ß", "ss", "Straße", "Strasse", "\u{e9}", "e\u{301}", "Bike", "bike", "BIKE", "😀", "🚲", "İstanbul",
                            "istanbul", "ıi", "I", "i", "Zebra", "apple", "Äpfel", "Apfel", "Line 10", "Line 2", "", nil, "a b", "a",
                            "Øst", "Ost", "bike", "é", "zebra", "ǅ"]
        let words = Table(name: "words", columns: [
            Column.ints("id", (1...s.count).map { Int64($0) }),
            Column.texts("s", s),
            Column.ints("n", (0..<s.count).map { Int64($0 % 4) }),
        ], zone: .utc)
        let names = Table(name: "names", columns: [
            Column.texts("s", ["bike", "Bike", "\u{e9}", "e\u{301}", "ß", "İstanbul", "😀", nil]),
            Column.ints("m", [1, 2, 3, 4, 5, 6, 7, 8]),
        ], zone: .utc)
        return DifferentialTables(name: "unicode", tables: [names, words], pipelines: [
            "words | sort s",
            "words | sort s desc | limit 5",
            "words | sort n | limit 10",
            "words | top 3 by n",
            "words | count by s",
            "words | count by s | sort count desc",
            "words | count by s | top 2 by count",
            "words | where s = \"Bike\"",
            "words | where s = \"\u{e9}\"",
            "words | where s != \"bike\"",
            "words | where s contains \"bi\"",
            "words | where s in (\"ß\", \"ss\", \"İstanbul\")",
            "words | distinct s",
            "words | let r = rank(n) by s",
            "words | let k = row_number() by s",
            "words | let k = row_number() by n",
            "words | let c = count() by s",
            "words | join names on s",
            "words | left join names on s | sort id",
            "words | let u = upper(s), l = lower(s)",
            "words | let l = length(s)",
            "words | count by n, s | pivot n",
            "words | sort n | let p = prev(s)",
            "words | union names | count by s",
            "words | min s, max s by n",
            "words | count distinct s by n",
            "words | count by lower(s)",
        ])
    }()

    /// Times around the changes of clock in Oslo (2021-03-28 and 2021-10-31) and New York
    /// (2021-03-14 and 2021-11-07), a date column, wall-clock times and durations; the session
    /// shows them in New York, the tables keep Oslo's zone and New York's.
    static let zones: DifferentialTables = {
        let t: [Int64?] = [
            utc(2021, 3, 28, 0, 30), utc(2021, 3, 28, 0, 59, 59), utc(2021, 3, 28, 1, 0), utc(2021, 3, 28, 1, 30),
            utc(2021, 10, 31, 0, 15), utc(2021, 10, 31, 0, 45), utc(2021, 10, 31, 1, 0), utc(2021, 10, 31, 1, 15), utc(2021, 10, 31, 2, 5),
            utc(2021, 3, 14, 6, 59, 59), utc(2021, 3, 14, 7, 0), utc(2021, 3, 14, 7, 30), utc(2021, 11, 7, 5, 30), utc(2021, 11, 7, 6, 0),
            utc(2021, 11, 7, 6, 30), utc(2021, 11, 7, 7, 0), utc(2021, 12, 31, 23, 0), utc(2022, 1, 1, 4, 59), utc(2022, 1, 1, 5, 0), nil,
            utc(2021, 3, 28, 1, 0), utc(2021, 11, 7, 6, 0),
        ]
        let days: [Int64?] = t.indices.map { i in
            i % 6 == 5 ? nil : utc(2021, [3, 10, 11, 12][i % 4], [28, 31, 7, 31][i % 4], 0, 0)
        }
        let hour: Int64 = 3_600_000_000
        let durations: [Int64?] = t.indices.map { (i: Int) -> Int64? in i % 7 == 3 ? nil : Int64(i % 5 - 2) * hour + Int64(i) * 60_000_000 }
        let g: [Int64?] = t.indices.map { Int64($0 % 3) }
        // A date and a wall-clock time as a file without offsets gives them: floating, read
        // in the table's zone.
        var date = Column.timestamps("d", days)
        date.unit = .day
        date.floating = true
        var wall = Column.timestamps("wall", t)
        wall.floating = true
        let oslo = Table(name: "oslo", columns: [
            Column.ints("id", (1...t.count).map { Int64($0) }), Column.timestamps("t", t), date,
            Column.durations("dur", durations), Column.ints("g", g), wall,
        ], zone: ZoneRules.named("Europe/Oslo")!, timeColumn: "t")
        let ny = Table(name: "ny", columns: [
            Column.ints("id", (1...t.count).map { Int64($0) }), Column.timestamps("t", t.reversed()), Column.ints("g", g),
        ], zone: ZoneRules.named("America/New_York")!, timeColumn: "t")
        return DifferentialTables(name: "zones", tables: [ny, oslo], pipelines: [
            "oslo | count by hour",
            "oslo | count by day",
            "oslo | count by weekday",
            "oslo | count by month",
            "oslo | count by week",
            "oslo | count by every 15m",
            "oslo | count by every 1h",
            "oslo | count by hour(t), g",
            "oslo | sort t",
            "oslo | sort t desc | limit 6",
            "oslo | sort d",
            "oslo | top 3 by t",
            "oslo | top 3 by d",
            "oslo | let x = t + dur | sort x",
            "oslo | let x = t - dur",
            "oslo | let h = hour(t), w = weekday(t)",
            "oslo | where t > \"2021-03-28 01:30\"",
            "oslo | where t >= \"2021-10-31 02:00\" and t < \"2021-10-31 03:00\"",
            "oslo | where d = \"2021-03-28\"",
            "oslo | min t, max t by g",
            "oslo | count by day(d)",
            "oslo | sort dur desc",
            "oslo | sum dur, min dur, max dur by g",
            "oslo | let p = prev(t) by g",
            "oslo | let gap = t - prev(t)",
            "oslo | let r = rank(t)",
            "oslo | let s = running_sum(dur) by g",
            "oslo | count by t",
            "oslo | distinct d",
            "oslo | count by hour(wall)",
            "oslo | count by day(wall), g",
            "oslo | sort wall | limit 5",
            "oslo | where wall > \"2021-03-28 02:30\"",
            "oslo | where wall >= \"2021-10-31 02:00\" and wall < \"2021-10-31 03:00\"",
            "oslo | let x = wall - t",
            "oslo | let x = wall + dur | sort x",
            "oslo | min wall, max wall by g",
            "oslo | join ny on g | where wall < t | count by g",
            "ny | count by hour",
            "ny | count by day",
            "ny | count by every 30m",
            "ny | sort t | limit 5",
            "ny | join oslo on g | count by hour",
            "ny | union oslo | count by day",
            "ny | count by hour, g | pivot g",
        ], sessionZone: "America/New_York")
    }()
}
