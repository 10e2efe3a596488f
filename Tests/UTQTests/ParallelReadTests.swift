import Foundation
import Testing
@testable import UTQCore

/// The fast readers (parts read in parallel, small chunks, records cut at chunk ends, the
/// fixed-position time parser) must give exactly what the simple paths give.
@Suite struct ParallelReadTests {
    /// Every cell of two tables, as text, column by column.
    func cells(_ t: Table) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for c in t.columns { out[c.name] = t.strings(c.name) }
        return out
    }

    /// The first cell where two tables differ, or nil.
    func difference(_ a: Table, _ b: Table) -> String? {
        if a.columnNames != b.columnNames { return "columns \(a.columnNames) vs \(b.columnNames)" }
        if a.rowCount != b.rowCount { return "rows \(a.rowCount) vs \(b.rowCount)" }
        for c in a.columnNames {
            let x = a.strings(c), y = b.strings(c)
            if a.column(c)?.type != b.column(c)?.type { return "\(c): \(a.column(c)!.type) vs \(b.column(c)!.type)" }
            for i in x.indices where x[i] != y[i] { return "\(c) row \(i): \(x[i].prefix(80)) vs \(y[i].prefix(80))" }
        }
        return nil
    }

    func awkwardCSV(rows: Int, seed: UInt64) -> String {
        let rng = SystemRandomNumberGenerator()
        _ = rng
        var state = seed
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        var out = "id,when,text,value,flag\r\n"
        let texts = ["plain", "with, comma", "with \"quotes\"", "line\nbreak", "  spaced  ", "", "ünïcødé ✓", "semi;colon",
                     String(repeating: "long ", count: 400)]
        for i in 0..<rows {
            let day = 20 + Int(next() % 15)  // across the end of summer time on 2017-10-29
            let hour = Int(next() % 24)
            let offset = (day < 29 || (day == 29 && hour < 2)) ? "+02:00" : "+01:00"
            let when = "2017-10-\(day)T\(hour < 10 ? "0" : "")\(hour):\(10 + Int(next() % 50)):05\(offset)"
            let t = texts[Int(next() % UInt64(texts.count))]
            let quoted = t.contains(",") || t.contains("\"") || t.contains("\n") || t.hasPrefix(" ")
                ? "\"" + t.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : t
            let value = ["1.5", "-2e3", "3.25E-2", "7", "", "1234567.125"][Int(next() % 6)]
            out += "\(i),\(when),\(quoted),\(value),\(next() % 2 == 0 ? "true" : "false")" + (i % 3 == 0 ? "\r\n" : "\n")
        }
        return out
    }

    @Test func csvInPartsAndSmallChunksEqualsOnePiece() throws {
        let path = try temporaryFile("awkward.csv", awkwardCSV(rows: 3000, seed: 7))
        let zone = ZoneRules.named("Europe/Oslo")!
        var whole = CSVOptions()
        whole.parts = 1
        let a = try CSVLoader.load(path: path, name: "t", zone: zone, options: whole).table
        for (parts, chunk) in [(2, 4096), (3, 257), (5, 64)] {
            var options = CSVOptions()
            options.parts = parts
            options.chunkSize = chunk
            let b = try CSVLoader.load(path: path, name: "t", zone: zone, options: options).table
            #expect(b.rowCount == 3000)
            #expect(difference(a, b) == nil, "parts \(parts), chunk \(chunk)")
        }
        // And the text cells are what a plain reading of the file gives.
        let reference = simpleCSV(try String(contentsOfFile: path, encoding: .utf8))
        let texts = a.strings("text")
        #expect(reference.count == 3001)
        var mismatches: [String] = []
        for (i, row) in reference.dropFirst().enumerated() {
            let expected = row[2].isEmpty ? "null" : row[2]
            if texts[i] != expected { mismatches.append("row \(i): \(texts[i].prefix(40).debugDescription) vs \(expected.prefix(40).debugDescription)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }

    /// Parts are cut at line breaks without reading what comes before, so a cut can fall
    /// inside a quoted cell; the load must then give what one piece gives, and warnings in
    /// later parts must name the file's lines, not lines counted from a cut.
    @Test func cutsInsideQuotesAndLateWarningsEqualOnePiece() throws {
        var text = "id,note,value\n"
        for i in 0..<400 {
            // Every line but the header is inside one long quoted cell of many lines, or
            // a row with a cell too many.
            if i % 100 == 50 { text += "\(i),\"a\nb\",1,extra\n"; continue }
            text += "\(i),\"" + String(repeating: "line \(i)\n", count: 20) + "\",\(i)\n"
        }
        let path = try temporaryFile("quoted-lines.csv", text)
        let zone = ZoneRules.utc
        var whole = CSVOptions()
        whole.parts = 1
        let a = try CSVLoader.load(path: path, name: "t", zone: zone, options: whole)
        for parts in [2, 3, 7] {
            var options = CSVOptions()
            options.parts = parts
            options.chunkSize = 1024
            let b = try CSVLoader.load(path: path, name: "t", zone: zone, options: options)
            #expect(difference(a.table, b.table) == nil, "parts \(parts)")
            #expect(b.warnings.map(\.description) == a.warnings.map(\.description), "parts \(parts)")
        }
        #expect(a.warnings.map(\.line) == [1052, 3133, 5214, nil], "\(a.warnings.map(\.description))")
        // Short rows without quotes are cut where the guess is right, and their warnings
        // still name the file's lines.
        var plain = "a,b\n"
        for i in 0..<5000 { plain += i == 4321 ? "1,2,3\n" : "\(i),x\n" }
        let plainPath = try temporaryFile("plain-late-warning.csv", plain)
        var three = CSVOptions()
        three.parts = 3
        three.chunkSize = 4096
        let c = try CSVLoader.load(path: plainPath, name: "t", zone: zone, options: three)
        #expect(c.table.rowCount == 5000)
        #expect(c.warnings.first?.description.contains(":4323:") == true, "\(c.warnings.map(\.description))")
    }

    /// A deliberately plain CSV reader: a character at a time, with a quote state.
    func simpleCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = ""
        var inQuotes = false, quoted = false
        // Unquoted cells lose the spaces around them, as utq reads them.
        func finish() -> String {
            defer { field = ""; quoted = false }
            return quoted ? field : field.trimmingCharacters(in: .whitespaces)
        }
        var chars = Array(text)
        chars.append("\n")
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if inQuotes {
                if c == "\"" {
                    if i + 1 < chars.count && chars[i + 1] == "\"" { field.append("\""); i += 1 } else { inQuotes = false }
                } else { field.append(c) }
            } else if c == "\"" { inQuotes = true; quoted = true }
            else if c == "," { row.append(finish()) }
            else if c == "\n" || c == "\r\n" || c == "\r" {
                row.append(finish())
                if row != [""] { rows.append(row) }
                row = []
            } else { field.append(c) }
            i += 1
        }
        return rows
    }

    func awkwardJSON(records: Int, lines: Bool) -> String {
        var items: [String] = []
        let texts = [#"plain"#, #"tab\tand \"quotes\""#, #"\u00e6\u00f8\u00e5"#, #"emoji \ud83d\ude00 pair"#,
                     #"lone \ud800 surrogate"#, #"slash \/ back \\"#, String(repeating: "x", count: 3000)]
        for i in 0..<records {
            let t = texts[i % texts.count]
            let number = ["1", "-2.5", "6.02e23", "1E-7", "0", "123456789012"][i % 6]
            let nested = i % 4 == 0 ? #", "position": {"x": \#(i), "y": [1, 2]}"# : ""
            items.append(#"{"id": \#(i), "text": "\#(t)", "n": \#(number), "ok": \#(i % 2 == 0), "when": "2017-03-26T0\#(i % 4):30:00+0\#(i % 4 < 2 ? 1 : 2)00"\#(nested), "missing": null}"#)
        }
        return lines ? items.joined(separator: "\n") + "\n" : "[\n" + items.joined(separator: ",\n") + "\n]\n"
    }

    @Test(arguments: [false, true])
    func jsonInPartsEqualsTheDocumentReader(lines: Bool) throws {
        let path = try temporaryFile(lines ? "awkward.ndjson" : "awkward.json", awkwardJSON(records: 2000, lines: lines))
        let zone = ZoneRules.utc
        let fast = try JSONRecordLoader.load(path: path, name: "t", zone: zone, chunkSize: 1 << 20, parts: 1).table
        for (parts, chunk) in [(2, 1024), (4, 97)] {
            let b = try JSONRecordLoader.load(path: path, name: "t", zone: zone, chunkSize: chunk, parts: parts).table
            #expect(difference(fast, b) == nil, "parts \(parts), chunk \(chunk)")
        }
        // The document reader builds the same table by a different road.
        if !lines {
            let doc = try parseJSONDocument(path: path)
            let simple = try RecordTable.build(doc.array!, name: "t", zone: zone, path: path)
            #expect(difference(fast, simple) == nil)
        }
        #expect(fast.strings("text")[3] == "emoji 😀 pair")
        #expect(fast.strings("text")[4] == "lone \u{FFFD} surrogate")
        #expect(fast.strings("n")[2] == "6.02e+23")
    }

    /// An array on one line (as APIs write it) is cut at `},{"name`: with strings that hold
    /// the same characters escaped, objects nested in arrays whose first name is the records',
    /// a byte-order mark and each way of spacing, every number of parts gives the table of one piece.
    @Test(arguments: ["compact", "spaced", "nested", "bom"])
    func oneLineArraysInPartsEqualOnePiece(variant: String) throws {
        var items: [String] = []
        for i in 0..<600 {
            let text = [#"a},{\"id\": 1"#, #"plain"#, #"\\"#, #"},{"#, #"é \ud83d\ude00"#][i % 5]
            let nested = variant == "nested" && i % 3 == 0 ? #","stops":[{"id":\#(i)},{"id":\#(i + 1),"t":"x"}]"# : ""
            items.append(#"{"id":\#(i),"text":"\#(text)","n":\#(Double(i) / 4)\#(nested)}"#)
        }
        var document = "[" + items.joined(separator: ",") + "]"
        if variant == "spaced" { document = "[ " + items.joined(separator: " ,\t") + " ]\t\n" }
        if variant == "bom" { document = "\u{FEFF}" + document }
        let path = try temporaryFile("oneline-\(variant).json", document)
        let zone = ZoneRules.utc
        let whole = try JSONRecordLoader.load(path: path, name: "t", zone: zone, chunkSize: 1 << 20, parts: 1).table
        #expect(whole.rowCount == 600)
        for parts in 2...12 {
            for chunk in [1 << 20, 333] {
                let t = try JSONRecordLoader.load(path: path, name: "t", zone: zone, chunkSize: chunk, parts: parts).table
                #expect(difference(whole, t) == nil, "\(variant): \(parts) parts, chunk \(chunk)")
            }
        }
        // The compact document is really cut, each part starting at a record.
        if variant == "compact" {
            let source = try FileSource(path: path)
            let cuts = try jsonSplitPoints(source, from: 1, parts: 8, layout: .array)
            #expect(cuts.count == 7)
            let bytes = Array(document.utf8)
            for cut in cuts { #expect(bytes[cut] == UInt8(ascii: "{") && bytes[cut - 1] == UInt8(ascii: ",")) }
        }
    }

    /// Strings are scanned eight bytes at a time: a quote, backslash, escape or control byte
    /// at every position of the word must read as Foundation's JSONSerialization reads it.
    @Test func stringsReadWordAtATimeEqualFoundation() throws {
        let specials = [#"\""#, #"\\"#, #"\n"#, "\t", "é", #"\u00e9"#, #"\ud83d\ude00"#, "~", "\u{7F}", "\u{1F}"]
        for special in specials {
            for before in 0..<18 {
                for after in [0, 1, 7, 8, 9] {
                    let text = "[\"" + String(repeating: "a", count: before) + special + String(repeating: "b", count: after) + "\"]"
                    let bytes = Array(text.utf8)
                    // Raw control bytes, which strict JSON refuses, are kept as they are.
                    let raw = special.unicodeScalars.first!.value < 0x20
                    let expected = raw ? [String(text.dropFirst(2).dropLast(2))]
                        : try JSONSerialization.jsonObject(with: Data(bytes), options: []) as! [String]
                    let value = try bytes.withUnsafeBytes { b -> JSONValue in
                        var r = JSONReader(b)
                        return try r.parseDocument()
                    }
                    #expect(value == .array([.string(expected[0])]), "\(text)")
                }
            }
        }
        // A raw line break ends an unclosed string wherever it falls in the word.
        for before in 0..<18 {
            let bytes = Array(("[\"" + String(repeating: "a", count: before) + "\n\"]").utf8)
            #expect(throws: (any Error).self) {
                try bytes.withUnsafeBytes { b in var r = JSONReader(b); _ = try r.parseDocument() }
            }
        }
    }

    @Test func fixedPositionTimesEqualTheGeneralParser() {
        var state: UInt64 = 99
        func next(_ n: UInt64) -> Int { state = state &* 6364136223846793005 &+ 1; return Int((state >> 33) % n) }
        var cache = TimestampParser.DayCache()
        for _ in 0..<20000 {
            let y = 1900 + next(250), m = 1 + next(12), d = 1 + next(31)
            let sep = next(2) == 0 ? "T" : " "
            let frac = next(3) == 0 ? ".\(next(1_000_000))" : ""
            let zones = ["", "Z", "+01:00", "-0530", "+14:00", "+02"]
            let text = String(format: "%04d-%02d-%02d%@%02d:%02d:%02d%@%@", y, m, d, sep, next(25), next(61), next(61), frac, zones[next(6)])
            var copy = text
            let fast = copy.withUTF8 { TimestampParser.parseFast(UnsafeRawBufferPointer($0), order: .dayFirst, cache: &cache) }
            let slow = TimestampParser.parse(text)
            #expect(fast == slow, "\(text)")
        }
    }
}
