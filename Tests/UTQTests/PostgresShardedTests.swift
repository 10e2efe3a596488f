import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// The same SQL on a sharded setup: a coordinator whose rides table is partitioned by
/// driver over two other PostgreSQL servers (each partition a postgres_fdw foreign table),
/// with partitionwise aggregation on. utq attaches the coordinator like any database; the
/// results must equal the rows loaded from CSV. A summary by the partition key is grouped
/// on the shards; any other is grouped on the coordinator from the columns it names only
/// (PostgreSQL 15's postgres_fdw does not send partial aggregates; see docs/scaling.md).
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs && (ThrowawayPostgres.hasExtension("postgres_fdw") || !ThrowawayPostgres.available),
                             "PostgreSQL with postgres_fdw is not installed"))
final class PostgresShardedTests {
    let coordinator: ThrowawayPostgres
    let shards: [ThrowawayPostgres]

    static let columns = """
        ride_id int, driver text, rider text, status text, requested_at timestamptz, accepted_at timestamptz,
        picked_up_at timestamptz, dropped_off_at timestamptz, pickup_place text, pickup_lat float8, pickup_lng float8,
        dropoff_place text, dropoff_lat float8, dropoff_lng float8, miles float8, rate_per_mile float8,
        cheapest_rate float8, fee_percent int, price numeric(8,2), paid bool
        """

    init() throws {
        coordinator = try ThrowawayPostgres()
        shards = try [ThrowawayPostgres(), ThrowawayPostgres()]
        for shard in shards {
            try shard.psql("CREATE DATABASE mobility")
            try shard.psql("CREATE TABLE rides (\(Self.columns))", database: "mobility")
        }
        try coordinator.psql("CREATE DATABASE mobility")
        var setup = """
            CREATE EXTENSION postgres_fdw;
            CREATE TABLE rides (\(Self.columns)) PARTITION BY HASH (driver);
            ALTER DATABASE mobility SET enable_partitionwise_aggregate = on;

            """
        setup += ThrowawayPostgres.shardSQL(shards, database: "mobility", tables: ["rides"])
        // Rows go through the coordinator, which routes each to its shard.
        setup += "\\copy rides from '\(Repo.root)/datasets/rides.csv' csv header\n"
        try coordinator.psql(setup, database: "mobility")
    }

    deinit {
        coordinator.stop()
        shards.forEach { $0.stop() }
    }

    func session() throws -> Session {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("load datasets/rides.csv\nset timezone Europe/London\nattach \(coordinator.uri("mobility")) as db\nuse db.rides\nset timezone Europe/London\ntables")
        return s
    }

    /// The done-when pipeline equals the loaded rows; the shards were sent only the column
    /// it reads. A summary by driver, the partition key, is grouped on each shard.
    @Test func summariesAreSplitOverTheShards() throws {
        for shard in shards {
            let rows = try PGConnection(uri: shard.uri("mobility")).query("SELECT count(*) FROM rides")
            let n = Int(rows.cells[0][0]) ?? 0
            #expect(n > 800 && n < 2400, "a shard holds \(n) of 3,200 rows")
        }
        let s = try session()
        var before = shards.map { $0.statements().count }
        let remote = try s.table("db.rides | count by weekday(requested_at), hour(requested_at)")
        let local = try s.table("rides | count by weekday(requested_at), hour(requested_at)")
        #expect(tableDifference(remote, local) == nil)
        for (shard, n) in zip(shards, before) {
            let sent = shard.statements().dropFirst(n).filter { $0.contains("SELECT") }
            #expect(sent.count == 1 && sent.allSatisfy { $0.contains("requested_at") && !$0.contains("driver") },
                    "the shard was sent: \(sent.joined(separator: "\n"))")
        }
        before = shards.map { $0.statements().count }
        let sums = try s.table("db.rides | sum price by driver")
        #expect(tableDifference(sums, try s.table("rides | sum price by driver")) == nil)
        for (shard, n) in zip(shards, before) {
            let sent = shard.statements().dropFirst(n).filter { $0.contains("SELECT") }
            #expect(sent.contains { $0.contains("GROUP BY") && $0.contains("sum(") }, "the shard was sent: \(sent.joined(separator: "\n"))")
        }
    }

    /// What each shard is sent, read from its statement log: the condition of a period as a
    /// range of the time (a one-day count by hour reads that day's rows only), a condition on
    /// the time between two times, and summaries over plain columns made on the shards in two
    /// steps (a `count` is one number from each). Each answer equals the loaded rows'.
    @Test func theShardsAreSentTheWork() throws {
        let s = try session()
        let cases: [(pipeline: String, sent: [String], notSent: [String])] = [
            ("where day(requested_at) = \"2020-02-18\" | count by hour(requested_at)",
             ["requested_at >= '2020-02-18 00:00:00+00'", "requested_at < '2020-02-19 00:00:00+00'"], ["date_trunc"]),
            ("where month(requested_at) = \"2020-03-01\" and year(requested_at) = 2020 | count",
             ["count(*)", "requested_at >= '2020-03-01 00:00:00+00'", "requested_at < '2020-03-31 23:00:00+00'"], []),
            ("count", ["SELECT count(*) FROM public.rides"], ["SELECT NULL"]),
            ("count by status", ["count(*)", "GROUP BY"], []),
            ("sum price, avg miles, min fee_percent, max dropped_off_at by status, paid", ["sum(", "count(miles)", "min(fee_percent)", "GROUP BY"], []),
            ("where dropped_off_at - picked_up_at > 25m | count", ["(dropped_off_at - picked_up_at) > '00:25:00'::interval", "count(*)"], []),
        ]
        for c in cases {
            let before = shards.map { $0.statements().count }
            let remote = try s.table("db.rides | \(c.pipeline)")
            #expect(tableDifference(remote, try s.table("rides | \(c.pipeline)")) == nil, "\(c.pipeline)")
            for (shard, n) in zip(shards, before) {
                let sent = shard.statements().dropFirst(n).filter { $0.contains("SELECT") }.joined(separator: "\n")
                for part in c.sent { #expect(sent.contains(part), "\(c.pipeline): the shard was sent\n\(sent)\nwithout \(part)") }
                for part in c.notSent { #expect(!sent.contains(part), "\(c.pipeline): the shard was sent\n\(sent)\nwith \(part)") }
            }
        }
    }

    /// The differential pipelines of PostgresTests, on the shards (one setup for all of them:
    /// three servers take seconds to start).
    @Test func thePipelinesGiveTheSameRowsOnTheShards() throws {
        let s = try session()
        for pipeline in PostgresTests.pipelines {
            let remote = try s.table("db.rides | \(pipeline)")
            let local = try s.table("rides | \(pipeline)")
            #expect(tableDifference(remote, local) == nil, "\(pipeline)")
        }
    }
}
