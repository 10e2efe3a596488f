import Foundation
import Testing
@testable import UTQCore

/// Joins through key ids (text matched through the two dictionaries, numbers through one
/// hash table) give the same pairs of rows, in the same order, as joins through keys made
/// of values, on random tables with repeated keys, nulls, and values only one side has.
@Suite struct JoinKeysTests {
    static func text(_ name: String, _ values: [String?], dictionaryOrder: [String]) -> Column {
        let codes = values.map { v in UInt32(v.flatMap { dictionaryOrder.firstIndex(of: $0) } ?? 0) }
        var validity = Bitmap(count: values.count, value: true)
        for (i, v) in values.enumerated() where v == nil { validity[i] = false }
        return Column(name: name, storage: .string(StringStorage(codes: codes, dictionary: dictionaryOrder)),
                      validity: values.contains(nil) ? validity : nil)
    }

    static func ints(_ name: String, _ values: [Int64?]) -> Column {
        var validity = Bitmap(count: values.count, value: true)
        for (i, v) in values.enumerated() where v == nil { validity[i] = false }
        return Column(name: name, storage: .int(values.map { $0 ?? 0 }), validity: values.contains(nil) ? validity : nil)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func idsMatchValues(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let words = ["Bike", "Walking", "Standing", "bike", "Café", "Cafe\u{301}", "Sitting"]  // é both ways: equal text
        func pick<T>(_ xs: [T]) -> T { xs[Int(random.next() % UInt64(xs.count))] }
        let leftCount = 50 + Int(random.next() % 200), rightCount = 1 + Int(random.next() % 30)
        let leftText: [String?] = (0..<leftCount).map { _ in random.next() % 9 == 0 ? nil : pick(words) }
        let rightText: [String?] = (0..<rightCount).map { _ in random.next() % 7 == 0 ? nil : pick(Array(words.dropFirst(2)) + ["Jogging"]) }
        let leftInts: [Int64?] = (0..<leftCount).map { _ in random.next() % 11 == 0 ? nil : Int64(random.next() % 6) - 2 }
        let rightInts: [Int64?] = (0..<rightCount).map { _ in random.next() % 5 == 0 ? nil : Int64(random.next() % 6) - 2 }
        // Each side's dictionary in an order of its own.
        let lt = Self.text("k", leftText, dictionaryOrder: words.shuffled(using: &random))
        let rt = Self.text("k", rightText, dictionaryOrder: (words + ["Jogging"]).shuffled(using: &random))
        let li = Self.ints("n", leftInts), ri = Self.ints("n", rightInts)
        let left = Table(name: "l", columns: [lt, li]), right = Table(name: "r", columns: [rt, ri])
        for keys in [[0], [1], [0, 1], [1, 0]] {
            let lk = keys.map { left.columns[$0] }, rk = keys.map { right.columns[$0] }
            let ids = try #require(try JoinKeys(left: lk, right: rk, leftCount: leftCount, rightCount: rightCount, cancel: nil))
            for kind in [JoinKind.inner, .left] {
                let fast = try HashJoin.matchedRows(ids, leftCount: leftCount, kind: kind, width: 4, cancel: nil, memoryLimit: nil)
                let general = try HashJoin.matchedRows(left, right, lk, rk, ranges: [], kind: kind, width: 4,
                                                      cancel: nil, memoryLimit: nil, notes: nil)
                #expect(fast.left == general.left && fast.right == general.right, "seed \(seed) keys \(keys) \(kind)")
            }
        }
    }

    @Test func aWholeNumberMatchesTheSameDecimalThroughTheGeneralPath() throws {
        let left = Table(name: "l", columns: [Self.ints("n", [1, 2, 3])])
        let right = Table(name: "r", columns: [Column(name: "n", storage: .double([2.0, 3.5]))])
        #expect(try JoinKeys(left: left.columns, right: right.columns, leftCount: 3, rightCount: 2, cancel: nil) == nil)
        let general = try HashJoin.matchedRows(left, right, left.columns, right.columns, ranges: [], kind: .inner, width: 2,
                                              cancel: nil, memoryLimit: nil, notes: nil)
        #expect(general.left == [1] && general.right == [0])
    }
}

/// Medians and percentiles by selection equal those of a full sort, with repeated values,
/// NaN, and groups of one and two values.
@Suite struct SelectionTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func selectionEqualsSorting(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for size in [1, 2, 3, 17, 100, 1000, 5000] {
            var values = (0..<size).map { _ -> Double in
                switch random.next() % 10 {
                case 0: return .nan
                case 1, 2: return 7
                default: return Double(Int(random.next() % 200) - 100) / 4
                }
            }
            let sorted = values.sorted(by: Selection.less)
            for p in [0.0, 0.1, 0.5, 0.9, 0.99, 1.0] {
                let rank = p * Double(size - 1)
                let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
                let (a, b) = values.withUnsafeMutableBufferPointer { Selection.pair($0, lo, hi) }
                #expect(a.bitPattern == sorted[lo].bitPattern && b.bitPattern == sorted[hi].bitPattern, "size \(size) p \(p)")
            }
        }
    }

    @Test func aSortedRunAndAllEqualStayFast() {
        // Already sorted and all-equal inputs are the classic bad cases of a quickselect.
        var ascending = (0..<200_000).map(Double.init)
        let (m, _) = ascending.withUnsafeMutableBufferPointer { Selection.pair($0, 100_000, 100_000) }
        #expect(m == 100_000)
        var same = [Double](repeating: 3, count: 200_000)
        let (s, t) = same.withUnsafeMutableBufferPointer { Selection.pair($0, 99_999, 100_000) }
        #expect(s == 3 && t == 3)
    }
}

/// `top N` through the first key's cut gives the first N rows of the full stable sort:
/// ties, NaN, -0, text in natural order, both directions, and a second key.
@Suite struct FirstKeyCutTests {
    @Test(arguments: [1, 2, 3, 4, 5])
    func cutEqualsTheFullSort(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let n = 4000
        let doubles = (0..<n).map { _ -> Double in
            switch random.next() % 20 {
            case 0: return .nan
            case 1: return -0.0
            case 2: return 0
            default: return Double(Int(random.next() % 300) - 150) / 2
            }
        }
        let words = ["Line 10", "Line 2", "line 2", "Bike", "bike", "Walking", "Æsj", "Zebra"]
        let codes = (0..<n).map { _ in UInt32(random.next() % UInt64(words.count)) }
        let ints = (0..<n).map { _ in Int64(random.next() % 50) }
        let x = Column(name: "x", storage: .double(doubles))
        let t = Column(name: "t", storage: .string(StringStorage(codes: codes, dictionary: words)))
        let k = Column(name: "k", storage: .int(ints))
        for columns in [[x], [t, x], [k, t], [x, k]] {
            for descending in [[false, false], [true, false], [true, true], [false, true]] {
                let d = Array(descending.prefix(columns.count))
                let full = try Sorting.order(columns, descending: d, count: n)
                for wanted in [1, 3, 10, 50] {
                    let cut = try Sorting.order(columns, descending: d, count: n, limit: wanted)
                    let heap = try Sorting.order(columns, descending: d, count: n, limit: wanted, cutFirstKey: false)
                    #expect(cut == Array(full.prefix(wanted)), "\(columns.map(\.name)) \(d) \(wanted)")
                    #expect(heap == cut)
                }
            }
        }
        // The cut keeps few rows for a key of many values, and gives up on a key of few.
        #expect(try FirstKeyCut.rows(x, descending: true, count: n, wanted: 3, cancel: nil) != nil)
        let few = Column(name: "b", storage: .int((0..<n).map { Int64($0 % 2) }))
        #expect(try FirstKeyCut.rows(few, descending: false, count: n, wanted: 3, cancel: nil) == nil)
    }
}

/// Arithmetic of several steps in one pass gives, bit for bit, what the steps give one by
/// one; and an expression it does not take (a division, a column with nulls) goes the old way.
@Suite struct FusedArithmeticTests {
    @Test func fusedEqualsStepByStep() throws {
        var random = SeededRandom(seed: 11)
        let n = 5000
        let x = (0..<n).map { _ in Double(Int(random.next() % 20000) - 10000) / 7 }
        let y = (0..<n).map { _ in Double(random.next() % 1000) * 0.1 }
        let k = (0..<n).map { _ in Int64(random.next() % 100) - 50 }
        let table = Table(name: "t", columns: [Column(name: "x", storage: .double(x)), Column(name: "y", storage: .double(y)),
                                               Column(name: "k", storage: .int(k))])
        let s = Session(workingDirectory: Repo.path(""), defaultZone: .utc)
        s.workspace.put([table], makeCurrent: true)
        func column(_ expression: String) throws -> [Double] {
            var values: [Double] = []
            _ = s.run("t | let z = \(expression) | select z") { _, outcome in
                for case .table(let r) in outcome.outputs { if case .double(let d) = r.table.columns[0].storage { values = d } }
            }
            return values
        }
        let cases: [(String, (Int) -> Double)] = [
            ("x * 2 + y", { x[$0] * 2 + y[$0] }),
            ("(x - y) * (x + 0.5) - 3", { (x[$0] - y[$0]) * (x[$0] + 0.5) - 3 }),
            ("k * 1.5 + x * y", { Double(k[$0]) * 1.5 + x[$0] * y[$0] }),
            ("2 - x * k", { 2 - x[$0] * Double(k[$0]) }),
        ]
        for (text, expected) in cases {
            let got = try column(text)
            #expect(got.count == n && (0..<n).allSatisfy { got[$0].bitPattern == expected($0).bitPattern }, "\(text)")
        }
        // Which expressions take the one-pass road.
        func col(_ i: Int) -> BoundExpr { .column(i, Field(name: ["x", "y", "k"][i], type: i == 2 ? .int : .double)) }
        let two = BoundExpr.literal(.double(2), .double)
        let xTimes2 = BoundExpr.binary(.multiply, col(0), two, .double)
        #expect(FusedArithmetic.compile(.binary(.add, xTimes2, col(1), .double), table: table) != nil)
        #expect(FusedArithmetic.compile(.binary(.add, .cast(col(2), .double), xTimes2, .double), table: table) != nil)
        #expect(FusedArithmetic.compile(xTimes2, table: table) == nil)  // one step: the plain loop
        #expect(FusedArithmetic.compile(.binary(.add, .binary(.divide, col(0), col(1), .double), two, .double), table: table) == nil)
        var withNull = table
        withNull.columns[1].validity = Bitmap(count: n, value: true)
        withNull.columns[1].validity![3] = false
        #expect(FusedArithmetic.compile(.binary(.add, xTimes2, col(1), .double), table: withNull) == nil)
    }
}
