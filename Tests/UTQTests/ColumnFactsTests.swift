import Foundation
import Testing
@testable import UTQCore

/// The least and greatest of a whole-number column are found once and kept while its values
/// stay (ColumnFacts): copies share them, new values forget them, and a question that uses
/// kept bounds answers as one that finds them again.
@Suite struct ColumnFactsTests {
    static func ids(_ values: [Int64]) -> Column { Column(name: "k", storage: .int(values)) }

    @Test func boundsAreKeptByCopiesAndForgottenWithNewValues() {
        var c = Self.ids([5, -3, 12, 7])
        #expect(c.facts.knownBounds == nil)
        #expect(c.intBounds! == (-3, 12))
        let copy = c
        #expect(copy.facts.knownBounds! == (-3, 12), "a copy of the column knows what the column found")
        c.storage = .int([100, 200])
        #expect(c.facts.knownBounds == nil, "new values keep the old values' bounds")
        #expect(c.intBounds! == (100, 200))
        #expect(copy.intBounds! == (-3, 12))
        var renamed = copy
        renamed.name = "id"
        #expect(renamed.facts.knownBounds! == (-3, 12), "a new name is the same values")
        #expect(Column(name: "s", storage: .double([1, 2])).intBounds == nil)
    }

    /// Counting by ids whose values changed after their bounds were found: kept bounds of the
    /// old values would put the counts at the old keys (or past the table's end).
    @Test func countingByIdsAfterTheValuesChangedUsesTheNewBounds() throws {
        var c = Self.ids((0..<200_000).map { Int64($0 % 50_000) })
        _ = c.intBounds
        c.storage = .int((0..<200_000).map { Int64($0 % 50_000) + 1_000_000 })
        let table = Table(name: "t", columns: [c])
        let counting = try #require(CountByIds(keys: [NamedExpr(name: "k", expr: .column(0, Field(c)))], table: table))
        let columns = try counting.run(counts: ["count"], cancel: nil)
        guard case .int(let keys) = columns[0].storage, case .int(let counts) = columns[1].storage else {
            Issue.record("counts are whole numbers")
            return
        }
        #expect(keys.count == 50_000)
        #expect(keys.first == 1_000_000 && keys.last == 1_049_999)
        #expect(counts.allSatisfy { $0 == 4 })
    }

    /// Joins on ids whose right keys fill their span, asked again once the left keys' bounds
    /// are kept (the first join finds them): all left keys within the right's span (each key
    /// less the least is its right row), or some outside it.
    @Test func joinsAnswerTheSameWithTheLeftBoundsKnown() throws {
        let n = 300_000
        var left = "k\n", all = "k,v\n", half = "k,v\n"
        for i in 0..<n { left += "\((i * 7919) % 100_000 + 1)\n" }
        for k in 1...100_000 {
            all += "\(k),\(k % 7)\n"
            if k <= 50_000 { half += "\(k),\(k % 7)\n" }
        }
        let s = makeSession()
        _ = try s.table("load \(try temporaryFile("facts-left.csv", left)) as a; a | limit 1")
        _ = try s.table("load \(try temporaryFile("facts-all.csv", all)) as b; b | limit 1")
        _ = try s.table("load \(try temporaryFile("facts-half.csv", half)) as h; h | limit 1")
        func answer(_ q: String) throws -> [String] {
            let t = try s.table(q)
            return t.columns.map { t.strings($0.name).joined(separator: ",") }
        }
        let before = try [answer("a | join b on k | sum v"), answer("a | join h on k | count"), answer("a | join h on k | sum v")]
        let known = try #require(s.catalog.table("a")).columns[0].facts.knownBounds
        #expect(known.map { $0 == (1, 100_000) } == true, "the join kept the left keys' bounds")
        let after = try [answer("a | join b on k | sum v"), answer("a | join h on k | count"), answer("a | join h on k | sum v")]
        #expect(before == after)
        var sum = 0, inHalf = 0
        for i in 0..<n {
            let k = (i * 7919) % 100_000 + 1
            sum += k % 7
            if k <= 50_000 { inHalf += 1 }
        }
        #expect(after[0] == [String(sum)])
        #expect(after[1] == [String(inHalf)], "left keys past the right's span find no row")
    }
}
