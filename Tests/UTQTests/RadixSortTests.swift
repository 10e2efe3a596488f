import Foundation
import Testing
@testable import UTQCore

/// The radix sort and the heap for `sort … | top N` against a plain stable sort with the
/// row comparators: random columns with nulls, NaN, -0, ties, text and both directions.
@Suite struct RadixAndTopSortTests {

    func validity(_ n: Int, _ rng: inout SeededRandom) -> Bitmap? {
        if Bool.random(using: &rng) { return nil }
        var b = Bitmap()
        for _ in 0..<n { b.append(Int.random(in: 0..<5, using: &rng) != 0) }
        return b
    }

    func column(_ kind: Int, _ n: Int, _ rng: inout SeededRandom) -> Column {
        let v = validity(n, &rng)
        switch kind {
        case 0:
            let pool: [Int64] = [.min, -3, -1, 0, 1, 2, 7, .max]
            return Column(name: "i", storage: .int((0..<n).map { _ in pool.randomElement(using: &rng)! }), validity: v)
        case 1:
            let pool: [Double] = [-.infinity, -2.5, -0.0, 0.0, 1e-300, 3, .infinity, .nan, -.nan]
            return Column(name: "d", storage: .double((0..<n).map { _ in pool.randomElement(using: &rng)! }), validity: v)
        case 2:
            let dict = ["bike", "Bike", "car", "a10", "a9", "Ärø", ""]
            let codes = (0..<n).map { _ in UInt32.random(in: 0..<UInt32(dict.count), using: &rng) }
            return Column(name: "s", storage: .string(StringStorage(codes: codes, dictionary: dict)), validity: v)
        default:
            return Column(name: "b", storage: .bool((0..<n).map { _ in Bool.random(using: &rng) }), validity: v)
        }
    }

    /// What a sort must give: the comparators in order, nulls last either way, then row order.
    func reference(_ columns: [Column], _ descending: [Bool], _ n: Int) -> [Int32] {
        let cmps = columns.map { Sorting.comparator($0) }
        return (0..<Int32(n)).sorted { x, y in
            for (k, cmp) in cmps.enumerated() {
                var r = cmp(Int(x), Int(y))
                if r == 0 { continue }
                let nullInvolved = columns[k].validity.map { !$0[Int(x)] || !$0[Int(y)] } ?? false
                if descending[k] && !nullInvolved { r = -r }
                return r < 0
            }
            return x < y
        }
    }

    @Test func radixAndHeapOrdersMatchAPlainStableSort() throws {
        var rng = SeededRandom(seed: 2026)
        for round in 0..<300 {
            let n = [2, 3, 17, 200, 1500][round % 5]
            let keyCount = Int.random(in: 1...3, using: &rng)
            let columns = (0..<keyCount).map { _ in column(Int.random(in: 0..<4, using: &rng), n, &rng) }
            let descending = (0..<keyCount).map { _ in Bool.random(using: &rng) }
            let expected = reference(columns, descending, n)
            let full = try Sorting.order(columns, descending: descending, count: n)
            if full != expected {
                let at = full.indices.first { full[$0] != expected[$0] } ?? 0
                Issue.record("round \(round): full sort differs at \(at): kinds \(columns.map(\.name)) descending \(descending) nulls \(columns.map { $0.validity != nil }); rows \(full[at]) vs \(expected[at]): \(columns.map { "\($0.value(at: Int(full[at])))/\($0.value(at: Int(expected[at])))" })")
            }
            // A limit small enough to take the heap path, and one that sorts everything.
            for limit in [1, n / 10, n - 1] where limit >= 0 {
                let top = try Sorting.order(columns, descending: descending, count: n, limit: limit)
                #expect(top == Array(expected.prefix(limit)), "round \(round): limit \(limit)")
                if top != Array(expected.prefix(limit)) { break }
            }
        }
    }

    @Test func topByAColumnGivesTheLargestRowsInOrder() throws {
        let s = sessionWith(Table(name: "t", columns: [
            Column(name: "x", storage: .int((0..<1000).map { Int64(($0 * 7919) % 1000) })),
            Column(name: "k", storage: .int((0..<1000).map { Int64($0) })),
        ]))
        let top = try s.table("top 3 by x desc, k")
        #expect(top.rowCount == 3)
        let x = try #require(top.columns.first { $0.name == "x" })
        #expect((0..<3).map { x.value(at: $0) } == [.int(999), .int(998), .int(997)])
    }
}
