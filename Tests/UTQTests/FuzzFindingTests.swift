import Foundation
import Testing
@testable import UTQCore

/// Each input here once crashed or hung utq under the fuzzers in fuzz/ (the target is named
/// on each test). They stay as tests so the fixes stay.
@Suite struct FuzzFindingTests {
    /// A table read in parts must equal the table read in one piece.
    func cells(_ t: Table) -> [String] {
        t.columns.flatMap { c in ["\(c.name):\(c.type)"] + (0..<t.rowCount).map { "\(c.value(at: $0))" } }
    }

    /// A CSV file read in one piece, and as the csv fuzz target reads it: three parts, 16-byte chunks.
    func onePieceAndParts(_ path: String) throws -> (one: Table, parts: Table) {
        var one = CSVOptions()
        one.parts = 1
        var split = CSVOptions()
        split.parts = 3
        split.chunkSize = 16
        return (try CSVLoader.load(path: path, name: "t", zone: .utc, options: one).table,
                try CSVLoader.load(path: path, name: "t", zone: .utc, options: split).table)
    }

    /// fuzz json_records: a duration in words too long for 64 bits of microseconds
    /// (`1 hour 4444…5 m`) trapped converting it; it is no duration, so the column stays text.
    @Test func aDurationInWordsPastSixtyFourBitsIsText() throws {
        let huge = "1 hour " + String(repeating: "4", count: 40) + "5 m"
        #expect(huge.utf8CString.withUnsafeBytes { DurationParser.words(UnsafeRawBufferPointer(rebasing: $0.dropLast())) } == nil)
        let path = try temporaryFile("huge-duration.json", "[{\"d\": \"\(huge)\"}, {\"d\": \"45 min\"}]")
        let t = try Loaders.load(LoadRequest(path: path, zone: .utc)).tables[0]
        #expect(t.column("d")?.type == .string)
        #expect(DurationParser.parse("1 hour 5 mins")?.micros == 3_900_000_000)
    }

    /// fuzz csv_wide (a timeout under the sanitizer): a header of 65,535 names over one short row.
    /// Trimming each name went through NSString; the names are trimmed by hand now, as
    /// Foundation would trim them.
    @Test func aHeaderOf65535NamesLoads() throws {
        let text = (0..<65_535).map { "c\($0)" }.joined(separator: ",") + "\n,,1223\n\n"
        let loaded = try CSVLoader.load(path: try temporaryFile("wide.csv", text), name: "wide", zone: .utc, options: CSVOptions()).table
        #expect(loaded.columns.count == 65_535 && loaded.rowCount == 1)
        #expect(loaded.columns[2].value(at: 0) == .int(1223))
        for name in ["", " ", "\t", "a", " a", "a ", "\ta b\t", "\u{00A0}x\u{3000}", "  \u{2003} ", "é ", " \u{1F600}", "x\u{200B}"] {
            #expect(CSVLoader.trimmedSpaces(name) == name.trimmingCharacters(in: .whitespaces), "\(name.unicodeScalars.map(\.value))")
        }
    }

    /// fuzz csv: a later part whose cells in a text column were all empty had nulls and no
    /// strings, and joining it to the first part read past the end of its dictionary.
    @Test func partWithOnlyEmptyCellsInATextColumn() throws {
        var text = "trip,stop,headsign\n"
        text += "STBA,STAGECOACH,to airport\n"
        for i in 0..<40 { text += "CITY\(i),EMSI,\n" }
        let path = try temporaryFile("empty-part.csv", text)
        let (a, b) = try onePieceAndParts(path)
        #expect(b.rowCount == 41)
        #expect(b.strings("headsign").first == "to airport")
        #expect(b.strings("headsign").dropFirst().allSatisfy { $0 == "null" })
        #expect(cells(a) == cells(b))
    }

    /// fuzz csv: chunks were cut after the last line break with an even count of quotes
    /// before it, but a quote inside a cell (`x"y`) is text to the reader, so a cut could
    /// fall inside a quoted cell, and a file that reads in one piece failed in small chunks.
    @Test func quoteInsideACellDoesNotMisplaceChunkCuts() throws {
        let text = "a,b,c\nx\"y,\"p\nq\",1\n2,3,4\r\n5,\"6\"\"\n7\",8\n"
        let path = try temporaryFile("quote-inside-cell.csv", text)
        var one = CSVOptions()
        one.parts = 1
        let a = try CSVLoader.load(path: path, name: "t", zone: .utc, options: one).table
        #expect(a.strings("a") == ["x\"y", "2", "5"])
        #expect(a.strings("b") == ["p\nq", "3", "6\"\n7"])
        for chunk in 1...24 {
            for parts in [1, 2, 3] {
                var split = CSVOptions()
                split.parts = parts
                split.chunkSize = chunk
                let b = try CSVLoader.load(path: path, name: "t", zone: .utc, options: split).table
                #expect(cells(a) == cells(b), "chunk \(chunk), parts \(parts)")
            }
        }
    }

    /// fuzz language: a duration literal too long for a count of microseconds trapped in the
    /// lexer (Double to Int64), ending the session.
    @Test func durationLiteralTooLongIsAnError() throws {
        let session = makeSession()
        #expect(session.run("load datasets/market.json").isEmpty)
        for text in ["count by every 41e400s", "count by every 1e300h", "where time > time - 9999999999999999h"] {
            let e = session.failure(text)
            #expect(e?.message.contains("is too long") == true, "\(text): \(e?.message ?? "no error")")
        }
        // A long but representable one still works.
        #expect(try session.table("count by every 100000h").rowCount == 1)
    }

    /// fuzz bm_export: an icon number too large for 64 bits made the icon column a double,
    /// and the legends table, which took icons as integers, trapped converting it.
    @Test func iconTooLargeForAnIntegerKeepsItsValue() throws {
        let text = "Time;Position;Angle in degrees;Note;Type;Icon;\n"
            + "23/03/2017, 08:16;(58.0, 717.0);118.5;;Bike;-922337203685477580802;\n"
            + "23/03/2017, 08:17;(45.0, 108.0);999;;Walking;3;\n"
        let path = try temporaryFile("huge-icon.csv", text)
        let loaded = try Loaders.load(LoadRequest(path: path, zone: .utc))
        let legends = try #require(loaded.tables.first { $0.name.hasSuffix(".legends") })
        // Legends list in icon order; the one without an icon comes after.
        #expect(legends.strings("legend") == ["Walking", "Bike"])
        // Icons are whole numbers: one past 64 bits is no icon, left empty with a warning.
        #expect(legends.strings("icon") == ["3", "null"])
        #expect(loaded.warnings.contains { $0.message == "Icon \"-922337203685477580802\" is not a whole number; left empty" }, "\(loaded.warnings)")
        // And a value with no whole number inside 64 bits becomes null, not a trap.
        let c = Column.from(values: [.double(-9.3e20), .double(7.9), .int(3), .double(.nan)], type: .int)
        #expect((0..<4).map { c.isValid($0) } == [false, true, true, false])
        #expect(c.value(at: 1) == .int(7))
    }

    /// fuzz bm_export: NUL bytes in a header line with no line break made the header loop ask
    /// for ever more of a file it already had whole (the head without NULs never reached the
    /// file's size), and hung.
    @Test func nulBytesInAnUnfinishedHeaderDoNotHang() throws {
        let bytes: [UInt8] = Array("Time;Pos3".utf8) + [UInt8](repeating: 0, count: 7) + Array("itiTimeo;".utf8)
        let path = try temporaryFile("nul-header.csv", bytes)
        let started = Date()
        let loaded = try? Loaders.load(LoadRequest(path: path, zone: .utc))
        #expect(Date().timeIntervalSince(started) < 5 * TestTiming.scale)
        #expect(loaded?.tables.first?.rowCount ?? 0 == 0)
    }

    /// Found beside the last one: with NUL bytes in the header, the data was read from a file
    /// offset that counted the header without them, so the first row lost its start.
    @Test func nulBytesInTheHeaderDoNotShiftTheData() throws {
        let bytes: [UInt8] = Array("name\0\0\0\0,value\n".utf8) + Array("first,1\nsecond,2\n".utf8)
        let path = try temporaryFile("nul-header-data.csv", bytes)
        let t = try CSVLoader.load(path: path, name: "t", zone: .utc).table
        #expect(t.columnNames == ["name", "value"])
        #expect(t.strings("name") == ["first", "second"])
        #expect(t.strings("value") == ["1", "2"])
        let json: [UInt8] = Array("[\0\0\0{\"a\":1},\n{\"a\":2}]".utf8)
        let jpath = try temporaryFile("nul-head.json", json)
        let j = try JSONRecordLoader.load(path: jpath, name: "j", zone: .utc, parts: 1).table
        #expect(j.strings("a") == ["1", "2"])
    }

    /// fuzz json_records: NDJSON whose records span lines was cut inside a record; the part
    /// before the cut called its unfinished record a syntax error (instead of a bad cut), and
    /// the part after it started mid-record, so the load failed where one piece reads fine.
    @Test func ndjsonRecordsOverSeveralLinesReadInParts() throws {
        let text = "{\"a\":1,\"a\":2}\n{\"b\":\"455 mins\"}\n,{\"a\":-008,\n  \"legend\": {\n    \"name\": \"Walking\",\n    \"icon\": 1\n  }\n },\n {\n\"a\":-0.0}\n"
        let path = try temporaryFile("multiline.ndjson", text)
        let one = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, parts: 1).table
        #expect(one.rowCount == 4)
        #expect(one.columnNames == ["a", "b", "legend.name", "legend.icon"])
        for _ in 0..<20 {  // the parts run at once; the outcome must not depend on which ends first
            let split = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, chunkSize: 16, parts: 3).table
            #expect(cells(split) == cells(one))
        }
        // A file that is really broken still says where, after the one-piece reading.
        let broken = try temporaryFile("broken.ndjson", "{\"a\":1}\n{\"a\":2}\n{\"a\":}\n{\"a\":4}\n")
        #expect(throws: LoadError.self) { try JSONRecordLoader.load(path: broken, name: "t", zone: .utc, chunkSize: 16, parts: 3) }
        do { _ = try JSONRecordLoader.load(path: broken, name: "t", zone: .utc, chunkSize: 16, parts: 3) } catch let e as LoadError {
            #expect(e.line == 3)
        }
    }

    /// fuzz json_document: a value of -1e400 printed as -Infinity (as NaN and Infinity are),
    /// which the reader took for a broken number although it reads NaN and Infinity: the text
    /// of a parsed document did not read back. Nested values kept as cells are such text.
    @Test func minusInfinityReadsBack() throws {
        let doc = try parseJSONDocument(bytes: Array(#"{"n":[0,1e-07,-1e400,1e400],"m":-Infinity,"k":NaN}"#.utf8), path: "d.json")
        #expect(doc.text == #"{"n":[0,1e-07,-Infinity,Infinity],"m":-Infinity,"k":NaN}"#)
        let again = try parseJSONDocument(bytes: Array(doc.text.utf8), path: "again.json")
        #expect(again.text == doc.text)
        let path = try temporaryFile("minus-infinity.json", #"[{"a":-Infinity,"b":[-Infinity]},{"a":2,"b":[]}]"#)
        let t = try JSONRecordLoader.load(path: path, name: "t", zone: .utc).table
        #expect(t.strings("a") == ["-Infinity", "2"])
        #expect(t.strings("b") == ["[-Infinity]", "[]"])
    }

    /// fuzz prishtina: a frequency of minutes too large for a count of microseconds trapped
    /// converting to Int64 and ended the session.
    @Test func hugeItineraryFrequencyIsNoFrequency() throws {
        let text = #"{"itineraries":[{"line":"Line 1","price":0.4,"frequency":1e300},{"line":"Line 3","frequency":-1e17},{"line":"Line 4","frequency":20}]}"#
        let doc = try parseJSONDocument(bytes: Array(text.utf8), path: "itineraries.json")
        let (tables, _) = try Prishtina.loadItineraries(doc, name: "itineraries", path: "itineraries.json")
        let frequencies = tables[0].strings("frequency")
        #expect(frequencies.count == 3)
        #expect(frequencies[0] == "null" && frequencies[1] == "null")
        #expect(frequencies[2] != "null")
    }

    /// fuzz csv: the delimiter was decided from the first chunk, so with small chunks a header
    /// of more than one chunk was split on another delimiter than the one-piece reading chose.
    @Test func delimiterDoesNotDependOnTheChunkSize() throws {
        let path = try temporaryFile("delimiter.csv", "stop_id,stop_name,stop_desc,sto6;;Walking;1;\nA,B,C,D\n")
        let (a, b) = try onePieceAndParts(path)
        #expect(a.columnNames == b.columnNames)
        #expect(cells(a) == cells(b))
    }
}

/// Found by fuzzing csv: a header whose quote is never closed (the rest of the file is
/// inside it) threw the scanner's own error instead of a message.
@Suite struct HeaderQuoteFinding {
    @Test func unclosedQuoteInTheHeaderIsAMessage() throws {
        let path = try temporaryFile("open-quote.csv", "trip_id,start_time,\"headway_secs\nSTBA,6:00:00,1800\n")
        let s = makeSession()
        let e = try #require(s.failure("load \(path)"))
        #expect(e.message.contains("open-quote.csv:1:20: a quoted name in the header is never closed"), "\(e.message)")
    }
}

/// Found by fuzzing bm_project: a JSON document whose rows mix decimals with a whole number
/// past 2^53 threw the builder's TypeConflict out of the load. Such a column is text, in the
/// document reader and the streaming one alike, so the number keeps its digits.
@Suite struct BigWholeNumberFinding {
    @Test(arguments: [#"{"rows": [{"a": 1.5}, {"a": 9007199254740993}]}"#, #"[{"a": 1.5}, {"a": 9007199254740993}]"#])
    func wholeNumbersPastDoublesKeepTheirDigits(_ text: String) throws {
        let path = try temporaryFile("big-\(text.count).json", text)
        let s = makeSession()
        let t2 = try s.table("load \(path) as big" + (text.hasPrefix("{") ? " at rows" : "") + "; big")
        #expect(t2.column("a")?.type == .string)
        #expect(t2.strings("a") == ["1.5", "9007199254740993"])
    }
}
