import Foundation
import Testing
@testable import UTQCore

/// A table's time span: the least and greatest valid time, nulls skipped, whole words of the
/// validity read as a block and the others bit by bit.
@Suite struct TimeSpanTests {
    @Test func theSpanIsTheValidValuesLeastAndGreatest() {
        var state: UInt64 = 42
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 13 }
        for rows in [0, 1, 63, 64, 65, 1_000, 4_099] {
            let values = (0..<rows).map { _ in Int64(bitPattern: next()) - (1 << 49) }
            var valid = Bitmap()
            // Whole words valid, whole words null, and words of both.
            for i in 0..<rows { valid.append((i >> 6) % 3 == 0 ? true : (i >> 6) % 3 == 1 ? false : next() % 2 == 0) }
            let kept = (0..<rows).filter { valid[$0] }.map { values[$0] }
            let expected = kept.isEmpty ? (Int64.max, Int64.min) : (kept.min()!, kept.max()!)
            #expect(Table.span(values, valid) == expected, "\(rows) rows with nulls")
            let all = values.isEmpty ? (Int64.max, Int64.min) : (values.min()!, values.max()!)
            #expect(Table.span(values, nil) == all, "\(rows) rows")
            #expect(Table.span(values, Bitmap(count: rows, value: false)) == (Int64.max, Int64.min))
        }
    }

    @Test func aTablesSpanSkipsItsNullTimes() throws {
        let times: [Int64] = [5_000, -7, 90_000, 12]
        var valid = Bitmap(count: 4, value: true)
        valid[2] = false
        var t = Table(name: "t", columns: [Column(name: "time", storage: .timestamp(times), validity: valid)])
        t.timeColumn = "time"
        #expect(t.timeRange()! == (-7, 5_000))
    }
}
