import Testing
@testable import UTQCore

/// Past a million rows each radix pass runs on every core (stretches counted and scattered
/// apart): the order must be the one a stable sort gives, ties in row order.
@Suite struct LargeSortTests {
    @Test func aSortOfMillionsIsStableOnEveryKey() throws {
        let n = (1 << 20) + 12_345
        let a = (0..<n).map { Int64($0 &* 7919 % 1000) - 500 }      // many ties, negatives too
        let b = (0..<n).map { Double($0 &* 104_729 % 65_536) / 8 }  // a second key within them
        let columns = [Column(name: "a", storage: .int(a)), Column(name: "b", storage: .double(b))]
        let order = try Sorting.order(columns, descending: [false, true], count: n, cancel: nil)
        #expect(order.count == n)
        var seen = [Bool](repeating: false, count: n)
        var wrong = 0
        for k in 0..<n {
            let r = Int(order[k])
            if seen[r] { wrong += 1 }
            seen[r] = true
            guard k > 0 else { continue }
            let p = Int(order[k - 1])
            // a ascending, then b descending, then the rows' own order.
            let inOrder = a[p] < a[r] || (a[p] == a[r] && (b[p] > b[r] || (b[p] == b[r] && p < r)))
            if !inOrder { wrong += 1 }
        }
        #expect(wrong == 0)
    }
}
