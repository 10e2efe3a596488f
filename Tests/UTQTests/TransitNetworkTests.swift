import Foundation
import Testing
@testable import UTQCore

/// The network verbs against Tests/Support (standard-library Python): departures with
/// frequencies.txt expanded and segments (distances along shapes, run times, speeds), on the
/// demo feed, the transitfeed corpus and the made-up network.
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

    func network(_ arguments: [String]) throws -> Any { try TransitReference.run(arguments, script: "gtfs_network_reference.py") }

    /// Each segment of the day, row for row: where it runs, when, how far, how fast and how
    /// its distance was measured.
    @Test(arguments: feeds)
    func segmentsRowForRow(_ feed: String) throws {
        let s = TransitReference.session(feed)
        for day in Self.days where TransitReference.inRange(s, day) {
            let t = try s.table("feed | segments on \(day)")
            var theirs = try #require(try network([Repo.path(feed), "segments", day]) as? [[String: Any]])
            theirs.sort { a, b in
                let x = (a["trip_id"] as? String ?? "", a["run"] as? Int ?? 0, a["stop_sequence"] as? Int ?? 0)
                let y = (b["trip_id"] as? String ?? "", b["run"] as? Int ?? 0, b["stop_sequence"] as? Int ?? 0)
                return x < y
            }
            #expect(t.rowCount == theirs.count, "\(feed) on \(day)")
            var order = Array(0..<t.rowCount)
            let trips = t.strings("trip_id"), runs = t.values("run"), sequences = t.strings("stop_sequence")
            func run(_ i: Int) -> Int { if case .int(let r) = runs[i] { return Int(r) } else { return 0 } }
            order.sort { (trips[$0], run($0), Int(sequences[$0]) ?? 0) < (trips[$1], run($1), Int(sequences[$1]) ?? 0) }
            for (k, row) in theirs.enumerated() where k < order.count {
                let i = order[k], at = "\(feed) on \(day): \(row["trip_id"] ?? "") \(row["stop_sequence"] ?? "")"
                #expect(trips[i] == row["trip_id"] as? String, "\(at)")
                #expect(t.strings("from_stop_id")[i] == row["from_stop_id"] as? String && t.strings("to_stop_id")[i] == row["to_stop_id"] as? String, "\(at)")
                #expect(TransitReference.seconds(t.values("departure_time")[i]) == (row["departure_time"] as? Int).map(Double.init), "\(at)")
                #expect(TransitReference.seconds(t.values("arrival_time")[i]) == (row["arrival_time"] as? Int).map(Double.init), "\(at)")
                #expect(TransitReference.seconds(t.values("run_time")[i]) == (row["run_time"] as? Int).map(Double.init), "\(at)")
                #expect(t.strings("measured")[i] == row["measured"] as? String, "\(at)")
                for (column, name) in [("distance_m", "metres"), ("speed_kmh", "speed")] {
                    let mine = t.values(column)[i].doubleValue, reference = (row[name] as? Double) ?? (row[name] as? Int).map(Double.init)
                    #expect((mine == nil) == (reference == nil), "\(at) \(column)")
                    if let mine, let reference { #expect(abs(mine - reference) <= 1e-6 * max(1, abs(reference)), "\(at) \(column): \(mine) vs \(reference)") }
                }
            }
        }
    }

    /// Segments summed up by keys, a time bucket among them: the speed map.
    @Test(arguments: feeds)
    func segmentsByKeys(_ feed: String) throws {
        let s = TransitReference.session(feed)
        for day in Self.days where TransitReference.inRange(s, day) {
            for by in [["route_id"], ["route_id", "hour"], ["from_stop_id", "to_stop_id"]] {
                let t = try s.table("feed | segments on \(day) by \(by.joined(separator: ", "))")
                let theirs = try #require(try network([Repo.path(feed), "segments", day, "--by", by.joined(separator: ",")]) as? [[String: Any]])
                #expect(t.rowCount == theirs.count, "\(feed) on \(day) by \(by)")
                for (i, row) in theirs.enumerated() where i < t.rowCount {
                    let at = "\(feed) on \(day) \(row["key"] ?? "")"
                    #expect(by.map { t.strings($0)[i] } == row["key"] as? [String], "\(at)")
                    #expect(t.strings("segments")[i] == "\(row["segments"] as? Int ?? -1)", "\(at)")
                    #expect(TransitReference.seconds(t.values("run_time")[i]) == (row["run_time"] as? Int).map(Double.init), "\(at)")
                    func near(_ column: String, _ reference: Double?, _ step: Double) {
                        let mine = t.values(column)[i].doubleValue
                        #expect((mine == nil) == (reference == nil), "\(at) \(column)")
                        if let mine, let reference { #expect(abs(mine - reference) <= step / 2 + 1e-9, "\(at) \(column): \(mine) vs \(reference)") }
                    }
                    let metres = (row["metres"] as? Double) ?? Double(row["metres"] as? Int ?? 0)
                    near("distance_km", metres / 1000, 0.01)
                    near("mean_speed_kmh", row["mean_speed"] as? Double, 0.1)
                    near("median_speed_kmh", row["median_speed"] as? Double, 0.1)
                }
            }
        }
    }

    @Test func segmentsSayHowTheyMeasure() throws {
        let net = TransitReference.session("Tests/Fixtures/gtfs-network")
        var notes: [String] = []
        _ = try net.table("feed | segments on 2026-03-03 by route_id") { notes.append($0) }
        // R1's shape_dist_traveled is in kilometres, as its shape's length shows.
        #expect(notes.contains { $0.hasPrefix("distance_m of ") && $0.contains("by shape_dist_traveled, read as kilometres") && $0.contains("along shapes.txt's points") })
        #expect(notes.contains("8 segments have stops without times (no timepoints): no run time or speed"))
        // Along a shape is longer than straight from stop to stop; shape_dist_traveled agrees
        // with the shape's points where the stops lie on them.
        let r1 = try net.table("feed | segments on 2026-03-07 | where trip_id = \"R1S\"")
        let straight = try net.table("feed | segments on 2026-03-03 | where trip_id = \"R1R1\"")
        #expect(r1.strings("measured") == ["shape_dist_traveled", "shape_dist_traveled", "shape_dist_traveled"])
        #expect(straight.strings("measured") == ["straight", "straight", "straight"])
        let along = r1.values("distance_m").compactMap(\.doubleValue), direct = straight.values("distance_m").compactMap(\.doubleValue).reversed()
        for (a, d) in zip(along, direct) { #expect(a > d) }
        // explain shows the step, which runs in memory.
        #expect(PlanPrinter.text(try net.plan("feed | segments on 2026-03-03 by route_id")).contains("segments: each stop of a run to the next"))
        #expect(net.failure("feed | segments by route_id on 2026-03-03")?.message == "the day comes before by")
        #expect(net.failure("feed | segments on 2026-03-03 by colour")?.message.contains("colour") == true)
    }

    /// Each network step's loop looks at Ctrl-C's flag: with the flag set, it stops with a
    /// cancellation rather than finishing.
    @Test func theNetworkStepsStopAtCtrlC() throws {
        let s = TransitReference.session("Tests/Fixtures/gtfs-network")
        let departures = try s.table("feed | departures on 2026-03-03"), stops = try s.table("feed.stops")
        let stopTimes = try s.table("feed | service on 2026-03-03 | join feed.stop_times on trip_id"), frequencies = try s.table("feed.frequencies")
        let flag = CancellationFlag()
        flag.cancel()
        #expect(throws: CancellationError.self) {
            try FrequencyExpansion.expand(stopTimes, frequencies: frequencies, schema: Schema(stopTimes), cancel: flag)
        }
        #expect(throws: CancellationError.self) {
            try SegmentRows.make(departures, stops: stops, shapes: nil, schema: Schema(departures), notes: nil, cancel: flag)
        }
        let question = TravelTimesNode.Question(origins: ["B"], leave: 8 * 3600, change: 0, walkSpeed: 1.3)
        #expect(throws: CancellationError.self) {
            try TravelTimeRows.make(departures, stops: stops, transfers: nil, question: question, schema: Schema(departures), notes: nil, cancel: flag)
        }
        try s.table("load Tests/Fixtures/gtfs-network-v2 as next\ntables")
        let plan = try s.plan("feed | diff next")
        let diff = try #require(plan.as(FeedDiffNode.self))
        let inputs = try diff.parts.map { try $0.runInMemory(ExecutionContext(catalog: s.catalog)) }
        #expect(throws: CancellationError.self) { try FeedComparison.rows(diff, inputs, notes: nil, cancel: flag) }
        // Without the flag, the same calls answer.
        #expect(try FeedComparison.rows(diff, inputs, notes: nil, cancel: nil).rowCount > 0)
    }
}
