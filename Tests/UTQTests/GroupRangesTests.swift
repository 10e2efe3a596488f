import Foundation
import Testing
@testable import UTQCore

/// GroupRanges scatters each row's (group, value) by range of groups, rows in their order
/// within a range, the valid rows only; batches of pairs are held per range and written out
/// together. Every range must hold exactly the pairs a stable pass in row order gives, for row
/// counts and validity that leave every size of batch unwritten at the end.
@Suite struct GroupRangesTests {
    @Test(arguments: [300_000, 300_017, 262_144 + 5])
    func rangesHoldTheRowsInOrder(_ n: Int) {
        let groups = 200_003
        var state: UInt64 = UInt64(n)
        var groupOf = [Int32](repeating: 0, count: n)
        var valid = Bitmap(count: n, value: true)
        for i in 0..<n {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            groupOf[i] = Int32(truncatingIfNeeded: (state >> 33) % UInt64(groups))
            if state >> 60 == 0 { valid[i] = false }
        }
        let values = (0..<n).map { Double($0) }
        for validity in [nil, valid] {
            let ranges = values.withUnsafeBufferPointer { v in
                groupOf.withUnsafeBufferPointer { g in GroupRanges(v, groupOf: g, valid: validity, rows: n, groups: groups) }
            }
            let shift = GroupRanges<Double>.shift
            var expected = [[(UInt32, Double)]](repeating: [], count: ranges.parts)
            for i in 0..<n where validity?[i] ?? true { expected[Int(groupOf[i]) >> shift].append((UInt32(groupOf[i]), values[i])) }
            var wrong = 0
            for r in 0..<ranges.parts {
                let span = ranges.starts[r]..<ranges.starts[r + 1]
                let got = zip(ranges.groupOf[span], ranges.values[span]).map { ($0, $1) }
                if got.count != expected[r].count || !zip(got, expected[r]).allSatisfy({ $0.0 == $1.0 && $0.1 == $1.1 }) { wrong += 1 }
            }
            #expect(wrong == 0, "\(wrong) of \(ranges.parts) ranges differ (\(validity == nil ? "no nulls" : "nulls"))")
            #expect(ranges.starts.last == expected.reduce(0) { $0 + $1.count })
        }
    }
}
