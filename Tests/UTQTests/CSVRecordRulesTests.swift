import Foundation
import Testing
@testable import UTQCore

/// What the CSV reader does for callers that know their columns (the GTFS loader): read
/// from memory, keep each row's line, hold a promised type, name the lines of bad text.
@Suite struct CSVRecordRulesTests {
    static let text = "id,day,time,n\n0012,20240229,25:10:00,1\n7,2024-03-01,8:00:00,x\n\n9,20240302,,3\n"

    static func gtfsLike() -> CSVOptions {
        var options = CSVOptions(delimiter: UInt8(ascii: ","))
        options.typeOverride = { name in
            switch name {
            case "id": return .string
            case "day": return .timestamp(.compact)
            case "time": return .duration(.clock)
            case "n": return .int
            default: return nil
            }
        }
        options.recordLines = true
        return options
    }

    @Test func promisedTypesHoldAndBadCellsAreEmptyWithTheirLine() throws {
        let loaded = try CSVLoader.load(bytes: Array(Self.text.utf8), path: "mem.csv", name: "t", zone: .utc, options: Self.gtfsLike())
        let t = loaded.table
        #expect(t.column("id")?.type == .string)
        #expect(t.strings("id") == ["0012", "7", "9"])
        #expect(t.column("day")?.type == .timestamp)
        #expect(t.strings("day") == ["2024-02-29", "null", "2024-03-02"])
        #expect(t.strings("time") == ["25:10:00", "08:00:00", "null"])
        #expect(t.strings("n") == ["1", "null", "3"])
        let messages = loaded.warnings.map(\.description)
        #expect(messages.contains("mem.csv:3: day \"2024-03-01\" is not a date written YYYYMMDD; left empty"))
        #expect(messages.contains("mem.csv:3: n \"x\" is not a whole number; left empty"))
        // The blank line is counted: the last row is on line 5.
        #expect(loaded.rowLines == [2, 3, 5])
    }

    @Test func compactDatesAreNeverGuessed() throws {
        let loaded = try CSVLoader.load(bytes: Array("n\n20240229\n20240301\n".utf8), path: "m.csv", name: "m", zone: .utc)
        #expect(loaded.table.column("n")?.type == .int)
    }

    @Test func bytesInMemoryReadLikeTheFile() throws {
        let path = try temporaryFile("same.csv", Self.text)
        let fromFile = try CSVLoader.load(path: path, name: "t", zone: .utc, options: Self.gtfsLike())
        let fromBytes = try CSVLoader.load(bytes: Array(Self.text.utf8), path: path, name: "t", zone: .utc, options: Self.gtfsLike())
        for c in fromFile.table.columnNames { #expect(fromFile.table.strings(c) == fromBytes.table.strings(c)) }
        #expect(fromFile.warnings == fromBytes.warnings)
        #expect(fromFile.rowLines == fromBytes.rowLines)
    }

    @Test func rowLinesAreTheSameReadInParts() throws {
        var text = "id,note\n"
        for i in 0..<3000 { text += i % 7 == 0 ? "\(i),\"two\nlines\"\n" : (i % 11 == 0 ? "\n\(i),x\n" : "\(i),x\n") }
        let path = try temporaryFile("parts.csv", text)
        var options = CSVOptions()
        options.recordLines = true
        options.parts = 1
        let whole = try CSVLoader.load(path: path, name: "p", zone: .utc, options: options)
        options.parts = 4
        let parts = try CSVLoader.load(path: path, name: "p", zone: .utc, options: options)
        #expect(whole.rowLines.count == 3000)
        #expect(parts.rowLines == whole.rowLines)
        #expect(whole.rowLines[1] == 4 && whole.rowLines[7] == 10)
    }

    @Test func badTextIsNamedByLine() throws {
        let bytes: [UInt8] = Array("a,b\n1,ok\n2,caf".utf8) + [0xE9] + Array("\n3,x".utf8) + [0] + Array("y\n4,\r\n5,z\n".utf8)
        let loaded = try CSVLoader.load(bytes: bytes, path: "bad.csv", name: "bad", zone: .utc)
        let messages = loaded.warnings.map(\.description)
        // A byte that is not UTF-8, with no UTF-8 beside it: the file is read as Latin-1.
        #expect(messages.contains("bad.csv: not UTF-8: read as Latin-1 (Windows-1252) and converted"))
        #expect(messages.contains("bad.csv:4: a NUL byte (a zero byte, which is not text) was removed"))
        #expect(messages.contains { $0.hasPrefix("bad.csv:5: this line ends with \\r\\n but line 1 with \\n") })
        #expect(loaded.table.strings("b") == ["ok", "café", "xy", "null", "z"])
    }

    @Test func emptyExtraCellsAreReportedWhenAsked() throws {
        let text = "a,b\n1,2\n3,4,\n"
        let lax = try CSVLoader.load(bytes: Array(text.utf8), path: "x.csv", name: "x", zone: .utc)
        #expect(lax.warnings.isEmpty)
        var options = CSVOptions()
        options.ignoresEmptyExtraCells = false
        let strict = try CSVLoader.load(bytes: Array(text.utf8), path: "x.csv", name: "x", zone: .utc, options: options)
        #expect(strict.warnings.map(\.description) == ["x.csv:3: 3 cells where the header has 2; the extra cells are ignored"])
    }

    /// Records reach the columns in batches, a column at a time: text rewritten from doubled
    /// quotes must outlive the chunk it came from until its batch is read, and a column whose
    /// type changes in the middle of a batch (whole numbers, then a decimal, then a word)
    /// must come out as if read cell by cell.
    @Test func batchesGiveTheCellsAsWritten() throws {
        var text = "id,quote,n,m\n"
        var quotes: [String] = [], ns: [String] = [], ms: [String] = []
        for i in 0..<5000 {
            let q = String(repeating: "\(i % 10)", count: 150) + "\"said\""
            quotes.append(q)
            let n = i == 1700 ? "2.5" : "\(i)"
            ns.append(i == 1700 ? "2.5" : "\(i).0")
            let m = i == 2900 ? "many" : "\(i * 3)"
            ms.append(m)
            text += "\(i),\"\(q.replacingOccurrences(of: "\"", with: "\"\""))\",\(n),\(m)\n"
        }
        var options = CSVOptions()
        options.parts = 1
        options.chunkSize = 100_000
        let t = try CSVLoader.load(bytes: Array(text.utf8), path: "b.csv", name: "b", zone: .utc, options: options).table
        #expect(t.strings("quote") == quotes)
        #expect(t.column("n")?.type == .double)
        #expect(t.strings("n").map { Double($0) } == ns.map { Double($0) })
        #expect(t.column("m")?.type == .string)
        #expect(t.strings("m") == ms)
    }

    /// With a promised type, bad cells are reported in the order of the file, among the
    /// other warnings of their records.
    @Test func warningsKeepTheOrderOfTheFile() throws {
        let text = "id,day,time,n\n1,x,8:00:00\n2,20240301,8:00:00,y\n"
        let loaded = try CSVLoader.load(bytes: Array(text.utf8), path: "o.csv", name: "o", zone: .utc, options: Self.gtfsLike())
        #expect(loaded.warnings.map(\.description) == [
            "o.csv:2: day \"x\" is not a date written YYYYMMDD; left empty",
            "o.csv:2: 3 cells where the header has 4; the missing ones are empty",
            "o.csv:3: n \"y\" is not a whole number; left empty",
        ])
    }
}
