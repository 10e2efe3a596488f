import Foundation
import Testing
@testable import UTQCore

/// Ingest: CSV, JSON and Behaviour Mapper readers on small files written by the tests.
/// File names carry the test's name, since tests run in parallel.

func csv(_ name: String, _ text: String, options: CSVOptions = CSVOptions(), zone: ZoneRules = .utc) throws -> LoadedTable {
    let path = try temporaryFile(name + ".csv", text)
    return try CSVLoader.load(path: path, name: name, zone: zone, options: options)
}

/// The load error a body gives, or nil when it loads; any other error fails the test.
func loadError(_ body: () throws -> Any) throws -> LoadError? {
    do { _ = try body(); return nil } catch let e as LoadError { return e }
}

@Suite struct CSVTests {
    @Test func quotedFieldsWithNewlinesAndDoubledQuotes() throws {
        let loaded = try csv("quoted", "id,note,n\n1,\"line one\nline two\",5\n2,\"say \"\"hi\"\"\",6\n3,plain,7\n4,\"a,b\",8,extra\n")
        let t = loaded.table
        #expect(t.columnNames == ["id", "note", "n"])
        #expect(t.values("note") == [.string("line one\nline two"), .string("say \"hi\""), .string("plain"), .string("a,b")])
        #expect(t.values("n") == [5, 6, 7, 8].map { .int($0) })
        // The record with the extra cell starts on line 6: the quoted newline counts.
        #expect(loaded.warnings.map(\.line) == [6])
        #expect(loaded.warnings.first?.message == "4 cells where the header has 3; the extra cells are ignored")
    }

    @Test func byteOrderMarkIsNotPartOfTheFirstName() throws {
        let t = try csv("bom", "\u{FEFF}a,b\n1,2\n").table
        #expect(t.columnNames == ["a", "b"])
        #expect(t.values("a") == [.int(1)])
    }

    @Test func delimitersAreDetected() throws {
        let expected = try csv("comma", "name,count,share\nBike,21,0.5\nWalking,451,1.5\n").table
        for (name, d) in [("semicolon", ";"), ("tab", "\t"), ("pipe", "|")] {
            var text = "name,count,share\nBike,21,0.5\nWalking,451,1.5\n".replacingOccurrences(of: ",", with: d)
            if d == ";" { text = text.replacingOccurrences(of: ".", with: ",") }  // decimal commas go with ;
            let t = try csv("delim-" + name, text).table
            #expect(t.columnNames == expected.columnNames, "\(name)")
            for c in expected.columnNames { #expect(t.values(c) == expected.values(c), "\(name) \(c)") }
        }
        // A comma inside quotes does not make comma the delimiter.
        let quoted = try csv("delim-quoted", "a;b\n\"x, y\";1\n\"z, w\";2\n").table
        #expect(quoted.values("a") == [.string("x, y"), .string("z, w")])
    }

    @Test func lineEndingsAndBlankLines() throws {
        for (name, text) in [("crlf", "a,b\r\n1,2\r\n3,4\r\n"), ("cr", "a,b\r1,2\r3,4"), ("lf-noeol", "a,b\n1,2\n3,4"),
                             ("blank", "\n\na,b\n\n1,2\n\n\n3,4\n\n"), ("blank-crlf", "a,b\r\n\r\n1,2\r\n\r\n3,4\r\n\r\n")] {
            let loaded = try csv("eol-" + name, text)
            #expect(loaded.table.columnNames == ["a", "b"], "\(name)")
            #expect(loaded.table.values("b") == [.int(2), .int(4)], "\(name)")
            #expect(loaded.warnings.isEmpty, "\(name): \(loaded.warnings)")
        }
    }

    @Test func trailingDelimiterOnEveryLineMakesNoColumn() throws {
        let loaded = try csv("trailing", "a;b;\n1;2;\n3;4;\n")
        #expect(loaded.table.columnNames == ["a", "b"])
        #expect(loaded.warnings.isEmpty)
        // Rows with a trailing delimiter under a header without one: no phantom cells either.
        let rows = try csv("trailing-rows", "a,b\n1,2,\n3,4,\n")
        #expect(rows.table.columnNames == ["a", "b"])
        #expect(rows.warnings.isEmpty)
    }

    @Test func extraAndMissingCellsAreWarnedWithLineNumbers() throws {
        let loaded = try csv("ragged", "a,b,c\n1,2,3\n4,5\n6,7,8,9\n\n10,11,12\n13\n")
        #expect(loaded.table.values("c") == [.int(3), .null, .int(8), .int(12), .null])
        #expect(loaded.table.values("b") == [.int(2), .int(5), .int(7), .int(11), .null])
        let lines = loaded.warnings.map { "\($0.line.map(String.init) ?? "-"): \($0.message)" }
        #expect(lines == ["3: 2 cells where the header has 3; the missing ones are empty",
                          "4: 4 cells where the header has 3; the extra cells are ignored",
                          "7: 1 cell where the header has 3; the missing ones are empty"])
    }

    @Test func manyWarningsOfOneKindAreCounted() throws {
        let text = "a,b\n" + (0..<10).map { "\($0)\n" }.joined()
        let loaded = try csv("many-warnings", text)
        #expect(loaded.warnings.count == 4)
        #expect(loaded.warnings.last?.message == "7 more missing cells warnings")
    }

    @Test func typesWidenWhenALateRowDoesNotFit() throws {
        // Rows 1…4999 fit the type the sample chose; row 5000 does not.
        var text = "id,x,code,label,when\n"
        for i in 1..<5000 { text += "\(i),\(i),\(i),\(i % 7),2017-03-23 08:15\n" }
        text += "5000,12.5,007,sunny,not a time\n"
        let t = try csv("widen", text).table
        #expect(t.column("id")?.type == .int)
        #expect(t.column("x")?.type == .double)
        #expect(t.values("x").prefix(3) == [.double(1), .double(2), .double(3)])
        #expect(t.values("x").last == .double(12.5))
        // Text keeps every cell exactly as written, the early ones included.
        #expect(t.column("code")?.type == .string)
        #expect(t.strings("code").prefix(3) == ["1", "2", "3"])
        #expect(t.strings("code").last == "007")
        #expect(t.column("label")?.type == .string)
        #expect(t.strings("label").last == "sunny")
        #expect(t.column("when")?.type == .string)
        #expect(t.strings("when").first == "2017-03-23 08:15")
        #expect(t.rowCount == 5000)
    }

    @Test func wholeNumbersTooLargeForADoubleAreNotRounded() throws {
        // 2^53 + 1 has no double; a column that must widen keeps it exact as text.
        var late = "id\n9007199254740993\n"
        for i in 0..<4998 { late += "\(i)\n" }
        late += "0.5\n"
        let t = try csv("big-late", late).table
        #expect(t.strings("id").first == "9007199254740993")
        #expect(t.strings("id").last == "0.5")
        let early = try csv("big-early", "id\n9007199254740993\n0.5\n").table
        #expect(early.strings("id") == ["9007199254740993", "0.5"])
        // Small whole numbers become numbers as before.
        #expect(try csv("small-mixed", "x\n3\n0.5\n").table.values("x") == [.double(3), .double(0.5)])
        #expect(try csv("big-int", "id\n9007199254740993\n-9223372036854775808\n").table.values("id") == [.int(9_007_199_254_740_993), .int(.min)])
    }

    @Test func leadingZerosStayText() throws {
        let t = try csv("zeros", "zip,n\n007,1\n010,2\n123,3\n").table
        #expect(t.column("zip")?.type == .string)
        #expect(t.strings("zip") == ["007", "010", "123"])
        #expect(t.column("n")?.type == .int)
    }

    @Test func decimalCommasWithSemicolons() throws {
        let t = try csv("decimal-comma", "a;b\n3,25;1\n-1,5;2\n").table
        #expect(t.values("a") == [.double(3.25), .double(-1.5)])
        #expect(t.values("b") == [.int(1), .int(2)])
    }

    /// Behaviour Mapper's "Export Data": semicolons, but a decimal point (thesis, Figure 4-15).
    @Test func behaviourMapperExportWithDecimalPoints() throws {
        let text = """
        Time;Position;Angle in degrees;Note;Type;Icon
        04/05/2017, 23:21;(688.0, 500.5);999.0;;Sitting adult;16
        04/05/2017, 23:21;(166.0, 187.0);5.27389598979267;Stopped and talked on phone;Adult;1

        """
        let t = try csv("bm-export", text, zone: ZoneRules.named("Europe/Oslo")!).table
        #expect(t.columnNames == ["Time", "Position", "Angle in degrees", "Note", "Type", "Icon"])
        #expect(t.values("Angle in degrees") == [.double(999), .double(5.27389598979267)])
        #expect(t.values("Time") == [.timestamp(Reference.micros(2017, 5, 4, 23, 21, zone: "Europe/Oslo")),
                                     .timestamp(Reference.micros(2017, 5, 4, 23, 21, zone: "Europe/Oslo"))])
        #expect(t.strings("Position") == ["(688.0, 500.5)", "(166.0, 187.0)"])
        #expect(t.values("Note") == [.null, .string("Stopped and talked on phone")])
        #expect(t.values("Icon") == [.int(16), .int(1)])
    }

    @Test func headerNamesEmptyAndRepeated() throws {
        let empty = try csv("empty-header", "a,,c\n1,2,3\n")
        #expect(empty.table.columnNames == ["a", "column_2", "c"])
        #expect(empty.warnings.map(\.message) == ["column 2 has no name; called column_2"])
        let repeated = try csv("dup-header", "a,b,a,A, b \n1,2,3,4,5\n")
        #expect(repeated.table.columnNames == ["a", "b", "a_2", "A_3", "b_2"])
        #expect(repeated.table.values("a_2") == [.int(3)])
        #expect(repeated.warnings.count == 3)
    }

    @Test func unterminatedQuoteNamesLineAndColumn() throws {
        let text = "a,b\n1,2\n3,\"oops\n4,5\n"
        for chunk in [4 << 20, 16, 5] {
            var options = CSVOptions()
            options.chunkSize = chunk
            let e = try loadError { try csv("unterminated-\(chunk)", text, options: options) }
            #expect(e?.line == 3, "chunk \(chunk)")
            #expect(e?.column == 3, "chunk \(chunk)")
            #expect(e?.message == "a quoted cell is never closed (the file ends inside quotes)")
        }
    }

    @Test func emptyFilesAndHeaderOnly() throws {
        #expect(try loadError { try csv("empty", "") }?.message == "the file is empty")
        #expect(try loadError { try csv("blank-only", "\n\n\n") }?.message == "the file has no header line")
        let header = try csv("header-only", "a,b\n").table
        #expect(header.columnNames == ["a", "b"])
        #expect(header.rowCount == 0)
    }

    @Test func typesAreInferred() throws {
        let t = try csv("types", """
        i,d,b,iso,dayfirst,monthfirst,dur,clock,text,empty
        1,1.5,true,2017-03-23T08:15:00+01:00,23.03.2017 08:15,03/23/2017,45 mins,25:10:00,x,
        -2,2e3,FALSE,2017-03-23T09:00:00+01:00,24.03.2017 09:30,03/24/2017,1 hour 5 mins,7:05:00,y,

        """).table
        #expect(t.columns.map(\.type) == [.int, .double, .bool, .timestamp, .timestamp, .timestamp, .duration, .duration, .string, .null])
        #expect(t.values("b") == [.bool(true), .bool(false)])
        #expect(t.values("iso").first == .timestamp(Reference.micros(2017, 3, 23, 7, 15)))
        #expect(t.values("monthfirst").last == .timestamp(Reference.micros(2017, 3, 24)))
        #expect(t.values("dur") == [.duration(2_700_000_000), .duration(3_900_000_000)])
        #expect(t.column("clock")?.unit == .clock)
        #expect(t.column("dayfirst")?.floating == true)
        #expect(t.column("iso")?.floating == false)
        // The first time column was written with one offset throughout: the table shows times in it.
        #expect(t.zone.identifier == "+01:00")
    }

    @Test func spacesAroundCellsAreTrimmed() throws {
        let t = try csv("spaces", "a , b\n 1 , x y \n")
        #expect(t.table.columnNames == ["a", "b"])
        #expect(t.table.values("a") == [.int(1)])
        #expect(t.table.values("b") == [.string("x y")])
        // Inside quotes, spaces are part of the text.
        let quoted = try csv("spaces-quoted", "a,b\n\" x \", y \n\"  \",z\n").table
        #expect(quoted.values("a") == [.string(" x "), .string("  ")])
        #expect(quoted.values("b") == [.string("y"), .string("z")])
    }

    /// The same file read in chunks of every small size gives the same table.
    @Test func chunkBoundariesDoNotMatter() throws {
        var rng = SeededRandom(seed: 30)
        var text = "id,name,note,value\r\n"
        let pieces = ["plain", "\"quoted, with comma\"", "\"two\nlines\"", "\"doubled \"\" quote\"", "ünïcödé 😀", "", "\"\""]
        for i in 0..<120 {
            text += "\(i),\(pieces.randomElement(using: &rng)!),\(pieces.randomElement(using: &rng)!),\(Double(i) / 4)\r\n"
        }
        let reference = try csv("chunks-ref", text).table
        #expect(reference.rowCount == 120)
        for chunk in [1, 2, 3, 7, 13, 64, 1000] {
            var options = CSVOptions()
            options.chunkSize = chunk
            let t = try csv("chunks-\(chunk)", text, options: options).table
            #expect(t.columnNames == reference.columnNames, "chunk \(chunk)")
            for c in reference.columnNames where t.values(c) != reference.values(c) {
                Issue.record("chunk \(chunk): column \(c) differs")
            }
        }
    }
}

func jsonFile(_ name: String, _ text: String) throws -> String {
    try temporaryFile(name + ".json", text)
}

func loadJSON(_ name: String, _ text: String, at: String? = nil, zone: ZoneRules = .utc) throws -> LoadResult {
    try Loaders.load(LoadRequest(path: try jsonFile(name, text), name: name, at: at, zone: zone))
}

@Suite struct JSONTests {
    @Test func arrayOfObjects() throws {
        let t = try loadJSON("array", #"[{"a": 1, "b": "x"}, {"a": 2.5, "b": null, "c": true}, {}]"#).tables[0]
        #expect(t.columnNames == ["a", "b", "c"])
        #expect(t.values("a") == [.double(1), .double(2.5), .null])
        #expect(t.values("b") == [.string("x"), .null, .null])
        #expect(t.values("c") == [.null, .bool(true), .null])
        #expect(try loadJSON("empty-array", "[]").tables[0].rowCount == 0)
    }

    @Test func newlineDelimited() throws {
        for (name, text) in [("nd", "{\"a\": 1, \"s\": \"x\"}\n{\"a\": 2, \"s\": \"y\"}\n"), ("nd-crlf", "{\"a\": 1, \"s\": \"x\"}\r\n{\"a\": 2, \"s\": \"y\"}"),
                             ("nd-blank", "\n{\"a\": 1, \"s\": \"x\"}\n\n{\"a\": 2, \"s\": \"y\"}\n\n")] {
            let t = try loadJSON(name, text).tables[0]
            #expect(t.values("a") == [.int(1), .int(2)], "\(name)")
            #expect(t.values("s") == [.string("x"), .string("y")], "\(name)")
        }
    }

    @Test func nestedObjectsFlattenAndArraysStayText() throws {
        let t = try loadJSON("nested", #"[{"p": {"x": 1, "y": {"z": "deep"}}, "tags": ["a", "b"], "q": 3}, {"p": {"x": 2}, "tags": [], "q": 4}]"#).tables[0]
        #expect(t.columnNames == ["p.x", "p.y.z", "tags", "q"])
        #expect(t.values("p.x") == [.int(1), .int(2)])
        #expect(t.values("p.y.z") == [.string("deep"), .null])
        // Arrays are kept as compact JSON text, however the file spaced them.
        #expect(t.values("tags") == [.string(#"["a","b"]"#), .string("[]")])
        #expect(t.column("tags")?.type == .string)
        // In a query, the dotted name is one column.
        let s = makeSession()
        s.workspace.put([t], makeCurrent: true)
        #expect(try s.table("where p.x > 1 | select q").strings("q") == ["4"])
    }

    @Test func rowsAtAPath() throws {
        let doc = #"{"meta": {"n": 2}, "a": {"b": [{"x": 1}, {"x": 2}], "c": [{"y": 1}]}}"#
        let t = try loadJSON("at-path", doc, at: "a.b").tables[0]
        #expect(t.values("x") == [.int(1), .int(2)])
        let e = try loadError { try loadJSON("at-missing", doc, at: "a.d") }
        #expect(e?.message == "there is nothing at a.d (arrays of objects here: a.b (2), a.c (1))")
        // Arrays along the way are searched through: routes[].lines[].
        let routes = #"{"routes": [{"lines": [{"name": "Line 1"}, {"name": "Line 2"}]}, {"lines": [{"name": "Line 3"}]}]}"#
        #expect(try loadJSON("at-arrays", routes, at: "routes.lines").tables[0].strings("name") == ["Line 1", "Line 2", "Line 3"])
        #expect(try loadJSON("at-brackets", routes, at: "routes[].lines[]").tables[0].rowCount == 3)
    }

    @Test func aTopLevelObjectNeedsAtWhenItHoldsSeveralArrays() throws {
        let e = try loadError { try loadJSON("object-several", #"{"stops": [{"id": 1}], "trips": [{"id": 2}, {"id": 3}], "n": 1}"#) }
        #expect(e?.message == "this JSON document is one object; say where its rows are with at PATH (arrays of objects here: stops (1), trips (2))")
        // One array of objects is the rows.
        let one = try loadJSON("object-one", #"{"count": 2, "items": [{"id": 1}, {"id": 2}]}"#).tables[0]
        #expect(one.values("id") == [.int(1), .int(2)])
    }

    @Test func escapesAndSurrogates() throws {
        let text = #"[{"s": "caf\u00e6 \"q\" \\ \/ \n\t \ud83d\ude00 😀 \ud800x \udc00 end"}]"#
        let t = try loadJSON("escapes", text).tables[0]
        #expect(t.values("s") == [.string("cafæ \"q\" \\ / \n\t 😀 😀 \u{FFFD}x \u{FFFD} end")])
        let doc = try parseJSONDocument(bytes: Array(#"{"s": "caf\u00E6 \ud83d\ude00 \ud800"}"#.utf8), path: "x")
        #expect(doc["s"] == .string("cafæ 😀 \u{FFFD}"))
    }

    @Test func numbersWithExponents() throws {
        let t = try loadJSON("numbers", #"[{"n": 1e3, "m": -2.5E-2, "k": 0, "big": 12345678901234567890, "neg": -0.5, "i": -7}]"#).tables[0]
        #expect(t.values("n") == [.double(1000)])
        #expect(t.values("m") == [.double(-0.025)])
        #expect(t.values("k") == [.int(0)])
        // Past 64 bits a whole number is kept as written, as text.
        #expect(t.values("big") == [.string("12345678901234567890")])
        #expect(t.values("neg") == [.double(-0.5)])
        #expect(t.values("i") == [.int(-7)])
        let doc = try parseJSONDocument(bytes: Array("[0.5, 1E+2, -0, 3]".utf8), path: "x")
        #expect(doc == .array([.number(0.5, isInteger: false), .number(100, isInteger: false), .number(0, isInteger: true), .number(3, isInteger: true)]))
    }

    @Test func syntaxErrorsNameLineAndColumn() throws {
        let text = "[\n  {\"a\": 1},\n  {\"a\": 2,}\n]\n"
        let e = try loadError { try loadJSON("syntax", text) }
        #expect(e?.line == 3)
        #expect(e?.column == 11)
        #expect(e?.message == "invalid JSON: expected a member name in quotes, found '}'")
        let doc = try loadError { try loadJSON("syntax-doc", "{\n  \"a\": [1, 2,\n  \"b\": 3\n}") }
        #expect(doc?.line == 3)
        #expect(doc?.column == 6)
        #expect(doc?.message == "invalid JSON: expected ',' or ']' in an array, found ':'")
        let open = try loadError { try loadJSON("syntax-open", "[{\"a\": 1}") }
        #expect(open?.message == "invalid JSON: the array is not closed with ']'")
        let string = try loadError { try loadJSON("syntax-string", "[{\"a\": \"x\ny\"}]") }
        #expect(string?.message == "invalid JSON: a string is not closed before the end of the line")
        #expect(string?.line == 1 && string?.column == 8)
        // Past the first chunk, the position is still counted from the start of the file.
        let late = try jsonFile("syntax-late", "[\n" + String(repeating: "{\"a\": 1},\n", count: 50) + "{\"a\": ?}\n]")
        let e2 = try loadError { try JSONRecordLoader.load(path: late, name: "late", zone: .utc, chunkSize: 64) }
        #expect(e2?.line == 52)
        #expect(e2?.column == 7)
    }

    /// Records cut by the end of a chunk anywhere (inside strings, escapes, numbers, literals)
    /// must read as when the file is read whole.
    @Test func recordsSplitAcrossChunkBoundaries() throws {
        var rng = SeededRandom(seed: 31)
        let strings = [#"plain"#, #"caf\u00e6"#, #"\ud83d\ude00 smile"#, #"q\"uote\\d"#, "ünï😀", #"tab\there"#, ""]
        var records: [String] = []
        for i in 0..<80 {
            let s = strings.randomElement(using: &rng)!
            let n = ["\(i)", "\(Double(i) / 8)", "-1.5e-3", "true", "false", "null"].randomElement(using: &rng)!
            records.append(#"{"id": \#(i), "s": "\#(s)", "v": \#(n), "p": {"x": \#(i * 2)}, "tags": ["a", {"b": "c"}]}"#)
        }
        for (layout, text) in [("array", "[\n" + records.joined(separator: ",\n") + "\n]\n"), ("lines", records.joined(separator: "\n") + "\n")] {
            let path = try jsonFile("chunks-" + layout, text)
            let whole = try JSONRecordLoader.load(path: path, name: "t", zone: .utc).table
            #expect(whole.rowCount == 80)
            for chunk in [1, 2, 3, 5, 8, 17, 64, 300] {
                do {
                    let t = try JSONRecordLoader.load(path: path, name: "t", zone: .utc, chunkSize: chunk).table
                    #expect(t.columnNames == whole.columnNames, "\(layout) chunk \(chunk)")
                    for c in whole.columnNames where t.values(c) != whole.values(c) {
                        Issue.record("\(layout) chunk \(chunk): column \(c) differs")
                    }
                } catch {
                    Issue.record("\(layout) chunk \(chunk): \(error)")
                }
            }
        }
    }

    @Test func typesOfJSONColumns() throws {
        let t = try loadJSON("json-types", #"[{"t": "2017-03-23T08:15:00+01:00", "d": "45 mins", "code": "007", "n": "123", "mixed": 1}, {"t": "2017-03-24T08:15:00+01:00", "d": "1 hour 5 mins", "code": "010", "n": "45", "mixed": "x"}]"#).tables[0]
        #expect(t.column("t")?.type == .timestamp)
        #expect(t.column("d")?.type == .duration)
        // Quoted numbers in JSON were written as text on purpose.
        #expect(t.column("code")?.type == .string)
        #expect(t.column("n")?.type == .string)
        #expect(t.strings("mixed") == ["1", "x"])
    }

    @Test func lateColumnsAndLateTypeChanges() throws {
        // A column that first appears after the sample, and a number column that later holds text.
        var records = (0..<2500).map { #"{"a": \#($0)}"# }
        records.append(#"{"a": "many", "late": "2017-03-23T08:15:00Z"}"#)
        let t = try loadJSON("late", "[" + records.joined(separator: ",") + "]").tables[0]
        #expect(t.column("a")?.type == .string)
        #expect(t.strings("a").prefix(2) == ["0", "1"])
        #expect(t.strings("a").last == "many")
        #expect(t.column("late")?.type == .timestamp)
        #expect(t.values("late").first == .null)
        #expect(t.values("late").last == .timestamp(Reference.micros(2017, 3, 23, 8, 15)))
    }
}

@Suite struct BehaviourMapperTests {
    static func project(underscore: Bool, points: [String], angles: [String], times: [String]) -> String {
        let u = underscore ? "_" : ""
        let legends = [("Walking", 1), ("Bike", 2), ("Sitting", 8)]
        let entryLegends = ["Bike", "Walking", "Sitting", "Bike"]
        var entries: [String] = []
        for k in 0..<entryLegends.count {
            let icon = legends.first { $0.0 == entryLegends[k] }!.1
            entries.append("""
            {"\(u)time": "\(times[k])", "\(u)position": \(points[k]), "\(u)angleInDegrees": \(angles[k]), "\(u)note": "n\(k)", "\(u)tagId": \(k), "\(u)legend": {"\(u)name": "\(entryLegends[k])", "\(u)icon": \(icon)}}
            """)
        }
        return """
        {"\(u)name": "Test square", "\(u)legends": [\(legends.map { "{\"\(u)name\": \"\($0.0)\", \"\(u)icon\": \($0.1)}" }.joined(separator: ", "))],
         "\(u)entries": [\(entries.joined(separator: ",\n"))]}
        """
    }

    static let points = [#"{"x": 688.0, "y": 500.5}"#, "[166.0, 187.0]", #""(12.5, 3)""#, #"{"x": 1, "y": 2}"#]
    static let angles = ["999", "5.27389598979267", "-180", "999.0"]
    static let times = ["2017-03-23T08:15:12+0100", "2017-03-23T08:16:00+01:00", "2017-03-23 12:00", "23.03.2017 23:45"]

    @Test func bothSpellingsGiveTheSameTables() throws {
        let plain = try loadJSON("bm-plain", Self.project(underscore: false, points: Self.points, angles: Self.angles, times: Self.times))
        let under = try loadJSON("bm-under", Self.project(underscore: true, points: Self.points, angles: Self.angles, times: Self.times))
        #expect(plain.tables.map(\.name) == ["bm-plain", "bm-plain.legends"])
        for (a, b) in zip(plain.tables, under.tables) {
            #expect(a.columnNames == b.columnNames)
            for c in a.columnNames { #expect(a.values(c) == b.values(c), "\(c)") }
        }
        #expect(plain.tables[0].columnNames == ["time", "legend", "icon", "x", "y", "angle", "note", "tag"])
    }

    @Test func entriesReadEveryPointSpellingAngleAndTime() throws {
        let result = try loadJSON("bm_values", Self.project(underscore: true, points: Self.points, angles: Self.angles, times: Self.times))
        let t = result.tables[0]
        #expect(t.values("x") == [688, 166, 12.5, 1].map { .double($0) })
        #expect(t.values("y") == [500.5, 187, 3, 2].map { .double($0) })
        // 999 means "no direction".
        #expect(t.values("angle") == [.null, .double(5.27389598979267), .double(-180), .null])
        // Times with an offset keep it; times without one are wall clock in Europe/Oslo.
        #expect(t.zone.identifier == "Europe/Oslo")
        #expect(t.values("time") == [Reference.micros(2017, 3, 23, 7, 15, 12), Reference.micros(2017, 3, 23, 7, 16),
                                     Reference.micros(2017, 3, 23, 11, 0), Reference.micros(2017, 3, 23, 22, 45)].map { .timestamp($0) })
        #expect(t.timeColumn == "time")
        #expect(t.values("icon") == [2, 1, 8, 2].map { .int($0) })
        #expect(t.strings("note") == ["n0", "n1", "n2", "n3"])
        #expect(result.summary == "bm_values: 4 entries, 3 legends · 2017-03-23 08:15 → 23:45 (Europe/Oslo)")
    }

    @Test func legendsKeepTheProjectsOrder() throws {
        let result = try loadJSON("bm_order", Self.project(underscore: false, points: Self.points, angles: Self.angles, times: Self.times))
        let s = makeSession()
        s.workspace.put(result.tables, makeCurrent: true)
        // Walking, Bike, Sitting is the project's order, not the alphabet's or the entries'.
        #expect(try s.table("count by legend").strings("legend") == ["Walking", "Bike", "Sitting"])
        #expect(try s.table("count by legend").strings("count") == ["1", "2", "1"])
        let legends = try s.table("bm_order.legends")
        #expect(legends.strings("legend") == ["Walking", "Bike", "Sitting"])
        #expect(legends.strings("icon") == ["1", "2", "8"])
        #expect(legends.strings("entries") == ["1", "2", "1"])
    }

    @Test func entriesMayNameLegendsTheListLacks() throws {
        let doc = #"{"legends": [{"name": "Walking", "icon": 1}], "entries": [{"time": "2017-03-23T08:15:00+0100", "position": [1, 2], "angleInDegrees": 10, "legend": {"name": "Dog walking", "icon": 4}}, {"time": "bad", "position": "nowhere", "legend": {"name": "Walking"}}]}"#
        let result = try loadJSON("bm-extra", doc)
        #expect(result.tables[1].strings("legend") == ["Walking", "Dog walking"])
        #expect(result.tables[0].values("icon") == [.int(4), .int(1)])
        #expect(result.tables[0].values("time").last == .null)
        #expect(result.tables[0].values("x").last == .null)
        #expect(result.warnings.map(\.message) == ["entry 2 has no time I can read", "entry 2 has no position I can read"])
    }

    @Test func theShippedStudyMatchesTheThesisTable() throws {
        let s = makeSession()
        #expect(s.failure("load datasets/market.json") == nil)
        let t = try s.table("count by legend")
        #expect(t.strings("legend") == ["Walking", "Bike", "Stroller", "Dog walking", "Jogging", "Standing", "Sitting"])
        #expect(t.strings("count") == ["451", "21", "12", "1", "1", "21", "9"])
        let hours = try s.table("count by hour")
        #expect(hours.strings("hour") == ["8", "12", "16", "19", "23"])
        #expect(hours.strings("count") == ["36", "154", "145", "103", "78"])
    }

    @Test func aFailedLoadLeavesTheTablesAsTheyWere() throws {
        let s = makeSession()
        #expect(s.failure("load datasets/market.json") == nil)
        let before = s.catalog.names
        let broken = try jsonFile("bm-broken", "{\"legends\": [], \"entries\": [ {\"time\": 1,, ]}")
        let d = s.failure("load \(broken) as market")
        #expect(d?.message.hasPrefix("cannot load ") == true)
        #expect(d?.message.contains(":1:") == true)
        #expect(s.catalog.names == before)
        #expect(s.currentTable == "market")
        #expect(try s.table("count").strings("count") == ["516"])
        #expect(s.failure("load no/such/file.json")?.message == "cannot load no/such/file.json: no such file")
        #expect(s.catalog.names == before)
        let csvPath = try temporaryFile("bm-broken.csv", "a,b\n1,\"open\n")
        #expect(s.failure("load \(csvPath) as market") != nil)
        #expect(try s.table("count").strings("count") == ["516"])
    }
}
