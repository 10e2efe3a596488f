import Foundation
import Testing
@testable import UTQCore

/// `let z = x * 2 + y | sum z` over a million rows and more: the sum is added as the
/// arithmetic is worked out, with no column written, and is the same number to the last bit
/// as the sum of the column the let writes.
@Suite struct SummaryOfLetTests {
    /// 1,200,003 rows (a part per core, chunks that do not divide the rows): pairs of rows
    /// that nearly cancel (about 10^19, then its negative plus a little), so the sum is the
    /// small remainders, which a row left out or added twice changes entirely.
    static let session: Session = {
        var text = "x,y,k\n"
        var state: UInt64 = 0x9E3779B97F4A7C15
        var a = 0.0
        for i in 0..<1_200_003 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let x: Double
            if i % 2 == 0 { a = Double(state >> 11) * 1e4 + 0.5; x = a } else { x = -a + (Double(state >> 54) - 511.5) * 0.125 }
            text += "\(x),\(Double(i % 977) * 0.37 - 150.25),\(i % 3)\n"
        }
        let s = makeSession()
        _ = try! s.table("load \(try! temporaryFile("fused.csv", text)) as t; t | limit 1")
        return s
    }()

    static func value(_ t: Table, _ name: String) -> Double? {
        guard let c = t.columns.first(where: { $0.name == name }), case .double(let d) = c.storage, d.count == 1 else { return nil }
        return d[0]
    }

    @Test func theSumOfALetIsTheSumOfItsColumnToTheBit() throws {
        let s = Self.session
        // `select z` between them keeps the let's column: the sum of the written column.
        for expr in ["x * 2 + y", "x * y - x", "(x + y) * (x - 3)"] {
            let fused = try #require(Self.value(try s.table("t | let z = \(expr) | sum z, count"), "sum_z"))
            let written = try #require(Self.value(try s.table("t | let z = \(expr) | select z | sum z"), "sum_z"))
            #expect(fused.bitPattern == written.bitPattern, "\(expr): \(fused) against \(written)")
        }
    }

    @Test func theProgramsSumIsParallelSumOfItsColumn() throws {
        let s = Self.session
        let table = try s.table("t")
        let plan = try s.plan("t | let z = x * 3 - y * x + 1 | sum z")
        let project = try #require(plan.as(AggregateNode.self)?.input.as(ProjectNode.self))
        let program = try #require(FusedArithmetic.compile(project.items.last!.expr, table: table))
        let n = table.rowCount
        let column = program.run(n)
        let expected = parallelSum(column, nil, n).0.value
        #expect(program.sum(n, workers: Workers.available).value.bitPattern == expected.bitPattern)
    }

    /// The summary reads the let's arithmetic where that is the same work, and only there.
    @Test func onlyASumOfArithmeticOfTheWholeTable() throws {
        let s = Self.session
        func taken(_ text: String) throws -> Bool { SummaryOfLet.over(try s.plan(text)) != nil }
        #expect(try taken("t | let z = x * 2 + y | sum z"))
        #expect(try taken("t | let z = x * 2 + y | sum z, avg x, count"))
        #expect(try !taken("t | let z = x * 2 + y | sum z by k"), "by groups")
        #expect(try !taken("t | let z = x / y | sum z"), "a division may make nulls")
        #expect(try !taken("t | let z = x * 2 + y | avg z"), "a mean keeps its own state")
        #expect(try !taken("t | let z = x * 2 + y | sum x"), "no arithmetic summed")
        #expect(try !taken("t | let z = abs(x) | sum z, sum x"))
    }
}
