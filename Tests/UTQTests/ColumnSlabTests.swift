import Foundation
import Testing
@testable import UTQCore

/// Parts of a load read in parallel write each column into one slab and are moved together
/// in place (ColumnSlab). Whether they are (regions sized well), or a part outgrows its
/// region, or a column is missing from a part, the table must be what one part reads.
@Suite struct ColumnSlabTests {
    /// Every column type, nulls in each, text repeating and not.
    static func csv(rows: Int, longRowsFirst: Int = 0) -> String {
        var out = "id,name,x,ok,at,took,note\n"
        let names = ["Bike", "Walking", "Sitting", "Standing", "Café ✓"]
        for i in 0..<rows {
            let note = i < longRowsFirst ? String(repeating: "long note \(i) ", count: 150) : (i % 11 == 0 ? "" : "n\(i % 977)")
            let x = i % 13 == 0 ? "" : "\(i % 1000).\(i % 7)"
            let ok = i % 17 == 0 ? "" : (i % 2 == 0 ? "true" : "false")
            let at = i % 19 == 0 ? "" : "2019-06-\(10 + i % 20)T\(10 + i % 12):\(10 + i % 50):00+02:00"
            let took = i % 23 == 0 ? "" : "0:\(10 + i % 50):0\(i % 10)"
            out += "\(i % 29 == 0 ? "" : "\(i)"),\(names[i % names.count]),\(x),\(ok),\(at),\(took),\(note)\n"
        }
        return out
    }

    static func load(_ path: String, parts: Int, chunk: Int) throws -> LoadedTable {
        var options = CSVOptions()
        options.parts = parts
        options.chunkSize = chunk
        return try CSVLoader.load(path: path, name: "t", zone: .named("Europe/Oslo")!, options: options)
    }

    @Test func csvPartsJoinedInTheirSlabEqualOnePart() throws {
        let path = try temporaryFile("slab.csv", Self.csv(rows: 40_000))
        let whole = try Self.load(path, parts: 1, chunk: 1 << 22)
        #expect(whole.columnsJoinedInPlace == 0)
        #expect(whole.table.columns.map(\.type) == [.int, .string, .double, .bool, .timestamp, .duration, .string])
        for (parts, chunk) in [(2, 1 << 16), (3, 4096), (4, 1 << 20)] {
            let t = try Self.load(path, parts: parts, chunk: chunk)
            #expect(JSONTemplateTests.difference(whole.table, t.table) == nil, "\(parts) parts, chunk \(chunk)")
            #expect(t.warnings.map(\.message) == whole.warnings.map(\.message))
            // Every column went the short road, or this test would not test it.
            #expect(t.columnsJoinedInPlace == 7, "\(parts) parts")
        }
    }

    /// Nulls are a bit a row in each part, joined after the rows before them: each lands on its
    /// own row whether the first part has none, the last rows are null, or a part ends inside
    /// a word of 64 rows; both the slab's way and the long way (a part outgrowing its region).
    @Test func nullsLandOnTheirRowsAcrossParts() throws {
        let rows = 50_003
        func xNull(_ i: Int) -> Bool { i == 0 || i == 63 || i == 64 || i % 97 == 5 || i >= rows - 70 }
        func yNull(_ i: Int) -> Bool { i > 31_000 && i % 3 != 0 }
        func nNull(_ i: Int) -> Bool { i % 2 == 1 }
        var text = "x,y,n,note\n"
        for i in 0..<rows {
            let note = i < 30 ? String(repeating: "long ", count: 300) : "n"
            text += "\(xNull(i) ? "" : "\(i).5"),\(yNull(i) ? "" : "y\(i % 7)"),\(nNull(i) ? "" : "\(i)"),\(note)\n"
        }
        let path = try temporaryFile("slab-nulls.csv", text)
        for (parts, chunk) in [(1, 1 << 22), (2, 1 << 16), (3, 4096), (4, 1 << 20)] {
            let t = try Self.load(path, parts: parts, chunk: chunk).table
            #expect(t.rowCount == rows)
            for (name, isNull) in [("x", xNull), ("y", yNull), ("n", nNull)] as [(String, (Int) -> Bool)] {
                let column = try #require(t.column(name))
                let wrong = (0..<rows).filter { (column.validity?[$0] ?? true) == isNull($0) }
                #expect(wrong.isEmpty, "\(name), \(parts) parts: \(wrong.count) rows, first \(wrong.first ?? -1)")
                #expect(column.validity?.count == rows)
            }
        }
    }

    /// The rows are counted from the first chunk: long rows there and short ones after make
    /// the later parts outgrow their regions. They then keep arrays of their own, joined as
    /// before, and nothing is lost.
    @Test func csvPartsThatOutgrowTheirRegionsAreJoinedAllTheSame() throws {
        let path = try temporaryFile("slab-long-first.csv", Self.csv(rows: 60_000, longRowsFirst: 40))
        let whole = try Self.load(path, parts: 1, chunk: 1 << 16)
        let t = try Self.load(path, parts: 2, chunk: 1 << 16)
        #expect(t.columnsJoinedInPlace == 0)
        #expect(t.table.rowCount == 60_000)
        #expect(JSONTemplateTests.difference(whole.table, t.table) == nil)
    }

    /// A region the staged values fill past only when they are flushed is not the values'
    /// place: joining in the slab would trap on it (StreamChunks makes regions exactly as
    /// long as a part's lines).
    @Test func aRegionTheLastFlushOverfillsIsLeftWhole() {
        let base = UnsafeMutablePointer<Int64>.allocate(capacity: 3)
        defer { base.deallocate() }
        var a = StagedArray<Int64>(region: base, start: 0, room: 3)
        for v in 0..<3 { a.append(Int64(v)) }
        #expect(a.inRegion)
        a.append(3)
        #expect(!a.inRegion)
        #expect(a.take() == [0, 1, 2, 3])
    }

    /// JSON: a column in every part joins in place; a column some part lacks (one the sample
    /// found and the last records do not have, one first met past the sample), and parts that
    /// outgrow their regions, are joined the long way, with missing cells where a part had none.
    @Test func jsonPartsJoinInPlaceOrTheLongWayAlike() throws {
        var records: [String] = []
        // Long records fill the sample, so the rows per byte are guessed low.
        for i in 0..<1_100 { records.append(#"{"k": \#(i), "v": \#(Double(i) / 4), "s": "\#(String(repeating: "x", count: 4000))", "early": \#(i)}"#) }
        for i in 0..<120_000 {
            var r = #"{"k": \#(i), "v": \#(i % 9), "s": "s\#(i % 5)""#
            if i == 110_000 { r += #", "late": "2020-01-01T10:00:00Z""# }
            records.append(r + "}")
        }
        let path = try JSONTemplateTests.write(records, lines: true, spacing: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let whole = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, parts: 1, cuts: nil)
        #expect(whole.table.columnNames == ["k", "v", "s", "early", "late"])
        let t = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, parts: 2, cuts: nil)
        #expect(JSONTemplateTests.difference(whole.table, t.table) == nil)
        #expect(t.table.rowCount == 121_100)
        #expect(t.columnsJoinedInPlace == 0)

        // The same columns in records of one size: every column found by the sample joins in place.
        let even = (0..<60_000).map { #"{"k": \#($0), "v": \#(Double($0) / 4), "s": "s\#($0 % 5)", "ok": \#($0 % 3 == 0)}"# }
        let evenPath = try JSONTemplateTests.write(even, lines: false, spacing: 1)
        defer { try? FileManager.default.removeItem(atPath: evenPath) }
        let one = try JSONRecordLoader.load(path: evenPath, name: "t", zone: .utc, parts: 1, cuts: nil)
        for parts in [2, 3] {
            let split = try JSONRecordLoader.load(path: evenPath, name: "t", zone: .utc, parts: parts, cuts: nil)
            #expect(JSONTemplateTests.difference(one.table, split.table) == nil, "\(parts) parts")
            #expect(split.columnsJoinedInPlace == 4, "\(parts) parts")
        }
    }
}
