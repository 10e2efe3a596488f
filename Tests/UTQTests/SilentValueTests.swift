import Foundation
import Testing
@testable import UTQCore

/// Values that came out wrong without a word: rounding, names that mean two columns, NaN's
/// place, text that changed on a round trip through a file, and the like.
@Suite struct SilentValueTests {
    func session() throws -> Session {
        let s = makeSession()
        try s.table("load datasets/market.json\ncount")
        return s
    }

    func value(_ s: Session, _ expression: String) throws -> Value {
        try s.table("select r = \(expression) | limit 1").values("r")[0]
    }

    @Test func roundingToDigitsRoundsTheBinaryValue() throws {
        let s = try session()
        #expect(try value(s, "round(-3.8015, 3)") == .double(-3.801))
        #expect(try value(s, "round(2.675, 2)") == .double(2.67))
        #expect(try value(s, "round(0.125, 2)") == .double(0.13))
        #expect(try value(s, "round(1234.5, -2)") == .double(1200))
        #expect(try value(s, "round(123.4, 400)") == .double(123.4))
        #expect(try value(s, "round(123.4, -400)") == .double(0))
        #expect(try value(s, "round(9007199254740993)") == .int(9_007_199_254_740_993))
        // Places past 10^22 still round the smallest numbers.
        #expect(try value(s, "round(6e-24, 23)") == .double(1e-23))
        #expect(try value(s, "round(-6e-24, 23)") == .double(-1e-23))
        #expect(try value(s, "round(1e-30, 23)") == .double(0))
        #expect(try value(s, "round(1.5e-300, 300)") == .double(2e-300))
        // Against the exact decimal value of each double, half away from zero, over many.
        var g = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let x = Double(Int64.random(in: -10_000_000...10_000_000, using: &g)) / 10_000 + Double.random(in: -1e-5...1e-5, using: &g)
            let d = Int.random(in: 0...5, using: &g)
            let exact = NSDecimalNumber(string: String(format: "%.40f", x)).decimalValue
            var rounded = Decimal(), value = exact
            // NSDecimalRound's .plain is half away from zero on the exact digits; the decimal is
            // then read as the nearest double, as utq's text of it would be.
            NSDecimalRound(&rounded, &value, d, .plain)
            #expect(Rounding.halfAway(x, digits: d) == Double("\(rounded)"), "round(\(x), \(d))")
        }
    }

    @Test func aNameMeansOneColumn() throws {
        let csv = try temporaryFile("names-twice.csv", "a,a,a_2\n1,2,3\n")
        let s = try session()
        let t = try s.table("load \(csv) as twice\ntwice")
        #expect(t.columnNames == ["a", "a_3", "a_2"])
        #expect(s.failure("market | rename legend as note")?.message == "there would be two columns called note")
        #expect(s.failure("market | unpivot x, y as k, k")?.message == "unpivot's two new columns need two names, not k twice")
        #expect(s.failure("market | unpivot x, y as legend, v")?.message == "there is a column called legend already")
        #expect(try s.table("market | select *, * | limit 1").columnNames == ["time", "legend", "icon", "x", "y", "angle", "note", "tag"])
        #expect(try s.table("market | select legend, * | limit 1").columnNames.first == "legend")
        // A new name for one column is not the name of another, before or after a `*`.
        #expect(s.failure("market | select legend as y, *")?.message == "there would be two columns called y")
        #expect(s.failure("market | select legend as x, x")?.message == "there would be two columns called x")
        #expect(s.failure("market | select a = x, a = y")?.message == "there would be two columns called a")
        #expect(try s.table("market | select x, x, legend | limit 1").columnNames == ["x", "legend"])
        #expect(try s.table("market | select *, x = x * 2 | limit 1").columnNames.last == "x")
        // JSON output names each column once.
        let json = try temporaryFile("names-twice.json", "")
        try s.table("market | select *, x | limit 1 | save! \(json)\ncount")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [[String: Any]])
        #expect(object.first?.count == 8)
    }

    /// Equal values have themselves as mean and no spread, however many: three of 7296808.4
    /// add to a sum that divided by three gave a neighbour, and a spread of 1e-9.
    @Test func equalValuesHaveNoSpread() throws {
        let s = try session()
        let folder = NSTemporaryDirectory() + "/utq-spread-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for x in ["7296808.4", "0.1", "-93603990.7", "1e300"] {
            for n in [2, 3, 7, 11] {
                try ("d\n" + String(repeating: x + "\n", count: n)).write(toFile: folder + "/e.csv", atomically: true, encoding: .utf8)
                let t = try s.table("load \(folder)/e.csv as e\ne | avg d, stddev d")
                #expect(t.values("avg_d") == [.double(Double(x)!)], "avg of \(n) × \(x)")
                #expect(t.values("stddev_d") == [.double(0)], "stddev of \(n) × \(x)")
            }
        }
        // Values far apart that cancel keep the small one's share of the mean.
        try "d\n-0.11583702\n-1e15\n1e15\n".write(toFile: folder + "/e.csv", atomically: true, encoding: .utf8)
        let t = try s.table("load \(folder)/e.csv as e\ne | avg d")
        #expect(t.values("avg_d") == [.double(-0.11583702 / 3)])
    }

    @Test func nanHasOnePlaceEverywhere() throws {
        let csv = try temporaryFile("nan-place.csv", "k,x\na,1\nb,NaN\nc,3\n")
        let s = try session()
        try s.table("load \(csv) as n\ncount")
        #expect(try s.table("n | let m = max(x) | where x = m").strings("k") == ["b"])
        #expect(try s.table("n | top 1 by x").strings("k") == ["b"])
        #expect(try s.table("n | where x > 2").strings("k") == ["b", "c"])
        #expect(try s.table("n | where x < 2").strings("k") == ["a"])
        #expect(try s.table("n | sort x").strings("k") == ["a", "c", "b"])
        #expect(try s.table("n | where x = number(\"NaN\")").strings("k") == ["b"])
        #expect(try value(s, "number(\"Infinity\")") == .double(.infinity))
        #expect(try value(s, "int(\"08\")") == .int(8))
        #expect(try value(s, "number(\"0820\")") == .double(820))
    }

    /// A quantile between an infinity and a number is the infinity (as in DuckDB), not NaN.
    @Test func quantilesNextToAnInfinityAreTheInfinity() throws {
        let csv = try temporaryFile("quantile-inf.csv", "g,x\na,-inf\na,1\na,2\na,3\nb,1\nb,inf\nc,-inf\nc,inf\nd,inf\nd,inf\nd,1\ne,1\ne,NaN\n")
        let s = try session()
        try s.table("load \(csv) as q\ncount")
        let t = try s.table("q | p25 x, median x, p90 x by g | sort g")
        func column(_ name: String) -> [Double] { t.values(name).map { if case .double(let d) = $0 { return d } else { return -1 } } }
        let p25 = column("p25_x"), median = column("median_x"), p90 = column("p90_x")
        #expect(p25[0] == -.infinity && median[0] == 1.5 && abs(p90[0] - 2.7) < 1e-12)
        #expect(p25[1] == .infinity && median[1] == .infinity)
        #expect(p25[2].isNaN && median[2].isNaN)
        #expect(median[3] == .infinity && p90[3] == .infinity && p25[3] == .infinity)
        #expect(p25[4].isNaN && median[4].isNaN)
    }

    /// Text of every awkward kind, saved and loaded again, is the same text.
    @Test func textSurvivesARoundTripThroughEveryFormat() throws {
        let awkward = ["tab\there", "line\nbreak", "back\\slash\\t", "  spaces around  ", "\"quoted\"", "comma, and \"quote\"",
                       "carriage\rreturn", "|pipe|", "\\", " ", "ünïcödé ß", "=formula"]
        let s = makeSession()
        let csv = try temporaryFile("awkward-source.csv", "k,text\n" + awkward.enumerated().map { k, t in
            "\(k),\"" + t.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: "\n") + "\n")
        let original = try s.table("load \(csv) as awkward\nawkward | sort k").strings("text")
        #expect(original == awkward)
        for ext in ["csv", "tsv", "json", "ndjson"] {
            let path = try temporaryFile("awkward-back.\(ext)", "")
            let back = try s.table("awkward | save! \(path)\nload \(path) as back\nback | sort k").strings("text")
            #expect(back == awkward, "through .\(ext)")
        }
    }

    @Test func offsetsWithSecondsReadBackAsTheSameInstant() throws {
        let s = makeSession()
        let csv = try temporaryFile("lmt.csv", "t\n1970-06-01 12:00\n")
        let saved = try temporaryFile("lmt-saved.csv", "")
        let t = try s.table("load \(csv) as lmt\nset timezone Africa/Monrovia\nlmt | save! \(saved)\nload \(saved) as back\nset timezone Africa/Monrovia\nlmt | join back on t | count")
        #expect(t.strings("count") == ["1"])
        #expect(try String(contentsOfFile: saved, encoding: .utf8).contains("1970-06-01T12:00:00-00:44:30"))
    }

    @Test func parseTimeRefusesDaysAndYearsThatAreNot() throws {
        let s = try session()
        #expect(try value(s, "parse_time(\"2021-366\", \"%Y-%j\")") == .null)
        #expect(try value(s, "parse_time(\"2020-366\", \"%Y-%j\")") != .null)
        #expect(try value(s, "parse_time(\"0000-01-01\", \"%Y-%m-%d\")") == .null)
    }

    @Test func markdownKeepsTextAsText() throws {
        let s = makeSession()
        let csv = try temporaryFile("md-source.csv", "a,b\n\"x\\|y\",\"<b>bold</b> & co\"\n")
        let md = try temporaryFile("md-out.md", "")
        try s.table("load \(csv) as m\nm | save! \(md)\ncount")
        let text = try String(contentsOfFile: md, encoding: .utf8)
        #expect(text.contains("| x\\\\\\|y | &lt;b&gt;bold&lt;/b&gt; &amp; co |"), "\(text)")
    }

    @Test func aSavedSessionRunsAgainWithItsDollarBraces() throws {
        let s = makeSession()
        let script = try temporaryFile("dollars.utq", "")
        s.run("echo \"$${b} stays\"\n:save! \(script)", name: "<test>") { _, _ in }
        let again = makeSession()
        var said: [String] = []
        let errors = again.run(try String(contentsOfFile: script, encoding: .utf8), name: script) { _, o in
            for case .text(let t) in o.outputs { said.append(t) }
        }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
        #expect(said.joined().contains("${b} stays"))
    }

    @Test func objectsWithoutMembersAreRows() throws {
        let s = makeSession()
        let json = try temporaryFile("empty-objects.json", "[{}, {}]")
        #expect(try s.table("load \(json) as e\ne | count").strings("count") == ["2"])
    }

    @Test func aFeedTableMadeAnewWithoutItsColumnsSaysSo() throws {
        let s = makeSession()
        try s.table("load datasets/gtfs/demo-transit.zip as feed\nlet feed.calendar = feed.calendar | select service_id")
        // With a date or without (where the busiest day is looked for), the lost column is named.
        for pipeline in ["feed | service on 2007-06-05", "feed | service", "feed | headways", "feed | route stats"] {
            let failure = try #require(s.failure(pipeline))
            #expect(failure.message == "feed.calendar has no column start_date, from which the days of service are read", "\(pipeline)")
        }
    }

    /// Suggestions for a word of millions of letters come at once (the kernel's inspect asked one).
    @Test func aHugeWordIsNearNoName() {
        let word = String(repeating: "x", count: 5_000_000)
        let started = Date()
        #expect(Suggest.closest(word, among: Verbs.names + Functions.names) == nil)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// A file of lines with one line in it, and an object with no list in it, are one row.
    @Test func oneObjectIsOneRow() throws {
        let lines = try temporaryFile("one.ndjson", "{\"id\": 1, \"txt\": \"word\"}\n")
        let object = try temporaryFile("one.json", "{\"id\": 1, \"txt\": \"word\"}")
        let s = try session()
        #expect(try s.table("load \(lines) as one\none").strings("txt") == ["word"])
        #expect(try s.table("load \(object) as obj\nobj").strings("id") == ["1"])
        // Objects without members inside a document are rows too, as in an array of records.
        let nested = try temporaryFile("nested-empty.json", "{\"rows\": [{}, {}, {}]}")
        #expect(try s.table("load \(nested) at rows as nested\nnested | count").strings("count") == ["3"])
    }

    /// A table with no rows (its columns of no type) joins as one that matches nothing.
    @Test func aJoinWithAnEmptyTableMatchesNothing() throws {
        let left = try temporaryFile("left.csv", "k,s\n1,x\n2,y\n")
        let empty = try temporaryFile("empty.csv", "k,s\n")
        let s = try session()
        try s.table("load \(left) as l\nload \(empty) as e\ncount")
        #expect(try s.table("l | join e on k").rowCount == 0)
        #expect(try s.table("l | left join e on k").strings("e.s") == ["null", "null"])
        #expect(try s.table("e | join l on k").rowCount == 0)
    }
}
