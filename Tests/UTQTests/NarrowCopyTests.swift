import Foundation
import Testing
@testable import UTQCore

/// A join's right columns gathered at random from copies in 32 bits (NarrowCopy): numbers as
/// whole numbers over a power of ten (ScaledDoubles), whole numbers and times as steps from the
/// least (OffsetInts). Every value gathered must be the column's own to the bit, and a column
/// whose values do not allow a copy must not get one.
@Suite struct NarrowCopyTests {
    /// Decimals as a CSV reader makes them: the text's value rounded once to a double.
    static func decimals(_ n: Int, places: Int, seed: UInt64, digits most: Int64 = 1_000_000_000) -> [Double] {
        var s = seed
        return (0..<n).map { _ in
            s = s &* 6364136223846793005 &+ 1442695040888963407
            let digits = Int64(s >> 33) % (2 * most) - most
            let text = places == 0 ? "\(digits)" : String(format: "%.\(places)f", Double(digits) / pow(10, Double(places)))
            return Double(text)!
        }
    }

    @Test(arguments: [0, 2, 5, 7])
    func everyValueComesBackToTheBit(places: Int) throws {
        // One value of a place more than the rest, where the sample of places does not look.
        let more = Double("0." + String(repeating: "0", count: places) + "5")!
        let a = Self.decimals(50_000, places: places, seed: UInt64(places) + 1, digits: 100_000_000) + [0, 1, -1, more]
        let made = ScaledDoubles.make(a, parts: 2)
        let copy = try #require(made, "decimals of \(places) places were not scaled")
        let divisor = (0...places).reduce(1.0) { x, _ in x * 10 }
        #expect(copy.divisor == divisor, "not the places of the value with most")
        let column = Column(name: "v", storage: .double(a))
        let keys = (0..<120_000).map { Int64(($0 &* 7919) % a.count) + 9 }
        guard case .double(let got) = copy.gather(column, keys: keys, low: 9, parts: 2).storage else { Issue.record("not numbers"); return }
        let wrong = zip(keys, got).filter { a[Int($0.0 - 9)].bitPattern != $0.1.bitPattern }.count
        #expect(wrong == 0, "\(wrong) values gathered at keys differ from the column's")
    }

    /// In the order given (a join's right rows by key), and at row numbers where -1 is a null.
    @Test func inTheOrderGivenAndAtRows() throws {
        let a = Self.decimals(40_000, places: 2, seed: 7)
        let order = (0..<a.count).map { Int32(($0 &* 104_729) % a.count) }
        let copy = try #require(ScaledDoubles.make(a, order: order, parts: 2))
        let rows: [Int32] = (0..<100_000).map { $0 % 17 == 3 ? -1 : Int32(($0 &* 31) % a.count) }
        let column = Column(name: "price", storage: .double(a), unit: .automatic)
        let got = copy.gather(column, rows: rows, parts: 2)
        let expected = Column(name: "price", storage: .double(order.map { a[Int($0)] })).gather(rows, parts: 2)
        #expect(got.name == "price" && got.count == rows.count)
        #expect(got.nullCount == rows.filter { $0 < 0 }.count)
        let same = (0..<rows.count).allSatisfy { i in
            got.isValid(i) == expected.isValid(i) && (!got.isValid(i) || got.value(at: i) == expected.value(at: i))
        }
        #expect(same, "a value gathered at a row differs from the column gathered in that order")
    }

    /// One value that is not a short decimal anywhere in the column, even where the sample
    /// of places does not look, leaves the column as doubles; so does a whole number whose
    /// digits would not fit in 32 bits with the others' places (2e9 in hundredths).
    @Test(arguments: [1.0 / 3, .nan, .infinity, -0.0, 3e9, 2e9, 1e-10, 0.1 + 0.2])
    func aValueNotAShortDecimalLeavesTheColumn(_ odd: Double) {
        var a = Self.decimals(100_000, places: 3, seed: 11, digits: 1_000_000)
        let before = ScaledDoubles.make(a, parts: 2) != nil
        #expect(before)
        a[a.count / 2 + 1] = odd
        let scaled = ScaledDoubles.make(a, parts: 2) != nil
        #expect(!scaled, "\(odd) was scaled")
        let order = (0..<a.count).map { Int32(a.count - 1 - $0) }
        let scaledInOrder = ScaledDoubles.make(a, order: order, parts: 2) != nil
        #expect(!scaledInOrder, "\(odd) was scaled in an order")
    }

    @Test func madeOnlyPastTheCacheAndReadManyTimes() {
        let past = NarrowCopy.fewestValues
        #expect(NarrowCopy.worthMaking(values: past, reads: 10 * past))
        #expect(!NarrowCopy.worthMaking(values: past - 1, reads: 10 * past))
        #expect(!NarrowCopy.worthMaking(values: past, reads: past))
        let column = Column(name: "v", storage: .double(Self.decimals(past, places: 2, seed: 5, digits: 100_000)))
        #expect(NarrowCopy.make(column, order: nil, reads: 3 * past, parts: 2) != nil)
        #expect(NarrowCopy.make(column, order: nil, reads: past, parts: 2) == nil)
        var nulls = Bitmap(count: past, value: true)
        nulls[7] = false
        #expect(NarrowCopy.make(Column(name: "v", storage: column.storage, validity: nulls), order: nil, reads: 3 * past, parts: 2) == nil,
                "a column with nulls was copied")
    }

    /// Whole numbers, times and durations: each gathered value the column's own, the kind and
    /// display unit kept, the coarsest step their values all land on.
    @Test func wholeNumbersAndTimesComeBackAsTheyWere() throws {
        let n = 60_000
        let second: Int64 = 1_000_000
        let cases: [(Column, Int64)] = [
            (Column(name: "id", storage: .int((0..<n).map { Int64(($0 &* 7919) % n) * 7 - 123_456 })), 1),
            // Whole seconds over 30 years, from a time before 1970.
            (Column(name: "at", storage: .timestamp((0..<n).map { -86_400 * second + Int64(($0 &* 104_729) % n) * 15_778 * second })), second),
            (Column(name: "ms", storage: .duration((0..<n).map { Int64($0 % 977) * 1_000 + 5_000 })), 1_000),
            // Microseconds over an hour (one of them off the millisecond, past the sample).
            (Column(name: "us", storage: .timestamp((0..<n).map { Int64($0) * 60_000 + ($0 == 40_001 ? 1 : 0) })), 1),
        ]
        let order = (0..<n).map { Int32(($0 &* 31_337) % n) }
        for (column, unit) in cases {
            for order in [nil, order] {
                let copy = try #require(OffsetInts.make(column, order: order, parts: 2), "\(column.name) was not copied")
                #expect(copy.unit == unit, "\(column.name): steps of \(copy.unit)")
                let rows: [Int32] = (0..<90_000).map { $0 % 13 == 5 ? -1 : Int32(($0 &* 17) % n) }
                let got = copy.gather(column, rows: rows, parts: 2)
                let ordered = order.map { column.gather($0) } ?? column
                let expected = ordered.gather(rows)
                #expect(got.type == column.type && got.unit == column.unit && got.nullCount == expected.nullCount)
                let same = (0..<rows.count).allSatisfy { got.value(at: $0) == expected.value(at: $0) }
                #expect(same, "\(column.name): a value gathered differs from the column's")
                let keys = (0..<50_000).map { Int64(($0 &* 7) % n) + 3 }
                let atKeys = copy.gather(column, keys: keys, low: 3, parts: 2)
                let sameAtKeys = keys.indices.allSatisfy { atKeys.value(at: $0) == ordered.value(at: Int(keys[$0] - 3)) }
                #expect(sameAtKeys, "\(column.name): a value gathered at keys differs from the column's")
            }
        }
    }

    /// Values spread over more than 2^32 steps of the finest unit they land on get no copy.
    @Test func aSpanPastThirtyTwoBitsGetsNoCopy() {
        let wide = Column(name: "id", storage: .int([0, 5, Int64(UInt32.max) + 1, 9]))
        #expect(OffsetInts.make(wide, parts: 2) == nil)
        let fits = Column(name: "id", storage: .int([0, 5, Int64(UInt32.max), 9]))
        #expect(OffsetInts.make(fits, parts: 2)?.unit == 1)
        let extremes = Column(name: "id", storage: .int([.min, .max]))
        #expect(OffsetInts.make(extremes, parts: 2) == nil)
        // Whole seconds over a century fit; with one microsecond off the second they do not.
        let century: Int64 = 100 * 365 * 86_400 * 1_000_000
        #expect(OffsetInts.make(Column(name: "t", storage: .timestamp([0, century])), parts: 2)?.unit == 1_000_000)
        #expect(OffsetInts.make(Column(name: "t", storage: .timestamp([0, century + 1])), parts: 2) == nil)
    }

    /// A lookup join whose right side is past the cache gives each left row its right row's
    /// number: a left join with keys missing on the right, and one where every key is found.
    @Test func aJoinPastTheCacheGivesTheRightValues() throws {
        let n = NarrowCopy.fewestValues + 1_000
        let prices = Self.decimals(n, places: 2, seed: 3, digits: 100_000)
        let ids = (0..<n).map { Int64(($0 &* 7919) % n) }  // every id once, scattered
        let rightPrices = ids.map { prices[Int($0)] }       // the price of id k is prices[k]
        let leftCount = 3 * n
        let leftIds = (0..<leftCount).map { Int64(($0 &* 104_729) % (n + 300)) }  // some past the last id
        let s = makeSession()
        s.workspace.put([
            Table(name: "fares", columns: [Column(name: "id", storage: .int(ids)), Column(name: "price", storage: .double(rightPrices)),
                                           Column(name: "since", storage: .timestamp(ids.map { 1_600_000_000_000_000 + $0 * 3_000_000 })),
                                           Column(name: "zone", storage: .int(ids.map { $0 % 1_000 - 500 }))]),
            Table(name: "visits", columns: [Column(name: "id", storage: .int(leftIds))]),
        ], makeCurrent: false)
        let copied = ScaledDoubles.make(rightPrices, parts: 2) != nil
        #expect(copied && NarrowCopy.worthMaking(values: n, reads: leftCount), "the join would not read a copy")
        for (kind, keys) in [("left join", leftIds), ("join", leftIds.filter { $0 < n })] {
            let text = kind == "join" ? "visits | where id < \(n) | join fares on id" : "visits | left join fares on id"
            let t = try s.table(text)
            let got = try #require(t.column("fares.price") ?? t.column("price"), "no price in \(t.columns.map(\.name))")
            let since = try #require(t.column("fares.since") ?? t.column("since")), zone = try #require(t.column("fares.zone") ?? t.column("zone"))
            #expect(got.count == keys.count && since.type == .timestamp)
            let wrong = keys.indices.filter { i in
                keys[i] < n ? got.value(at: i) != .double(prices[Int(keys[i])])
                    || since.value(at: i) != .timestamp(1_600_000_000_000_000 + keys[i] * 3_000_000)
                    || zone.value(at: i) != .int(keys[i] % 1_000 - 500)
                    : got.isValid(i) || since.isValid(i) || zone.isValid(i)
            }.count
            #expect(wrong == 0, "\(kind): \(wrong) rows with another price, time or zone than their id's")
        }
    }
}
