import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// `save append to DB.TABLE` adds rows to an existing table through COPY: a plain table, and
/// a table partitioned over two shards (postgres_fdw), whose `utq_row` numbers the new rows on
/// from its last. All or nothing: a row a shard refuses, or Ctrl-C, leaves the table as it was.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs && (ThrowawayPostgres.hasExtension("postgres_fdw") || !ThrowawayPostgres.available),
                             "PostgreSQL with postgres_fdw is not installed"))
final class PostgresAppendTests {
    let coordinator: ThrowawayPostgres
    let shards: [ThrowawayPostgres]

    init() throws {
        coordinator = try ThrowawayPostgres()
        shards = try [ThrowawayPostgres(), ThrowawayPostgres()]
        let columns = PostgresShardedTests.columns
        for shard in shards {
            try shard.psql("CREATE DATABASE mobility")
            try shard.psql("CREATE TABLE rides (\(columns), utq_row bigint)", database: "mobility")
        }
        // The first shard takes no ride numbered 1,000,000 or more.
        try shards[0].psql("ALTER TABLE rides ADD CHECK (ride_id < 1000000)", database: "mobility")
        try coordinator.psql("CREATE DATABASE mobility")
        var setup = """
            CREATE EXTENSION postgres_fdw;
            CREATE TABLE rides (\(columns), utq_row bigint) PARTITION BY HASH (driver);
            CREATE TABLE staging (\(columns));
            CREATE TABLE typed (id int, at timestamp, name text DEFAULT 'none', code int2);

            """
        setup += ThrowawayPostgres.shardSQL(shards, database: "mobility", tables: ["rides"], async: false)
        // The file's first 2,000 rows, numbered in its order.
        setup += "\\copy staging from '\(Repo.root)/datasets/rides.csv' csv header\n"
        setup += "INSERT INTO rides SELECT * FROM (SELECT s.*, row_number() OVER () AS n FROM staging s) AS t WHERE n <= 2000;\n"
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

    /// The rows each shard holds.
    func shardCounts() throws -> [Int] {
        try shards.map { Int(try PGConnection(uri: $0.uri("mobility")).query("SELECT count(*) FROM rides").cells[0][0]) ?? -1 }
    }

    /// The rest of the file appended to the sharded table: it then holds the file, in the file's order.
    @Test func appendedRowsFollowTheShardedTablesRows() throws {
        let s = try session()
        var infos: [String] = []
        let count = try s.table("rides | limit 1200 offset 2000 | save append to co.rides\nco.rides | count") { infos.append($0) }
        #expect(infos.contains("appended 1,200 rows to co.rides"), "\(infos)")
        #expect(count.strings("count") == ["3200"])
        #expect(try shardCounts().reduce(0, +) == 3200)
        #expect(try shardCounts().allSatisfy { $0 > 800 })
        // utq_row went on from 2,000: the table is the file, in its order.
        #expect(tableDifference(try s.table("co.rides"), try s.table("rides")) == nil)
        #expect(tableDifference(try s.table("co.rides | limit 5 offset 1998"), try s.table("rides | limit 5 offset 1998")) == nil)
        let numbers = try PGConnection(uri: coordinator.uri("mobility")).query("SELECT min(utq_row), max(utq_row), count(DISTINCT utq_row) FROM rides")
        #expect(numbers.cells.map { $0[0] } == ["1", "3200", "3200"])
    }

    /// A row the second shard refuses after hundreds went to both: nothing is appended anywhere.
    @Test func aFailureMidwayAppendsNothing() throws {
        let s = try session()
        let before = try shardCounts()
        let failure = s.failure("rides | let ride_id = ride_id * 1000 | save append to co.rides")
        #expect(failure?.message.hasPrefix("nothing was appended to co.rides: the copy failed:") == true, "\(failure?.message ?? "no error")")
        #expect(failure?.message.contains("check constraint") == true, "\(failure?.message ?? "no error")")
        #expect(try shardCounts() == before)
        // Ctrl-C: the same.
        let db = try #require(s.databases["co"] as? PostgresDatabase)
        let cancel = CancellationFlag()
        cancel.cancel()
        #expect(throws: CancellationError.self) { try db.appendIn(try s.table("rides"), to: "rides", cancel: cancel) }
        #expect(try shardCounts() == before)
        #expect(try s.table("co.rides | count").strings("count") == ["2000"])
    }

    /// A plain table: columns by name, the table's others take their defaults, wall-clock
    /// times are written as the table's zone reads them; what cannot go in is said.
    @Test func aPlainTableTakesTheColumnsItHas() throws {
        let s = try session()
        var infos: [String] = []
        try s.table("rides | limit 3 | let id = ride_id, at = requested_at, code = fee_percent | select id, at, code | save append to co.typed\nco.typed | count") { infos.append($0) }
        #expect(infos == ["appended 3 rows to co.typed"])
        #expect(try s.table("co.typed | count by name").strings("name") == ["none"])
        let times = try s.table("co.typed | select at").strings("at")
        #expect(times == (try s.table("rides | limit 3 | select requested_at").strings("requested_at")))
        // Again: the rows are added, not replaced.
        try s.table("rides | limit 2 | let id = ride_id | select id | save append to co.typed\nco.typed | count")
        #expect(try s.table("co.typed | count").strings("count") == ["5"])

        let missing = s.failure("rides | let id = ride_id, nmae = driver | select id, nmae | save append to co.typed")
        #expect(missing?.message == "co.typed has no column nmae — did you mean \"name\"?", "\(missing?.message ?? "no error")")
        #expect(missing?.hint?.hasPrefix("its columns: id, at, name, code") == true, "\(missing?.hint ?? "")")
        let typed = s.failure("rides | let id = driver | select id | save append to co.typed")
        #expect(typed?.message == "id is text here and integer in co.typed, which cannot hold it", "\(typed?.message ?? "no error")")
        // A value the column cannot hold (int2) stops the copy: nothing added.
        let big = s.failure("rides | let id = ride_id, code = ride_id * 100 | select id, code | save append to co.typed")
        #expect(big?.message.contains("nothing was appended") == true, "\(big?.message ?? "no error")")
        #expect(try s.table("co.typed | count").strings("count") == ["5"])

        let absent = s.failure("rides | save append to co.ridez")
        #expect(absent?.message == "co.ridez does not exist, so there is nothing to append to — did you mean \"rides\"?", "\(absent?.message ?? "no error")")
        #expect(absent?.hint == "save to co.ridez creates it")
    }

    /// save! does not put a plain table in place of the sharded one: it says what would be lost.
    @Test func saveBangSaysWhatItWouldLose() throws {
        let s = try session()
        let failure = s.failure("rides | save! to co.rides")
        #expect(failure?.message == "co.rides was not replaced: it is a partitioned table: save! would put one plain table in its place "
                + "and lose its 2 partitions, all of them foreign tables on other servers", "\(failure?.message ?? "no error")")
        #expect(failure?.hint?.hasPrefix("save append to co.rides adds the rows to it") == true)
        let exists = s.failure("rides | save to co.rides")
        #expect(exists?.hint == "save! to co.rides replaces it; save append to co.rides adds the rows to it")
        #expect(s.failure("rides | save append rides.csv")?.message == "save append adds rows to a table of an attached database")
        #expect(s.failure("rides | save! append to co.rides")?.message == "save! replaces a table and save append adds to one: write one of them")
        #expect(try shardCounts().reduce(0, +) == 2000)
        // Completion knows append, then to, then the database's tables.
        #expect(s.complete("rides | save app").candidates == ["append"])
        #expect(s.complete("rides | save append ").candidates == ["to"])
        #expect(s.complete("rides | save append to co.ri").candidates == ["co.rides"])
        // help save says it.
        var help = ""
        s.run("help save", name: "<test>") { _, outcome in for case .text(let t) in outcome.outputs { help += t } }
        #expect(help.contains("save append to DB.TABLE"), "\(help)")
    }
}

/// COPY's text of numbers, written digit by digit, reads back as the same numbers.
@Suite struct CopyTextTests {
    @Test func numbersReadBackAsThemselves() {
        var doubles: [Double] = [0, 1, -1, 7.0, 52.3913, -0.68971, 0.1, 0.2, 0.3, 1e-7, 123456.789012, 999999999999.5, 1e12, 1e300,
                                 5e-324, .pi, -.pi, 3.08, 1639623.67, Double(Int64.max), .greatestFiniteMagnitude]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            doubles.append(Double(Int.random(in: -10_000_000...10_000_000, using: &generator)) / [1, 10, 100, 1000, 1e4, 1e5, 1e6, 3][Int.random(in: 0...7)])
            doubles.append(Double.random(in: -1e9...1e9, using: &generator))
        }
        for v in doubles {
            var out: [UInt8] = []
            appendDouble(v, into: &out)
            let text = String(decoding: out, as: UTF8.self)
            #expect(Double(text) == v, "\(v) was written \(text)")
        }
        var negativeZero: [UInt8] = []
        appendDouble(-0.0, into: &negativeZero)
        #expect(String(decoding: negativeZero, as: UTF8.self) == "-0.0")
        for v: Int64 in [0, 9, 10, -10, 99, 100, 123456789, .max, .min, .min + 1, 1_000_000_000_000_000_000] {
            var out: [UInt8] = []
            appendInteger(v, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(v))
        }
    }
}
