import Foundation
import Testing
@testable import UTQCore

/// Steps that keep some of their input's rows (where, sort, limit) copy only the columns the
/// steps after them read; the others stay in their places, empty. The columns they do copy
/// hold the same rows as a whole copy.
@Suite struct GatherNeededTests {
    static let rows = 400_000

    /// A table t of 400,000 rows (enough for the copies on the cores): value, b = 2 × value,
    /// c a text of 7 values, d whether value is a multiple of 3, e whether it is even, empty
    /// (null) on multiples of 5.
    static func session() throws -> Session {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gather-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var text = "value,b,c,d,e\n"
        for v in 1...rows { text += "\(v),\(v * 2),c\(v % 7),\(v % 3 == 0),\(v % 5 == 0 ? "" : String(v % 2 == 0))\n" }
        let path = dir.appendingPathComponent("t.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let s = makeSession()
        try s.table("load \(path) as t\nt | limit 1")
        try? FileManager.default.removeItem(at: dir)
        return s
    }

    @Test func gatherLeavesColumnsNoStepReadsEmpty() throws {
        let s = try Self.session()
        let t = try s.table("t")
        let rows: [Int32] = (0..<Int32(300_000)).map { ($0 &* 7919) % Int32(t.rowCount) }
        let all = t.gather(rows)
        let some = t.gather(rows, needed: ["b", "d"])
        #expect(some.columns.map(\.name) == all.columns.map(\.name))
        for (k, c) in some.columns.enumerated() {
            if ["b", "d"].contains(c.name) {
                let same = some.strings(c.name) == all.strings(c.name)
                #expect(same, "column \(c.name) differs from the whole copy's")
            } else {
                #expect(c.type == .null, "column \(c.name), which nothing reads, was copied")
            }
        }
    }

    @Test(arguments: ["t | where value % 5 = 1", "t | sort c, value desc", "t | limit 1000 offset 5"])
    func stepsCopyOnlyTheColumnsReadAfterThem(_ query: String) throws {
        let s = try Self.session()
        let plan = try s.plan(query)
        let executor = Executor(context: ExecutionContext(catalog: s.catalog))
        let whole = try executor.run(plan)
        let part = try executor.run(plan, needing: ["b"])
        #expect(part.rowCount == whole.rowCount)
        let same = part.strings("b") == whole.strings("b")
        #expect(same, "b differs from the whole copy's")
        #expect(part.column("c")?.type == .null, "c, which nothing reads, was copied")
        #expect(whole.column("c")?.type == .string)
    }

    @Test func answersOverAWhereEqualTheWholeCopysAnswers() throws {
        let s = try Self.session()
        let sum = try s.table("t | where d | sum b")
        let expected = (1...Self.rows).filter { $0 % 3 == 0 }.reduce(0) { $0 + $1 * 2 }
        #expect(sum.strings("sum_b") == ["\(expected)"])
        // A condition that is a column of true, false and null keeps the rows where it is true.
        let even = try s.table("t | where e | count as n, sum b")
        let kept = (1...Self.rows).filter { $0 % 5 != 0 && $0 % 2 == 0 }
        #expect(even.strings("n") == ["\(kept.count)"] && even.strings("sum_b") == ["\(kept.reduce(0) { $0 + 2 * $1 })"])
        let notEven = try s.table("t | where not e | count")
        #expect(notEven.strings("count") == ["\((1...Self.rows).filter { $0 % 5 != 0 && $0 % 2 == 1 }.count)"])
        let counted = try s.table("t | where value > 100 | sort b desc | limit 3 | count by c")
        #expect(counted.strings("c") == ["c4", "c5", "c6"])
    }
}
