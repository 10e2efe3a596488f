import Foundation
import Testing
@testable import UTQCore

/// `where condition | count, sum x, avg y` reads the kept rows in place (SummaryInPlace): the
/// answers equal those over a copy of the kept rows (a `let` between the two steps makes the
/// copy), for conditions that keep all, none, some and null rows, over columns with nulls.
@Suite struct SummaryInPlaceTests {
    static let rows = 300_000

    /// t: value 1…300,000; b = 2 × value; f a number in tenths, empty on every eleventh row;
    /// e whether value is even, empty on multiples of 5; g empty throughout.
    static let session: Session = {
        var text = "value,b,f,e,g\n"
        for v in 1...rows {
            text += "\(v),\(v * 2),\(v % 11 == 0 ? "" : NumberText.double(Double(v % 1000) / 10 - 40)),\(v % 5 == 0 ? "" : String(v % 2 == 0)),\n"
        }
        let path = try! temporaryFile("in-place.csv", text)
        let s = makeSession()
        _ = try! s.table("load \(path) as t\nt | limit 1")
        return s
    }()

    static let summary = "count, count f, sum b, sum f, avg b, avg f, count e, sum value, min f, max f, max b, min e"

    @Test(arguments: ["e", "not e", "value % 7 = 3", "e and f > 0", "value > 1000000", "value > 0", "f > 10 or e"])
    func answersEqualThoseOverACopy(_ condition: String) throws {
        let s = Self.session
        let inPlace = try s.table("t | where \(condition) | \(Self.summary)")
        let copied = try s.table("t | where \(condition) | let copy = 1 | \(Self.summary)")
        #expect(inPlace.columns.map(\.name) == copied.columns.map(\.name))
        for c in copied.columns {
            let mine = inPlace.strings(c.name), theirs = copied.strings(c.name)
            let close = zip(mine, theirs).allSatisfy { a, b in
                a == b || (Double(a).map { x in Double(b).map { abs(x - $0) <= 1e-12 * max(1, abs($0)) } ?? false } ?? false)
            }
            #expect(close, "\(c.name) where \(condition): \(mine) in place, \(theirs) over a copy")
        }
    }

    @Test func countsAndSumsAreTheKeptRows() throws {
        let t = try Self.session.table("t | where e | count as n, count g, sum b, avg value")
        let kept = (1...Self.rows).filter { $0 % 5 != 0 && $0 % 2 == 0 }
        #expect(t.strings("n") == ["\(kept.count)"])
        #expect(t.strings("count_g") == ["0"])
        #expect(t.strings("sum_b") == ["\(kept.reduce(0) { $0 + 2 * $1 })"])
        let mean = try #require(Double(t.strings("avg_value").first ?? ""))
        #expect(abs(mean - Double(kept.reduce(0, +)) / Double(kept.count)) < 1e-9)
    }

    /// Without a `where`, every row, and no group numbered for each.
    @Test func theWholeTablesSummary() throws {
        let t = try Self.session.table("t | count, count f, sum b, min f, max f, min value, max e, count g")
        let fs = (1...Self.rows).filter { $0 % 11 != 0 }.map { Double($0 % 1000) / 10 - 40 }
        #expect(t.strings("count") == ["\(Self.rows)"] && t.strings("count_f") == ["\(fs.count)"])
        #expect(t.strings("sum_b") == ["\(Self.rows * (Self.rows + 1))"])
        #expect(t.strings("min_f") == [NumberText.double(fs.min()!)] && t.strings("max_f") == [NumberText.double(fs.max()!)])
        #expect(t.strings("min_value") == ["1"] && t.strings("max_e") == ["true"])
        #expect(t.strings("count_g") == ["0"])
    }

    @Test func appliesOnlyToPlainColumnsAndCountSumAvgMinMaxOfTheWholeTable() throws {
        let s = Self.session
        func applies(_ q: String) throws -> Bool {
            guard let node = try s.plan(q).as(AggregateNode.self) else { return false }
            return SummaryInPlace(node) != nil
        }
        #expect(try applies("t | where e | count, sum b, avg f"))
        #expect(try applies("t | where e | count f"))
        #expect(try !applies("t | count, sum b"))                        // no where
        #expect(try !applies("t | where e | sum b by value"))             // groups
        #expect(try !applies("t | where e | sum coalesce(f, 0)"))         // a dropped row would be 0
        #expect(try applies("t | where e | min b, max f"))
        #expect(try !applies("t | where e | stddev b"))
        #expect(try !applies("t | where e | count distinct b"))
    }
}

/// The sum of a column of a million rows and more, on the cores, a word of its validity at a
/// time: quarters add exactly, so each must equal the sum of its valid rows to the last bit,
/// whatever rows are valid (all, none, a mix, runs) and where the parts of the cores fall.
@Suite struct ParallelSumTests {
    @Test(arguments: ["all", "none", "random", "runs", "one"])
    func sumsTheValidRows(_ shape: String) {
        let n = (1 << 20) + 77
        let values = (0..<n).map { Double(($0 &* 7919) % 1001) / 4 - 100 }
        var state: UInt64 = 42
        var valid = Bitmap(count: n, value: shape == "all")
        for i in 0..<n {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            switch shape {
            case "random": valid[i] = state >> 62 != 0
            case "runs": valid[i] = (i / 1000) % 3 != 0
            case "one": valid[i] = i == n - 1
            default: break
            }
        }
        var expected = 0.0
        var any = false
        for i in 0..<n where valid[i] { expected += values[i]; any = true }
        let (sum, seen) = parallelSum(values, valid, n)
        #expect(sum.value == expected, "\(shape): \(sum.value) against \(expected)")
        #expect(seen == any)
        let (plain, _) = parallelSum(values, nil, n)
        #expect(plain.value == values.reduce(0, +))
    }
}
