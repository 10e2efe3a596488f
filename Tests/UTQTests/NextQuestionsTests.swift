import Foundation
import Testing
@testable import UTQCore

/// The next questions users ask: pipelines in parentheses for union and join, cross joins,
/// pivot totals, calendar parts and rolling windows. The differential oracle compares them
/// with DuckDB on random tables; these tests hold the cases a person would check by hand.
@Suite struct NextQuestionsTests {
    func market() throws -> Session {
        let s = makeSession()
        try s.table("load datasets/market-weather.csv as weather; load datasets/market.json; count")
        return s
    }

    @Test func unionTakesAPipelineInParentheses() throws {
        let s = try market()
        let t = try s.table("where legend = \"Bike\" | union (market | where legend = \"Jogging\") | count by legend")
        let bikes = try s.table("where legend = \"Bike\" | count").values("count")
        let joggers = try s.table("where legend = \"Jogging\" | count").values("count")
        #expect(t.strings("legend") == ["Bike", "Jogging"])
        #expect(t.values("count") == bikes + joggers)
        // The same as two kept tables, the way it had to be written before.
        let kept = try s.table("let b = where legend = \"Bike\"; let j = where legend = \"Jogging\"; b | union j | count by legend")
        #expect(kept.values("count") == t.values("count"))
        // A pipeline that waits for a probe (pivot learns its columns first) makes union wait.
        let pivoted = try s.table("count by legend | union (market | count by legend, hour | pivot hour)")
        let legends = try s.table("count by legend").rowCount
        #expect(pivoted.rowCount == 2 * legends && pivoted.columnNames.contains("12"))
    }

    @Test func joinTakesAPipelineAndSaysWhenOnIsMissing() throws {
        let s = try market()
        let t = try s.table("count by legend | join (market | count by legend, hour | where hour = 12) on legend")
        #expect(t.columnNames == ["legend", "count", "hour", "market.count"])
        #expect(t.rowCount == 5 && t.strings("hour").allSatisfy { $0 == "12" })
        let missing = try #require(s.failure("join market"))
        #expect(missing.hint?.contains("cross join market") == true)
        let sink = try #require(s.failure("union (market | save /tmp/utq-never.csv)"))
        #expect(sink.message.contains("save cannot end a pipeline in parentheses"))
        let unclosed = try #require(s.failure("union (market | where legend = \"Bike\""))
        #expect(unclosed.message.contains("expected ')'"))
    }

    @Test func crossJoinPairsEveryRow() throws {
        let s = try market()
        let entries = try s.table("count").values("count")[0]
        let sessions = try s.table("weather | count").values("count")[0]
        guard case .int(let e) = entries, case .int(let w) = sessions else { Issue.record("counts"); return }
        #expect(try s.table("market | cross join weather | count").values("count") == [.int(e * w)])
        let one = try s.table("market | cross join (weather | where sky = \"rain\") | count by sky")
        #expect(one.strings("sky").allSatisfy { $0 == "rain" })
        let explained = try s.plan("market | cross join weather | count")
        #expect(PlanPrinter.text(explained).contains("cross join (every row with every row)"))
        let on = try #require(s.failure("market | cross join weather on session"))
        #expect(on.message.contains("takes no on"))
    }

    @Test func pivotTotalsAddUpAndRefuseMeans() throws {
        let s = try market()
        let t = try s.table("count by legend, hour | pivot hour with totals")
        let byLegend = try s.table("count by legend")
        let byHour = try s.table("count by hour")
        // The total column is each legend's count, the total row each hour's.
        #expect(t.strings("legend").last == "total")
        #expect(Array(t.strings("total").dropLast()) == byLegend.strings("count"))
        let totalRow = t.row(t.rowCount - 1)
        for (hour, count) in zip(byHour.strings("hour"), byHour.strings("count")) { #expect(totalRow[hour] == count) }
        #expect(totalRow["total"] == "516")
        // A key of numbers names the total row as text.
        let byHourRows = try s.table("count by hour, legend | pivot legend with totals")
        #expect(byHourRows.strings("hour") == byHour.strings("hour") + ["total"])
        // Maxima total as the greatest.
        let maxima = try s.table("max x by legend, hour | pivot hour with totals")
        let greatest = try s.table("max x").strings("max_x")
        #expect(maxima.row(maxima.rowCount - 1)["total"] == greatest[0])
        let mean = try #require(s.failure("avg x by legend, hour | pivot hour with totals"))
        #expect(mean.message.contains("cannot total avg_x") && mean.hint?.contains("count and sum") == true)
        // A sum of rows that are not there is unknown; a count of them is 0.
        let sums = try s.table("sum x by legend, hour | pivot hour")
        let counts = try s.table("count by legend, hour | pivot hour")
        let joggingSums = sums.row(sums.strings("legend").firstIndex(of: "Jogging")!)
        let joggingCounts = counts.row(counts.strings("legend").firstIndex(of: "Jogging")!)
        #expect(joggingSums["8"] == "null" && joggingCounts["8"] == "0")
    }

    @Test func calendarPartsMatchDuckDB() throws {
        // Every day of 32 years, at noon: day of month, of year, ISO week and quarter.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-calendar-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = "t\n"
        let start = CivilTime.daysFromCivil(year: 1999, month: 12, day: 20)
        for d in start..<(start + 11_700) {
            let (y, m, day) = CivilTime.civilFromDays(d)
            text += String(format: "%04d-%02d-%02dT12:00:00Z\n", y, m, day)
        }
        let input = dir.appendingPathComponent("days.csv").path, output = dir.appendingPathComponent("parts.csv").path
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let s = makeSession()
        try s.table("load \(input) as days; select t, a = day_of_month(t), b = day_of_year(t), c = week_of_year(t), d = quarter(t) | save! \(output); count")
        let script = """
        import duckdb, sys
        f = sys.argv[1]
        n = duckdb.sql(f"select count(*) from read_csv('{f}')").fetchall()[0][0]
        bad = duckdb.sql(f"select count(*) from read_csv('{f}') u where u.a <> day(u.t::timestamp) or u.b <> dayofyear(u.t::timestamp) "
                         f"or u.c <> week(u.t::timestamp) or u.d <> quarter(u.t::timestamp)").fetchall()[0][0]
        print(n, bad)
        """
        let answer = try #require(try ParquetWriterTests.python("duckdb", script, [output]), "DuckDB from Python checks the calendar")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(answer == "11700 0")
        // As buckets too, and the contract's line.
        let rides = makeSession()
        let byDay = try rides.table("load datasets/rides.csv; count by day_of_month(requested_at)")
        #expect(byDay.strings("day_of_month").first == "1" && byDay.rowCount == 31)
    }

    @Test func rollingWindowsOverRowsAndTime() throws {
        let s = makeSession()
        let t = try s.table("load datasets/rides.csv; count by day | let week = avg(count) over 7 days, three = sum(count) over 3 rows, top = max(count) over 7 days")
        let counts = t.values("count").map { v -> Double in if case .int(let i) = v { return Double(i) } else { return .nan } }
        for i in 0..<t.rowCount {
            let window = counts[max(0, i - 6)...i]
            // Days follow one another here, so 7 days are the 7 rows up to this one.
            #expect(abs(t.values("week")[i].doubleValue! - window.reduce(0, +) / Double(window.count)) < 1e-9)
            #expect(t.values("top")[i].doubleValue! == window.max()!)
            #expect(t.values("three")[i].doubleValue! == counts[max(0, i - 2)...i].reduce(0, +))
        }
        // A day without rides is not a row: a time window counts days on the calendar, a window
        // of rows counts rows.
        let gaps = try s.table("where day(requested_at) != \"2020-02-20\" | count by day | let d = count(count) over 3 days, r = count(count) over 3 rows")
        let afterGap = gaps.row(3)
        #expect(afterGap["day"] == "2020-02-21" && afterGap["d"] == "2" && afterGap["r"] == "3")
    }

    @Test func rollingWindowOfDaysFollowsTheCalendarAcrossAClockChange() throws {
        // Oslo's clocks went forward on 2021-03-28: that day had 23 hours. A window of one day
        // still reaches back to the same clock time the day before.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-rolling-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("dst.csv").path
        try "t,x\n2021-03-27T12:00:00+01:00,1\n2021-03-28T12:00:00+02:00,10\n2021-03-28T11:30:00+02:00,100\n".write(toFile: file, atomically: true, encoding: .utf8)
        let s = makeSession(zone: ZoneRules.named("Europe/Oslo")!)
        let t = try s.table("load \(file) with timezone=Europe/Oslo; sort t | let day = sum(x) over 1d, hours = sum(x) over 25h")
        // 12:00 on the 28th: a calendar day back is 12:00 on the 27th (23 hours before), which
        // has left; 25 hours back is 10:00 on the 27th, so 12:00 is still in.
        #expect(t.strings("day") == ["1", "101", "110"])
        #expect(t.strings("hours") == ["1", "101", "111"])
    }

    @Test func rollingWindowsSayWhatTheyNeed() throws {
        let s = makeSession()
        try s.table("load datasets/rides.csv; count")
        let noTime = try #require(s.failure("count by driver | let w = avg(count) over 7 days"))
        #expect(noTime.message.contains("no time column") && noTime.hint?.contains("over 7 rows") == true)
        let median = try #require(s.failure("count by day | let w = median(count) over 7 days"))
        #expect(median.message.contains("count, sum, avg, min or max"))
        let outside = try #require(s.failure("where avg(price) over 3 rows > 1"))
        #expect(outside.message.contains("belongs in let"))
        let unit = try #require(s.failure("count by day | let w = avg(count) over 7 fortnights"))
        #expect(unit.message.contains("after over 7"))
        // The plan names the window as it was written.
        let plan = try s.plan("count by day | let week = avg(count) over 7 days by day")
        #expect(PlanPrinter.text(plan).contains("avg(count) over 7 days"))
    }

    @Test func headwaysWithoutADirectionGoByHeadsign() throws {
        // The headways fixture with its direction_id emptied and a headsign for each way, as
        // some feeds (Vilnius's) publish them: the gaps must be those of the directed feed.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-nodirection-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.copyItem(atPath: Repo.path("Tests/Fixtures/gtfs-headways"), toPath: dir.path)
        defer { try? FileManager.default.removeItem(at: dir) }
        let trips = dir.appendingPathComponent("trips.txt").path
        var lines = try String(contentsOfFile: trips, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let d = try #require(header.firstIndex(of: "direction_id"))
        lines = lines.enumerated().map { k, line in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if k == 0 { return line + ",trip_headsign" }
            let way = cells[d] == "0" ? "Centre" : "Airport"
            cells[d] = ""
            return cells.joined(separator: ",") + "," + way
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: trips, atomically: true, encoding: .utf8)
        let directed = makeSession(), undirected = makeSession()
        try directed.table("load Tests/Fixtures/gtfs-headways as feed; count")
        try undirected.table("load \(dir.path) as feed; count")
        let question = "feed | headways on 2026-03-09 by route_id"
        var notes: [String] = []
        let fallback = try undirected.table(question) { notes.append($0) }
        #expect(fallback.strings("min_headway") == (try directed.table(question)).strings("min_headway"))
        #expect(notes.contains { $0.contains("no direction_id") && $0.contains("trip_headsign") })
    }
}
