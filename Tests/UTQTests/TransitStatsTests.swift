import Foundation
import Testing
@testable import UTQCore

/// span, peak vehicles and route stats against Tests/Support/gtfs_reference.py on the same
/// feeds and days as the other transit verbs: blocks (the made-up feed) and none, shapes
/// (flatten_feed) and none, calendar_dates only, stops without times, times past 24:00.
@Suite struct TransitStatsTests {
    static let feeds = TransitTests.feeds
    static let days = TransitTests.days

    @Test(arguments: feeds)
    func spanOnADay(_ feed: String) throws {
        let s = TransitReference.session(feed)
        for day in Self.days where TransitReference.inRange(s, day) {
            for by in [["route_id"], []] {
                let t = try s.table("feed | span on \(day)" + (by.isEmpty ? "" : " by route_id"))
                var args = [Repo.path(feed), "span", day]
                if !by.isEmpty { args += ["--by", "route_id"] }
                let theirs = try #require(try TransitReference.run(args) as? [[String: Any]])
                if by.isEmpty && theirs.isEmpty { #expect(t.strings("trips") == ["0"]); continue }
                #expect(t.rowCount == theirs.count, "\(feed) on \(day)")
                for (i, row) in theirs.enumerated() where i < t.rowCount {
                    #expect(by.map { t.strings($0)[i] } == row["key"] as? [String], "\(feed) on \(day)")
                    #expect(t.strings("trips")[i] == "\(row["trips"] as? Int ?? -1)")
                    for column in ["first_departure", "last_departure", "last_arrival"] {
                        #expect(TransitReference.seconds(t.values(column)[i]) == (row[column] as? Int).map(Double.init), "\(feed) on \(day) \(column)")
                    }
                    let span = (row["last_arrival"] as? Int ?? 0) - (row["first_departure"] as? Int ?? 0)
                    #expect(TransitReference.seconds(t.values("span")[i]) == Double(span))
                }
            }
        }
    }

    @Test(arguments: feeds)
    func peakVehiclesOnADay(_ feed: String) throws {
        let s = TransitReference.session(feed)
        for day in Self.days where TransitReference.inRange(s, day) {
            let t = try s.table("feed | peak vehicles on \(day)")
            guard let theirs = try TransitReference.run([Repo.path(feed), "peak", day]) as? [String: Any] else {
                #expect(t.rowCount == 0, "\(feed) on \(day): no trips, so no peak")
                continue
            }
            #expect(t.rowCount == 1)
            #expect(t.strings("vehicles") == ["\(theirs["vehicles"] as? Int ?? -1)"], "\(feed) on \(day)")
            #expect(t.strings("times_at_peak") == ["\(theirs["times_at_peak"] as? Int ?? -1)"], "\(feed) on \(day)")
            #expect(TransitReference.seconds(t.values("from")[0]) == (theirs["from"] as? Int).map(Double.init), "\(feed) on \(day)")
            #expect(TransitReference.seconds(t.values("until")[0]) == (theirs["until"] as? Int).map(Double.init), "\(feed) on \(day)")
        }
    }

    @Test(arguments: feeds)
    func routeStatsOnADay(_ feed: String) throws {
        let s = TransitReference.session(feed)
        for day in Self.days where TransitReference.inRange(s, day) {
            let t = try s.table("feed | route stats on \(day)")
            let theirs = try #require(try TransitReference.run([Repo.path(feed), "routestats", day]) as? [[String: Any]])
            #expect(t.rowCount == theirs.count, "\(feed) on \(day)")
            for (i, row) in theirs.enumerated() where i < t.rowCount {
                #expect([t.strings("route_id")[i]] == row["key"] as? [String])
                #expect(t.strings("trips")[i] == "\(row["trips"] as? Int ?? -1)")
                #expect(TransitReference.seconds(t.values("last_arrival")[i]) == (row["last_arrival"] as? Int).map(Double.init))
                // Rounded as shown: hours to 2 places, kilometres to 2.
                for (column, digits) in [("service_hours", 100.0), ("distance_km", 100.0)] {
                    let mine = t.values(column)[i].doubleValue ?? -1
                    let reference = (row[column] as? Double) ?? Double(row[column] as? Int ?? -1)
                    #expect(abs(mine - (reference * digits).rounded() / digits) < 1e-9, "\(feed) on \(day) \(column): \(mine) vs \(reference)")
                }
            }
        }
    }

    @Test func withoutADateTheBusiestDayIsSaid() throws {
        let s = TransitReference.session("Tests/Fixtures/gtfs-headways")
        var notes: [String] = []
        let count = try s.table("feed | service | count") { notes.append($0) }
        // The first weekday of the calendar wins the tie.
        #expect(notes == ["no date given: Monday 2026-01-05 is feed's busiest day (128 trips); write on DATE for another"])
        #expect(count.strings("count") == (try s.table("feed | service on 2026-01-05 | count").strings("count")))
        // Each verb takes the same day.
        for verb in ["headways by route_id", "span by route_id", "peak vehicles", "route stats"] {
            notes = []
            _ = try s.table("feed | \(verb)") { notes.append($0) }
            #expect(notes.first == "no date given: Monday 2026-01-05 is feed's busiest day (128 trips); write on DATE for another", "\(verb)")
        }
        // Blocks make vehicles; without them, a note says the peak counts trips.
        notes = []
        _ = try s.table("feed | peak vehicles on 2026-03-03") { notes.append($0) }
        #expect(notes.isEmpty)
        let demo = TransitReference.session("datasets/gtfs/demo-transit.zip")
        notes = []
        _ = try demo.table("feed | peak vehicles on 2007-06-05") { notes.append($0) }
        #expect(notes.first?.hasPrefix("feed's trips do not all name a block (block_id)") == true)
        #expect(demo.failure("feed | peak on 2007-06-05")?.message == "expected vehicles after peak, as in: peak vehicles on 2007-06-04")
        #expect(demo.failure("feed | route stats on 2030-01-01")?.message.hasPrefix("2030-01-01 is outside feed's calendar") == true)
    }
}
