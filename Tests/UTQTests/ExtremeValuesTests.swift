import Foundation
import Testing
@testable import UTQCore

/// Every function, operator, summary and bucket over extreme values: 0, −0, ±1, the ends of
/// 64-bit integers, 2^53 ± 1, 1e19, 1e300, NaN, ±∞, empty and very long text, and the ends
/// of time. Nothing may trap: each line gives a result or a message, and the session goes on.
@Suite struct ExtremeValuesTests {
    static let longText = String(repeating: "ab", count: 500_000)

    static func table() -> Table {
        let ints: [Int64?] = [0, 1, -1, .max, .min, 9_007_199_254_740_993, -9_007_199_254_740_993, nil, 2, 1_000_000_000_000]
        let doubles: [Double?] = [0, -0.0, 1e19, -1e19, 1e300, -1e300, .nan, .infinity, -.infinity, nil]
        let texts: [String?] = ["", "a", longText, "Straße", "👩‍👩‍👧", "-9223372036854775809", "1e400", "\u{202E}x", nil, "99999999999999999999"]
        // The ends of the times a file can hold (years 1 and 9999), and the epoch.
        let times: [Int64?] = [0, -62_135_596_800_000_000, 253_402_300_799_000_000, nil, 1, -1, 86_400_000_000, 0, 0, 0]
        let durations: [Int64?] = [0, .max, .min + 1, -1, 1, nil, 86_400_000_000, .max / 2, -(.max / 2), 60_000_000]
        return Table(name: "x", columns: [
            Column.ints("i", ints), Column.doubles("d", doubles), Column.texts("s", texts),
            Column.timestamps("t", times), Column.durations("u", durations),
            Column.bools("b", [true, false, nil, true, false, true, false, true, nil, false]),
        ], zone: ZoneRules.named("Europe/Oslo")!, timeColumn: "t")
    }

    static let operands = ["i", "d", "s", "t", "u", "b", "0", "-1", "9223372036854775807", "-9223372036854775808",
                           "1e19", "1e300", "\"\"", "\"x\"", "1h", "null", "true"]

    func session() -> Session {
        let s = makeSession()
        s.workspace.put([Self.table()], makeCurrent: true)
        return s
    }

    /// Runs every line, going on after errors; returns how many gave an error.
    @discardableResult
    func runAll(_ lines: [String], in s: Session) -> Int {
        var errors = 0
        // UTQ_TRACE=1 names each line before it runs, to find one that traps.
        if ProcessInfo.processInfo.environment["UTQ_TRACE"] == "1" {
            for line in lines {
                FileHandle.standardError.write(Data((line + "\n").utf8))
                s.run(line, name: "<extreme>") { _, outcome in for o in outcome.outputs { _ = OutputText.text(o, settings: s.settings) } }
            }
            return 0
        }
        s.run(lines.joined(separator: "\n"), name: "<extreme>", keepGoing: true) { _, outcome in
            if outcome.error != nil { errors += 1 }
            // Every result can be shown.
            for o in outcome.outputs { _ = OutputText.text(o, settings: s.settings) }
        }
        return errors
    }

    @Test func operatorsOverExtremeValues() {
        let s = session()
        var lines: [String] = []
        for op in ["+", "-", "*", "/", "%", "=", "<", ">=", "!=", "and", "or", "contains", "~"] {
            for a in Self.operands { for b in Self.operands { lines.append("select r = \(a) \(op) \(b)") } }
        }
        for a in Self.operands { lines.append("select r = -\(a)"); lines.append("select r = not \(a)") }
        for a in Self.operands { lines.append("where \(a) in (1, null, \"x\")") ; lines.append("where \(a) between 0 and 1") }
        runAll(lines, in: s)
        // The session is still there, with its table.
        #expect(s.failure("count") == nil)
    }

    @Test func functionsOverExtremeValues() {
        let s = session()
        var lines: [String] = []
        for f in Functions.all {
            for arity in f.arity where arity <= 3 {
                let pool = arity == 1 ? Self.operands : ["i", "d", "s", "t", "u", "9223372036854775807", "1e300", "-1", "\"\""]
                var combos: [[String]] = [[]]
                for _ in 0..<arity { combos = combos.flatMap { c in pool.map { c + [$0] } } }
                for c in combos.prefix(800) { lines.append("select r = \(f.name)(\(c.joined(separator: ", ")))") }
            }
        }
        for b in TimeBucket.names { for a in ["t", "u", "i"] { lines.append("count by \(b)(\(a))") } }
        lines += ["count by every 15m", "count by every 1d of t", "count by every 1000000w", "count by hour | fill", "count by day | fill",
                  "count by month | fill", "count by every 1m | fill"]
        runAll(lines, in: s)
        #expect(s.failure("count") == nil)
    }

    @Test func summariesSortsAndJoinsOverExtremeValues() {
        let s = session()
        var lines: [String] = []
        for f in ["count", "sum", "avg", "min", "max", "median", "p90", "stddev", "first", "last", "count distinct"] {
            for c in ["i", "d", "s", "t", "u", "b"] { lines.append("\(f) \(c)"); lines.append("\(f) \(c) by b") }
        }
        for c in ["i", "d", "s", "t", "u", "b"] {
            lines.append("sort \(c)"); lines.append("sort \(c) desc | limit 3"); lines.append("top 2 by \(c)")
            lines.append("distinct \(c)"); lines.append("count by \(c)"); lines.append("x | join x on \(c) | count")
            lines.append("describe")
        }
        runAll(lines, in: s)
        #expect(s.failure("count") == nil)
    }

    @Test func overflowIsAMessageThatNamesTheExpression() throws {
        let s = session()
        let product = try #require(s.failure("where i = 9223372036854775807 | select r = i * 2"))
        #expect(product.message.contains("i * 2"), "\(product.message)")
        #expect(product.message.contains("past the range of whole numbers"), "\(product.message)")
        #expect(s.failure("where i = -9223372036854775808 | let m = i % -1") == nil)
        #expect(try s.table("where i = -9223372036854775808 | let m = i % -1").strings("m") == ["0"])
        let sum = s.failure("where i > 0 | sum i")
        #expect(sum?.message == "sum i is past the range of whole numbers (±9,223,372,036,854,775,807)")
        #expect(sum?.hint == "to add with decimals: sum number(i)")
        // Integer literals keep every digit, and the least whole number can be written.
        #expect(try s.table("where i = 9007199254740993 | count").strings("count") == ["1"])
        #expect(try s.table("where i = -9223372036854775808 | count").strings("count") == ["1"])
        #expect(try s.table("where i = 9223372036854775807 | count").strings("count") == ["1"])
        #expect(s.failure("$99999999999999999999")?.message == "there is no result with so large a number")
        #expect(s.failure("where d = 1e19 | select f = floor(d)")?.message.contains("floor(d)") == true)
        #expect(s.failure("select r = days(1e300)") != nil)
        #expect(s.failure("where t is not null | select r = t + days(1000000000000)") != nil)
        #expect(s.failure("where i = -9223372036854775808 | select r = abs(i)") != nil)
        #expect(s.failure("where i = -9223372036854775808 | select r = -i") != nil)
        #expect(try s.table("where s = \"Straße\" | select r = substr(s, 2, 9223372036854775807)").strings("r") == ["traße"])
        // 2e15 is a number, not a whole number: the product is a number, and nothing wraps.
        #expect(try s.table("where i = 1000000000000 | select r = i * 2e15").values("r") == [.double(2e27)])
    }

    /// NaN is one value to a join and a pivot, as it is to = and to a summary's groups (and to
    /// PostgreSQL): a NaN key matches NaN, and a pivot's NaN column holds the NaN rows' values.
    @Test func nanMatchesNaNInAJoinAndAPivot() throws {
        let s = makeSession()
        s.workspace.put([
            Table(name: "l", columns: [Column.doubles("v", [.nan, 1, .nan, -0.0]), Column.ints("g", [1, 1, 2, 2])]),
            Table(name: "r", columns: [Column.doubles("v", [.nan, 0]), Column.texts("name", ["nan", "zero"])]),
        ], makeCurrent: true)
        #expect(try s.table("l | join r on v").strings("name") == ["nan", "nan", "zero"])
        #expect(try s.table("l | left join r on v").strings("name") == ["nan", "null", "nan", "zero"])
        let pivoted = try s.table("l | count by g, v | pivot v")
        #expect(pivoted.columnNames == ["g", "0", "1", "NaN"])
        #expect(pivoted.strings("NaN") == ["1", "1"])
    }
}

/// Input deeper than the stack: nested parentheses, long chains of operators, pipelines of
/// thousands of stages. Each is a message; the session goes on.
@Suite struct DepthTests {
    func session() -> Session {
        let s = makeSession()
        s.workspace.put([ExtremeValuesTests.table()], makeCurrent: true)
        return s
    }

    @Test func deepInputIsRefusedWithAMessage() throws {
        let s = session()
        let cases = [
            "select r = " + String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000),
            "select r = 1" + String(repeating: " + 1", count: 100_000),
            "where " + Array(repeating: "i = 1", count: 100_000).joined(separator: " or "),
            "select r = " + String(repeating: "-", count: 100_000) + "1",
            "where " + String(repeating: "not ", count: 100_000) + "b",
            "select r = " + String(repeating: "abs(", count: 100_000) + "1" + String(repeating: ")", count: 100_000),
            "count" + String(repeating: " | limit 5", count: 100_000),
            "let " + (0..<100_000).map { "c\($0) = 1" }.joined(separator: ", "),
        ]
        for text in cases {
            let d = s.failure(text)
            #expect(d != nil, "\(text.prefix(40))")
            #expect(d?.message.contains("too deeply") == true || d?.message.contains("more than 256") == true
                    || d?.message.contains("at most 256") == true, "\(d?.message ?? "")")
        }
        // Up to the limit they run.
        #expect(try s.table("select r = 1" + String(repeating: " + 1", count: 250) + " | limit 1").strings("r") == ["251"])
        #expect(try s.table("select r = " + String(repeating: "(", count: 200) + "2" + String(repeating: ")", count: 200) + " | limit 1").strings("r") == ["2"])
        #expect(try s.table("count" + String(repeating: " | limit 5", count: 200)).strings("count") == ["10"])
        #expect(s.failure("count") == nil)
    }
}

/// What reaches the terminal: control characters and text-direction controls are escaped
/// everywhere, the completion list included, and emoji sequences take the two cells a
/// terminal gives them.
@Suite struct TerminalSafetyTests {
    @Test func completionListsEscapeWhatTheyShow() throws {
        let s = makeSession()
        let hostile = Table(name: "t", columns: [
            Column.ints("a\u{1B}]0;owned\u{7}x", [1]), Column.ints("a\u{1B}[2Jb", [2]), Column.ints("a\u{202E}fdp.exe", [3]),
        ])
        s.workspace.put([hostile], makeCurrent: true)
        let completion = s.complete("select a")
        #expect(completion.candidates.filter { $0.contains("\u{1B}") || $0.contains("\u{202E}") }.count == 3)
        let list = completion.listing(width: 80)
        #expect(!list.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, "\(list.debugDescription)")
        #expect(list.contains("\\u{1b}") && list.contains("\\u{202e}"))
    }

    @Test func directionControlsAreEscapedAndEmojiTakeTwoCells() {
        #expect(TextWidth.printable("report\u{202E}fdp.exe") == "report\\u{202e}fdp.exe")
        #expect(TextWidth.printable("a\u{2066}b\u{2069}") == "a\\u{2066}b\\u{2069}")
        #expect(TextWidth.of("👩‍👩‍👧") == 2)
        #expect(TextWidth.of("❤️") == 2)
        #expect(TextWidth.of("🇳🇴") == 2)
        #expect(TextWidth.of("🚲 Bike") == 7)
        #expect(TextWidth.of("Straße") == 6)
        #expect(TextWidth.of("e\u{301}") == 1)
        // A table of them lines up: every line of the rendered table is as wide as the rule.
        let t = Table(name: "t", columns: [Column.texts("who", ["👩‍👩‍👧", "🚲", "plain"]), Column.ints("n", [1, 2, 3])])
        let text = TableRenderer.render(t, options: RenderOptions(width: 80, maxRows: 40, charset: .unicode, color: false), footer: nil)
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("[") }
        let widths = Set(lines.prefix(5).map { TextWidth.of($0.trimmingTrailingSpaces) })
        #expect(widths.count == 1, "\(text)")
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
