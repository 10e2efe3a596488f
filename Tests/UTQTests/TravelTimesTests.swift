import Foundation
import Testing
@testable import UTQCore

/// travel times (RAPTOR) against a brute-force search of the same day's timetable
/// (Tests/Support/gtfs_network_reference.py: Dijkstra over a time-expanded graph of trip
/// events): the same stops reached, at the same times, with as many transfers, the last trip
/// one of those the search finds for that arrival.
@Suite struct TravelTimesTests {
    /// Compares one line of utq with the reference's answer to the same question.
    func compare(_ s: Session, _ feed: String, _ line: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let t = try s.table(line)
        let theirs = try #require(try TransitReference.run([Repo.path(feed), "travel"] + arguments, script: "gtfs_network_reference.py") as? [String: [String: Any]])
        let stops = t.strings("stop_id")
        #expect(Set(stops) == Set(theirs.keys), "\(line): \(Set(stops).symmetricDifference(theirs.keys).sorted())", sourceLocation: sourceLocation)
        #expect(stops.count == Set(stops).count, "\(line): a stop twice", sourceLocation: sourceLocation)
        let window = t.column("departure_time") != nil
        for (i, stop) in stops.enumerated() {
            guard let row = theirs[stop] else { continue }
            let at = "\(line): \(stop)"
            let arrival = row["arrival"] as? Int ?? -1, rides = row["rides"] as? Int ?? -1, leave = row["leave"] as? Int ?? -1
            #expect(TransitReference.seconds(t.values("arrival_time")[i]) == Double(arrival), "\(at) arrival", sourceLocation: sourceLocation)
            #expect(TransitReference.seconds(t.values("travel_time")[i]) == Double(arrival - leave), "\(at) travel time", sourceLocation: sourceLocation)
            if window { #expect(TransitReference.seconds(t.values("departure_time")[i]) == Double(leave), "\(at) departure", sourceLocation: sourceLocation) }
            #expect(t.values("transfers")[i] == (rides > 0 ? .int(Int64(rides - 1)) : .null), "\(at) transfers", sourceLocation: sourceLocation)
            let trips = (row["trips"] as? [[Any]] ?? []).map { "\($0[0]) \($0[1])" }
            if rides == 0 {
                #expect(t.values("trip_id")[i] == .null, "\(at) trip", sourceLocation: sourceLocation)
            } else {
                var run = 0
                if case .int(let r) = t.values("run")[i] { run = Int(r) }
                #expect(trips.contains("\(t.strings("trip_id")[i]) \(run)"), "\(at): \(t.strings("trip_id")[i]) \(run) not in \(trips)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Three stops of the made-up network (and a station by its name), on a weekday, a
    /// Saturday of frequencies past midnight and Easter Monday, with and without change times,
    /// walks and limits: transfers, frequencies, night buses and calendar exceptions at once.
    @Test(arguments: ["2026-03-03", "2026-03-07", "2026-04-06"])
    func theMadeUpNetworkAsABruteForceSearch(_ day: String) throws {
        let feed = "Tests/Fixtures/gtfs-network"
        let s = TransitReference.session(feed)
        let options: [(String, [String])] = [("", []), (" transfer 2m", ["--transfer", "120"]),
                                             (" transfer 3m walk 300 m within 90m", ["--transfer", "180", "--walk", "300", "--within", "5400"]),
                                             (" walk 2 km until \"09:30\"", ["--walk", "2000", "--until", "09:30"])]
        // Each time is one where a rule of the network decides: Market's 4 minutes (from Old
        // Town at 07:10), no pickup at University (07:40), Harbour's timed ferry (08:20 from
        // Central), the night buses (23:30); from Hospital, no change there and no drop-off
        // at Harbour on the way in.
        for origin in ["A1", "B", "D", "E", "H"] {
            for time in ["06:55", "07:10", "07:40", "08:20", "23:30"] {
                for (words, arguments) in options where !(time == "23:30" && words.contains("until")) {
                    let word = origin.replacingOccurrences(of: "\"", with: "")
                    try compare(s, feed, "feed | travel times from \(origin) at \"\(time)\" on \(day)\(words)", [day, time, word] + arguments)
                }
            }
        }
        // A station by its name, several stops at once, and a window of departures.
        try compare(s, feed, "feed | travel times from \"Central Station\" at \"08:00\" on \(day)", [day, "08:00", "Central Station"])
        try compare(s, feed, "feed | travel times from C, H at \"07:00\" on \(day) transfer 1m", [day, "07:00", "C,H", "--transfer", "60"])
        for origin in ["A1", "B"] {
            try compare(s, feed, "feed | travel times from \(origin) between \"07:30\" and \"09:00\" on \(day) walk 300 m",
                        [day, "07:30", origin, "--between", "09:00", "--walk", "300"])
        }
    }

    /// The demo feed and the feeds of the transitfeed corpus, from each of their first stops.
    @Test(arguments: TransitTests.feeds.filter { $0 != "Tests/Fixtures/gtfs-network" })
    func theOtherFeeds(_ feed: String) throws {
        let s = TransitReference.session(feed)
        let stops = try s.table("feed.stop_times | distinct stop_id | limit 3").strings("stop_id")
        var compared = 0
        for day in TransitTests.days where TransitReference.inRange(s, day) {
            for stop in stops {
                try compare(s, feed, "feed | travel times from \(stop) at \"07:00\" on \(day) walk 500 m", [day, "07:00", stop, "--walk", "500"])
                compared += 1
            }
        }
        #expect(compared >= 2)
    }

    @Test func whatTravelTimesSay() throws {
        let net = TransitReference.session("Tests/Fixtures/gtfs-network")
        // R2X leaves after R2B and overtakes it: the airport is reached on R2X.
        let airport = try net.table("feed | travel times from A2 at \"08:00\" on 2026-03-03 | where stop_id = \"F\"")
        #expect(airport.strings("trip_id") == ["R2X"])
        // No change at Hospital (transfer_type 3): nothing more is reached from there.
        // A station by its name stands for its platforms.
        let station = try net.table("feed | travel times from \"central station\" at \"08:00\" on 2026-03-03 | where travel_time = 0s")
        #expect(Set(station.strings("stop_id")) == ["A1", "A2"])
        // explain shows the search as a step that runs in memory.
        let plan = PlanPrinter.text(try net.plan("feed | travel times from B at \"08:00\" on 2026-03-03 walk 300 m"))
        #expect(plan.contains("travel times: RAPTOR from B leaving at 08:00:00; changes take 0 s or what transfers.txt says; walks up to 300 m at 1.3 m/s"))
        // Its help, as one word or two.
        #expect(try Help.text(for: "travel times") == Help.text(for: "travel"))
        #expect(try Help.text(for: "travel").hasPrefix("travel — "))
        // Mistakes teach.
        let unknown = try #require(net.failure("feed | travel times from Markt at \"08:00\" on 2026-03-03"))
        #expect(unknown.message == "feed has no stop Markt — did you mean Market?")
        #expect(net.failure("feed | travel times from B on 2026-03-03")?.message == "travel times needs a time to leave")
        #expect(net.failure("feed | travel times from B at \"08:00\" walk 300m")?.message == "walk takes a distance, and this is a duration")
        #expect(net.failure("feed | travel times from B at \"8 am\"")?.message == "\"8 am\" is not a time of day")
        #expect(net.failure("feed | travel times from B at \"23:30\" until \"01:00\"")?.message == "until \"01:00\" comes before the time to leave, \"23:30\"")
        #expect(net.failure("feed | travel times from B at \"08:00\" on 2030-01-01")?.message.hasPrefix("2030-01-01 is outside feed's calendar") == true)
        // The contract's line: a day the demo feed's weekday service is taken away.
        let demo = TransitReference.session("datasets/gtfs/demo-transit.zip")
        var notes: [String] = []
        let monday = try demo.table("feed | travel times from STAGECOACH at \"08:00\" on 2007-06-04") { notes.append($0) }
        #expect(monday.strings("stop_id") == ["STAGECOACH"])
        #expect(notes.contains("no trips run on Monday 2007-06-04: calendar_dates takes FULLW away that day"))
    }
}
