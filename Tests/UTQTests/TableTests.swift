import Foundation
import Testing
@testable import UTQCore

/// Table: the validity bitmap, the byte interner behind text columns, gathering rows,
/// natural text order. Expectations come from plain Swift arrays and sets.
@Suite struct BitmapTests {
    @Test func operationsMatchArraysOfBools() {
        var rng = SeededRandom(seed: 10)
        for count in [0, 1, 63, 64, 65, 127, 128, 129, 1000] {
            let a = (0..<count).map { _ in Bool.random(using: &rng) }
            let b = (0..<count).map { _ in Bool.random(using: &rng) }
            let x = Column.bits(a), y = Column.bits(b)
            #expect(x.count == count)
            #expect((0..<count).map { x[$0] } == a)
            #expect(x.setCount == a.filter { $0 }.count)
            let and = x & y, or = x | y, not = ~x
            #expect((0..<count).map { and[$0] } == zip(a, b).map { $0 && $1 })
            #expect((0..<count).map { or[$0] } == zip(a, b).map { $0 || $1 })
            #expect((0..<count).map { not[$0] } == a.map { !$0 })
            // The bits past the end stay clear, so counts after ~ are right.
            #expect(not.setCount == a.filter { !$0 }.count)
            #expect(x.setIndices() == a.indices.filter { a[$0] }.map { Int32($0) })
            #expect(x.allSet == !a.contains(false))
        }
    }

    @Test func filledAndEdited() {
        for count in [0, 5, 64, 70] {
            let all = Bitmap(count: count, value: true), none = Bitmap(count: count, value: false)
            #expect(all.setCount == count)
            #expect(none.setCount == 0)
            #expect(all.allSet)
            #expect((~all).setCount == 0)
        }
        var b = Bitmap(count: 70, value: false)
        b[3] = true; b[64] = true; b[69] = true
        b[3] = false
        #expect(b.setIndices() == [64, 69])
        b.append(repeating: true, count: 3)
        #expect(b.count == 73)
        #expect(b.setIndices() == [64, 69, 70, 71, 72])
    }
}

@Suite struct ByteInternerTests {
    @Test func sameTextSameCodeInFirstSeenOrder() {
        var interner = ByteInterner()
        let words = ["Walking", "Bike", "", "Walking", "bike", "Bike", "Sitting adult", ""]
        let codes = words.map { interner.intern($0) }
        #expect(codes == [0, 1, 2, 0, 3, 1, 4, 2])
        #expect(interner.strings() == ["Walking", "Bike", "", "bike", "Sitting adult"])
        #expect(interner.count == 5)
        #expect(Array(interner.bytes(of: 4)) == Array("Sitting adult".utf8))
    }

    @Test func manyStringsThroughSeveralGrowths() {
        var interner = ByteInterner(capacity: 1)
        var rng = SeededRandom(seed: 11)
        var reference: [String: UInt32] = [:]
        var order: [String] = []
        for _ in 0..<60_000 {
            // Lengths around the 8-byte words the hash reads, and shared prefixes.
            let length = Int.random(in: 0...19, using: &rng)
            let pieces = ["a", "b", "7", "é", "😀"]
            let s = "k" + (0..<length).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined()
            let code = interner.intern(s)
            if let known = reference[s] {
                if code != known { Issue.record("\(s) changed code \(known) → \(code)"); return }
            } else {
                if code != UInt32(order.count) { Issue.record("\(s) got \(code), expected \(order.count)"); return }
                reference[s] = code
                order.append(s)
            }
        }
        #expect(interner.count == order.count)
        #expect(interner.strings() == order)
        #expect(order.count > 10_000)
        // Codes stay what they were after all the growing.
        for (i, s) in order.enumerated().prefix(2000) { #expect(interner.intern(s) == UInt32(i)) }
    }

    @Test func stringsAlikeAtBothEndsAreKeptApart() {
        // The table holds a string's length (up to 255) and its first and last eight bytes;
        // strings alike in all of those differ only in the middle or past 255 bytes.
        var interner = ByteInterner(capacity: 1)
        let middle = ["abcdefgh-1-12345678", "abcdefgh-2-12345678", "abcdefgh-12345678", "abcdefgh12345678", "abcdefgh2345678"]
        let long = [String(repeating: "x", count: 300), String(repeating: "x", count: 301),
                    String(repeating: "x", count: 150) + "y" + String(repeating: "x", count: 149)]
        let short = ["ab", "abb", "a", "", "abc", "abcd", "abdd", "a\u{0}", "a\u{0}\u{0}"]
        let all = middle + long + short
        let codes = all.map { interner.intern($0) }
        #expect(codes == (0..<all.count).map(UInt32.init))
        #expect(all.map { interner.intern($0) } == codes)
        #expect(interner.strings() == all)
    }

    @Test func bytesNotValidUTF8AreKeptApartAndRepaired() {
        var interner = ByteInterner()
        let a: [UInt8] = [0x66, 0xFF, 0x6F], b: [UInt8] = [0x66, 0xFE, 0x6F]
        let ca = a.withUnsafeBytes { interner.intern($0) }
        let cb = b.withUnsafeBytes { interner.intern($0) }
        #expect(ca != cb)
        #expect(interner.strings()[0] == "f\u{FFFD}o")
    }
}

@Suite struct ColumnTests {
    @Test func gatherWithMinusOneGivesNulls() {
        let columns = [
            Column.ints("i", [1, nil, 3]), Column.doubles("d", [1.5, 2.5, nil]), Column.bools("b", [true, false, nil]),
            Column.texts("s", ["a", "b", nil]), Column.timestamps("t", [10, nil, 30]), Column.durations("u", [nil, 2, 3]),
        ]
        let rows: [Int32] = [2, -1, 0, 0, 1]
        for c in columns {
            let g = c.gather(rows)
            #expect(g.count == 5)
            #expect(g.type == c.type)
            #expect(g.name == c.name)
            for (k, r) in rows.enumerated() {
                let expected: Value = r < 0 ? .null : c.value(at: Int(r))
                #expect(g.value(at: k) == expected, "\(c.name)[\(k)]")
            }
        }
        // No nulls and no -1: no validity bitmap at all.
        let plain = Column.ints("p", [5, 6, 7]).gather([2, 1])
        #expect(plain.validity == nil)
        #expect(plain.nullCount == 0)
        let withMissing = Column.ints("p", [5, 6, 7]).gather([2, -1])
        #expect(withMissing.nullCount == 1)
        #expect(Column.nulls("n", count: 3).gather([0, -1]).type == .null)
    }

    @Test func sliceAndCompaction() {
        let c = Column.texts("s", ["x", "y", "z", "y"])
        let s = c.slice(1..<3)
        #expect((0..<2).map { s.value(at: $0) } == [.string("y"), .string("z")])
        guard case .string(let storage) = c.gather([1, 3]).storage else { Issue.record("not text"); return }
        let compact = storage.compacted()
        #expect(compact.dictionary == ["y"])
        #expect(Array(compact.codes) == [0, 0])
    }

    @Test func nullCounts() {
        #expect(Column.ints("i", [1, nil, nil]).nullCount == 2)
        #expect(Column.nulls("n", count: 4).nullCount == 4)
        #expect(!Column.nulls("n", count: 4).isValid(0))
    }
}

@Suite struct TextOrderTests {
    @Test func numbersInsideTextByValue() {
        #expect(TextOrder.less("Line 2", "Line 10"))
        #expect(!TextOrder.less("Line 10", "Line 2"))
        #expect(TextOrder.less("a9", "a10"))
        #expect(TextOrder.less("stop 9b", "stop 10a"))
        #expect(TextOrder.less("x2y3", "x2y10"))
        #expect(TextOrder.compare("Line 007", "Line 7") == 0)
        #expect(TextOrder.less("Line 007", "Line 7") != TextOrder.less("Line 7", "Line 007"))
    }

    @Test func caseIgnoredThenBytesBreakTies() {
        #expect(TextOrder.less("apple", "Banana"))
        #expect(TextOrder.less("Apple", "banana"))
        #expect(TextOrder.compare("bike", "Bike") == 0)
        #expect(TextOrder.less("Bike", "bike"))  // ties broken by byte order, so the order is total
        #expect(TextOrder.less("", "a"))
        #expect(TextOrder.less("Walk", "Walking"))
    }

    @Test func sortsLikeAHandWrittenNaturalOrder() {
        let lines = ["Line 10", "line 1", "Line 2", "Line 1A", "Express", "Line 100", "line 20", "Line 3"]
        let sorted = lines.sorted(by: TextOrder.less)
        #expect(sorted == ["Express", "line 1", "Line 1A", "Line 2", "Line 3", "Line 10", "line 20", "Line 100"])
    }

    @Test func isAStrictTotalOrderOnRandomText() {
        var rng = SeededRandom(seed: 12)
        let alphabet = Array("aAbB09 1.-")
        let words = (0..<300).map { _ in String((0..<Int.random(in: 0...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }) }
        for a in words.prefix(60) {
            #expect(!TextOrder.less(a, a))
            for b in words.prefix(60) where a != b {
                #expect(TextOrder.less(a, b) != TextOrder.less(b, a), "\(a) vs \(b)")
                for c in words.prefix(12) where TextOrder.less(a, b) && TextOrder.less(b, c) {
                    #expect(TextOrder.less(a, c), "\(a) < \(b) < \(c)")
                }
            }
        }
    }

    @Test func rankRespectsDeclaredOrder() {
        let ordered = StringStorage(codes: [0, 1, 2], dictionary: ["Mon", "Tue", "Wed"], ordered: true)
        #expect(ordered.ranks() == [0, 1, 2])
        let plain = StringStorage(codes: [0, 1, 2], dictionary: ["Wed", "Mon", "Tue"])
        #expect(plain.ranks() == [2, 0, 1])
    }
}

@Suite struct CatalogTests {
    @Test func namesResolveExactlyThenByCaseThenByLastPart() {
        var c = Catalog()
        c.put(Table(name: "market", columns: []))
        c.put(Table(name: "market.legends", columns: []))
        c.put(Table(name: "feed.trips", columns: []))
        c.put(Table(name: "other.trips", columns: []))
        #expect(c.names == ["market", "market.legends", "feed.trips", "other.trips"])
        #expect(c.resolve("market") == "market")
        #expect(c.resolve("MARKET") == "market")
        #expect(c.resolve("legends") == "market.legends")
        #expect(c.resolve("trips") == nil)
        #expect(c.candidates(endingWith: "trips") == ["feed.trips", "other.trips"])
        c.put(Table(name: "market", columns: [Column.ints("x", [1])]))
        #expect(c.names.count == 4)
        #expect(c.table("market")?.rowCount == 1)
        c.remove("market")
        #expect(c.resolve("market") == nil)
    }
}
