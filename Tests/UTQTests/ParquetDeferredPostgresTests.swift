import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// A Parquet table whose columns are read later, with a PostgreSQL database: copied into it
/// for a join with the database's table (every column read first), and saved into it.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class ParquetDeferredPostgresTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE mobility")
        try server.psql(#"""
            CREATE TABLE rides (ride_id int, driver text, rider text, status text, requested_at timestamptz,
              accepted_at timestamptz, picked_up_at timestamptz, dropped_off_at timestamptz, pickup_place text,
              pickup_lat float8, pickup_lng float8, dropoff_place text, dropoff_lat float8, dropoff_lng float8,
              miles float8, rate_per_mile float8, cheapest_rate float8, fee_percent int, price numeric(8,2), paid bool);
            \copy rides from '\#(Repo.root + "/datasets/rides.csv")' csv header
            """#, database: "mobility")
    }

    deinit { server.stop() }

    func session(deferred: Bool) throws -> Session {
        let s = try ParquetDeferredTests.session(deferred: deferred)
        s.databaseConnector = PostgresConnector()
        try s.table("attach \(server.uri("mobility")) as db\ntables")
        return s
    }

    @Test func copiedIntoTheDatabaseAndSavedThere() throws {
        let pipeline = "db.rides | join users on driver = username | where driving | sum price by familyName"
        let whole = try session(deferred: false).table(pipeline)
        let s = try session(deferred: true)
        var notes: [String] = []
        let answer = try s.table(pipeline) { notes.append($0) }
        #expect(tableDifference(answer, whole) == nil, "\(tableDifference(answer, whole) ?? "")")
        #expect(notes.contains { $0.contains("users (") && $0.contains("copied into a temporary table of db") }, "\(notes)")
        #expect(try ParquetDeferredTests.deferred(s, "users").columnsRead.count == 6)

        try s.table("rides | where paid | save to db.paid\ntables")
        let back = try s.table("db.paid | sort ride_id | select ride_id, status, price, requested_at")
        let here = try s.table("rides | where paid | sort ride_id | select ride_id, status, price, requested_at")
        #expect(back.rowCount > 1000)
        #expect(tableDifference(back, here) == nil, "\(tableDifference(back, here) ?? "")")
    }
}
