import Testing
@testable import UTQCore

/// `count distinct` of a text column or of ids over the whole table (DistinctCodes) against a
/// count made here, and the general path where the values are spread too wide for it.
@Suite struct DistinctCodesTests {
    @Test func countsTheCodesTheRowsUseWithoutNulls() throws {
        // Past 2^18 rows, so the cores share the rows; a null every so often, values used only
        // after the first word of rows, and a value only one row near the end has.
        var text = "k,note\n"
        var expected = Set<String>()
        for i in 0..<300_001 {
            let note: String
            if i % 7 == 3 { note = "" } else if i == 299_999 { note = "last" } else { note = "v\(i % 97)" }
            if !note.isEmpty { expected.insert(note) }
            text += "\(i),\(note)\n"
        }
        let s = makeSession()
        _ = try s.table("load \(try temporaryFile("distinct-notes.csv", text)) as t; t | limit 1")
        let fast = try s.table("t | count distinct note")
        #expect(fast.strings("distinct_note") == ["\(expected.count)"])
        // After a filter the dictionary holds values no row has any more.
        let some = try s.table("t | where k < 1000 | count distinct note")
        #expect(some.strings("distinct_note") == ["97"])
        let none = try s.table("t | where k < 0 | count distinct note")
        #expect(none.strings("distinct_note") == ["0"])
    }

    @Test func countsIdsWithoutNulls() throws {
        // Ids with gaps and nulls, and a negative least; past 2^18 rows.
        var text = "k,id\n"
        var expected = Set<Int>()
        for i in 0..<300_001 {
            let id = i % 11 == 4 ? nil : (i &* 7919) % 200_003 - 5
            if let id { expected.insert(id) }
            text += "\(i),\(id.map(String.init) ?? "")\n"
        }
        let s = makeSession()
        _ = try s.table("load \(try temporaryFile("distinct-ids.csv", text)) as t; t | limit 1")
        #expect(try s.table("t | count distinct id").strings("distinct_id") == ["\(expected.count)"])
        // Values spread wider than the rows keep the general path, with the same answer.
        let wide = try s.table("t | let w = id * 1000 | count distinct w")
        #expect(wide.strings("distinct_w") == ["\(expected.count)"])
        #expect(DistinctCodes.count(ints: [0, 1 << 40], validity: nil, rows: 2) == nil)
    }

    @Test func everyShareOfRowsIsRead() {
        // Rows ending inside a word of the null bitmap, every row valid but a few.
        let n = (1 << 18) + 77
        var codes = (0..<n).map { UInt32($0 % 1000) }
        codes[n - 1] = 1000  // a value only the last row has
        var validity = Bitmap(count: n, value: true)
        for i in stride(from: 0, to: n, by: 1000) { validity[i] = false }  // code 0 is never valid
        let s = StringStorage(codes: codes, dictionary: (0..<1001).map { "v\($0)" }, ordered: false)
        #expect(DistinctCodes.count(s, validity: validity, rows: n) == 1000)
        #expect(DistinctCodes.count(s, validity: nil, rows: n) == 1001)
    }
}
