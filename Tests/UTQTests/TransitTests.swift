import Foundation
import Testing
@testable import UTQCore

/// The transit verbs against an independent reading of the same txt files
/// (Tests/Support/gtfs_reference.py, standard-library Python): the trips of a day, and
/// headways, on the demo feed, feeds of the transitfeed corpus (calendar_dates only, no
/// departure times at some stops), a feed with regular headways and times past 24:00, and a
/// made-up network (Tests/Fixtures/gtfs-network) whose frequencies, calendar exceptions and
/// night buses the verbs count as the reference does, each run of a repeating trip a trip.
@Suite struct TransitTests {
    static let feeds = ["Tests/Fixtures/gtfs-headways", "datasets/gtfs/demo-transit.zip",
                        "Tests/Fixtures/gtfs-transitfeed/good_feed", "Tests/Fixtures/gtfs-transitfeed/only_calendar_dates",
                        "Tests/Fixtures/gtfs-transitfeed/missing_departure_time", "Tests/Fixtures/gtfs-transitfeed/flatten_feed",
                        "Tests/Fixtures/gtfs-network"]
    // A weekday, a Saturday, a day with calendar_dates changes, and days around them; the
    // network's event Saturday, its Saturday with the weekday service added, its Easter Monday.
    static let days = ["2007-06-04", "2007-06-05", "2007-06-09", "2007-06-10", "2026-03-03", "2026-03-07", "2026-05-01", "2026-07-02",
                       "2026-03-14", "2026-04-04", "2026-04-06"]

    func reference(_ arguments: [String]) throws -> Any { try TransitReference.run(arguments) }
    func session(_ feed: String) -> Session { TransitReference.session(feed) }

    /// Whether a day is within the feed's calendar (outside it, service on is an error).
    func inRange(_ s: Session, _ day: String) -> Bool { TransitReference.inRange(s, day) }

    @Test(arguments: feeds)
    func serviceOnADay(_ feed: String) throws {
        let s = session(feed)
        var compared = 0
        for day in Self.days where inRange(s, day) {
            let mine = try s.table("feed | service on \(day) | select trip_id").strings("trip_id").sorted()
            let theirs = try #require(try reference([Repo.path(feed), "service", day]) as? [String])
            #expect(mine == theirs, "\(feed) on \(day)")
            compared += 1
        }
        #expect(compared >= 2, "\(feed): too few days in its calendar to compare")
    }

    @Test(arguments: feeds)
    func headwaysOnADay(_ feed: String) throws {
        let s = session(feed)
        for day in Self.days where inRange(s, day) {
            for (window, by) in [(nil, ["route_id"]), (("07:00", "19:00"), ["route_id", "stop_id"]), (nil, [])] as [((String, String)?, [String])] {
                let between = window.map { " between \"\($0.0)\" and \"\($0.1)\"" } ?? ""
                let t = try s.table("feed | headways on \(day)\(between)" + (by.isEmpty ? "" : " by " + by.joined(separator: ", ")))
                var args = [Repo.path(feed), "headways", day] + (window.map { [$0.0, $0.1] } ?? [])
                if !by.isEmpty { args += ["--by", by.joined(separator: ",")] }
                let theirs = try #require(try reference(args) as? [[String: Any]])
                // utq gives one row for no keys even with no departures; the reference gives none.
                if by.isEmpty && theirs.isEmpty { #expect(t.strings("departures") == ["0"]); continue }
                #expect(t.rowCount == theirs.count, "\(feed) on \(day) by \(by)")
                for (i, row) in theirs.enumerated() where i < t.rowCount {
                    let key = row["key"] as? [String] ?? []
                    #expect(by.map { t.strings($0)[i] } == key, "\(feed) on \(day)")
                    #expect(t.strings("departures")[i] == "\(row["departures"] as? Int ?? -1)", "\(feed) on \(day) \(key)")
                    for (column, name) in [("min_headway", "min"), ("median_headway", "median"), ("max_headway", "max")] {
                        let seconds: Double?
                        if case .duration(let micros) = t.values(column)[i] { seconds = Double(micros) / 1_000_000 } else { seconds = nil }
                        #expect(seconds == (row[name] as? Double ?? (row[name] as? Int).map(Double.init)), "\(feed) on \(day) \(key) \(column)")
                    }
                }
            }
        }
    }

    @Test func theDaysAreSaidAndExplained() throws {
        let s = session("Tests/Fixtures/gtfs-headways")
        // Trips past midnight belong to the day their service runs: the last leaves at 25:10 and
        // 25:15 and reaches the other end at 25:22 and 25:27.
        let late = try s.table("feed | service on 2026-03-03 | join feed.stop_times on trip_id | where departure_time > \"25:00\" | count")
        #expect(late.strings("count") == ["4"])
        let why = try s.table("feed | service on 2026-05-01 | count by why")
        #expect(why.strings("why") == ["added on 2026-05-01 (calendar_dates)"])
        #expect(try s.table("feed | service on 2026-03-04 | count by why").strings("why") == ["runs on Wednesdays (calendar)"])
        // A day without service says why, as the demo feed's 2007-06-04 (its weekday service is taken away).
        let demo = session("datasets/gtfs/demo-transit.zip")
        var notes: [String] = []
        demo.run("feed | service on 2007-06-04") { _, o in for case .info(let n) in o.outputs { notes.append(n) } }
        #expect(notes == ["no trips run on Monday 2007-06-04: calendar_dates takes FULLW away that day"])
        notes = []
        s.run("feed | headways on 2026-03-08 by route_id") { _, o in for case .info(let n) in o.outputs { notes.append(n) } }
        #expect(notes.first == "no trips run on Sunday 2026-03-08: no service of the calendar runs on Sundays then, and calendar_dates adds none")
        // Trips that repeat by frequencies.txt count once per run, and the note says so.
        notes = []
        demo.run("feed | headways on 2007-06-09 by route_id") { _, o in for case .info(let n) in o.outputs { notes.append(n) } }
        #expect(notes == ["3 trips of feed repeat by frequencies.txt; each of their runs counts as a trip"])
        notes = []
        s.run("feed | headways on 2026-03-03 by route_id") { _, o in for case .info(let n) in o.outputs { notes.append(n) } }
        // R2's middle stop is no timepoint on its 30 Saturday trips: said, not silently skipped.
        #expect(notes == ["30 stop times of feed have no departure time (stops that are no timepoints) and are left out"])
        // The calendar's time span runs from the first start_date to the last end_date.
        #expect(try s.table("tables | where table = \"feed.calendar\"").strings("time span") == ["2026-01-05 → 2026-06-30"])
        // Outside the calendar: the range, not an empty table.
        let outside = try #require(s.failure("feed | service on 2030-01-01"))
        #expect(outside.message == "2030-01-01 is outside feed's calendar, which runs from 2026-01-05 to 2026-07-02")
        #expect(s.failure("feed | service on 2026-02-30")?.message == "2026-02-30 is not a day of the calendar")
        #expect(s.failure("feed | headways on 2026-03-03 between \"7\" and \"9\"")?.message == "\"7\" is not a time of day")
        // The feed by its name alone is a set of tables; transit verbs come first.
        #expect(s.failure("feed | count")?.message.hasPrefix("feed is a GTFS feed, a set of tables: feed.agency") == true)
        #expect(s.failure("feed.trips | where route_id = \"R1\" | service on 2026-03-03")?.message.hasPrefix("service on reads a whole GTFS feed") == true)
        // A line that starts with the verb reads the feed of the current table.
        #expect(try s.table("service on 2026-03-07 | count").strings("count") == ["30"])
        let market = makeSession()
        #expect(market.run("load datasets/market.json").isEmpty)
        #expect(market.failure("service on 2026-03-07")?.message.hasPrefix("service on reads a GTFS feed, and the current table, market, is no part of one") == true)
        // explain shows the steps: the calendar, the additions, the removals.
        let plan = PlanPrinter.text(try s.plan("feed | service on 2026-05-01"))
        #expect(plan.contains("where (date = ") && plan.contains("exception_type = 2") && plan.contains("friday = 1"))
    }
}

/// Tests/Support/gtfs_reference.py, run on a feed, and a session with the feed loaded.
enum TransitReference {
    static func run(_ arguments: [String], script: String = "gtfs_reference.py") throws -> Any {
        // The network reference measures metres with geographiclib, as utq measures them.
        let python = try #require(Oracle.python(with: "geographiclib"), "no Python with geographiclib (make oracle-deps installs one)")
        let parts = python.split(separator: " ").map(String.init)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: parts[0])
        process.arguments = Array(parts.dropFirst()) + [Repo.path("Tests/Support/" + script)] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    }

    static func session(_ feed: String) -> Session {
        let s = makeSession()
        s.run("load \(feed) as feed") { _, _ in }
        return s
    }

    /// Whether a day is within the feed's calendar (outside it, service on is an error).
    static func inRange(_ s: Session, _ day: String) -> Bool {
        s.failure("feed | service on \(day)")?.message.contains("outside") != true
    }

    /// A duration or a clock time of the service day, in seconds.
    static func seconds(_ v: Value) -> Double? {
        if case .duration(let micros) = v { return Double(micros) / 1_000_000 }
        return nil
    }
}

/// What the checks of a feed find carries a stable code, as gtfs-validator names its notices.
@Suite struct GTFSNoticeTests {
    @Test func aHeaderWithSpacesWarnsWithItsCode() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-spaced-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixture = Repo.path("Tests/Fixtures/gtfs-headways")
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture) where name.hasSuffix(".txt") {
            try FileManager.default.copyItem(atPath: fixture + "/" + name, toPath: dir.appendingPathComponent(name).path)
        }
        try "agency_id, agency_name, agency_url, agency_timezone\nT,Town Transit,https://example.org,Europe/Oslo\n"
            .write(to: dir.appendingPathComponent("agency.txt"), atomically: true, encoding: .utf8)
        let s = makeSession()
        var warnings: [String] = []
        s.run("load \(dir.path) as feed") { _, o in for case .warning(let w) in o.outputs { warnings.append(w) } }
        #expect(warnings.count == 3)
        #expect(warnings.first?.hasSuffix("agency.txt:1: column name \" agency_name\" has spaces around it; read as agency_name [leading_or_trailing_whitespaces]") == true, "\(warnings)")
        // The columns are there by their names.
        #expect(try s.table("feed.agency | select agency_name").strings("agency_name") == ["Town Transit"])
    }

    /// The load summary ends with how many warnings each code has, those the list leaves out
    /// ("7 more missing cells warnings") included.
    @Test func theSummaryCountsEachCode() throws {
        let dir = Repo.path("Tests/Fixtures/gtfs-transitfeed/duplicate_stop")
        // Lines whose number of cells differs from the header's (these files quote nothing).
        var short = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where name.hasSuffix(".txt") {
            let lines = try String(contentsOfFile: dir + "/" + name, encoding: .utf8).split(whereSeparator: \.isNewline)
            let cells = { (line: Substring) in line.split(separator: ",", omittingEmptySubsequences: false).count }
            short += lines.dropFirst().filter { !$0.isEmpty && cells($0) != cells(lines[0]) }.count
        }
        #expect(short > 20)
        let s = makeSession()
        var info: [String] = []
        s.run("load \(dir) as feed") { _, o in for case .info(let n) in o.outputs { info.append(n) } }
        let counts = try #require(info.last?.split(separator: "\n").last.map(String.init))
        #expect(counts == "notices: invalid_row_length \(short) · stops_too_close 1 (help gtfs CODE says what each means)")
        // A feed without warnings says nothing of notices.
        info = []
        s.run("load Tests/Fixtures/gtfs-headways as clean") { _, o in for case .info(let n) in o.outputs { info.append(n) } }
        #expect(!(info.last ?? "").contains("notices"))
    }

    /// Warnings of reading are filed under a notice by the kind the reader gave them, not by
    /// their words: a time not written H:MM:SS is an invalid_time, a line of one cell an
    /// invalid_row_length, and the dates a list leaves out still count under invalid_date.
    @Test func warningsOfReadingAreFiledByTheirKind() throws {
        let calendar = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
            + "S,1,1,1,1,1,0,0,20240101,20241231\n"
            + (1...5).map { "S\($0),1,1,1,1,1,0,0,2024-01-0\($0),20241231\n" }.joined()
        let dir = try GTFSLoaderTests.feed([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,59.91,10.75\nB,Beta,59.92,10.76\nC\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,8h00,8:00:00,A,1\nT1,8:10:00,8:10:00,B,2\n",
            "calendar.txt": calendar,
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var warnings: [String] = [], info: [String] = []
        makeSession().run("load \(dir) as feed") { _, o in
            for output in o.outputs {
                if case .warning(let w) = output { warnings.append(w) }
                if case .info(let n) = output { info.append(n) }
            }
        }
        for expected in ["stop_times.txt:2: arrival_time \"8h00\" is not a time written H:MM:SS; left empty [invalid_time]",
                         "stops.txt:4: 1 cell where the header has 4; the missing ones are empty [invalid_row_length]",
                         "calendar.txt:3: start_date \"2024-01-01\" is not a date written YYYYMMDD; left empty [invalid_date]",
                         "calendar.txt: 2 more bad start_date warnings"] {
            #expect(warnings.contains { $0.hasSuffix("/" + expected) }, "\(expected) not in \(warnings)")
        }
        let counts = try #require(info.last?.split(separator: "\n").last.map(String.init))
        for expected in ["invalid_date 5", "invalid_row_length 1", "invalid_time 1"] {
            #expect(counts.contains(expected), "\(expected) not in \(counts)")
        }
    }

    /// Every notice is chosen somewhere: by a check (`code: .duplicateKey`) or for a kind
    /// of warning of reading (`self = .invalidDate`). That each warning of a check has a
    /// code the compiler sees to; a code nothing chooses would be listed by help for nothing.
    @Test func everyCodeIsChosenAndExplained() throws {
        let dir = Repo.path("Sources/UTQCore/Ingest")
        let pattern = try NSRegularExpression(pattern: #"(?:code: |self = )\.([A-Za-z]+)"#)
        var chosen = Set<String>()
        let files = FileManager.default.enumerator(atPath: dir)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(!files.isEmpty)
        for name in files {
            let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
            for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                chosen.insert(String(text[Range(m.range(at: 1), in: text)!]))
            }
        }
        for code in GTFSNoticeCode.allCases {
            #expect(chosen.contains(String(describing: code)), "nothing files a warning under \(code.rawValue)")
        }
        // Each code has its help, and help gtfs lists them all.
        for n in GTFSNotices.all {
            #expect(try Help.text(for: "gtfs \(n.code)").contains(n.meaning))
            #expect(try Help.text(for: "gtfs").contains("  \(n.code)\n"))
        }
    }
}

/// Transit verbs build their plans from the feed's tables as the catalog names them, with
/// the user's words (a key, a date) kept where they were written.
@Suite struct TransitBuilderTests {
    @Test func aFeedOfAnyNameAnswers() throws {
        let s = makeSession()
        try s.table("load datasets/gtfs/demo-transit.zip as `my feed`\ncount")
        let named = try s.table("`my feed` | headways on 2007-06-05 by route_id")
        let plain = try s.table("load datasets/gtfs/demo-transit.zip as feed\nfeed | headways on 2007-06-05 by route_id")
        #expect(tableDifference(named, plain) == nil)
        #expect(named.rowCount == 4)
    }

    @Test func aBadDateOrKeyIsPointedAt() throws {
        let s = makeSession()
        try s.table("load datasets/gtfs/demo-transit.zip as `my feed`\ncount")
        let line = "`my feed` | headways on 2031-06-05 by route_id"
        let outside = try #require(s.failure(line))
        #expect(outside.message == "2031-06-05 is outside my feed's calendar, which runs from 2007-01-01 to 2025-12-31")
        #expect(outside.span == SourceSpan(24, 34))
        let notADate = try #require(s.failure("`my feed` | span on 2031-13-05"))
        #expect(notADate.message == "2031-13-05 is not a date" && notADate.span == SourceSpan(20, 30))
        let key = try #require(s.failure("`my feed` | headways on 2007-06-05 by route_idd"))
        #expect(key.kind == .unknownColumn("route_idd", suggestion: "route_id", columns: key.kind.columnsOfUnknownColumn))
        #expect(key.span == SourceSpan(38, 47))
        let rendered = DiagnosticRenderer.render(key, showLocation: false)
        #expect(rendered.contains("\n  `my feed` | headways on 2007-06-05 by route_idd\n                                        ^^^^^^^^^"), "\(rendered)")
    }
}

extension DiagnosticKind {
    /// The columns an unknown-column error lists, for comparing the rest of it.
    var columnsOfUnknownColumn: [String] {
        if case .unknownColumn(_, _, let columns) = self { return columns }
        return []
    }
}
