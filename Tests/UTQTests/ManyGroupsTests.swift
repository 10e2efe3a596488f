import Foundation
import Testing
@testable import UTQCore

/// Summaries over more groups than a cache holds take another path (rows scattered by ranges
/// of groups, each range on a core of its own): the same answers as a plain count per key.
@Suite struct ManyGroupsTests {
    static let rows = 300_000, keys = 100_003

    /// Row i: key (i · 7919) mod 100,003, so each key three times or so, scattered over the
    /// file; k2 one of five values 250 apart (a thousand codes: no bitmap of group × value); v in tenths, empty on every eleventh row.
    static func row(_ i: Int) -> (k: Int, k2: Int, v: Double?) {
        (i * 7919 % keys, i * 31 % 5 * 250, i % 11 == 3 ? nil : Double(i * 37 % 1000) / 10)
    }

    static let table: (session: Session, byKey: [Int: [(k2: Int, v: Double?)]]) = {
        var text = "k,k2,v\n"
        var byKey: [Int: [(k2: Int, v: Double?)]] = [:]
        for i in 0..<rows {
            let r = row(i)
            text += "\(r.k),\(r.k2),\(r.v.map { NumberText.double($0) } ?? "")\n"
            byKey[r.k, default: []].append((r.k2, r.v))
        }
        let path = try! temporaryFile("many-groups.csv", text)
        let s = makeSession()
        _ = try! s.table("load \(path) as t; t | limit 1")
        return (s, byKey)
    }()

    func answers(_ pipeline: String, _ column: String) throws -> [Int: String] {
        let t = try Self.table.session.table(pipeline)
        #expect(t.rowCount == Self.keys)
        return Dictionary(uniqueKeysWithValues: zip(t.strings("k").map { Int($0)! }, t.strings(column)))
    }

    static func quantile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted(), rank = p * Double(s.count - 1)
        let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
        return s[lo] + (s[hi] - s[lo]) * (rank - Double(lo))
    }

    static func close(_ text: String, _ expected: Double?) -> Bool {
        guard let expected else { return text == "" || text == "null" }
        guard let mine = Double(text) else { return false }
        return abs(mine - expected) <= 1e-9 * max(1, abs(expected))
    }

    @Test func distinctCountsPerKey() throws {
        let mine = try answers("t | count distinct k2 by k", "distinct_k2")
        for (k, rows) in Self.table.byKey {
            #expect(mine[k] == String(Set(rows.map(\.k2)).count), "key \(k)")
        }
    }

    @Test func mediansAndPercentilesPerKey() throws {
        let median = try answers("t | median v by k", "median_v")
        let p90 = try answers("t | p90 v by k", "p90_v")
        var wrong = 0
        for (k, rows) in Self.table.byKey {
            let values = rows.compactMap(\.v)
            if !Self.close(median[k]!, Self.quantile(values, 0.5)) || !Self.close(p90[k]!, Self.quantile(values, 0.9)) { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    /// Fewer groups than the ranges' path takes (1,009 keys over the same 300,000 rows): the
    /// groups' medians are found on the cores, each core a share of the groups; keys k % 1009.
    @Test func mediansOfAThousandGroupsOnTheCores() throws {
        let t = try Self.table.session.table("t | let g = k % 1009 | median v by g")
        let p75 = try Self.table.session.table("t | let g = k % 1009 | p75 v by g")
        var byGroup: [Int: [Double]] = [:]
        for (k, rows) in Self.table.byKey { byGroup[k % 1009, default: []] += rows.compactMap(\.v) }
        #expect(t.rowCount == 1009 && p75.rowCount == 1009)
        var wrong = 0
        for (g, median, q) in zip3(t.strings("g"), t.strings("median_v"), p75.strings("p75_v")) {
            let values = byGroup[Int(g)!] ?? []
            if !Self.close(median, Self.quantile(values, 0.5)) || !Self.close(q, Self.quantile(values, 0.75)) { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) of 1,009 groups' medians or 75th percentiles differ from sorting")
    }

    @Test func sumsAndMeansPerKey() throws {
        let sum = try answers("t | sum v by k", "sum_v")
        let avg = try answers("t | avg v by k", "avg_v")
        var wrong: [Int] = []
        for (k, rows) in Self.table.byKey {
            let values = rows.compactMap(\.v)
            let total: Double? = values.isEmpty ? nil : values.reduce(0, +)
            if !Self.close(sum[k]!, total) || !Self.close(avg[k]!, total.map { $0 / Double(values.count) }) { wrong.append(k) }
        }
        #expect(wrong.isEmpty, "keys \(wrong.prefix(5))")
    }

    /// Two keys whose codes together pass a table of every pair, and whole-number join keys
    /// too far apart for a table by value: both go through a hash table of the keys.
    @Test func pairsOfKeysAndSparseJoinKeysThroughTheHashTable() throws {
        var text = "a,b,id\n", right = "id,name\n"
        var counts: [String: Int] = [:]
        for i in 0..<6000 {
            let a = i * 7 % 3001, b = i * 13 % 2999, id = Int64(i % 1500) * 1_000_003 - 5_000_000_000
            text += "\(a),\(b),\(id)\n"
            counts["\(a) \(b)", default: 0] += 1
        }
        for j in stride(from: 0, to: 3000, by: 2) { right += "\(Int64(j) * 1_000_003 - 5_000_000_000),n\(j)\n" }
        let s = makeSession()
        let t = try s.table("load \(try temporaryFile("pairs.csv", text)) as p; load \(try temporaryFile("ids.csv", right)) as ids; p | count by a, b")
        var mine: [String: Int] = [:]
        for (k, (a, b)) in zip(t.strings("a"), t.strings("b")).enumerated() { mine["\(a) \(b)"] = Int(t.strings("count")[k])! }
        #expect(mine == counts)
        // Ids 0, 2, … 1498 of the left's 0 … 1499 are on the right: half the rows, four each.
        let joined = try s.table("p | join ids on id | count by name | count")
        #expect(joined.strings("count") == ["750"])
        let rows = try s.table("p | join ids on id | count")
        #expect(rows.strings("count") == ["3000"])
    }
}

private func zip3<A, B, C>(_ a: [A], _ b: [B], _ c: [C]) -> [(A, B, C)] {
    zip(a, zip(b, c)).map { ($0, $1.0, $1.1) }
}
