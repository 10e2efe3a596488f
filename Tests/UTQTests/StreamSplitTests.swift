import Foundation
import Testing
@testable import UTQCore

/// A compressed CSV read in two parts (StreamSplit: the second part decompresses the text
/// again on a stream of its own and starts at the first record after the middle) is the
/// table one part reads: the same cells, warnings and lines, whatever lies at the middle — a
/// quoted line break, the file's last line, a cell that makes a column text, a totals row.
@Suite struct StreamSplitTests {
    static func gz(_ name: String, _ text: String) throws -> String {
        try temporaryFile(name, InflaterTests.deflated(Array(text.utf8)))
    }

    static func load(_ path: String, parts: Int) throws -> LoadedTable {
        var options = CSVOptions()
        options.parts = parts
        options.chunkSize = 4096
        options.recordLines = true
        return try CSVLoader.load(path: path, name: "t", zone: .named("Europe/Oslo")!, options: options)
    }

    /// Two parts against one: the same table, warnings and row lines.
    func expectSameInTwoParts(_ text: String, _ name: String, split: Bool? = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = try Self.gz(name, text)
        let one = try Self.load(path, parts: 1), two = try Self.load(path, parts: 2)
        #expect(!one.streamSplit && (split == nil || two.streamSplit == split), sourceLocation: sourceLocation)
        #expect(tableDifference(one.table, two.table) == nil, sourceLocation: sourceLocation)
        #expect(one.warnings.map { "\($0.line ?? 0) \($0.message)" } == two.warnings.map { "\($0.line ?? 0) \($0.message)" }, sourceLocation: sourceLocation)
        let sameLines = one.rowLines == two.rowLines
        #expect(sameLines, sourceLocation: sourceLocation)
        // And the plain file reads the same.
        let plain = try temporaryFile(name + ".csv", text)
        #expect(tableDifference(try Self.load(plain, parts: 1).table, two.table) == nil, sourceLocation: sourceLocation)
    }

    @Test func twoPartsReadWhatOneReads() throws {
        let text = ColumnSlabTests.csv(rows: 30_000)
        try expectSameInTwoParts(text, "rows.csv.gz")
        // A ragged row and a blank line in the second half keep their lines in the warnings.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[25_000] += ",extra,cells"
        lines.insert("", at: 27_000)
        try expectSameInTwoParts(lines.joined(separator: "\n"), "ragged.csv.gz")
    }

    @Test func theSecondPartStartsAtARecord() throws {
        // A quoted cell with line breaks across the middle: the guess at the middle falls
        // inside quotes, and the read is made again in one part.
        var rows = ["id,note"]
        for i in 0..<4000 { rows.append("\(i),\"note \(i)\"") }
        rows[2000] = "2000,\"" + String(repeating: "a line\n", count: 3000) + "\""
        try expectSameInTwoParts(rows.joined(separator: "\n") + "\n", "quoted.csv.gz", split: false)
        // A file whose middle is in its last line: the second part finds no record.
        try expectSameInTwoParts("a,b\n1," + String(repeating: "x", count: 100) + "\n", "short.csv.gz")
        try expectSameInTwoParts("a,b\n1,2", "tiny.csv.gz", split: false)
    }

    @Test func aColumnTurnedTextAndATotalsRowAfterTheMiddle() throws {
        var lines = ColumnSlabTests.csv(rows: 20_000).split(separator: "\n").map(String.init)
        lines[18_000] = lines[18_000].replacingOccurrences(of: ",Bike,", with: ",Bike,not a number")
        try expectSameInTwoParts(lines.joined(separator: "\n") + "\n", "widened.csv.gz")
        // A totals row in a column of numbers makes it text before the row is known as one.
        let totals = lines.joined(separator: "\n") + "\nTotal,,,,,,\n"
        try expectSameInTwoParts(totals, "totals.csv.gz", split: nil)
        // Where the totals row breaks no column, the split read leaves it out.
        let named = (0..<20_000).map { "stop \($0 % 300),\($0)" }.joined(separator: "\n") + "\nTotal,199990000\n"
        try expectSameInTwoParts("stop,boardings\n" + named, "named.csv.gz")
        let two = try Self.load(try Self.gz("named2.csv.gz", "stop,boardings\n" + named), parts: 2)
        #expect(two.table.rowCount == 20_000)
        #expect(two.warnings.contains { $0.message.contains("totals row") })
    }
}
