import Foundation
import Testing
@testable import UTQCore

/// `join T on CONDITION` where the condition is no key or range: each pair of rows is tested.
@Suite struct PredicateJoinTests {
    func session() throws -> Session {
        let s = makeSession()
        try s.table("load datasets/gtfs/demo-transit.zip as feed\nlet s = feed.stops | select stop_id, lat = stop_lat, lng = stop_lon")
        return s
    }

    /// Every pair of stops within 5 km of each other, as a loop over both tables finds them.
    @Test func nearPairsAreThoseAHandLoopFinds() throws {
        let s = try session()
        let joined = try s.table("s | join feed.stops on distance(lat, lng, stop_lat, stop_lon) < 5000 | select stop_id, other = stops.stop_id")
        let stops = try #require(s.catalog.table("feed.stops"))
        let ids = stops.strings("stop_id"), lat = stops.values("stop_lat"), lng = stops.values("stop_lon")
        var expected: [[String]] = []
        for i in 0..<stops.rowCount {
            for j in 0..<stops.rowCount {
                guard let a = lat[i].doubleValue, let b = lng[i].doubleValue, let c = lat[j].doubleValue, let d = lng[j].doubleValue else { continue }
                if Geo.haversine(lat1: a, lng1: b, lat2: c, lng2: d) < 5000 { expected.append([ids[i], ids[j]]) }
            }
        }
        #expect(zip(joined.strings("stop_id"), joined.strings("other")).map { [$0, $1] } == expected)
        #expect(joined.rowCount > stops.rowCount)  // more than each stop with itself
    }

    @Test func aLeftJoinKeepsRowsWithoutAMatchOnceInPlace() throws {
        let s = try session()
        let t = try s.table("s | left join feed.stops on distance(lat, lng, stop_lat, stop_lon) < 1000 and stop_id != stops.stop_id | select stop_id, other = stops.stop_id")
        let stops = try #require(s.catalog.table("feed.stops"))
        let ids = stops.strings("stop_id"), lat = stops.values("stop_lat"), lng = stops.values("stop_lon")
        var expected: [[String]] = []
        for i in 0..<stops.rowCount {
            var matched = false
            for j in 0..<stops.rowCount where i != j {
                guard let a = lat[i].doubleValue, let b = lng[i].doubleValue, let c = lat[j].doubleValue, let d = lng[j].doubleValue else { continue }
                if Geo.haversine(lat1: a, lng1: b, lat2: c, lng2: d) < 1000 { expected.append([ids[i], ids[j]]); matched = true }
            }
            if !matched { expected.append([ids[i], "·"]) }
        }
        let other = t.values("other").map { $0.isNull ? "·" : $0.plainText }
        #expect(zip(t.strings("stop_id"), other).map { [$0, $1] } == expected)
        #expect(other.contains("·") && other.contains { $0 != "·" })
    }

    @Test func theStepSaysItTestsEachPairAndRefusesTooManyPairs() throws {
        let s = try session()
        let text = try s.explainText("s | join feed.stops on distance(lat, lng, stop_lat, stop_lon) < 400")
        #expect(text.hasPrefix("inner join on distance(lat, lng, stop_lat, stop_lon) < 400 (each pair of rows tested)\n├─ scan s (3 columns)\n└─ scan feed.stops (10 columns)"), "\(text)")
        // Keys and ranges still join by hash.
        #expect(try s.explainText("s | join feed.stops on stop_id").hasPrefix("inner join on stop_id = stop_id\n"))
        let big = try temporaryFile("pairs-big.csv", "a\n" + (1...8000).map(String.init).joined(separator: "\n") + "\n")
        try s.table("load \(big) as big\ncount")
        let failure = try #require(s.failure("big | join big on a + big.a > 1"))
        #expect(failure.message == "this join tests each row against each other: 8,000 × 8,000 pairs, more than 50,000,000", "\(failure.message)")
        #expect(try #require(s.failure("s | join feed.stops on lat + stop_lat")).message == "join needs a condition, but this is number")
    }
}
