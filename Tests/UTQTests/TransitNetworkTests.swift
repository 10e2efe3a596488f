import Foundation
import Testing
@testable import UTQCore

/// The network verbs against Tests/Support (standard-library Python): departures with
/// frequencies.txt expanded, on the demo feed, the transitfeed corpus and the made-up network.
@Suite struct TransitNetworkTests {
    static let feeds = TransitTests.feeds
    static let days = TransitTests.days

    /// Every departure of a day, row for row: each run's times shifted from its template.
    @Test(arguments: feeds)
    func departuresRowForRow(_ feed: String) throws {
        let s = TransitReference.session(feed)
        var compared = 0
        for day in Self.days where TransitReference.inRange(s, day) {
            let t = try s.table("feed | departures on \(day)")
            let theirs = try #require(try TransitReference.run([Repo.path(feed), "departures", day, "--rows"]) as? [[Any]])
            var mine: [[String]] = []
            for i in 0..<t.rowCount {
                let run = t.values("run")[i]
                mine.append([t.strings("trip_id")[i], run == .null ? "-" : run.plainText, t.strings("stop_sequence")[i], t.strings("stop_id")[i],
                             TransitReference.seconds(t.values("arrival_time")[i]).map { "\(Int($0))" } ?? "-",
                             TransitReference.seconds(t.values("departure_time")[i]).map { "\(Int($0))" } ?? "-"])
            }
            mine.sort { ($0[0], Int($0[1]) ?? 0, Int($0[2]) ?? 0) < ($1[0], Int($1[1]) ?? 0, Int($1[2]) ?? 0) }
            let expected = theirs.map { row in row.map { cell -> String in
                if let n = cell as? Int { return "\(n)" }
                if let text = cell as? String { return text }
                return "-"
            } }
            #expect(mine == expected, "\(feed) on \(day): \(mine.count) departures, the reference \(expected.count)")
            // In time order, as a timetable reads.
            let times = t.values("departure_time").compactMap(TransitReference.seconds)
            #expect(times == times.sorted(), "\(feed) on \(day)")
            compared += 1
        }
        #expect(compared >= 2)
    }

    /// The contract's line: departures per hour with frequencies expanded.
    @Test(arguments: feeds)
    func departuresPerHour(_ feed: String) throws {
        let s = TransitReference.session(feed)
        for day in Self.days where TransitReference.inRange(s, day) {
            for by in [["hour"], ["route_id", "stop_id"]] {
                let t = try s.table("feed | departures on \(day) | count by \(by.joined(separator: ", "))")
                let theirs = try #require(try TransitReference.run([Repo.path(feed), "departures", day, "--by", by.joined(separator: ",")]) as? [[String: Any]])
                #expect(t.rowCount == theirs.count, "\(feed) on \(day) by \(by)")
                for (i, row) in theirs.enumerated() where i < t.rowCount {
                    #expect(by.map { t.strings($0)[i] } == row["key"] as? [String], "\(feed) on \(day)")
                    #expect(t.strings("count")[i] == "\(row["departures"] as? Int ?? -1)", "\(feed) on \(day) \(row["key"] ?? "")")
                }
            }
        }
    }

    @Test func departuresSayWhatTheyCount() throws {
        let demo = TransitReference.session("datasets/gtfs/demo-transit.zip")
        // The demo feed's frequencies: CITY1 runs every 30 minutes from 06:00, every 10 from 08:00.
        let city = try demo.table("feed | departures on 2007-06-05 | where trip_id = \"CITY1\" and stop_id = \"STAGECOACH\" | limit 6")
        #expect(city.strings("run") == ["1", "2", "3", "4", "5", "6"])
        #expect(city.values("departure_time").compactMap(TransitReference.seconds) == [21600, 23400, 25200, 27000, 28800, 29400])
        // A trip that runs once has no run.
        #expect(try demo.table("feed | departures on 2007-06-05 | where trip_id = \"AB1\" | count by run").values("run") == [.null])
        var notes: [String] = []
        let monday = try demo.table("feed | departures on 2007-06-04 | count by hour") { notes.append($0) }
        #expect(monday.rowCount == 0)
        #expect(notes.first == "no trips run on Monday 2007-06-04: calendar_dates takes FULLW away that day")
        // explain shows the expansion as a step of the plan.
        let plan = PlanPrinter.text(try demo.plan("feed | departures on 2007-06-05"))
        #expect(plan.contains("departures: each trip of frequencies.txt run every headway_secs"))
        // A feed without frequencies.txt: each trip once, and explain says why.
        let flat = TransitReference.session("Tests/Fixtures/gtfs-transitfeed/flatten_feed")
        #expect(PlanPrinter.text(try flat.plan("feed | departures on 2007-06-05")).contains("has no frequencies.txt, so each trip runs once"))
        // Times past midnight stay with the day's service: the network's night buses.
        let net = TransitReference.session("Tests/Fixtures/gtfs-network")
        let night = try net.table("feed | departures on 2026-03-03 | where route_id = \"R5\" | count by hour")
        #expect(night.strings("hour") == ["23", "24", "25"])
        // Mistakes are pointed at.
        #expect(demo.failure("feed | departures on 2007-06-31")?.message == "2007-06-31 is not a day of the calendar")
        #expect(demo.failure("feed | departures on 2007-06-05 between \"8\" and \"9\"")?.message == "\"8\" is not a time of day")
        #expect(demo.failure("feed.trips | where route_id = \"AB\" | departures on 2007-06-05")?.message.hasPrefix("departures on reads a whole GTFS feed") == true)
    }
}
