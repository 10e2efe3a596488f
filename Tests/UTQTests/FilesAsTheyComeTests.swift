import Foundation
import Testing
@testable import UTQCore

/// Real files read as they come (Tests/Fixtures/real-files, each made for one case):
/// zero-padded digits and clock text, a file without a header, a totals row at the end, a
/// column that turns to text late, and the PLDP Date + Start_time shape.
@Suite struct FilesAsTheyComeTests {
    static let dir = "Tests/Fixtures/real-files/"

    /// Runs lines and gives the last table with the warnings and notes on the way.
    func run(_ s: Session, _ text: String) throws -> (table: Table?, warnings: [String], info: [String]) {
        var warnings: [String] = [], info: [String] = [], table: Table? = nil, failure: Diagnostic? = nil
        s.run(text, name: "<test>") { _, o in
            if let e = o.error { failure = e }
            for output in o.outputs {
                switch output {
                case .warning(let w): warnings.append(w)
                case .info(let n): info.append(n)
                case .table(let r): table = r.table
                default: break
                }
            }
        }
        if let failure { throw TestError(description: DiagnosticRenderer.render(failure, showLocation: true)) }
        return (table, warnings, info)
    }

    @Test func textReadsAsNumbersByTheDocumentedRule() {
        let cases: [(String, Double?)] = [
            ("08", 8), ("0820", 820), ("-007", -7), ("+08.50", 8.5), (" 12 ", 12),
            ("1,234.5", 1234.5), ("1.234,5", 1234.5), ("1 234,5", 1234.5), ("1_000_000", 1_000_000),
            ("3,25", 3.25), ("0,125", 0.125), ("1,234", 1234), ("-1,234,567", -1_234_567), ("12.345.678", 12_345_678),
            ("1,23,4", nil), ("1,2345", 1.2345), ("1.234.5", nil), ("12 34", nil), ("abc", nil), ("", nil),
        ]
        for (text, expected) in cases {
            #expect(NumberParser.readingWritten(text) == expected, "\(text)")
        }
    }

    @Test func clockTextReadsAsTimesOfDay() {
        let h = Int64(3_600_000_000), m = Int64(60_000_000)
        let cases: [(String, Int64?)] = [
            ("0820", 8 * h + 20 * m), ("820", 8 * h + 20 * m), ("8:20", 8 * h + 20 * m), ("08:20:00", 8 * h + 20 * m),
            ("8:20 PM", 20 * h + 20 * m), ("8:20pm", 20 * h + 20 * m), ("12:05 AM", 5 * m), ("12:30 p.m.", 12 * h + 30 * m),
            ("2359", 23 * h + 59 * m), ("0860", nil), ("13:00 PM", nil), ("2500", nil), ("82", nil), ("08200", nil), ("noon", nil),
        ]
        for (text, expected) in cases {
            #expect(ClockText.parse(text) == expected, "\(text)")
        }
    }

    @Test func theContractLineRuns() throws {
        let s = makeSession()
        _ = try run(s, "load datasets/market.json")
        let t = try #require(try run(s, "select a = int(\"08\"), b = number(\"0820\"), t = timeofday(\"0820\") | limit 1").table)
        #expect(t.values("a") == [.int(8)] && t.values("b") == [.double(820)])
        #expect(t.values("t") == [.duration(8 * 3_600_000_000 + 20 * 60_000_000)] && t.column("t")?.unit == .clock)
        // hour() of clock text reads it first.
        let hours = try #require(try run(s, "select h = hour(\"0820\"), n = int(substr(\"0820\", 1, 2)) | limit 1").table)
        #expect(hours.values("h") == [.int(8)] && hours.values("n") == [.int(8)])
    }

    @Test func zeroPaddedColumnsSayWhyTheyStayText() throws {
        let s = makeSession()
        let (_, warnings, _) = try run(s, "load \(Self.dir)zero-padded.csv as routes")
        // The codes and colours keep their zeros, and the warning gives the true reason.
        #expect(warnings.contains { $0.contains("route_code is kept as text: its values have leading zeros (0000 would lose its 0") })
        #expect(warnings.contains { $0.contains("route_color is kept as text: its values have leading zeros") && $0.contains("number(route_color)") })
        #expect(!warnings.contains { $0.contains("64 bits") })
        // Start_time, named as a time, is read as clock times, and said.
        #expect(warnings.contains { $0.contains("Start_time (clock times)") })
        let t = try #require(try run(s, "routes | count by hour(Start_time) as h | sort h").table)
        #expect(t.values("h") == [0, 6, 7, 8, 9, 10, 23].map { Value.int($0) })
        let codes = try #require(try run(s, "routes | where number(route_code) < 3 | count").table)
        #expect(codes.values("count") == [.int(3)])
    }

    @Test func aFileWithoutAHeaderKeepsItsFirstRecord() throws {
        let s = makeSession()
        let (_, warnings, info) = try run(s, "load \(Self.dir)vehicles-no-header.csv as v")
        #expect(info.last?.hasPrefix("v: 92 rows, 5 columns") == true, "\(info)")
        #expect(warnings.contains { $0.contains("vehicles-no-header.csv:1: the first line is data, not column names") })
        let first = try #require(try run(s, "v | limit 1").table)
        #expect(first.values("column_1") == [.string("V000")])
        // Said outright, with names: no note, the same rows.
        let named = try run(s, "load \(Self.dir)vehicles-no-header.csv as w with header=false, columns=(vehicle, lat, lon, speed, seen_at)")
        #expect(!named.warnings.contains { $0.contains("first line is data") })
        let t = try #require(try run(s, "w | where vehicle = \"V000\" | select speed, seen_at").table)
        #expect(t.rowCount == 1 && t.column("seen_at")?.type == .timestamp)
        // A header said to be a header stays one.
        _ = try run(s, "load \(Self.dir)vehicles-no-header.csv as x with header=true")
        #expect(try s.table("x | count").values("count") == [.int(91)])
        // Names that do not fit are refused, with the counts.
        #expect(s.failure("load \(Self.dir)vehicles-no-header.csv with columns=(a, b)")?.message.contains("gives 2 names, but the file has 5 columns") == true)
        #expect(s.failure("load \(Self.dir)vehicles-no-header.csv with hedaer=false")?.hint?.contains("did you mean header?") == true)
    }

    @Test func aTotalsRowIsLeftOutAndSaid() throws {
        let s = makeSession()
        let (_, warnings, info) = try run(s, "load \(Self.dir)ride-log-totals.csv as log")
        #expect(warnings.contains { $0.hasSuffix("ride-log-totals.csv:42: the last line (Totals,,,412.00) is left out as a totals row: it starts with \"Totals\"") }, "\(warnings)")
        #expect(info.last?.hasPrefix("log: 40 rows") == true)
        // The start time stays a time, so hour is of started_at: the counts are the log's.
        let t = try #require(try run(s, "log | count by hour | sort hour").table)
        #expect(t.values("hour") == (6...19).map { Value.int($0) })
        var expected = 0.0
        for i in 0..<40 { expected += Double(5 + i % 13) + 0.5 }
        let sum = try s.table("log | sum price").values("sum_price").first?.doubleValue
        #expect(sum == expected)
    }

    @Test func aColumnThatTurnsToTextSaysWhereAndWhichTimeIsUsed() throws {
        let s = makeSession()
        let (_, warnings, _) = try run(s, "load \(Self.dir)late-text.csv as late")
        #expect(warnings.contains { $0.hasSuffix("late-text.csv:2502: miles is kept as text: 2 of 3,000 cells are not a number, the first \"n/a\"; number(miles) reads the others as numbers") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("late-text.csv:2602: started_at is kept as text: 1 of 3,000 cells is not a time, the first \"unknown\"; so the table's time is ended_at") })
    }

    /// Cells that break a type within the rows the types are voted from are said too, not only
    /// those after them; a column of text is not (a few numbers among words break nothing).
    @Test func aFewBadCellsAmongTheFirstRowsAreSaid() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utq-early-text-\(getpid()).csv").path
        var text = "id,count,when,name\n"
        for i in 0..<200 {
            let count = i == 7 ? "x3" : i == 150 ? "-" : "\(i % 17)"
            let when = i == 20 ? "soon" : "2024-05-0\(1 + i % 9) 08:\(10 + i % 40)"
            text += "\(i),\(count),\(when),\(i % 10 == 0 ? "\(i)" : "stop \(i)")\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let s = makeSession()
        let (_, warnings, _) = try run(s, "load \(path) as early")
        #expect(warnings.contains { $0.hasSuffix(":9: count is kept as text: 2 of 200 cells are not a number, the first \"x3\"; number(count) reads the others as numbers") }, "\(warnings)")
        #expect(warnings.contains { $0.hasSuffix(":22: when is kept as text: 1 of 200 cells is not a time, the first \"soon\"; so the table has no time column") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("name is kept as text") }, "\(warnings)")
        var expected = 0
        for i in 0..<200 where i != 7 && i != 150 { expected += i % 17 }
        let summed = try s.table("early | sum number(count) as n").values("n").first?.doubleValue
        #expect(summed == Double(expected))
    }

    @Test func thePLDPStayingShapeReadsEmptyAsZero() throws {
        let s = makeSession()
        let (_, _, info) = try run(s, "load \(Self.dir)pldp-staying-export.csv as staying")
        #expect(info.last?.contains("PLDP people staying, the Date + Start_time shape; people = Row_Total") == true, "\(info)")
        // 0/1 activity columns: empty is 0, so the share is the share, not 1.0.
        let t = try #require(try run(s, "staying | avg activity_conversing as talk, avg activity_consuming as eat").table)
        #expect(t.values("talk") == [.double(0.5)])
        #expect(t.values("eat").first?.doubleValue.map { abs($0 - 4.0 / 24) < 1e-12 } == true)
        // The time is Date + Start_time; ids keep their zeros for the locations table.
        let byHour = try #require(try run(s, "staying | sum people by hour, Location_ID | sort hour, Location_ID").table)
        #expect(byHour.values("hour") == [8, 8, 12, 12].map { Value.int($0) })
        #expect(byHour.values("Location_ID") == ["0012", "0013", "0012", "0013"].map { Value.string($0) })
        #expect(byHour.values("sum_people") == [6, 6, 6, 6].map { Value.int($0) })
    }

    // MARK: Seattle, against DuckDB

    static let seattle = "datasets/pldp-seattle/"
    static func csv(_ name: String) -> String { "read_csv('\(Repo.path(seattle + name + ".csv"))', all_varchar=true)" }
    static let gender = ["Male", "Female", "\"Gender Unknown\""]
    static let groups = (1...9).map { "GroupSize_\($0)" } + ["\"GroupSize_10+\""]
    static let moving = "(select *, Row_Total::int as people, strptime(Date || lpad(Start_time, 4, '0'), '%Y%m%d%H%M') as ts from \(csv("people-moving")))"

    /// Each question as examples/pldp-seattle.utq asks it, and as SQL on DuckDB's own CSV reading.
    static let questions: [(utq: String, sql: String)] = [
        ("moving | sum people as people by hour",
         "select hour(ts), sum(people) from \(moving) group by all"),
        ("moving | sum people as people, count as counts by Day_of_Week, Time_of_Day | let per_count = round(people / counts, 1)",
         "select Day_of_Week, Time_of_Day, sum(people), count(*), round(sum(people) / count(*), 1) from \(moving) group by all"),
        ("moving | join locations on Location_ID | sum people as people by Neighborhood",
         "select l.Neighborhood, sum(m.people) from \(moving) m join \(csv("locations")) l using (Location_ID) group by all"),
        ("moving | where Female is not null | sum Female as women, sum Row_Total as people by Time_of_Day | let share = round(women / people, 3)",
         "select Time_of_Day, sum(coalesce(Female::int, 0)), sum(people), round(sum(coalesce(Female::int, 0)) / sum(people), 3) from \(moving) where coalesce(\(gender.joined(separator: ", "))) is not null group by all"),
        ("moving | where GroupSize_1 is not null | sum GroupSize_1 as alone, sum Row_Total as people | let share = round(alone / people, 3)",
         "select sum(coalesce(GroupSize_1::int, 0)), sum(people), round(sum(coalesce(GroupSize_1::int, 0)) / sum(people), 3) from \(moving) where coalesce(\(groups.joined(separator: ", "))) is not null"),
    ]

    @Test func theSeattleQuestionsGiveDuckDBsNumbers() throws {
        guard let python = Oracle.python() else { Issue.record("no Python with duckdb (make oracle-deps)"); return }
        let example = try String(contentsOfFile: Repo.path("examples/pldp-seattle.utq"), encoding: .utf8)
        let s = makeSession()
        _ = try run(s, "load \(Self.seattle)people-moving.csv as moving with timezone=America/Los_Angeles")
        _ = try run(s, "load \(Self.seattle)locations.csv as locations")
        let cases = Self.questions.enumerated().map { ["id": "\($0.offset)", "sql": $0.element.sql] }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-seattle-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("cases.json"), out = dir.appendingPathComponent("results.json")
        try JSONSerialization.data(withJSONObject: ["zone": "America/Los_Angeles", "tables": [], "cases": cases]).write(to: spec)
        let parts = python.split(separator: " ").map(String.init)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: parts[0])
        p.arguments = Array(parts.dropFirst()) + [Repo.path("Tests/Support/oracle_duckdb.py"), spec.path, out.path]
        try p.run()
        p.waitUntilExit()
        let results = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [[String: Any]])
        for (i, q) in Self.questions.enumerated() {
            #expect(example.contains(q.utq), "examples/pldp-seattle.utq no longer asks: \(q.utq)")
            let theirs = try #require(results[i]["rows"] as? [[Any?]], "DuckDB: \(results[i]["error"] ?? "")")
            let t = try s.table(q.utq)
            let mine = (0..<t.rowCount).map { r in t.columns.map { PLDPTests.text($0.value(at: r)) }.joined(separator: " | ") }.sorted()
            let expected = theirs.map { $0.map(PLDPTests.text).joined(separator: " | ") }.sorted()
            #expect(!mine.isEmpty, "\(q.utq)")
            #expect(mine == expected, "\(q.utq)")
        }
    }
}
