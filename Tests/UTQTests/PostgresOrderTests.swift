import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// A sharded table gives its rows partition by partition: the order it keeps is its
/// `utq_row` column, which is not one of its columns in utq, and every step that reads rows
/// in order (limit, head, the ties of a sort or top, prev and running sums) reads them in
/// that order, as memory reads the file they were loaded from.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs && (ThrowawayPostgres.hasExtension("postgres_fdw") || !ThrowawayPostgres.available),
                             "PostgreSQL with postgres_fdw is not installed"))
final class PostgresOrderTests {
    let coordinator: ThrowawayPostgres
    let shards: [ThrowawayPostgres]

    init() throws {
        coordinator = try ThrowawayPostgres()
        shards = try [ThrowawayPostgres(), ThrowawayPostgres()]
        let columns = PostgresShardedTests.columns
        for shard in shards {
            try shard.psql("CREATE DATABASE mobility")
            try shard.psql("CREATE TABLE rides (\(columns), utq_row bigint); CREATE TABLE loose (\(columns))", database: "mobility")
        }
        try coordinator.psql("CREATE DATABASE mobility")
        var setup = """
            CREATE EXTENSION postgres_fdw;
            CREATE TABLE rides (\(columns), utq_row bigint) PARTITION BY HASH (driver);
            CREATE TABLE loose (\(columns)) PARTITION BY HASH (driver);
            CREATE TABLE staging (\(columns));
            CREATE TABLE keyed (id int PRIMARY KEY, name text) PARTITION BY HASH (id);
            CREATE TABLE keyed_0 PARTITION OF keyed FOR VALUES WITH (MODULUS 2, REMAINDER 0);
            CREATE TABLE keyed_1 PARTITION OF keyed FOR VALUES WITH (MODULUS 2, REMAINDER 1);
            INSERT INTO keyed SELECT i, 'n' || i FROM generate_series(1, 40) AS i;

            """
        setup += ThrowawayPostgres.shardSQL(shards, database: "mobility", tables: ["rides", "loose"], async: false)
        // The file's rows numbered in its order, then sent to the shards by driver.
        setup += "\\copy staging from '\(Repo.root)/datasets/rides.csv' csv header\n"
        setup += "INSERT INTO rides SELECT s.*, row_number() OVER () FROM staging s;\nINSERT INTO loose SELECT * FROM staging;\n"
        try coordinator.psql(setup, database: "mobility")
    }

    deinit {
        coordinator.stop()
        shards.forEach { $0.stop() }
    }

    func session() throws -> Session {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("load datasets/rides.csv\nattach \(coordinator.uri("mobility")) as co\ntables")
        return s
    }

    func explained(_ s: Session, _ pipeline: String) -> String {
        var shown = ""
        s.run("explain \(pipeline)", name: "<test>") { _, outcome in for case .text(let t) in outcome.outputs { shown += t } }
        return shown
    }

    static let pipelines = [
        "limit 5 offset 10",
        "head 12",
        "where miles > 5 | select ride_id, driver, price | limit 7 offset 3",
        "top 5 by fee_percent",
        "sort paid | limit 9",
        "sort fee_percent desc | select ride_id, price | limit 4 offset 20",
        "let total = running_sum(price), n = row_number(), before = prev(ride_id) | limit 40",
        "select ride_id, driver, price | let total = running_sum(price), before = prev(ride_id) by driver | where ride_id > 3000",
        "where status = \"completed\"",
    ]

    /// The sharded rows come as the file gave them (one setup for all the pipelines: three
    /// servers take seconds to start).
    @Test func rowsInOrderAreTheFilesOrder() throws {
        let s = try session()
        for pipeline in Self.pipelines {
            let remote = try s.table("co.rides | \(pipeline)")
            let local = try s.table("rides | \(pipeline)")
            #expect(tableDifference(remote, local) == nil, "\(pipeline)")
            #expect(remote.rowCount > 0)
        }
    }

    @Test func theStoredOrderIsNoColumn() throws {
        let s = try session()
        let described = try s.table("describe co.rides")
        let loaded = try s.table("describe rides")
        #expect(described.rowCount == loaded.rowCount)
        let names = (0..<described.rowCount).map { "\(described.columns[0].value(at: $0))" }
        #expect(!names.contains { $0.contains("utq_row") } && names.contains { $0.contains("ride_id") }, "\(names)")
        let all = try s.table("co.rides | limit 1")
        #expect(all.columnNames == (try s.table("rides | limit 1")).columnNames)
        #expect(!explained(s, "co.rides | limit 5 offset 10").contains("partitions give them"))
    }

    /// A partitioned table with a primary key gives its rows in the key's order; without a
    /// stored order or key they come as the partitions give them, and explain says so.
    @Test func explainSaysTheRowsComeAsThePartitionsGiveThem() throws {
        let s = try session()
        let keyed = try s.table("co.keyed | limit 5 offset 3")
        #expect((0..<keyed.rowCount).map { keyed.columns[0].value(at: $0) } == (4...8).map { Value.int(Int64($0)) })
        #expect(!explained(s, "co.keyed | limit 5").contains("partitions give them"))
        let shown = explained(s, "co.loose | limit 5 offset 10")
        #expect(shown.contains("co.loose: its rows come in the order its partitions give them"), "\(shown)")
        #expect(!explained(s, "co.loose | count by driver").contains("partitions give them"))
    }
}
