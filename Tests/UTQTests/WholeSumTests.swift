import Foundation
import Testing
@testable import UTQCore

/// The sum and mean of a whole-number column over the whole table, its rows split across the
/// cores (parallelWholeSum): exact in 128 bits, so the same as adding row by row, whatever
/// the parts; a sum past 64 bits refused as before.
@Suite struct WholeSumTests {
    static let rows = (1 << 20) + 77  // past the parallel way's threshold, not a whole word

    /// Values and nulls that mix whole words of each with words of both.
    static func column(seed: UInt64) -> ([Int64], Bitmap) {
        var state = seed
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 11 }
        var values: [Int64] = [], valid = Bitmap()
        for i in 0..<rows {
            values.append(Int64(bitPattern: next() << 11) >> 20)  // about ±2^43
            let word = i >> 6
            valid.append(word % 5 == 0 ? true : word % 5 == 1 ? false : next() % 3 != 0)
        }
        return (values, valid)
    }

    @Test func partsAddUpToTheRowByRowSum() {
        for seed: UInt64 in [1, 2, 3] {
            let (values, valid) = Self.column(seed: seed)
            var expected: Int128 = 0, count = 0
            for i in 0..<Self.rows where valid[i] { expected += Int128(values[i]); count += 1 }
            let (sum, rows) = parallelWholeSum(values, valid, Self.rows)
            #expect(sum == expected && rows == count, "seed \(seed)")
            let all = parallelWholeSum(values, nil, Self.rows)
            #expect(all.sum == values.reduce(Int128(0)) { $0 + Int128($1) } && all.count == Self.rows)
        }
    }

    @Test func sumAndAvgOverTheTableGiveTheExactAnswers() throws {
        let (values, valid) = Self.column(seed: 7)
        let table = Table(name: "t", columns: [Column(name: "w", storage: .int(values), validity: valid),
                                               Column(name: "d", storage: .duration(values.map { $0 >> 10 }), validity: valid)])
        let s = makeSession()
        s.workspace.put([table], makeCurrent: false)
        var expected: Int128 = 0, count = 0, durations: Int128 = 0
        for i in 0..<Self.rows where valid[i] { expected += Int128(values[i]); durations += Int128(values[i] >> 10); count += 1 }
        let t = try s.table("t | sum w as total, avg w as mean, sum d as spent, avg d as typical")
        #expect(t.column("total")?.value(at: 0) == .int(Int64(expected)))
        #expect(t.column("mean")?.value(at: 0) == .double(Accumulate.divide(expected, count)))
        #expect(t.column("spent")?.value(at: 0) == .duration(Int64(durations)))
        #expect(t.column("typical")?.type == .duration)
        // Every value null: no sum, no mean.
        let none = Table(name: "n", columns: [Column(name: "w", storage: .int(values), validity: Bitmap(count: Self.rows, value: false))])
        s.workspace.put([none], makeCurrent: false)
        let empty = try s.table("n | sum w as total, avg w as mean")
        #expect(empty.column("total")?.value(at: 0) == .null && empty.column("mean")?.value(at: 0) == .null)
    }

    @Test func aSumPast64BitsIsRefused() throws {
        let big = [Int64](repeating: 1 << 62, count: Self.rows)
        let s = makeSession()
        s.workspace.put([Table(name: "b", columns: [Column(name: "w", storage: .int(big))])], makeCurrent: false)
        #expect(throws: (any Error).self) { try s.table("b | sum w") }
        // The mean of the same is whole: 2^62.
        #expect(try s.table("b | avg w").columns[0].value(at: 0) == .double(Double(1 << 62)))
    }
}
