import Foundation
import GTFSRealtime
import SwiftProtobuf

/// GTFS-Realtime feeds (protocol buffers): a FeedMessage of vehicle positions, trip updates
/// or alerts, as a transit agency publishes them and as snapshots are kept. Each kind is a
/// table keyed as the static feed is (trip_id, route_id, stop_id), times as instants:
///   vehicles      one row per vehicle: where it was, at which stop, when
///   trip_updates  one row per stop time update: predicted arrival and departure, delays
///   alerts        one row per alert and entity it informs about
/// A file of one kind is one table of the name asked for; of several, NAME.vehicles,
/// NAME.trip_updates, NAME.alerts. A folder or a quoted pattern of snapshots is one table
/// per kind with a `file` column (PatternLoader).
enum RealtimeLoader {
    /// A FeedMessage begins with its header (field 1), whose first field is the version text
    /// ("2.0"): bytes 0x0A, a length, 0x0A, a length, digits and dots.
    static func isRealtime(_ head: [UInt8]) -> Bool {
        guard head.count >= 6, head[0] == 0x0A else { return false }
        var i = 1
        // The header's length, a varint of up to 5 bytes.
        while i < min(head.count, 6), head[i] & 0x80 != 0 { i += 1 }
        i += 1
        guard i + 2 < head.count, head[i] == 0x0A else { return false }
        let n = Int(head[i + 1])
        guard n >= 1, n <= 8, i + 2 + n <= head.count else { return false }
        return head[(i + 2)..<(i + 2 + n)].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
    }

    /// A folder of .pb files and no GTFS tables: snapshots of a realtime feed.
    static func isSnapshotFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
        return names.contains { $0.lowercased().hasSuffix(".pb") } && !names.contains { $0.lowercased().hasSuffix(".txt") }
    }

    static func load(_ request: LoadRequest, name: String) throws -> LoadResult {
        let path = request.path
        guard let data = FileManager.default.contents(atPath: path) else { throw LoadError(path: path, errno: errno) }
        let feed: TransitRealtime_FeedMessage
        do {
            var options = BinaryDecodingOptions()
            options.discardUnknownFields = true
            feed = try TransitRealtime_FeedMessage(serializedBytes: data, partial: true, options: options)
        } catch {
            throw LoadError(path: path, "is not a GTFS-Realtime feed that can be read (\(error)); a .pb file from an agency's VehiclePositions, TripUpdates or Alerts address is")
        }
        let tables = RealtimeTables(feed: feed, zone: request.zone)
        var made: [Table] = []
        let kinds = tables.kinds
        for kind in kinds {
            let table = tables.table(kind, name: kinds.count == 1 ? name : "\(name).\(kind.rawValue)")
            made.append(table)
        }
        if made.isEmpty {
            // A feed with no entities (a quiet night) is still a table: of vehicles, named as asked.
            made = [tables.table(.vehicles, name: name)]
        }
        let when = feed.header.hasTimestamp ? " · made " + RealtimeTables.text(Int64(feed.header.timestamp), zone: request.zone) : ""
        let summary = made.map { Loaders.summary($0) }.joined(separator: "\n") + when
            + " · GTFS-Realtime \(feed.header.gtfsRealtimeVersion)"
        return LoadResult(tables: made, summary: summary, warnings: [], current: made.first?.name)
    }
}
