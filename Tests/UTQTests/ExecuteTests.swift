import Foundation
import Testing
@testable import UTQCore

/// Execution on hand-made tables: logic with nulls, arithmetic, text predicates, grouping,
/// aggregates against independent computations, sorting, joins, fill and time buckets.
/// Expected values are worked out in plain Swift from the same rows.

/// A session holding the given tables (the first is current), without loading files.
func sessionWith(_ tables: Table...) -> Session {
    let s = makeSession()
    s.workspace.put(tables, makeCurrent: true)
    return s
}

@Suite struct LogicAndArithmeticTests {
    /// Kleene's three-valued logic, written out.
    func and(_ a: Bool?, _ b: Bool?) -> Bool? {
        if a == false || b == false { return false }
        if a == nil || b == nil { return nil }
        return true
    }

    func or(_ a: Bool?, _ b: Bool?) -> Bool? {
        if a == true || b == true { return true }
        if a == nil || b == nil { return nil }
        return false
    }

    func asBool(_ v: Value) -> Bool? { if case .bool(let b) = v { return b }; return nil }

    @Test func threeValuedLogicWithNulls() throws {
        let options: [Bool?] = [true, false, nil]
        let pairs = options.flatMap { a in options.map { b in (a, b) } }
        let s = sessionWith(Table(name: "t", columns: [
            Column.bools("a", pairs.map(\.0)), Column.bools("b", pairs.map(\.1)), Column.ints("i", pairs.indices.map { Int64($0) }),
        ]))
        let t = try s.table("select i, both = a and b, either = a or b, na = not a, anull = a and null, onull = a or null")
        #expect(t.values("both").map(asBool) == pairs.map { and($0.0, $0.1) })
        #expect(t.values("either").map(asBool) == pairs.map { or($0.0, $0.1) })
        #expect(t.values("na").map(asBool) == pairs.map { $0.0.map { !$0 } })
        #expect(t.values("anull").map(asBool) == pairs.map { and($0.0, nil) })
        #expect(t.values("onull").map(asBool) == pairs.map { or($0.0, nil) })
        // where keeps only rows that are true: null counts as not true.
        let kept = pairs.indices.filter { and(pairs[$0].0, pairs[$0].1) == true }.map { String($0) }
        #expect(try s.table("where a and b").strings("i") == kept)
        #expect(try s.table("where a or b").strings("i") == pairs.indices.filter { or(pairs[$0].0, pairs[$0].1) == true }.map { String($0) })
        #expect(try s.table("where not a").strings("i") == pairs.indices.filter { pairs[$0].0 == false }.map { String($0) })
        #expect(try s.table("where not (a and b)").strings("i") == pairs.indices.filter { and(pairs[$0].0, pairs[$0].1) == false }.map { String($0) })
    }

    @Test func comparisonsWithNullsAreNull() throws {
        let s = sessionWith(Table(name: "t", columns: [Column.ints("x", [1, nil, 3]), Column.ints("y", [1, 2, nil])]))
        #expect(try s.table("select e = x = y, l = x < 2, n = x != 1").strings("e") == ["true", "null", "null"])
        #expect(try s.table("select l = x < 2").strings("l") == ["true", "null", "false"])
        #expect(try s.table("where x != 1").strings("x") == ["3"])
        #expect(try s.table("where x is null").strings("y") == ["2"])
        #expect(try s.table("where x is not null").strings("y") == ["1", "null"])
        #expect(try s.table("where x in (1, 2, 3)").strings("x") == ["1", "3"])
        #expect(try s.table("where x not in (1)").strings("x") == ["3"])
    }

    @Test func divisionModuloAndNulls() throws {
        let xs: [Int64?] = [7, -7, 7, -7, 6, 5, nil, 0]
        let ds: [Int64?] = [2, 2, -2, -3, 0, nil, 3, 4]
        let s = sessionWith(Table(name: "t", columns: [Column.ints("x", xs), Column.ints("d", ds),
                                                        Column.doubles("fx", xs.map { $0.map(Double.init) }),
                                                        Column.doubles("fd", ds.map { $0.map(Double.init) })]))
        let t = try s.table("select q = x / d, m = x % d, fq = fx / fd, fm = fx % fd, half = x / 2")
        // Integer division gives a number (7 / 2 is 3.5); by zero, or with a null, the result is null.
        func expectedQ(_ i: Int) -> Value { guard let x = xs[i], let d = ds[i], d != 0 else { return .null }; return .double(Double(x) / Double(d)) }
        // Modulo takes the divisor's sign (floored), for whole numbers and numbers alike.
        func expectedM(_ i: Int) -> Int64? {
            guard let x = xs[i], let d = ds[i], d != 0 else { return nil }
            let r = x - d * Int64((Double(x) / Double(d)).rounded(.down))
            return r
        }
        #expect(t.values("q") == xs.indices.map(expectedQ))
        #expect(t.values("fq") == xs.indices.map(expectedQ))
        #expect(t.values("m") == xs.indices.map { expectedM($0).map { .int($0) } ?? .null })
        #expect(t.values("fm") == xs.indices.map { expectedM($0).map { .double(Double($0)) } ?? .null })
        #expect(t.values("half") == xs.map { $0.map { .double(Double($0) / 2) } ?? .null })
        #expect(t.column("q")?.type == .double)
        #expect(t.column("m")?.type == .int)
        #expect(try s.table("select z = fx / 0").values("z").allSatisfy { $0 == .null })
    }

    @Test func arithmeticOnTimesAndDurations() throws {
        let t0 = Reference.micros(2017, 3, 23, 8, 0)
        let s = sessionWith(Table(name: "t", columns: [Column.timestamps("a", [t0, t0 + 90_000_000]),
                                                        Column.timestamps("b", [t0 + 3_600_000_000, nil]),
                                                        Column.durations("w", [60_000_000, 45_000_000])]))
        let r = try s.table("select d = b - a, later = a + 15m, twice = w * 2, third = w / 3, ratio = w / 15s, neg = -w")
        #expect(r.values("d") == [.duration(3_600_000_000), .null])
        #expect(r.values("later") == [.timestamp(t0 + 900_000_000), .timestamp(t0 + 990_000_000)])
        #expect(r.values("twice") == [.duration(120_000_000), .duration(90_000_000)])
        #expect(r.values("third") == [.duration(20_000_000), .duration(15_000_000)])
        #expect(r.values("ratio") == [.double(4), .double(3)])
        #expect(r.values("neg") == [.duration(-60_000_000), .duration(-45_000_000)])
        #expect(try s.table("where b - a > 30m").rowCount == 1)
    }

    @Test func textJoinsWithPlus() throws {
        let s = sessionWith(Table(name: "t", columns: [Column.texts("a", ["x", nil]), Column.ints("n", [1, 2])]))
        #expect(try s.table("select c = a + \"-\" + n").values("c") == [.string("x-1"), .null])
    }
}

@Suite struct TextPredicateTests {
    static let names: [String?] = ["Bike", "Person on bike", "BIKER", "Walking", nil, "Café Bike", "bike", "Sitting", "Walking"]
    let s = sessionWith(Table(name: "t", columns: [Column.texts("legend", TextPredicateTests.names),
                                                    Column.ints("i", TextPredicateTests.names.indices.map { Int64($0) })]))

    func rows(_ keep: (String) -> Bool) -> [String] {
        Self.names.indices.filter { Self.names[$0].map(keep) ?? false }.map { String($0) }
    }

    @Test func containsStartsAndEndsIgnoreCase() throws {
        #expect(try s.table("where legend contains \"bike\"").strings("i") == rows { $0.lowercased().contains("bike") })
        #expect(try s.table("where legend contains \"BIKE\"").strings("i") == rows { $0.lowercased().contains("bike") })
        #expect(try s.table("where legend starts with \"bi\"").strings("i") == rows { $0.lowercased().hasPrefix("bi") })
        #expect(try s.table("where legend ends with \"IKE\"").strings("i") == rows { $0.lowercased().hasSuffix("ike") })
        #expect(try s.table("where legend not contains \"bike\"").strings("i") == rows { !$0.lowercased().contains("bike") })
        #expect(try s.table("where legend ~ \"^b.*e$\"").strings("i") == rows { $0.lowercased().hasPrefix("b") && $0.lowercased().hasSuffix("e") })
        #expect(try s.table("where legend contains \"cafe\"").strings("i") == ["5"])
        #expect(s.failure("where legend ~ \"(\"")?.message == "\"(\" is not a valid regular expression: expected ')' (at character 1)")
    }

    @Test func equalityOnTextAgreesWithInGroupingAndJoins() throws {
        // = and != compare whole values, exactly as in (…), count by and join do.
        let eq = try s.table("where legend = \"bike\"").strings("i")
        #expect(eq == rows { $0 == "bike" })
        #expect(eq == (try s.table("where legend in (\"bike\")").strings("i")))
        #expect(try s.table("where legend != \"bike\"").strings("i") == rows { $0 != "bike" })
        #expect(try s.table("where legend = \"Walking\"").strings("i") == ["3", "8"])
        let counts = try s.table("count by legend")
        #expect(counts.strings("legend").filter { $0.lowercased() == "bike" }.count == 2)
        // Column against column, too.
        let pairs = sessionWith(Table(name: "p", columns: [Column.texts("a", ["x", "X", "y"]), Column.texts("b", ["x", "x", "Y"])]))
        #expect(try pairs.table("select e = a = b").strings("e") == ["true", "false", "false"])
    }

    @Test func orderingOfTextFollowsTheSortOrder() throws {
        // a < "K" holds exactly for the values that sort before "K".
        let sorted = Self.names.compactMap { $0 }.sorted(by: TextOrder.less)
        let before = Set(sorted.filter { TextOrder.less($0, "K") })
        #expect(try s.table("where legend < \"K\"").strings("i") == rows { before.contains($0) })
        #expect(try s.table("where legend >= \"K\"").strings("i") == rows { !before.contains($0) })
    }
}

@Suite struct GroupAndAggregateTests {
    struct Row { var g: String?; var h: Int64?; var v: Double?; var k: Int64? }

    static func rows(seed: UInt64, count: Int) -> [Row] {
        var rng = SeededRandom(seed: seed)
        let groups = ["Line 10", "Line 2", "bike", "Walking", "Stroller"]
        return (0..<count).map { _ in
            Row(g: Int.random(in: 0..<20, using: &rng) == 0 ? nil : groups.randomElement(using: &rng)!,
                h: Int.random(in: 0..<15, using: &rng) == 0 ? nil : Int64.random(in: 0...3, using: &rng),
                v: Int.random(in: 0..<10, using: &rng) == 0 ? nil : (Double.random(in: -1000...1000, using: &rng) * 100).rounded() / 100,
                k: Int.random(in: 0..<10, using: &rng) == 0 ? nil : Int64.random(in: 0..<40, using: &rng))
        }
    }

    static func table(_ rows: [Row]) -> Table {
        Table(name: "t", columns: [Column.texts("g", rows.map(\.g)), Column.ints("h", rows.map(\.h)),
                                   Column.doubles("v", rows.map(\.v)), Column.ints("k", rows.map(\.k))])
    }

    /// Percentile with linear interpolation between closest ranks (R type 7, numpy's default).
    static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        let rank = p * Double(s.count - 1)
        let lo = Int(rank.rounded(.down)), hi = min(s.count - 1, lo + 1)
        return s[lo] + (s[hi] - s[lo]) * (rank - Double(lo))
    }

    static func stddev(_ values: [Double]) -> Double? {
        guard values.count > 1 else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
    }

    func close(_ a: Value, _ b: Double?, _ what: String) {
        switch (a, b) {
        case (.null, nil): return
        case (.double(let x), let y?):
            if abs(x - y) > 1e-9 * max(1, abs(y)) { Issue.record("\(what): \(x) != \(y)") }
        default: Issue.record("\(what): \(a) != \(String(describing: b))")
        }
    }

    @Test func knownPercentilesAndDeviations() throws {
        #expect(Self.percentile([1, 2, 3, 4], 0.5) == 2.5)
        let s = sessionWith(Table(name: "t", columns: [Column.doubles("x", (1...10).map { Double($0) })]))
        let t = try s.table("median x, p90 x, p10 x, p50 x, p99 x, stddev x, avg x")
        #expect(t.values("median_x") == [.double(5.5)])
        #expect(t.values("p50_x") == [.double(5.5)])
        // numpy.percentile(range(1, 11), 90) = 9.1; 10 → 1.9; 99 → 9.91.
        close(t.values("p90_x")[0], 9.1, "p90")
        close(t.values("p10_x")[0], 1.9, "p10")
        close(t.values("p99_x")[0], 9.91, "p99")
        // The sample standard deviation of 1…10 is √(82.5 / 9).
        close(t.values("stddev_x")[0], (82.5 / 9).squareRoot(), "stddev")
        #expect(t.values("avg_x") == [.double(5.5)])
        let one = try sessionWith(Table(name: "t", columns: [Column.doubles("x", [4])])).table("median x, p90 x, stddev x")
        #expect(one.values("median_x") == [.double(4)] && one.values("p90_x") == [.double(4)] && one.values("stddev_x") == [.null])
    }

    @Test func aggregatesMatchIndependentComputationsOnRandomData() throws {
        let data = Self.rows(seed: 21, count: 4000)
        let s = sessionWith(Self.table(data))
        let t = try s.table("count, count v, sum v, avg v, min v, max v, median v, p90 v, p10 v, stddev v, count distinct k, first k, last k, sum k, min k, max k by g")
        // Groups in natural order of their names, the null group last.
        let names = Set(data.compactMap(\.g)).sorted(by: TextOrder.less)
        #expect(t.strings("g") == names + ["null"])
        for (row, name) in (names.map { Optional($0) } + [nil]).enumerated() {
            let members = data.filter { $0.g == name }
            let vs = members.compactMap(\.v), ks = members.compactMap(\.k)
            let label = name ?? "null"
            #expect(t.values("count")[row] == .int(Int64(members.count)), "\(label)")
            #expect(t.values("count_v")[row] == .int(Int64(vs.count)), "\(label)")
            close(t.values("sum_v")[row], vs.isEmpty ? nil : vs.reduce(0, +), "\(label) sum")
            close(t.values("avg_v")[row], vs.isEmpty ? nil : vs.reduce(0, +) / Double(vs.count), "\(label) avg")
            #expect(t.values("min_v")[row] == (vs.min().map { .double($0) } ?? .null))
            #expect(t.values("max_v")[row] == (vs.max().map { .double($0) } ?? .null))
            close(t.values("median_v")[row], Self.percentile(vs, 0.5), "\(label) median")
            close(t.values("p90_v")[row], Self.percentile(vs, 0.9), "\(label) p90")
            close(t.values("p10_v")[row], Self.percentile(vs, 0.1), "\(label) p10")
            close(t.values("stddev_v")[row], Self.stddev(vs), "\(label) stddev")
            #expect(t.values("distinct_k")[row] == .int(Int64(Set(ks).count)))
            #expect(t.values("first_k")[row] == (ks.first.map { .int($0) } ?? .null))
            #expect(t.values("last_k")[row] == (ks.last.map { .int($0) } ?? .null))
            #expect(t.values("sum_k")[row] == (ks.isEmpty ? .null : .int(ks.reduce(0, +))))
            #expect(t.values("min_k")[row] == (ks.min().map { .int($0) } ?? .null))
            #expect(t.values("max_k")[row] == (ks.max().map { .int($0) } ?? .null))
        }
    }

    @Test func severalKeysWithNullsAsTheirOwnGroups() throws {
        let data = Self.rows(seed: 22, count: 3000)
        let t = try sessionWith(Self.table(data)).table("count by g, h")
        // Expected: one row per combination present, ordered by g (nulls last) then h (nulls last).
        var counts: [String: Int64] = [:]
        for r in data { counts["\(r.g ?? "null")|\(r.h.map(String.init) ?? "null")", default: 0] += 1 }
        func key(_ g: String, _ h: String) -> (Int, String, Int, Int64) {
            (g == "null" ? 1 : 0, g, h == "null" ? 1 : 0, Int64(h) ?? 0)
        }
        let expected = counts.keys.map { k -> (String, String) in
            let parts = k.split(separator: "|").map(String.init)
            return (parts[0], parts[1])
        }.sorted { a, b in
            let x = key(a.0, a.1), y = key(b.0, b.1)
            if x.0 != y.0 { return x.0 < y.0 }
            if x.1 != y.1 { return TextOrder.less(x.1, y.1) }
            if x.2 != y.2 { return x.2 < y.2 }
            return x.3 < y.3
        }
        #expect(t.rowCount == expected.count)
        #expect(zip(t.strings("g"), t.strings("h")).map { "\($0)|\($1)" } == expected.map { "\($0.0)|\($0.1)" })
        #expect(t.strings("count") == expected.map { String(counts["\($0.0)|\($0.1)"]!) })
        #expect(t.values("count").reduce(0) { if case .int(let n) = $1 { return $0 + n }; return $0 } == Int64(data.count))
    }

    @Test func groupKeysOfEveryType() throws {
        let t0 = Reference.micros(2017, 1, 1)
        let s = sessionWith(Table(name: "t", columns: [
            Column.doubles("d", [0.5, -0.0, 0.0, nil, 0.5]), Column.bools("b", [true, nil, false, true, true]),
            Column.timestamps("t", [t0, t0 + 1, nil, t0, t0 + 1]), Column.ints("wide", [1, 5_000_000_000_000, nil, 1, -7]),
        ]))
        #expect(try s.table("count by d").strings("count") == ["2", "2", "1"])  // -0 groups with 0; null last
        #expect(try s.table("count by d").values("d") == [.double(0), .double(0.5), .null])
        #expect(try s.table("count by b").strings("b") == ["false", "true", "null"])
        #expect(try s.table("count by b").strings("count") == ["1", "3", "1"])
        #expect(try s.table("count by t").strings("count") == ["2", "2", "1"])
        #expect(try s.table("count by wide").strings("wide") == ["-7", "1", "5000000000000", "null"])
        #expect(try s.table("count distinct wide, count distinct b, count distinct d").row(0) == ["distinct_wide": "3", "distinct_b": "2", "distinct_d": "2"])
    }

    @Test func summariesOfNothing() throws {
        let empty = sessionWith(Table(name: "t", columns: [Column.ints("x", []), Column.texts("g", [])]))
        let t = try empty.table("count, sum x, avg x, min x")
        #expect(t.rowCount == 1)
        #expect(t.row(0) == ["count": "0", "sum_x": "null", "avg_x": "null", "min_x": "null"])
        #expect(try empty.table("count by g").rowCount == 0)
        let s = sessionWith(Table(name: "t", columns: [Column.ints("x", [1, 2]), Column.texts("g", ["a", "b"])]))
        #expect(try s.table("where x > 5 | count").strings("count") == ["0"])
    }

    @Test func sumsAndAveragesOfDurationsStayDurations() throws {
        let m: Int64 = 60_000_000
        let s = sessionWith(Table(name: "t", columns: [Column.durations("w", [45 * m, 60 * m, nil, 75 * m]),
                                                        Column.bools("paid", [true, false, true, nil])]))
        let t = try s.table("sum w, avg w, max w, median w, sum paid")
        #expect(t.values("sum_w") == [.duration(180 * m)])
        #expect(t.values("avg_w") == [.duration(60 * m)])
        #expect(t.values("max_w") == [.duration(75 * m)])
        #expect(t.values("median_w") == [.duration(60 * m)])
        #expect(t.values("sum_paid") == [.int(2)])
    }
}

@Suite struct SortingTests {
    @Test func stableMultiKeyAndNullsLastBothWays() throws {
        var rng = SeededRandom(seed: 23)
        let n = 500
        let a: [Int64?] = (0..<n).map { _ in Int.random(in: 0..<8, using: &rng) == 0 ? nil : Int64.random(in: 0..<5, using: &rng) }
        let b: [Double?] = (0..<n).map { _ in Int.random(in: 0..<8, using: &rng) == 0 ? nil : Double(Int.random(in: 0..<4, using: &rng)) }
        let s = sessionWith(Table(name: "t", columns: [Column.ints("a", a), Column.doubles("b", b), Column.ints("i", (0..<n).map { Int64($0) })]))
        func order(_ x: Int64?, _ y: Int64?, desc: Bool) -> Int {  // -1, 0, 1 with nulls last either way
            switch (x, y) {
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            case let (p?, q?): return p == q ? 0 : ((p < q) != desc ? -1 : 1)
            }
        }
        func expected(descA: Bool, descB: Bool?) -> [String] {
            (0..<n).sorted { i, j in
                let c = order(a[i], a[j], desc: descA)
                if c != 0 { return c < 0 }
                if let descB {
                    let d = order(b[i].map { Int64($0) }, b[j].map { Int64($0) }, desc: descB)
                    if d != 0 { return d < 0 }
                }
                return i < j  // ties keep their order
            }.map { String($0) }
        }
        #expect(try s.table("sort a").strings("i") == expected(descA: false, descB: nil))
        #expect(try s.table("sort a desc").strings("i") == expected(descA: true, descB: nil))
        #expect(try s.table("sort a, b desc").strings("i") == expected(descA: false, descB: true))
        #expect(try s.table("sort a desc, b").strings("i") == expected(descA: true, descB: false))
        #expect(try s.table("sort a | limit 3 offset 2").strings("i") == Array(expected(descA: false, descB: nil)[2..<5]))
        #expect(try s.table("top 4 by a").strings("i") == Array(expected(descA: true, descB: nil).prefix(4)))
        #expect(try s.table("top 4 by a asc").strings("i") == Array(expected(descA: false, descB: nil).prefix(4)))
    }

    @Test func weekdaysAndLegendsInTheirOwnOrder() throws {
        // One row a day from Wednesday 2017-03-22 to Tuesday 2017-03-28.
        let days = (0..<7).map { Reference.micros(2017, 3, 22, 12) + Int64($0) * 86_400_000_000 }
        let s = sessionWith(Table(name: "t", columns: [Column.timestamps("time", days),
                                                        Column.texts("kind", ["b", "c", "a", "c", "b", "a", "c"], ordered: ["c", "a", "b"])]))
        #expect(try s.table("count by weekday").strings("weekday") == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        #expect(try s.table("where true | let d = weekday | sort d desc").strings("d") == ["Sun", "Sat", "Fri", "Thu", "Wed", "Tue", "Mon"])
        #expect(try s.table("sort kind").strings("kind") == ["c", "c", "c", "a", "a", "b", "b"])
        #expect(try s.table("count by kind").strings("kind") == ["c", "a", "b"])
        #expect(try s.table("min kind, max kind").row(0) == ["min_kind": "c", "max_kind": "b"])
    }

    @Test func notANumberSortsAboveNumbersAndKeepsItsTies() throws {
        let v: [Double?] = [.nan, 2, .nan, 0, nil, 1, .nan]
        let s = sessionWith(Table(name: "t", columns: [Column.doubles("v", v), Column.ints("i", v.indices.map { Int64($0) })]))
        #expect(try s.table("sort v").strings("i") == ["3", "5", "1", "0", "2", "6", "4"])
        #expect(try s.table("sort v desc").strings("i") == ["0", "2", "6", "1", "5", "3", "4"])
    }

    @Test func textSortsNaturally() throws {
        let names = ["Line 10", "line 1", "Line 2", "Express", nil, "Line 100", "line 20"]
        let s = sessionWith(Table(name: "t", columns: [Column.texts("name", names)]))
        #expect(try s.table("sort name").strings("name") == ["Express", "line 1", "Line 2", "Line 10", "line 20", "Line 100", "null"])
        #expect(try s.table("sort name desc").strings("name") == ["Line 100", "line 20", "Line 10", "Line 2", "line 1", "Express", "null"])
    }
}

@Suite struct JoinTests {
    @Test func innerAndLeftWithDuplicatesAndNullKeys() throws {
        let lk: [Int64?] = [1, 2, 2, nil, 3, 5]
        let rk: [Int64?] = [2, 2, 3, nil, 4, 3]
        let left = Table(name: "l", columns: [Column.ints("k", lk), Column.texts("lname", lk.indices.map { "l\($0)" })])
        let right = Table(name: "r", columns: [Column.ints("k", rk), Column.texts("rname", rk.indices.map { "r\($0)" })])
        let s = sessionWith(left, right)
        // Nested loops: every pair with equal, non-null keys, in left order then right order.
        var inner: [String] = [], leftJoin: [String] = []
        for i in lk.indices {
            var matched = false
            for j in rk.indices where lk[i] != nil && lk[i] == rk[j] {
                inner.append("l\(i)+r\(j)"); leftJoin.append("l\(i)+r\(j)"); matched = true
            }
            if !matched { leftJoin.append("l\(i)+null") }
        }
        let t = try s.table("join r on k")
        #expect(zip(t.strings("lname"), t.strings("rname")).map { "\($0)+\($1)" } == inner)
        #expect(t.columnNames == ["k", "lname", "rname"])
        let u = try s.table("left join r on k")
        #expect(zip(u.strings("lname"), u.strings("rname")).map { "\($0)+\($1)" } == leftJoin)
        #expect(u.strings("k") == leftJoin.map { p in String(lk[Int(p.dropFirst().prefix { $0 != "+" })!].map(String.init) ?? "null") })
    }

    @Test func severalKeysAndComputedKeys() throws {
        let left = Table(name: "l", columns: [Column.texts("a", ["x", "x", "y"]), Column.ints("b", [1, 2, 1]), Column.ints("v", [10, 20, 30])])
        let right = Table(name: "r", columns: [Column.texts("a", ["x", "y", "x"]), Column.ints("b", [2, 1, 1]), Column.ints("w", [200, 100, 300])])
        let s = sessionWith(left, right)
        let t = try s.table("join r on a, b")
        #expect(t.strings("v") == ["10", "20", "30"])
        #expect(t.strings("w") == ["300", "200", "100"])
        let c = try s.table("join r on v = w / 10")
        #expect(c.strings("v") == ["10", "20", "30"])
        #expect(c.strings("r.a") == ["y", "x", "x"])
    }
}

@Suite struct FillTests {
    let oslo = ZoneRules.named("Europe/Oslo")!

    @Test func hoursOfTheDay() throws {
        let times = [8, 8, 12, 16].map { Reference.micros(2017, 3, 23, $0, 10) }
        let s = sessionWith(Table(name: "t", columns: [Column.timestamps("time", times), Column.texts("g", ["a", "b", "a", "a"])]))
        let t = try s.table("count by hour | fill")
        #expect(t.strings("hour") == (8...16).map(String.init))
        #expect(t.strings("count") == (8...16).map { h in String(times.filter { ($0 / 3_600_000_000) % 24 == Int64(h) }.count) })
        // With a second key, every combination gets its row.
        let u = try s.table("count by g, hour | fill")
        #expect(u.rowCount == 2 * 9)
        #expect(u.strings("g") == Array(repeating: "a", count: 9) + Array(repeating: "b", count: 9))
        #expect(u.strings("count").filter { $0 != "0" } == ["1", "1", "1", "1"])
    }

    @Test func quarterHours() throws {
        let times = [Reference.micros(2017, 3, 23, 12, 1), Reference.micros(2017, 3, 23, 12, 14), Reference.micros(2017, 3, 23, 13, 2)]
        let t = try sessionWith(Table(name: "t", columns: [Column.timestamps("time", times)])).table("count by every 15m | fill")
        let starts = stride(from: Reference.micros(2017, 3, 23, 12), through: Reference.micros(2017, 3, 23, 13), by: 900_000_000)
        #expect(t.values("time") == starts.map { .timestamp($0) })
        #expect(t.strings("count") == ["2", "0", "0", "0", "1"])
    }

    @Test func monthsOfDifferentLengths() throws {
        let times = [Reference.micros(2016, 11, 5), Reference.micros(2017, 3, 9), Reference.micros(2017, 3, 30)]
        let t = try sessionWith(Table(name: "t", columns: [Column.timestamps("time", times)], zone: oslo)).table("count by month | fill")
        #expect(t.strings("month") == ["2016-11", "2016-12", "2017-01", "2017-02", "2017-03"])
        #expect(t.values("month") == [(2016, 11), (2016, 12), (2017, 1), (2017, 2), (2017, 3)].map { .timestamp(Reference.micros($0.0, $0.1, 1, zone: "Europe/Oslo")) })
        #expect(t.strings("count") == ["1", "0", "0", "0", "2"])
    }

    @Test func hoursAndDaysAcrossDaylightSavingChanges() throws {
        // 00:30 and 04:30 local on 26 March 2017 in Oslo: 02:00 does not exist that night.
        let spring = [Reference.micros(2017, 3, 26, 0, 30, zone: "Europe/Oslo"), Reference.micros(2017, 3, 26, 4, 30, zone: "Europe/Oslo")]
        let s = sessionWith(Table(name: "t", columns: [Column.timestamps("time", spring)], zone: oslo))
        let hours = try s.table("count by every 1h | fill")
        #expect(hours.strings("time") == ["2017-03-26T00:00:00+01:00", "2017-03-26T01:00:00+01:00", "2017-03-26T03:00:00+02:00", "2017-03-26T04:00:00+02:00"])
        #expect(hours.strings("count") == ["1", "0", "0", "1"])
        let ofDay = try s.table("count by hour | fill")
        #expect(ofDay.strings("hour") == ["0", "1", "2", "3", "4"])  // hour of day is a number: 2 is filled like any other
        // Days: each bucket starts at local midnight, 23 or 25 hours apart around the changes.
        let days = [Reference.micros(2017, 3, 25, 12, zone: "Europe/Oslo"), Reference.micros(2017, 3, 28, 12, zone: "Europe/Oslo"),
                    Reference.micros(2017, 10, 28, 12, zone: "Europe/Oslo"), Reference.micros(2017, 10, 30, 12, zone: "Europe/Oslo")]
        let d = try sessionWith(Table(name: "t", columns: [Column.timestamps("time", days)], zone: oslo)).table("where time < \"2017-04-01\" | count by day | fill")
        #expect(d.values("day") == (25...28).map { .timestamp(Reference.micros(2017, 3, $0, zone: "Europe/Oslo")) })
        let autumn = try sessionWith(Table(name: "t", columns: [Column.timestamps("time", days)], zone: oslo)).table("where time > \"2017-10-01\" | count by day | fill")
        #expect(autumn.values("day") == (28...30).map { .timestamp(Reference.micros(2017, 10, $0, zone: "Europe/Oslo")) })
        #expect(autumn.strings("count") == ["1", "0", "1"])
    }

    @Test func emptyAndNullKeys() throws {
        let s = sessionWith(Table(name: "t", columns: [Column.ints("n", [1, 4, nil, 4])]))
        let t = try s.table("count by n | fill")
        #expect(t.strings("n") == ["1", "2", "3", "4", "null"])
        #expect(t.strings("count") == ["1", "0", "0", "2", "1"])
        #expect(try s.table("where n > 9 | count by n | fill").rowCount == 0)
    }
}

@Suite struct BucketTests {
    let oslo = ZoneRules.named("Europe/Oslo")!

    func bucket(_ b: TimeBucket, _ values: [Int64], zone: ZoneRules) throws -> [Value] {
        let c = Column.timestamps("t", values)
        guard case .column(let out) = try Buckets.apply(b, .column(c), zone: zone, values.count) else { return [] }
        return (0..<values.count).map { out.value(at: $0) }
    }

    @Test func hoursInOsloAcrossTheChanges() throws {
        let instants = [Reference.micros(2017, 3, 26, 0, 30), Reference.micros(2017, 3, 26, 1, 30),
                        Reference.micros(2017, 10, 29, 0, 30), Reference.micros(2017, 10, 29, 1, 30),
                        Reference.micros(2017, 3, 25, 23, 0), Reference.micros(1975, 6, 1, 12, 0)]
        // 01:30 CET; 03:30 CEST; 02:30 CEST; 02:30 CET; midnight; 13:00 (no summer time in Norway in 1975).
        #expect(try bucket(.hour, instants, zone: oslo) == [1, 3, 2, 2, 0, 13].map { .int($0) })
        #expect(try bucket(.weekday, [Reference.micros(2017, 3, 26, 1, 30), Reference.micros(2017, 3, 26, 22, 30)], zone: oslo) == [.string("Sun"), .string("Mon")])
    }

    @Test func theRepeatedHourOfAutumnIsAHourOfItsOwn() throws {
        // 02:30 CEST and 02:30 CET on 29 October 2017 are an hour apart and fall in different hours.
        let instants = [Reference.micros(2017, 10, 29, 0, 30), Reference.micros(2017, 10, 29, 1, 30), Reference.micros(2017, 10, 29, 1, 50)]
        #expect(try bucket(.every(3_600_000_000), instants, zone: oslo) == [Reference.micros(2017, 10, 29, 0), Reference.micros(2017, 10, 29, 1),
                                                                              Reference.micros(2017, 10, 29, 1)].map { .timestamp($0) })
        #expect(try bucket(.every(900_000_000), instants, zone: oslo).last == .timestamp(Reference.micros(2017, 10, 29, 1, 45)))
        #expect(try bucket(.minute, instants, zone: oslo).first == .timestamp(Reference.micros(2017, 10, 29, 0, 30)))
        // In spring, an hour bucket starts at the hour that exists.
        #expect(try bucket(.every(3_600_000_000), [Reference.micros(2017, 3, 26, 1, 30)], zone: oslo) == [.timestamp(Reference.micros(2017, 3, 26, 1))])
        let s = sessionWith(Table(name: "t", columns: [Column.timestamps("time", instants)], zone: oslo))
        let t = try s.table("count by every 1h | fill")
        #expect(t.strings("time") == ["2017-10-29T02:00:00+02:00", "2017-10-29T02:00:00+01:00"])
        #expect(t.strings("count") == ["1", "2"])
    }

    /// Every bucket of random instants against Foundation's calendar in the same zone.
    @Test func agreeWithFoundationsCalendar() throws {
        var rng = SeededRandom(seed: 24)
        for zoneName in ["Europe/Oslo", "America/New_York", "Asia/Kolkata", "UTC"] {
            let zone = ZoneRules.named(zoneName)!
            var cal = Reference.calendar(zoneName)
            cal.firstWeekday = 2
            cal.minimumDaysInFirstWeek = 4
            let instants = (0..<400).map { _ in Int64.random(in: -300_000_000...2_000_000_000, using: &rng) * 1_000_000 }
            let hours = try bucket(.hour, instants, zone: zone), days = try bucket(.day, instants, zone: zone)
            let months = try bucket(.month, instants, zone: zone), weeks = try bucket(.week, instants, zone: zone)
            let years = try bucket(.year, instants, zone: zone), minutes = try bucket(.minute, instants, zone: zone)
            let quarters = try bucket(.every(900_000_000), instants, zone: zone)
            let weekdays = try bucket(.weekday, instants, zone: zone)
            func micros(_ d: Date) -> Int64 { Int64((d.timeIntervalSince1970 * 1_000_000).rounded()) }
            for (k, t) in instants.enumerated() {
                let date = Date(timeIntervalSince1970: Double(t) / 1_000_000)
                let c = cal.dateComponents([.year, .month, .hour, .minute, .weekday], from: date)
                #expect(hours[k] == .int(Int64(c.hour!)), "\(zoneName) \(date)")
                #expect(years[k] == .int(Int64(c.year!)))
                #expect(weekdays[k] == .string(CivilTime.weekdayNames[(c.weekday! + 5) % 7]))
                #expect(days[k] == .timestamp(micros(cal.startOfDay(for: date))), "\(zoneName) \(date)")
                #expect(months[k] == .timestamp(micros(cal.dateInterval(of: .month, for: date)!.start)))
                #expect(weeks[k] == .timestamp(micros(cal.dateInterval(of: .weekOfYear, for: date)!.start)))
                #expect(minutes[k] == .timestamp(micros(cal.dateInterval(of: .minute, for: date)!.start)))
                let quarter = cal.date(bySettingHour: c.hour!, minute: c.minute! / 15 * 15, second: 0, of: date)!
                #expect(quarters[k] == .timestamp(micros(quarter)), "\(zoneName) \(date)")
            }
        }
    }

    @Test func durationsPastMidnight() throws {
        let h: Int64 = 3_600_000_000, m: Int64 = 60_000_000
        let c = Column.durations("t", [25 * h + 10 * m, 7 * h + 59 * m, 49 * h])
        func apply(_ b: TimeBucket) throws -> [Value] {
            guard case .column(let out) = try Buckets.apply(b, .column(c), zone: oslo, 3) else { return [] }
            return (0..<3).map { out.value(at: $0) }
        }
        #expect(try apply(.hour) == [.int(25), .int(7), .int(49)])
        #expect(try apply(.minute) == [.duration(25 * h + 10 * m), .duration(7 * h + 59 * m), .duration(49 * h)])
        #expect(try apply(.every(30 * m)) == [.duration(25 * h), .duration(7 * h + 30 * m), .duration(49 * h)])
        #expect(try apply(.day) == [.int(1), .int(0), .int(2)])
        #expect(try apply(.timeOfDay) == [.duration(1 * h + 10 * m), .duration(7 * h + 59 * m), .duration(1 * h)])
        #expect(throws: Diagnostic.self) { try apply(.weekday) }
        // Through the language too: hour 25 is 25.
        let s = sessionWith(Table(name: "trips", columns: [c], timeColumn: nil))
        #expect(try s.table("count by hour(t)").strings("hour") == ["7", "25", "49"])
    }

    @Test func nullsStayNull() throws {
        let c = Column.timestamps("t", [Reference.micros(2017, 1, 1), nil])
        guard case .column(let out) = try Buckets.apply(.hour, .column(c), zone: oslo, 2) else { Issue.record("no column"); return }
        #expect(out.value(at: 1) == .null)
    }
}

@Suite struct EveryAlignmentTests {
    @Test func spansThatDoNotDivideADayStartAtMidnight() throws {
        let s = makeSession()
        let path = try temporaryFile("every7.csv", "time\n2017-03-23T00:03:00Z\n2017-03-23T23:58:00Z\n2017-03-24T00:06:00Z\n")
        let t = try s.table("load \(path) as e; count by every 7m")
        // 23:58 falls in the span that starts at 23:55 (= 205 × 7 minutes after midnight).
        #expect(t.strings("time") == ["2017-03-23T00:00:00Z", "2017-03-23T23:55:00Z", "2017-03-24T00:00:00Z"])
    }
}

/// `count by` small keys has a one-pass path; it must agree with the general one.
@Suite struct CountByCodesTests {
    @Test func fastCountsEqualTheGeneralPath() throws {
        var lines = ["t,legend,n,one"]
        var state: UInt64 = 11
        func next(_ m: UInt64) -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return (state >> 33) % m }
        for i in 0..<50_000 {
            // Times across the Oslo autumn change, some missing; legends with some missing.
            let t = next(20) == 0 ? "" : "2017-10-\(28 + next(3))T\(String(format: "%02d", next(24))):\(String(format: "%02d", next(60))):00Z"
            let legend = next(15) == 0 ? "" : ["Walking", "Bike", "Sitting", "Standing"][Int(next(4))]
            lines.append("\(t),\(legend),\(next(7)),1")
            _ = i
        }
        let path = try temporaryFile("fastcount.csv", lines.joined(separator: "\n") + "\n")
        let s = makeSession(zone: ZoneRules.named("Europe/Oslo")!)
        for keys in ["legend", "hour", "legend, hour", "weekday, legend", "n, hour, legend", "hour, weekday, n"] {
            let fast = try s.table("load \(path) as f; count by \(keys)")
            // count of a column with no nulls is the row count, but takes the general path.
            let general = try s.table("f | count one as count by \(keys)")
            #expect(fast.rowCount == general.rowCount, "\(keys)")
            for c in fast.columnNames { #expect(fast.strings(c) == general.strings(c), "\(keys): \(c)") }
        }
    }
}
