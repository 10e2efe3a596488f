import Foundation
import Testing
@testable import UTQCore

/// Gehl's Public Life Data Protocol samples (datasets/pldp-sf, real and messy): they load as
/// PLDP, and the standard questions of examples/pldp.utq give DuckDB's numbers over the same
/// CSVs (read by DuckDB with its own CSV reader and strptime).
@Suite struct PLDPTests {
    static let dir = "datasets/pldp-sf/"
    static func csv(_ name: String) -> String { "read_csv('\(Repo.path(dir + name + ".csv"))')" }
    static let postures = ["postureStanding", "postureSitting", "postureSittingPublic", "postureSittingPrivate", "postureLying"]
    static let ages = ["age0To14", "age15To24", "age25To64", "age65Plus"]
    static func staying() -> String {
        let people = postures.map { "coalesce(\($0), 0)" }.joined(separator: " + ")
        return "(select *, \(people) as people, strptime(startedAt, '%m/%d/%y %I:%M %p') as ts from \(csv("civic-center-staying")))"
    }
    static let moving = "(select *, coalesce(modePedestrian, 0) + coalesce(modeBicyclist, 0) as people, try_strptime(startedAt, '%m/%d/%y %I:%M %p') as ts from \(csv("civic-center-moving")))"
    static let pedvol = "(select *, try_strptime(startedAt, '%m/%d/%y %I:%M %p') as ts from \(csv("sf-pedvol")))"

    /// Each question as examples/pldp.utq asks it (up to the display steps after it), and as SQL.
    static let questions: [(utq: String, sql: String)] = [
        ("staying | sum people as people by name",
         "select name, sum(people) from \(staying()) group by name"),
        ("staying | sum people as people by name, hour(startedAt) as hour",
         "select name, hour(ts), sum(people) from \(staying()) group by all"),
        ("staying | unpivot \(postures.joined(separator: ", ")) as posture, n | sum n as n by posture | let share = round(n / sum(n), 3)",
         "select posture, sum(n), round(sum(n) / sum(sum(n)) over (), 3) from (unpivot (select \(postures.map { "coalesce(\($0), 0) as \($0)" }.joined(separator: ", ")) from \(staying())) on \(postures.joined(separator: ", ")) into name posture value n) group by posture"),
        ("staying | unpivot \(ages.joined(separator: ", ")) as age, n | sum n as n by name, age | let share = round(n / sum(n), 3) by name",
         "select name, age, sum(n), round(sum(n) / sum(sum(n)) over (partition by name), 3) from (unpivot (select name, \(ages.map { "coalesce(\($0), 0) as \($0)" }.joined(separator: ", ")) from \(staying())) on \(ages.joined(separator: ", ")) into name age value n) group by name, age"),
        ("moving | sum modePedestrian as walking, sum modeBicyclist as cycling by hour(startedAt) as hour",
         "select hour(ts), coalesce(sum(modePedestrian), 0), coalesce(sum(modeBicyclist), 0) from \(moving) group by all"),
        ("moving | sum people as people by every 10m",
         "select time_bucket(interval 10 minutes, ts) at time zone 'America/Los_Angeles', sum(people) from \(moving) group by all"),
        ("pedvol | sum modePedestrian as pedestrians, count as counts by weekday(startedAt) as weekday | let per_count = round(pedestrians / counts, 1)",
         "select strftime(ts, '%a'), coalesce(sum(modePedestrian), 0), count(*), round(coalesce(sum(modePedestrian), 0) / count(*), 1) from \(pedvol) group by all"),
    ]

    func session() throws -> Session {
        let s = makeSession()
        for line in ["set timezone America/Los_Angeles", "load \(Self.dir)civic-center-staying.csv as staying",
                     "load \(Self.dir)civic-center-moving.csv as moving", "load \(Self.dir)sf-pedvol.csv as pedvol"] {
            #expect(s.failure(line) == nil, "\(line)")
        }
        return s
    }

    /// A cell as comparable text: numbers to 6 places, times as microseconds.
    static func text(_ v: Any?) -> String {
        switch v {
        case nil, is NSNull: return "null"
        case let d as [String: Any]: return "t\(d["t"] ?? "?")"
        case let n as NSNumber: return String(format: "%.6f", n.doubleValue)
        default: return "\(v!)"
        }
    }

    static func text(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .int(let i): return String(format: "%.6f", Double(i))
        case .double(let d): return String(format: "%.6f", d)
        case .timestamp(let t): return "t\(t)"
        default: return v.plainText
        }
    }

    @Test func theStandardQuestionsGiveDuckDBsNumbers() throws {
        guard let python = Oracle.python() else { Issue.record("no Python with duckdb (make oracle-deps)"); return }
        let example = try String(contentsOfFile: Repo.path("examples/pldp.utq"), encoding: .utf8)
        let s = try session()
        let cases = Self.questions.enumerated().map { ["id": "\($0.offset)", "sql": $0.element.sql] }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-pldp-\(getpid())")
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
            #expect(example.contains(q.utq), "examples/pldp.utq no longer asks: \(q.utq)")
            let theirs = try #require(results[i]["rows"] as? [[Any?]], "DuckDB: \(results[i]["error"] ?? "")")
            let t = try s.table(q.utq)
            let mine = (0..<t.rowCount).map { r in t.columns.map { Self.text($0.value(at: r)) }.joined(separator: " | ") }.sorted()
            let expected = theirs.map { $0.map(Self.text).joined(separator: " | ") }.sorted()
            #expect(mine.count > 3, "\(q.utq)")
            #expect(mine == expected, "\(q.utq)")
        }
    }

    @Test func theSamplesLoadAsPLDP() throws {
        let s = makeSession()
        var info: [String] = [], warnings: [String] = []
        s.run("set timezone America/Los_Angeles; load datasets/pldp-sf/civic-center-staying.csv as staying") { _, o in
            for output in o.outputs {
                if case .info(let n) = output { info.append(n) }
                if case .warning(let w) = output { warnings.append(w) }
            }
        }
        #expect(info.last == "staying: 10,725 rows, 29 columns · 2017-05-25 08:00 → 2017-09-22 22:00 (America/Los_Angeles)\n  PLDP people staying; people = the 5 posture columns added up; 188,789 empty count cells read as 0 (help pldp)")
        let t = try s.table("staying | limit 1")
        // Names without their trailing spaces, counts as whole numbers with 0 for empty, times as
        // timestamps (09/22/17 10:00 PM), the location as two numbers.
        #expect(t.column("postureStanding")?.type == .int && t.column("postureLying")?.type == .int)
        #expect(t.values("postureLying") == [.int(0)])
        #expect(t.column("startedAt")?.type == .timestamp)
        let first = try s.table("staying | where id = \"SFCC1\" | select h = hour(startedAt), m = month(startedAt), y = year(startedAt)")
        #expect(first.strings("h") == ["22"] && first.strings("y") == ["2017"])
        #expect(t.values("lng") == [.double(-122.418)] && t.values("lat") == [.double(37.7796)])
        // Columns the protocol does not name are kept, and said.
        warnings = []
        s.run("load datasets/pldp-sf/sf-actscan.csv as scan") { _, o in for case .warning(let w) in o.outputs { warnings.append(w) } }
        #expect(warnings.contains { $0.contains("16 columns the protocol does not name (sittingInformal, activitiesUrinatingDefecating") })
        #expect(try s.table("scan | select parkedBikeRack | limit 1").rowCount == 1)
        // The help says what was done.
        #expect(try Help.text(for: "pldp").contains("an empty cell is 0"))
        // 12-hour clocks and two-digit years are read month first only.
        #expect(TimestampParser.parse("09/22/17 10:00 PM", order: .monthFirst)?.wall == TimestampParser.parse("2017-09-22 22:00")?.wall)
        #expect(TimestampParser.parse("12/01/17 12:05 am", order: .monthFirst)?.wall == TimestampParser.parse("2017-12-01 00:05")?.wall)
        #expect(TimestampParser.parse("22/09/17 10:00", order: .dayFirst) == nil)
        #expect(TimestampParser.parse("09/22/2017 13:00 PM", order: .monthFirst) == nil)
    }

    /// A table loaded as PLDP and saved keeps its derived columns in the file; loading the file
    /// again finds them there and keeps each once, and a file's own `people` that is not the
    /// counts added up is kept as it is and said.
    @Test func aSavedSurveyLoadsBackWithItsColumnsOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-pldp-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = makeSession()
        var info: [String] = [], warnings: [String] = []
        let collect: (String) -> Void = { line in
            s.run(line) { _, o in
                for output in o.outputs {
                    if case .info(let n) = output { info.append(n) }
                    if case .warning(let w) = output { warnings.append(w) }
                }
            }
        }
        collect("set timezone America/Los_Angeles; load datasets/pldp-sf/civic-center-staying.csv as staying")
        #expect(s.failure("staying | save \(dir)/staying.csv") == nil)
        let before = try s.table("staying")
        (info, warnings) = ([], [])
        collect("load \(dir)/staying.csv as again")
        let after = try s.table("again")
        #expect(after.columnNames == before.columnNames)
        #expect(after.columnNames.filter { ["people", "lng", "lat"].contains($0) } == ["people", "lng", "lat"])
        #expect(after.rowCount == before.rowCount)
        for name in ["people", "lng", "lat"] {
            #expect(after.column(name).map { c in (0..<c.count).map { c.value(at: $0) } } == before.column(name).map { c in (0..<c.count).map { c.value(at: $0) } })
        }
        #expect(info.last?.contains("people = the 5 posture columns added up") == true, "\(info)")
        #expect(!warnings.contains { $0.contains("protocol does not name") }, "\(warnings)")

        // A people column of the file's own, not the postures added up.
        let own = "startedAt,postureStanding,postureSitting,people\n09/22/17 10:00 PM,1,2,7\n09/22/17 11:00 PM,,4,4\n"
        try own.write(toFile: "\(dir)/own.csv", atomically: true, encoding: .utf8)
        (info, warnings) = ([], [])
        collect("load \(dir)/own.csv as own")
        let t = try s.table("own")
        #expect(t.columnNames == ["startedAt", "postureStanding", "postureSitting", "people"])
        #expect(t.values("people") == [.int(7), .int(4)])
        #expect(info.last?.contains("the file's own people kept as it is") == true, "\(info)")
        #expect(info.last?.contains("posture columns added up") == false, "\(info)")

        // Seattle's shape: people once, and the time (Date + Start_time) the table's time again.
        (info, warnings) = ([], [])
        collect("load \"datasets/pldp-seattle/people-moving.csv\" as moving")
        let first = info.last
        #expect(s.failure("moving | save \(dir)/moving.csv") == nil)
        (info, warnings) = ([], [])
        collect("load \(dir)/moving.csv as moving2")
        #expect(info.last == first?.replacingOccurrences(of: "moving:", with: "moving2:").replacingOccurrences(of: "; 7 empty count cells read as 0", with: ""),
                "\(String(describing: info.last)) against \(String(describing: first))")
        #expect(try s.table("moving2").columnNames == (try s.table("moving")).columnNames)
        let hours = try s.table("moving | count by hour"), hours2 = try s.table("moving2 | count by hour")
        #expect(hours.rowCount > 3 && hours2.strings("hour") == hours.strings("hour") && hours2.strings("count") == hours.strings("count"))
    }
}
