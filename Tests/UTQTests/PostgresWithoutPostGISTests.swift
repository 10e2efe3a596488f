import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// A database without PostGIS: geometry is saved as well-known text with a note, a loaded
/// table of geometries is still copied in for a join on keys (its geometries as text that
/// comes back as geometries), and every step that computes with geometries runs in memory,
/// with the reason explain shows, giving what memory gives.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class PostgresWithoutPostGISTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE plain")
    }

    deinit { server.stop() }

    func session() throws -> Session {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("""
            load datasets/market.json
            load datasets/market-zones.csv as zones
            load datasets/gtfs/demo-transit.zip as feed
            attach \(server.uri("plain")) as db
            market | save! to db.market
            feed.stops | save! to db.stops
            tables
            """)
        return s
    }

    static let reason = "the database has no PostGIS: this step runs in memory"

    @Test func geometrySavesAsTextWithANote() throws {
        let s = try session()
        var notes: [String] = []
        _ = try s.table("zones | save! to db.zones\ntables") { notes.append($0) }
        #expect(notes.contains("db.zones: area is saved as text (WKT), since the database has no PostGIS; geometry(area) reads it back as a geometry"), "\(notes)")
        let saved = try s.table("db.zones")
        #expect(saved.columns[1].type == .string)
        #expect(saved.columns[1].value(at: 0) == .string("POLYGON ((0 0, 824 0, 824 200, 0 200, 0 0))"))
        let read = try s.table("db.zones | let area = geometry(area, \"plane\")")
        let loaded = try s.table("zones")
        #expect(tableDifference(loaded, read) == nil, "\(tableDifference(loaded, read) ?? "")")
    }

    @Test func geometryStepsRunInMemoryAndSaySo() throws {
        let s = try session()
        for (pipeline, step) in [
            ("db.market | join zones on within | count by zone", "join where xy(x, y) is within area"),
            ("db.stops | join db.stops within 400 m | count by stop_id", "join where point(stop_lon, stop_lat) is within 400 m"),
            ("db.stops | let d = distance(point(stop_lon, stop_lat), point(-116.76, 36.91)) | sort d | limit 3", "let d = distance("),
        ] {
            let placed = try s.place(try s.plan(pipeline))
            let here = placed.steps.first { $0.plan.explainLine.hasPrefix(step) }
            guard case .memory(let why)? = here?.site else { Issue.record("\(pipeline): \(step) is not in memory"); continue }
            #expect(why == Self.reason, "\(pipeline): \(why ?? "no reason")")
            #expect(try s.explainText(pipeline).contains(Self.reason), "\(pipeline)")
            let local = try s.table(pipeline.replacingOccurrences(of: "db.", with: "").replacingOccurrences(of: "stops", with: "feed.stops"))
            let remote = try s.table(pipeline)
            #expect(tableDifference(local, remote) == nil, "\(pipeline): \(tableDifference(local, remote) ?? "")")
        }
    }

    /// Zones copied in for a join on their name: the geometries go as text and come back whole.
    @Test func aLoadedTableOfGeometriesIsStillCopiedInForAJoinOnKeys() throws {
        let s = try session()
        try server.psql("CREATE TABLE names (zone text, said text); INSERT INTO names VALUES ('Centre', 'middle'), ('Promenade', 'front')", database: "plain")
        let t = try s.table("attach \(server.uri("plain")) as plain\ntables\nplain.names | join zones on zone | select zone, said, area")
        let explained = try s.explainText("plain.names | join zones on zone | select zone, said, area")
        #expect(explained.contains("copied into temporary tables of plain first: zones"), "\(explained)")
        let zones = try s.table("zones")
        #expect(t.rowCount == 2)
        #expect(t.columns[2].value(at: 0) == zones.columns[1].value(at: 2))
        #expect(t.columns[2].value(at: 1) == zones.columns[1].value(at: 0))
    }
}
