import Foundation
import Testing
@testable import UTQCore

/// A lookup join on whole-number ids (JoinKeys.lookup): the right side's keys written into a
/// table indexed by the key on the cores, each left row's right row read from it. Rows enough
/// for every core to take a part, keys scattered over the parts.
@Suite struct JoinLookupTests {
    static let rightCount = 300_000

    /// Right keys: a scattered permutation of 0, 3, 6, … shifted by -7,000 (row j has key of j).
    static func rightKey(_ j: Int) -> Int64 { Int64((j &* 7919) % rightCount) * 3 - 7_000 }

    /// Left keys over the right's span and past both ends of it.
    static let left: [Int64] = (0..<400_000).map { i in Int64((i &* 104_729) % 1_000_000) - 50_000 }

    /// Each left row's right row, found by a dictionary.
    static func expected(_ y: [Int64], _ yValid: Bitmap?) -> [Int32] {
        var rowOf: [Int64: Int32] = [:]
        for (j, k) in y.enumerated() where yValid?[j] ?? true { rowOf[k] = Int32(j) }
        return left.map { rowOf[$0] ?? -1 }
    }

    /// Each left row's row of the right table as it is: through the order the lookup put the
    /// right rows in, when it gave one. The count of rows without one must agree.
    static func rightRows(_ found: JoinKeys.Lookup) -> [Int32] {
        let positions = found.keys.map { keys in keys.values.map { Int32($0 - keys.low) } } ?? found.rows
        #expect(found.keys == nil || (found.rows.isEmpty && found.order != nil))
        let rows = found.order.map { order in positions.map { $0 < 0 ? -1 : order[Int($0)] } } ?? positions
        #expect(found.misses == rows.filter { $0 < 0 }.count, "the rows without a match were miscounted")
        return rows
    }

    @Test func findsEachLeftRowsRightRow() throws {
        let y = (0..<Self.rightCount).map(Self.rightKey)
        let found = try #require(JoinKeys.lookup(Self.left, nil, y, nil, leftCount: Self.left.count, rightCount: y.count))
        #expect(found.order == nil, "keys with gaps between them are not a span filled")
        let rows = Self.rightRows(found)
        let expected = Self.expected(y, nil)
        let same = rows == expected
        #expect(same, "a left row found another right row than its key's")
        #expect(expected.contains(-1) && expected.contains { $0 >= 0 })
    }

    @Test func nullsOnEitherSideFindNothing() throws {
        let y = (0..<Self.rightCount).map(Self.rightKey)
        var yValid = Bitmap(count: y.count, value: true), xValid = Bitmap(count: Self.left.count, value: true)
        for j in stride(from: 3, to: y.count, by: 11) { yValid[j] = false }
        for i in stride(from: 5, to: Self.left.count, by: 13) { xValid[i] = false }
        let rows = Self.rightRows(try #require(JoinKeys.lookup(Self.left, xValid, y, yValid, leftCount: Self.left.count, rightCount: y.count)))
        var expected = Self.expected(y, yValid)
        for i in expected.indices where !xValid[i] { expected[i] = -1 }
        let same = rows == expected
        #expect(same, "a left row found another right row than its key's")
    }

    /// Right keys that fill their span (each of -7,000 ..< 293,000 once, scattered): the right
    /// rows come put in the keys' order, and a left row's position there is its key's.
    /// Right keys that each of -7,000 ..< 293,000 once, scattered.
    static let filled = (0..<rightCount).map { j in Int64((j &* 7919) % rightCount) - 7_000 }
    /// Left keys all among them.
    static let within = left.map { ($0 + 50_000) % Int64(rightCount) - 7_000 }

    @Test(arguments: [false, true])
    func keysFillingTheirSpanPutTheRightRowsInOrder(_ allMatch: Bool) throws {
        let y = Self.filled, x = allMatch ? Self.within : Self.left
        var xValid = Bitmap(count: x.count, value: true)
        for i in stride(from: 5, to: x.count, by: 13) { xValid[i] = false }
        for valid in [nil, xValid] {
            let found = try #require(JoinKeys.lookup(x, valid, y, nil, leftCount: x.count, rightCount: y.count))
            let order = try #require(found.order, "a filled span of keys gives the rows in order")
            #expect(order.map { y[Int($0)] } == Array(-7_000..<Int64(Self.rightCount - 7_000)))
            // Every left row matching and none null: the keys are the rows.
            #expect((found.keys != nil) == (allMatch && valid == nil))
            var rowOf: [Int64: Int32] = [:]
            for (j, k) in y.enumerated() { rowOf[k] = Int32(j) }
            var expected = x.map { rowOf[$0] ?? -1 }
            if let valid { for i in expected.indices where !valid[i] { expected[i] = -1 } }
            let same = Self.rightRows(found) == expected
            #expect(same, "a left row found another right row than its key's")
        }
    }

    /// A column gathered at keys less the least is the column gathered at those rows, for
    /// every kind of storage, with nulls and without.
    @Test func gatheringAtKeysIsGatheringAtTheirRows() {
        let n = 2_000_000, keys = (0..<n).map { Int64(($0 &* 7919) % 1_000) + 500 }
        let rows = keys.map { Int32($0 - 500) }
        var valid = Bitmap(count: 1_000, value: true)
        for j in stride(from: 3, to: 1_000, by: 7) { valid[j] = false }
        let columns: [Column] = [
            Column(name: "i", storage: .int((0..<1_000).map { Int64($0 * 3) }), validity: valid),
            Column(name: "d", storage: .double((0..<1_000).map { Double($0) / 4 })),
            Column(name: "b", storage: .bool((0..<1_000).map { $0 % 3 == 0 })),
            Column(name: "s", storage: .string(StringStorage(codes: (0..<1_000).map { UInt32($0 % 17) }, dictionary: (0..<17).map { "s\($0)" })), validity: valid),
            Column(name: "t", storage: .timestamp((0..<1_000).map { Int64($0) * 60_000_000 })),
        ]
        for c in columns {
            let a = c.gather(keys: keys, low: 500, parts: 2), b = c.gather(rows, parts: 2)
            #expect(a.count == n)
            let same = (0..<n).allSatisfy { a.value(at: $0) == b.value(at: $0) }
            #expect(same, "column \(c.name) differs gathered at keys")
        }
    }

    /// The right keys with one that a left row has written twice, in different cores' parts.
    static func rightKeys(repeated: Bool) -> [Int64] {
        var y = (0..<rightCount).map(rightKey)
        guard repeated else { return y }
        let present = Set(y)
        let k = left.first(where: present.contains)!
        let a = y.firstIndex(of: k)!
        y[a < rightCount / 2 ? rightCount - 10 : 10] = k
        return y
    }

    @Test func aKeyTwiceOnTheRightIsNoLookup() {
        let y = Self.rightKeys(repeated: true)
        let found = JoinKeys.lookup(Self.left, nil, y, nil, leftCount: Self.left.count, rightCount: y.count) != nil
        #expect(!found)
        // Both rows in the first core's part, and with nulls on the right.
        var near = (0..<Self.rightCount).map(Self.rightKey)
        near[20] = near[10]
        let yValid = Bitmap(count: near.count, value: true)
        let foundNear = JoinKeys.lookup(Self.left, nil, near, yValid, leftCount: Self.left.count, rightCount: near.count) != nil
        #expect(!foundNear)
    }

    /// The same through the language: inner and left joins; right keys with gaps, repeated
    /// once across the parts, filling their span, and filling it with every left key among
    /// them. Each case writes files of its own (the cases run at once).
    @Test(arguments: ["gaps", "repeated", "filled", "filled, every left key among them"])
    func joinsAnswerAsPairsCountedInSwift(_ keys: String) throws {
        let s = makeSession()
        do {
            let y = keys.hasPrefix("filled") ? Self.filled : Self.rightKeys(repeated: keys == "repeated")
            let leftKeys = keys.hasSuffix("among them") ? Self.within : Self.left
            let tag = keys.filter(\.isLetter)
            var right = "k,w\n", left = "k\n"
            for (j, k) in y.enumerated() { right += "\(k),\(j)\n" }
            for k in leftKeys { left += "\(k)\n" }
            _ = try s.table("load \(try temporaryFile("lookup-right-\(tag).csv", right)) as r; load \(try temporaryFile("lookup-left-\(tag).csv", left)) as l; r | limit 1")
            var rowsOf: [Int64: [Int]] = [:]
            for (j, k) in y.enumerated() { rowsOf[k, default: []].append(j) }
            var pairs = 0, sum = 0, unmatched = 0
            for k in leftKeys {
                if let js = rowsOf[k] { pairs += js.count; sum += js.reduce(0, +) } else { unmatched += 1 }
            }
            let inner = try s.table("l | join r on k | count as n, sum w as w")
            #expect(inner.strings("n") == [String(pairs)])
            #expect(inner.strings("w") == [String(sum)])
            let kept = try s.table("l | left join r on k | count as n, count w as matched")
            #expect(kept.strings("n") == [String(pairs + unmatched)])
            #expect(kept.strings("matched") == [String(pairs)])
        }
    }
}
