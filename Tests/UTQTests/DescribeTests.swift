import Foundation
import Testing
@testable import UTQCore

/// `describe`'s counts and extremes, read a kind of column at a time, against the way of
/// any column: a set of its values and the sort's comparator row by row.
@Suite struct DescribeTests {
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// Columns of every kind describe reads in a loop of its own, with nulls (or none), ties,
    /// NaN, -0 and an unordered dictionary holding values no row uses.
    static func columns(rows n: Int, seed: UInt64, nulls: Bool) -> [Column] {
        var g = SplitMix(state: seed)
        func validity() -> Bitmap? {
            guard nulls else { return nil }
            var v = Bitmap(count: n, value: true)
            for i in 0..<n where g.below(5) == 0 { v[i] = false }
            // Nulls first and last, so the first value is not row 0.
            if n > 2 { v[0] = false; v[n - 1] = false }
            return v
        }
        let ints = (0..<n).map { _ in Int64(g.below(50)) - 25 }
        let wide = (0..<n).map { _ in Int64(bitPattern: g.next()) >> Int64(g.below(60)) }
        let specials: [Double] = [.nan, -0.0, 0.0, .infinity, -.infinity, 1.5, -1.5, 2.25]
        let doubles = (0..<n).map { _ in g.below(3) == 0 ? specials[g.below(specials.count)] : Double(g.below(1000)) / 8 - 60 }
        let flags = (0..<n).map { _ in g.below(2) == 0 }
        let words = ["tram", "Bus", "bus", "ferry", "", "Æble", "zebra", "10", "9", "unused-1", "walk", "unused-2"]
        let codes = (0..<n).map { _ in UInt32([0, 1, 2, 3, 4, 5, 6, 7, 8, 10][g.below(10)]) }
        let many = (0..<n).map { _ in UInt32(g.below(300)) }
        return [
            Column(name: "small", storage: .int(ints), validity: validity()),
            Column(name: "wide", storage: .int(wide), validity: validity()),
            Column(name: "when", storage: .timestamp(wide.map { $0 >> 20 }), validity: validity()),
            Column(name: "gap", storage: .duration(ints.map { $0 * 1_000_000 }), validity: validity()),
            Column(name: "x", storage: .double(doubles), validity: validity()),
            Column(name: "flag", storage: .bool(flags), validity: validity()),
            Column(name: "word", storage: .string(StringStorage(codes: codes, dictionary: words)), validity: validity()),
            Column(name: "many", storage: .string(StringStorage(codes: many, dictionary: (0..<300).map { "v\(($0 * 7919) % 300)" })), validity: validity()),
        ]
    }

    /// The way of any column: its values' set (-0 with 0, NaN with NaN, as grouping has them)
    /// and the comparator's first least and greatest rows.
    static func reference(_ c: Column) -> (distinct: Int, extremes: (lo: Int, hi: Int)?) {
        var seen = Set<String>()
        for i in 0..<c.count where c.isValid(i) {
            if case .double(let a) = c.storage {
                seen.insert(a[i].isNaN ? "nan" : a[i] == 0 ? "0" : "\(a[i])")
            } else {
                seen.insert("\(c.value(at: i))")
            }
        }
        let valid = (0..<c.count).filter { c.isValid($0) }
        guard !valid.isEmpty else { return (seen.count, nil) }
        let cmp = Sorting.comparator(c)
        var lo = valid[0], hi = valid[0]
        for i in valid { if cmp(i, lo) < 0 { lo = i }; if cmp(i, hi) > 0 { hi = i } }
        return (seen.count, (lo, hi))
    }

    @Test(arguments: [(0, false), (1, true), (3, true), (2_000, false), (2_000, true), (70_001, true)])
    func countsAndExtremesAreTheWayOfAnyColumn(rows: Int, nulls: Bool) throws {
        for seed in [UInt64(1), 2, 3] {
            let columns = Self.columns(rows: rows, seed: seed, nulls: nulls)
            for c in columns {
                let (distinct, extremes) = Self.reference(c)
                #expect(Describe.distinctValues(c) == distinct, "\(c.name), \(rows) rows, seed \(seed)")
                let fast = Describe.extremes(of: c)
                #expect(fast?.lo == extremes?.lo && fast?.hi == extremes?.hi,
                        "\(c.name), \(rows) rows, seed \(seed): \(String(describing: fast)) against \(String(describing: extremes))")
            }
            // The whole table, its columns on the cores, says the same.
            var t = Table(name: "t", columns: columns, zone: .utc)
            t.rowCount = rows
            let d = Describe.table(for: t)
            let counts = d.columns.first { $0.name == "distinct" }
            for (k, c) in columns.enumerated() {
                #expect(counts?.value(at: k) == .int(Int64(Self.reference(c).distinct)), "\(c.name)")
            }
        }
    }
}
