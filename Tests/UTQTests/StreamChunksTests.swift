import Foundation
import Testing
@testable import UTQCore

/// A compressed CSV parsed in chunks by every core (StreamChunks: one decoder, each chunk of
/// whole lines a part of its own) is the table one part reads: the same cells, warnings and
/// lines, whatever lies at a cut — a quoted line break, a line longer than a chunk, a cell
/// that makes a column text, a totals row, NUL bytes — and a damaged stream says so as it does
/// when read in one part.
@Suite struct StreamChunksTests {
    static func gz(_ name: String, _ text: String) throws -> String {
        try temporaryFile(name, InflaterTests.deflated(Array(text.utf8)))
    }

    /// `parts` 2 reads in chunks of 16 KB (four times the read size).
    static func load(_ path: String, parts: Int) throws -> LoadedTable {
        var options = CSVOptions()
        options.parts = parts
        options.chunkSize = 4096
        options.recordLines = true
        return try CSVLoader.load(path: path, name: "t", zone: .named("Europe/Oslo")!, options: options)
    }

    /// In chunks against one part: the same table, warnings and row lines. `chunked`: whether
    /// the table that comes out was read in more than one chunk (nil: either).
    func expectSameInChunks(_ text: String, _ name: String, chunked: Bool? = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = try Self.gz(name, text)
        let one = try Self.load(path, parts: 1), many = try Self.load(path, parts: 2)
        #expect(one.streamChunks == 0, sourceLocation: sourceLocation)
        if let chunked { #expect((many.streamChunks > 1) == chunked, "\(many.streamChunks) chunks", sourceLocation: sourceLocation) }
        #expect(tableDifference(one.table, many.table) == nil, sourceLocation: sourceLocation)
        #expect(one.warnings.map { "\($0.line ?? 0) \($0.message)" } == many.warnings.map { "\($0.line ?? 0) \($0.message)" }, sourceLocation: sourceLocation)
        let sameLines = one.rowLines == many.rowLines
        #expect(sameLines, sourceLocation: sourceLocation)
        // And the plain file reads the same.
        let plain = try temporaryFile(name + ".csv", text)
        #expect(tableDifference(try Self.load(plain, parts: 1).table, many.table) == nil, sourceLocation: sourceLocation)
    }

    @Test func chunksReadWhatOnePartReads() throws {
        let text = ColumnSlabTests.csv(rows: 30_000)
        try expectSameInChunks(text, "rows.csv.gz")
        // A ragged row and a blank line keep their lines in the warnings.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[25_000] += ",extra,cells"
        lines.insert("", at: 27_000)
        try expectSameInChunks(lines.joined(separator: "\n"), "ragged.csv.gz")
    }

    @Test func eachChunksValuesLieInTheSlabAfterTheChunkBefore() throws {
        // Rooms as long as the chunks' line breaks: every typed column joined where it lies.
        let many = try Self.load(try Self.gz("slab.csv.gz", ColumnSlabTests.csv(rows: 30_000)), parts: 2)
        #expect(many.streamChunks > 50)
        #expect(many.columnsJoinedInPlace == 7)
        #expect(many.table.rowCount == 30_000)
    }

    @Test func aCutInsideQuotesOrALongLine() throws {
        // A quoted cell with line breaks across a cut: the chunk ends inside quotes, and the
        // read is made again in one part.
        var rows = ["id,note"]
        for i in 0..<4000 { rows.append("\(i),\"note \(i)\"") }
        rows[2000] = "2000,\"" + String(repeating: "a line\n", count: 3000) + "\""
        try expectSameInChunks(rows.joined(separator: "\n") + "\n", "quoted.csv.gz", chunked: false)
        // A line longer than a chunk (16 KB) is read whole into one.
        rows = ["id,note"]
        for i in 0..<4000 { rows.append("\(i),note \(i)") }
        rows[1500] = "1500," + String(repeating: "x", count: 40_000)
        try expectSameInChunks(rows.joined(separator: "\n") + "\n", "long.csv.gz")
        try expectSameInChunks("a,b\n1," + String(repeating: "x", count: 100) + "\n", "short.csv.gz", chunked: false)
        try expectSameInChunks("a,b\n1,2", "tiny.csv.gz", chunked: false)
    }

    @Test func aColumnTurnedTextATotalsRowAndNULBytes() throws {
        var lines = ColumnSlabTests.csv(rows: 20_000).split(separator: "\n").map(String.init)
        lines[18_000] = lines[18_000].replacingOccurrences(of: ",Bike,", with: ",Bike,not a number")
        try expectSameInChunks(lines.joined(separator: "\n") + "\n", "widened.csv.gz")
        // A totals row in a column of numbers makes it text before the row is known as one.
        let totals = lines.joined(separator: "\n") + "\nTotal,,,,,,\n"
        try expectSameInChunks(totals, "totals.csv.gz", chunked: nil)
        // Where the totals row breaks no column, the chunked read leaves it out.
        let named = (0..<20_000).map { "stop \($0 % 300),\($0)" }.joined(separator: "\n") + "\nTotal,199990000\n"
        try expectSameInChunks("stop,boardings\n" + named, "named.csv.gz")
        let many = try Self.load(try Self.gz("named2.csv.gz", "stop,boardings\n" + named), parts: 2)
        #expect(many.table.rowCount == 20_000)
        #expect(many.warnings.contains { $0.message.contains("totals row") })
        // NUL bytes in a later chunk are dropped and named by line, as in one part.
        var nul = (0..<20_000).map { "stop \($0 % 300),\($0)" }
        nul[15_000] = "stop\u{0}x,15000"
        try expectSameInChunks("stop,boardings\n" + nul.joined(separator: "\n") + "\n", "nul.csv.gz")
    }

    static func loadJSON(_ path: String, parts: Int) throws -> LoadedTable {
        try JSONRecordLoader.load(path: path, name: "t", zone: .named("Europe/Oslo")!, chunkSize: 4096, parts: parts, cuts: nil)
    }

    /// Records a line, with nested members, empty values, a member first met far past the
    /// sample, and a NUL byte.
    static func ndjson(rows: Int) -> String {
        (0..<rows).map { i in
            let late = i > rows * 3 / 4 && i % 7 == 0 ? ",\"late\":\(i)" : ""
            let x = i % 13 == 0 ? "null" : "\(i % 1000).\(i % 7)"
            let nul = i == rows - 100 ? "\u{0}" : ""
            return "{\"id\":\(i),\"legend\":\"\(["Bike", "Walking", "Café ✓"][i % 3])\(nul)\",\"x\":\(x),\"at\":\"2019-06-\(10 + i % 20)T10:\(10 + i % 50):00+02:00\",\"pos\":{\"lat\":\(59 + i % 3),\"lon\":10.5}\(late)}"
        }.joined(separator: "\n") + "\n"
    }

    @Test func ndjsonChunksReadWhatOnePartReads() throws {
        let text = Self.ndjson(rows: 20_000)
        let path = try Self.gz("records.ndjson.gz", text)
        let one = try Self.loadJSON(path, parts: 1), many = try Self.loadJSON(path, parts: 2)
        #expect(one.streamChunks == 0 && many.streamChunks > 20, "\(many.streamChunks) chunks")
        #expect(tableDifference(one.table, many.table) == nil)
        #expect(one.warnings.map(\.message) == many.warnings.map(\.message))
        #expect(many.table.rowCount == 20_000 && many.table.columns.map(\.name).contains("late"))
        #expect(many.warnings.map(\.message) == ["1 NUL byte was removed"])
        // The columns the sample found lie in their slabs, each chunk's after the one before.
        #expect(many.columnsJoinedInPlace >= 5)
        let plain = try temporaryFile("records.ndjson", text)
        #expect(tableDifference(try Self.loadJSON(plain, parts: 1).table, many.table) == nil)
    }

    @Test func jsonThatIsNotARecordALineIsReadInOnePart() throws {
        // An array, and records written over several lines: a cut inside a record makes the
        // chunked read start again in one part.
        let array = "[" + (0..<5000).map { "{\"id\":\($0),\"v\":\"value \($0)\"}" }.joined(separator: ",\n") + "]"
        let a = try Self.loadJSON(try Self.gz("array.json.gz", array), parts: 2)
        #expect(a.streamChunks == 0 && a.table.rowCount == 5000)
        let pretty = (0..<5000).map { "{\n  \"id\": \($0),\n  \"v\": \"value \($0)\"\n}" }.joined(separator: "\n") + "\n"
        let path = try Self.gz("pretty.ndjson.gz", pretty)
        let one = try Self.loadJSON(path, parts: 1), many = try Self.loadJSON(path, parts: 2)
        #expect(many.streamChunks == 0 && tableDifference(one.table, many.table) == nil)
    }

    /// A chunk's rows are counted by its line breaks, a lane of bytes at a time: the same
    /// count as one byte at a time, at every length and alignment.
    @Test func lineBreaksCountedAsOneByOneCounts() {
        var random = SeededRandom(seed: 7)
        let bytes = (0..<6000).map { _ in UInt8(random.next() % 4 == 0 ? 0x0A : 0x41 + random.next() % 26) }
        bytes.withUnsafeBytes { all in
            for (from, to) in [(0, 0), (0, 7), (1, 9), (3, 2043), (0, 2040), (5, 4100), (0, 6000)] {
                let part = UnsafeRawBufferPointer(rebasing: all[from..<to])
                #expect(countByte(0x0A, in: part) == part.filter { $0 == 0x0A }.count, "\(from)..<\(to)")
            }
        }
        let all = [UInt8](repeating: 0x0A, count: 5000)
        all.withUnsafeBytes { #expect(countByte(0x0A, in: $0) == 5000) }
    }

    @Test func aDamagedStreamIsTheFilesError() throws {
        let whole = InflaterTests.deflated(Array(ColumnSlabTests.csv(rows: 30_000).utf8))
        let cut = try temporaryFile("cut.csv.gz", Array(whole.prefix(whole.count * 2 / 3)))
        func message(_ parts: Int) -> String {
            do { _ = try Self.load(cut, parts: parts); return "loaded" } catch { return "\(error)" }
        }
        #expect(message(1).contains("ends early"))
        #expect(message(2) == message(1))
    }
}
