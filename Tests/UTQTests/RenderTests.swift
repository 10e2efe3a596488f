import Foundation
import Testing
@testable import UTQCore

/// Render: aligned tables for people, machine formats that read back to the same values,
/// and errors with a caret under the right place.
@Suite struct TableRendererTests {
    let options = RenderOptions(width: 100, maxRows: 40, charset: .unicode, color: false)

    func lines(_ t: Table, _ o: RenderOptions? = nil) -> [String] {
        TableRenderer.render(t, options: o ?? options).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func numbersRightTextLeft() {
        let t = Table(name: "t", columns: [Column.texts("name", ["Bike", "Walking"]), Column.ints("count", [21, 451]),
                                           Column.doubles("share", [0.5, 12.25])])
        #expect(lines(t) == [
            "name     count  share",
            "───────  ─────  ─────",
            "Bike        21   0.50",
            "Walking    451  12.25",
            "2 rows",
        ])
        #expect(lines(t, RenderOptions(width: 100, maxRows: 40, charset: .ascii, color: false))[1] == "-------  -----  -----")
        #expect(TableRenderer.render(t, options: options, footer: "[3]").hasSuffix("\n[3] 2 rows\n"))
    }

    @Test func wideCharactersTakeTwoCells() {
        #expect(TextWidth.of("東京") == 4)
        #expect(TextWidth.of("😀") == 2)
        #expect(TextWidth.of("é") == 1)
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.of("a\u{200B}b") == 2)
        let t = Table(name: "t", columns: [Column.texts("place", ["東京", "Oslo", "😀 x"]), Column.ints("n", [1, 22, 333])])
        let out = lines(t)
        #expect(out[0] == "place    n")
        // Every line puts the number column at the same terminal column, whatever the characters.
        let rows = out[2...4]
        #expect(rows.map { TextWidth.of($0) } == [10, 10, 10])
        #expect(rows.map { String($0.prefix { $0 != " " }) } == ["東京", "Oslo", "😀"])
        #expect(out[2] == "東京     1")
    }

    @Test func longTextIsCutWithAnEllipsis() {
        #expect(TextWidth.truncate("abcdefghij", to: 5) == "abcd…")
        #expect(TextWidth.truncate("東京東京", to: 5) == "東京…")
        #expect(TextWidth.truncate("abc", to: 3) == "abc")
        let t = Table(name: "t", columns: [Column.texts("note", [String(repeating: "x", count: 200)])])
        let out = lines(t, RenderOptions(width: 40, maxRows: 40, charset: .unicode, color: false))
        #expect(TextWidth.of(out[2]) == 20)  // half the width at most
        #expect(out[2].hasSuffix("…"))
    }

    @Test func longResultsShowHeadAndTail() {
        let t = Table(name: "t", columns: [Column.ints("i", (0..<100).map { Int64($0) })])
        let out = lines(t, RenderOptions(width: 100, maxRows: 10, charset: .unicode, color: false))
        // 10 rows: the first 8, a mark, the last 2, then the count and what was left out.
        #expect(out.count == 2 + 8 + 1 + 2 + 1)
        #expect(out[2...9].map { $0.trimmingCharacters(in: .whitespaces) } == (0..<8).map(String.init))
        #expect(out[10].trimmingCharacters(in: .whitespaces) == "⋮")
        #expect(out[11...12].map { $0.trimmingCharacters(in: .whitespaces) } == ["98", "99"])
        #expect(out.last == "100 rows (90 not shown; set maxrows to see more)")
        #expect(lines(t, RenderOptions(width: 100, maxRows: 10, charset: .ascii, color: false))[10].trimmingCharacters(in: .whitespaces) == "...")
        // At the limit nothing is cut.
        #expect(lines(Table(name: "t", columns: [Column.ints("i", (0..<10).map { Int64($0) })]), RenderOptions(width: 100, maxRows: 10)).count == 13)
    }

    @Test func wideTablesAreCutWithANoteOfTheRest() {
        let columns = (1...30).map { Column.ints("column\($0)", [Int64($0)]) }
        let out = lines(Table(name: "t", columns: columns), RenderOptions(width: 60, maxRows: 40))
        // Columns seven wide, two spaces apart: six take 7 + 5 × 9 = 52; a seventh would make 61.
        #expect(out.dropLast().allSatisfy { TextWidth.of($0) <= 60 })
        #expect(out[0].split(separator: " ").count == 6)
        #expect(out.last == "1 row · 24 more columns: column7, column8, column9, column10, column11, column12, …")
        let one = lines(Table(name: "t", columns: [Column.ints("a", [1]), Column.ints("b", [2])]), RenderOptions(width: 20, maxRows: 40))
        #expect(one.last == "1 row")
    }

    @Test func nullsAreADotOrNull() {
        let t = Table(name: "t", columns: [Column.ints("n", [1, nil]), Column.texts("s", [nil, "x"])])
        let out = lines(t)
        #expect(out[2] == "1  ·")
        #expect(out[3] == "·  x")
        let ascii = lines(t, RenderOptions(width: 100, maxRows: 40, charset: .ascii))
        #expect(ascii[2] == "   1  null")
        #expect(ascii[3] == "null  x")
    }

    @Test func controlCharactersInDataCannotReachTheTerminal() {
        let evil = ["\u{1B}[31mred\u{1B}[0m", "bell\u{07}", "two\nlines", "csi\u{9B}2J", "tab\there", "ok"]
        let t = Table(name: "t", columns: [Column.texts("v", evil), Column.texts("\u{1B}]0;title\u{07}", evil)])
        let text = TableRenderer.render(t, options: options)
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) })
        #expect(text.contains("\\u{1b}[31mred\\u{1b}[0m"))
        #expect(text.contains("two\\nlines"))
        #expect(text.contains("tab\\there"))
        #expect(text.contains("csi\\u{9b}2J"))
        #expect(TextWidth.printable("plain é 東京") == "plain é 東京")
        // Markdown and error lines go through the same escaping.
        #expect(!TableWriter.markdown(t).unicodeScalars.contains { $0.value == 0x1B })
        // CSV and TSV keep cells as they are for files; for a terminal the shell escapes them
        // line by line, keeping the line breaks and the TSV's tabs.
        for format in [OutputFormat.csv, .tsv] {
            let raw = TableWriter.text(t, format: format, options: options)
            #expect(raw.unicodeScalars.contains { $0.value == 0x1B })
            let shown = TextWidth.printableLines(raw, keepingTabs: true)
            #expect(!shown.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F })
            #expect(shown.split(separator: "\n").count == raw.split(separator: "\n").count)
            if format == .tsv { #expect(shown.split(separator: "\n").first?.split(separator: "\t").count == 2) }
        }
    }

    @Test func decimalsPerColumn() {
        #expect(CellFormat.decimals(for: [1, 2.5, 3.25]) == 2)
        #expect(CellFormat.decimals(for: [1, 2, 3]) == 0)
        #expect(CellFormat.decimals(for: [1.0 / 3]) == 4)
        #expect(CellFormat.decimals(for: [1_000_000.5]) == 1)
        #expect(CellFormat.decimals(for: [123_456.789]) == 3)  // up to four decimals, whatever comes before the point
        #expect(CellFormat.decimals(for: [.nan, .infinity, 2.5]) == 1)
        let t = Table(name: "t", columns: [Column.doubles("a", [1, 2.5, 3.25]), Column.doubles("b", [1.0 / 3, 2, nil])])
        let out = lines(t)
        // b shows four decimals in every row, so the points line up.
        #expect(out[2...4].map { $0 } == ["1.00  0.3333", "2.50  2.0000", "3.25       ·"])
    }

    @Test func timesAtTheirUnit() {
        let oslo = ZoneRules.named("Europe/Oslo")!
        let t = Table(name: "t", columns: [
            Column.timestamps("exact", [Reference.micros(2017, 3, 23, 7, 15, 12)]),
            Column.timestamps("minutes", [Reference.micros(2017, 3, 23, 7, 15)]),
            Column.timestamps("days", [Reference.micros(2017, 3, 22, 23)]),
            Column.durations("wait", [3_900_000_000]),
            Column.durations("clock", [90_600_000_000], unit: .clock),
        ], zone: oslo)
        #expect(lines(t)[2] == "2017-03-23 08:15:12  2017-03-23 08:15  2017-03-23  1 h 05 min  25:10:00")
    }
}

@Suite struct TableWriterTests {
    static let oslo = ZoneRules.named("Europe/Oslo")!

    static let table = Table(name: "t", columns: [
        Column.texts("text", ["plain", "with, comma", "say \"hi\"", "two\nlines", " padded ", "tab\there", "back\\slash", nil, "", "a|b", "=1+1"]),
        Column.doubles("x", [1.5, -2, 1e300, -0.1, 1e-7, 123456789.125, 0.1 + 0.2, nil, 2, 3, 4]),
        Column.ints("n", [1, 2, 3, 4, 5, 6, 7, 8, nil, 10, 11]),
        Column.timestamps("time", Array(repeating: Reference.micros(2017, 3, 23, 7, 15, 12), count: 10) + [nil]),
        Column.bools("ok", [true, false, nil, true, true, true, true, true, true, true, true]),
        Column.durations("wait", Array(repeating: 3_900_500_000, count: 11)),
    ], zone: oslo)

    @Test func csvQuotesWhatItMustAndReadsBack() throws {
        let text = TableWriter.text(Self.table, format: .csv)
        let lines = text.components(separatedBy: "\n")
        #expect(lines[0] == "text,x,n,time,ok,wait")
        #expect(lines[1] == "plain,1.5,1,2017-03-23T08:15:12+01:00,true,01:05:00.5")
        #expect(lines[2] == "\"with, comma\",-2,2,2017-03-23T08:15:12+01:00,false,01:05:00.5")
        #expect(lines[3] == "\"say \"\"hi\"\"\",1e+300,3,2017-03-23T08:15:12+01:00,,01:05:00.5")
        #expect(lines[4] == "\"two")
        #expect(text.contains("\" padded \""))
        // Read back with utq's own loader: every value the same.
        let path = try temporaryFile("writer-roundtrip.csv", text)
        let back = try CSVLoader.load(path: path, name: "back", zone: Self.oslo).table
        #expect(back.rowCount == Self.table.rowCount)
        #expect(back.values("n") == Self.table.values("n"))
        #expect(back.values("time") == Self.table.values("time"))
        #expect(back.values("ok") == Self.table.values("ok"))
        #expect(back.values("wait") == Self.table.values("wait"))
        #expect(back.values("x") == Self.table.values("x"))
        // Text comes back as written, spaces kept inside quotes; only the empty text reads as null.
        let expected = Self.table.values("text").map { v -> Value in if case .string(let s) = v, s.isEmpty { return .null }; return v }
        #expect(back.values("text") == expected)
    }

    @Test func csvSafeModeDisarmsFormulas() {
        let bytes = TableWriter.bytes(Self.table, format: .csv, csvSafe: true)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\n'=1+1,"))
        #expect(!TableWriter.text(Self.table, format: .csv).contains("'=1+1"))
    }

    @Test func tsvQuotesAsCSVDoesAndReadsBack() throws {
        let text = TableWriter.text(Self.table, format: .tsv)
        let lines = text.components(separatedBy: "\n")
        #expect(lines[0] == "text\tx\tn\ttime\tok\twait")
        #expect(lines[4] == "\"two")  // a line break is kept inside quotes, not written as \n
        #expect(text.contains("\n\"tab\there\"\t"))
        #expect(text.contains("\nback\\slash\t"))  // a backslash is only a backslash
        #expect(text.contains("\n\" padded \"\t"))
        let path = try temporaryFile("writer-roundtrip.tsv", text)
        let back = try CSVLoader.load(path: path, name: "back", zone: Self.oslo).table
        // An empty cell reads as missing, as in CSV.
        #expect(back.values("text") == Self.table.values("text").map { $0 == .string("") ? .null : $0 })
    }

    @Test func jsonIsValidAndNumbersStayExact() throws {
        for format in [OutputFormat.json, .ndjson] {
            let text = TableWriter.text(Self.table, format: format)
            let rows: [[String: Any]]
            if format == .json {
                rows = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [[String: Any]]
            } else {
                rows = try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            }
            #expect(rows.count == Self.table.rowCount)
            #expect(rows.map { $0["text"] as? String } == Self.table.values("text").map { if case .string(let s) = $0 { return s }; return nil })
            #expect(rows[7]["x"] is NSNull)
            #expect((rows[2]["x"] as? NSNumber)?.doubleValue == 1e300)
            #expect(text.contains(":0.30000000000000004,"))  // full precision (Foundation's reader rounds it)
            #expect((rows[5]["x"] as? NSNumber)?.doubleValue == 123456789.125)
            #expect((rows[4]["x"] as? NSNumber)?.doubleValue == 1e-7)
            #expect(rows[8]["n"] is NSNull)
            #expect(rows[0]["time"] as? String == "2017-03-23T08:15:12+01:00")
            #expect(rows[0]["ok"] as? Bool == true)
            #expect(rows[0]["wait"] as? String == "01:05:00.5")
        }
        #expect(TableWriter.text(Table(name: "e", columns: [Column.ints("a", [])]), format: .json) == "[]\n")
        // NaN and infinity are not JSON numbers: they are written as null.
        let odd = Table(name: "o", columns: [Column.doubles("x", [.nan, .infinity, -.infinity])])
        #expect(TableWriter.text(odd, format: .ndjson) == "{\"x\":null}\n{\"x\":null}\n{\"x\":null}\n")
        #expect(JSONText.quote("a\"b\\c\n\u{01}\u{2028}😀") == "\"a\\\"b\\\\c\\n\\u0001\\u2028😀\"")
    }

    @Test func markdownEscapesPipesAndAlignsNumbers() {
        let md = TableWriter.markdown(Self.table)
        let lines = md.split(separator: "\n").map(String.init)
        #expect(lines[0] == "| text | x | n | time | ok | wait |")
        #expect(lines[1] == "|---|---:|---:|---|---|---:|")
        #expect(lines.contains { $0.hasPrefix("| a\\|b |") })
        #expect(lines.contains { $0.hasPrefix("| two\\\\nlines |") })  // shown as two\nlines
        #expect(lines.allSatisfy { $0.hasPrefix("|") })
        let cut = TableWriter.markdown(Self.table, maxRows: 3)
        #expect(cut.hasSuffix("\n_8 more rows not shown._\n"))
    }

    @Test func datesAndCoarserBucketsAreWrittenAsTheirCalendarValue() {
        let t = Table(name: "t", columns: [
            Column(name: "day", storage: .timestamp([Reference.micros(2017, 3, 22, 23)]), unit: .day),
            Column(name: "week", storage: .timestamp([Reference.micros(2020, 12, 27, 23)]), unit: .week),
            Column(name: "month", storage: .timestamp([Reference.micros(2017, 2, 28, 23)]), unit: .month),
        ], zone: Self.oslo)
        #expect(TableWriter.text(t, format: .csv) == "day,week,month\n2017-03-23,2020-W53,2017-03\n")
    }
}

@Suite struct NumberTextTests {
    @Test func shortestTextReadsBack() {
        var rng = SeededRandom(seed: 40)
        for _ in 0..<3000 {
            let v = Double(bitPattern: rng.next())
            guard v.isFinite else { continue }
            let text = NumberText.double(v)
            #expect(Double(text) == v, "\(text)")
            #expect(!text.contains(","))
        }
        #expect(NumberText.double(2) == "2")
        #expect(NumberText.double(-0.5) == "-0.5")
        #expect(NumberText.double(1e20) == "1e+20")
        #expect(NumberText.double(.nan) == "NaN")
    }

    @Test func fixedDecimals() {
        #expect(NumberText.fixed(0.125, decimals: 2) == "0.13")
        #expect(NumberText.fixed(2.5, decimals: 0) == "3")
        #expect(NumberText.fixed(-2.5, decimals: 0) == "-3")
        #expect(NumberText.fixed(-0.001, decimals: 2) == "0.00")
        #expect(NumberText.fixed(0.05, decimals: 3) == "0.050")
        #expect(NumberText.fixed(1e17, decimals: 2) == "100000000000000000.00")
        #expect(NumberText.fixed(.infinity, decimals: 2) == "∞")
        var rng = SeededRandom(seed: 41)
        for _ in 0..<2000 {
            let v = Double.random(in: -1e6...1e6, using: &rng)
            let d = Int.random(in: 0...6, using: &rng)
            let text = NumberText.fixed(v, decimals: d)
            #expect(abs(Double(text)! - v) <= 0.5 * pow(10, -Double(d)) + 1e-9, "\(v) → \(text)")
            #expect(text.split(separator: ".").last?.count == (d == 0 ? text.count : d))
        }
    }

    @Test func grouping() {
        #expect(NumberText.grouped(0) == "0")
        #expect(NumberText.grouped(516) == "516")
        #expect(NumberText.grouped(12_304) == "12,304")
        #expect(NumberText.grouped(-1_234_567) == "-1,234,567")
    }
}

@Suite struct DiagnosticRendererTests {
    @Test func caretUnderTheSpanAfterWideCharacters() {
        let text = "where place = \"東京\" and nmae > 1"
        let source = SourceText(name: "lesson.utq", text: "load x.csv\n" + text)
        let start = source.bytes.count - "nmae > 1".utf8.count
        var d = Diagnostic("unknown column \"nmae\" — did you mean \"name\"?", at: SourceSpan(start, start + 4), hint: "a hint", usage: "where CONDITION")
        d.source = source
        let out = DiagnosticRenderer.render(d, showLocation: true)
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "lesson.utq:2:24: error: unknown column \"nmae\" — did you mean \"name\"?")
        #expect(lines[1] == "  " + text)
        // The caret starts under the n of nmae: the display width of what comes before it.
        #expect(lines[2] == "  " + String(repeating: " ", count: TextWidth.of("where place = \"東京\" and ")) + "^^^^")
        #expect(lines[3] == "  hint: a hint")
        #expect(lines[4] == "  usage: where CONDITION")
    }

    /// A column name not found in the twenty of the ride log: every name is listed (the one
    /// wanted may be called otherwise), and at the terminal's width the hint's lines break
    /// between names, under its first line; without a width it stays one line.
    @Test func aLongHintBreaksBetweenWordsAtTheWidth() throws {
        let s = makeSession()
        _ = try s.table("load \(try temporaryFile("wide.csv", (1...20).map { "column_number_\($0)" }.joined(separator: ",") + "\n" + (1...20).map(String.init).joined(separator: ",") + "\n")) as wide; wide | limit 1")
        let d = try #require(s.failure("wide | avg fare"))
        let hint = try #require(d.hint)
        for k in 1...20 { #expect(hint.contains("column_number_\(k)"), "column_number_\(k) not listed") }
        let out = DiagnosticRenderer.render(d, showLocation: false, width: 60)
        let lines = out.split(separator: "\n").map(String.init)
        let hintLines = lines.drop { !$0.hasPrefix("  hint: ") }.prefix { !$0.hasPrefix("  usage: ") }
        #expect(hintLines.count > 3 && hintLines.allSatisfy { TextWidth.of($0) <= 60 }, "\(hintLines)")
        #expect(hintLines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 8)) && !$0.hasPrefix(String(repeating: " ", count: 9)) })
        #expect(hintLines.joined(separator: " ").split(separator: " ").joined(separator: " ") == "hint: " + hint)
        #expect(DiagnosticRenderer.render(d, showLocation: false).split(separator: "\n").filter { $0.hasPrefix("  hint: ") }.first == "  hint: " + hint[...])
    }

    /// An error at a terminal narrower than its message: broken between words, its lines
    /// under its text; without a width it stays one line.
    @Test func aLongErrorBreaksBetweenWordsUnderItsText() {
        let message = "cannot load /tmp/cut.csv.gz: the gzip stream ends early at byte 40,000,000: the file is truncated"
        let d = Diagnostic(message)
        let lines = DiagnosticRenderer.render(d, showLocation: false, width: 60).split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.allSatisfy { TextWidth.of($0) <= 60 }, "\(lines)")
        #expect(lines[1].hasPrefix(String(repeating: " ", count: 7)) && lines[1].dropFirst(7).first != " ")
        #expect(lines.joined(separator: " ").split(separator: " ").joined(separator: " ") == "error: " + message)
        #expect(DiagnosticRenderer.render(d, showLocation: false) == "error: " + message + "\n")
    }

    /// A warning at an 40-column terminal: its text broken between words under its text,
    /// every word kept; a line that fits and the lines the text already had are left alone.
    @Test func aLongWarningHangsUnderItsText() {
        let text = "warning: rides.csv: requested_at was written with offsets +00:00 and +01:00; times show in UTC\nshort line"
        let out = TextWrap.hanging(text, width: 40, indent: 9)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.count > 3 && lines.allSatisfy { TextWidth.of($0) <= 40 }, "\(lines)")
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 9)) && $0.dropFirst(9).first != " " })
        #expect(lines.last == "short line")
        #expect(out.split(whereSeparator: { $0 == " " || $0 == "\n" }) == text.split(whereSeparator: { $0 == " " || $0 == "\n" }))
        #expect(TextWrap.hanging("warning: fits", width: 40, indent: 9) == "warning: fits")
    }

    @Test func noLocationWithoutASourceAndControlCharactersEscaped() {
        #expect(DiagnosticRenderer.render(Diagnostic("cancelled"), showLocation: true) == "error: cancelled\n")
        var d = Diagnostic("bad", at: SourceSpan(0, 3))
        d.source = SourceText(name: "t", text: "\u{1B}[2Jx")
        let out = DiagnosticRenderer.render(d, showLocation: false)
        #expect(!out.unicodeScalars.contains { $0.value == 0x1B })
        #expect(out.contains("\\u{1b}[2Jx"))
    }
}
