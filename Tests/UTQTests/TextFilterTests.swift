import Foundation
import Testing
@testable import UTQCore

/// A text column compared with a text constant in a `where` goes from the codes straight to
/// the rows kept (Comparison.kept): the same rows as comparing each row and keeping the true
/// ones, for every comparison, either side, nulls never kept.
@Suite struct TextFilterTests {
    @Test func textAgainstAConstantKeepsTheRowsTheGeneralWayKeeps() throws {
        let values = ["Bike", "bike", "BIKE", "Walking", "Line 2", "Line 10", "", "Café", "Cafe", "Zebra"]
        var codes: [UInt32] = []
        var valid = Bitmap()
        let rows = 10_037  // not a whole number of words
        for i in 0..<rows {
            codes.append(UInt32((i &* 7) % values.count))
            valid.append(i % 13 != 4)
        }
        let column = Column(name: "legend", storage: .string(StringStorage(codes: codes, dictionary: values)), validity: valid)
        let table = Table(name: "t", columns: [column])
        let ev = Evaluator(table: table)
        let field = Field(name: "legend", type: .string)
        var checked = 0
        for op: BinaryOp in [.equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual] {
            for key in ["Bike", "bike", "Line 3", "Café", "", "Aardvark", "absent"] {
                for flipped in [false, true] {
                    let (l, r): (BoundExpr, BoundExpr) = (.column(0, field), .literal(.string(key), .string))
                    let expr = BoundExpr.binary(op, flipped ? r : l, flipped ? l : r, .bool)
                    let fast = try ev.selection(expr)
                    let general = Evaluator.kept(try ev.eval(expr), rows: rows).setIndices()
                    #expect(fast == general, "legend \(op) \(key), flipped \(flipped)")
                    #expect(try ev.kept(expr).setIndices() == general)
                    // Truths taken row by row from the values, nulls never kept.
                    let byRow = (0..<rows).filter { i in
                        valid[i] && Comparison.holds(op, flipped ? Comparison.compareText(key, values[Int(codes[i])]) : Comparison.compareText(values[Int(codes[i])], key))
                    }.map { Int32($0) }
                    #expect(fast == byRow, "legend \(op) \(key), flipped \(flipped): \(fast.count) rows against \(byRow.count)")
                    checked += fast.count
                }
            }
        }
        #expect(checked > 100_000)
    }
}
