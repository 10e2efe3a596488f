import Foundation
import UTQCore
import GTFSRealtime
import SwiftProtobuf

/// A GTFS-Realtime snapshot of trip updates for the demo feed (datasets/gtfs/demo-transit) on
/// Monday 4 June 2007, a day its calendar runs: every timed trip's stops, each arrival its
/// scheduled time plus a delay of one minute early to nine minutes late (seeded), as an
/// agency's feed reports them. Illustrative; for `delays` and its examples.
enum RealtimeData {
    /// 2007-06-04 00:00 in America/Los_Angeles (PDT, UTC−7): noon minus 12 hours, from which
    /// GTFS counts the day's service times.
    static let serviceDay: Int64 = 1_180_940_400

    static func tripUpdates(stopTimes: String) -> Data {
        var rng = SeededRandom(seed: 2007)
        var feed = TransitRealtime_FeedMessage()
        feed.header.gtfsRealtimeVersion = "2.0"
        feed.header.timestamp = UInt64(serviceDay + 10 * 3600)
        let lines = stopTimes.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let head = lines.first else { return Data() }
        func column(_ name: String) -> Int { head.firstIndex(of: name)! }
        let (trip, arrival, stop, sequence) = (column("trip_id"), column("arrival_time"), column("stop_id"), column("stop_sequence"))
        var updates: [String: TransitRealtime_TripUpdate] = [:], order: [String] = []
        for row in lines.dropFirst() where row.count == head.count && !row[arrival].isEmpty {
            let parts = row[arrival].split(separator: ":").compactMap { Int64($0) }
            guard parts.count == 3 else { continue }
            let scheduled = serviceDay + parts[0] * 3600 + parts[1] * 60 + parts[2]
            let delay = Int64(rng.next() % 601) - 60
            var s = TransitRealtime_TripUpdate.StopTimeUpdate()
            s.stopID = row[stop]
            s.stopSequence = UInt32(row[sequence]) ?? 0
            s.arrival.time = scheduled + delay
            s.arrival.delay = Int32(delay)
            if updates[row[trip]] == nil {
                var u = TransitRealtime_TripUpdate()
                u.trip.tripID = row[trip]
                u.trip.startDate = "20070604"
                updates[row[trip]] = u
                order.append(row[trip])
            }
            updates[row[trip]]!.stopTimeUpdate.append(s)
        }
        for id in order {
            var e = TransitRealtime_FeedEntity()
            e.id = id
            e.tripUpdate = updates[id]!
            feed.entity.append(e)
        }
        return (try? feed.serializedData()) ?? Data()
    }
}
