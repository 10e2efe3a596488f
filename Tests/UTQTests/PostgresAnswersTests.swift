import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// The database answers as memory does: a table utq saved reads back as it was loaded, sums
/// are exact and stop at the range memory stops at, any column type can be counted, and a
/// limit does not pull the table.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class PostgresAnswersTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE answers")
        try server.psql("""
            CREATE TABLE prices (id int, price money, big bigint, paid numeric(20,2), at timestamptz);
            INSERT INTO prices VALUES (1, 12.5, 9223372036854775807, 12345678901234567.89, '2020-02-17 10:00+00'),
                                      (2, 3.25, 5, 0.01, '2020-02-18 11:00+00');
            CREATE TABLE parted (id int, day date) PARTITION BY RANGE (day);
            CREATE TABLE parted_1 PARTITION OF parted FOR VALUES FROM ('2020-01-01') TO ('2020-07-01');
            CREATE TABLE parted_2 PARTITION OF parted FOR VALUES FROM ('2020-07-01') TO ('2021-01-01');
            INSERT INTO parted VALUES (1, '2020-02-01'), (2, '2020-08-01');
            """, database: "answers")
    }

    deinit { server.stop() }

    /// A session in São Paulo time (so a table's own zone shows) with the database attached.
    func session() throws -> Session {
        let s = makeSession(zone: ZoneRules.named("America/Sao_Paulo")!)
        s.databaseConnector = PostgresConnector()
        try s.table("attach \(server.uri("answers")) as db\ntables")
        return s
    }

    /// Every table a pipeline prints, as the user sees them.
    func printed(_ s: Session, _ text: String) throws -> String {
        var out: [String] = []
        var failure: Diagnostic?
        s.run(text, name: "<test>") { _, outcome in
            if let e = outcome.error { failure = e }
            for case .table(let r) in outcome.outputs { out.append(TableRenderer.render(r.table, options: s.settings.render)) }
        }
        if let failure { throw TestError(description: DiagnosticRenderer.render(failure, showLocation: true)) }
        return out.joined(separator: "\n")
    }

    @Test func aSavedTableReadsBackAsItWasLoaded() throws {
        let s = try session()
        try s.table("""
            load datasets/market.json
            load datasets/rides.csv
            load datasets/gtfs/demo-transit.zip as demo
            market | save to db.market
            rides | save to db.rides
            demo.stop_times | save to db.stop_times
            demo.calendar | save to db.calendar
            tables
            """)
        for (loaded, saved, question) in [("market", "db.market", "count by legend, hour"), ("rides", "db.rides", "count by weekday, hour"),
                                          ("demo.stop_times", "db.stop_times", "count by hour"),
                                          ("demo.calendar", "db.calendar", "count by start_date")] {
            for pipeline in ["describe \(loaded)", "\(loaded) | \(question)", "\(loaded) | head 5"] {
                let there = pipeline.replacingOccurrences(of: loaded, with: saved)
                let a = try printed(s, pipeline), b = try printed(s, there)
                #expect(a == b, "\(there) prints otherwise than \(pipeline):\n\(b)\n\(a)")
            }
        }
        // The zone, time column and units are the table's comment, which a dump keeps.
        let comment = server.statements().first { $0.hasPrefix("COMMENT ON TABLE \"stop_times\"") } ?? ""
        #expect(comment.contains("\"zone\":\"America/Los_Angeles\"") && comment.contains("\"departure_time\":\"clock\""), "\(comment)")
    }

    /// Hours, days, minutes and spans of GTFS service times (durations: 25:10 is hour 25, a
    /// time before the service day's midnight hour -1) are counted in the database, as memory
    /// counts them, rather than pulling stop_times.
    @Test func bucketsOfServiceTimesAreTheDatabasesAndAgree() throws {
        let s = try session()
        _ = try printed(s, "load datasets/gtfs/demo-transit.zip as demo\ndemo.stop_times | save to db.spans")
        let question = "let d = departure_time - 7h - 1s | count by hour(d), bucket(d, 15m), minute(arrival_time), time_of_day(d), day(d)"
        let a = try printed(s, "demo.stop_times | \(question)"), b = try printed(s, "db.spans | \(question)")
        #expect(a == b, "\(b)\n\(a)")
        #expect(a.contains("-1"))
        let plan = try printed(s, "explain db.spans | \(question)")
        #expect(!plan.contains("in memory"), "\(plan)")
    }

    @Test func sumsAreExactAndStopWhereMemoryStops() throws {
        let s = try session()
        let csv = NSTemporaryDirectory() + "/utq-exact-\(getpid()).csv"
        try "x\n1234567.1901234568\n1.0000000000000002\n0.1\n0.2\n-1e15\n1e15\n".write(toFile: csv, atomically: true, encoding: .utf8)
        defer { unlink(csv) }
        try s.table("load \(csv) as t\nt | save to db.exact\ntables")
        for pipeline in ["sum x", "avg x", "stddev x", "let r = running_sum(x) | select r"] {
            let remote = try s.table("db.exact | \(pipeline)"), local = try s.table("t | \(pipeline)")
            #expect(remote.strings(remote.columnNames.last!) == local.strings(local.columnNames.last!), "\(pipeline)")
        }
        // A numeric(20,2) keeps its 17 digits as far as a double does (PostgreSQL's own cast kept 15).
        try "paid\n12345678901234567.89\n0.01\n".write(toFile: csv, atomically: true, encoding: .utf8)
        try s.table("load \(csv) as paid\ntables")
        #expect(try s.table("db.prices | sum paid").strings("sum_paid") == (try s.table("paid | sum paid")).strings("sum_paid"))
        // Past 64 bits: the error memory gives, not a trap.
        let failure = s.failure("db.prices | sum big")
        #expect(failure?.message.contains("past the range of whole numbers") == true)
    }

    @Test func moneyIsANumberAndTimesAreConstantsAShardCanTake() throws {
        let s = try session()
        #expect(try s.table("db.prices | count").strings("count") == ["2"])
        #expect(try s.table("db.prices | sum price").strings("sum_price") == ["15.75"])
        let before = server.statements().count
        #expect(try s.table("db.prices | where at >= \"2020-02-18 00:00\" | count").strings("count") == ["1"])
        let sent = server.statements().dropFirst(before).joined(separator: "\n")
        #expect(sent.contains("TIMESTAMPTZ '2020-02-18 03:00:00.000000+00'"), "\(sent)")
        #expect(!sent.contains("'epoch'"))
    }

    @Test func aPartitionedTableIsNotReplacedByAPlainOne() throws {
        let s = try session()
        let failure = s.failure("db.prices | save! to db.parted")
        #expect(failure?.message == "db.parted was not replaced: it is a partitioned table: save! would put one plain table in its place and lose its 2 partitions",
                "\(failure?.message ?? "no error")")
        #expect(failure?.hint?.hasPrefix("save append to db.parted adds the rows to it") == true)
        #expect(try s.table("db.parted | count").strings("count") == ["2"])
    }

    @Test func aTableChangedInTheDatabaseIsReadAgainAndSaidSo() throws {
        let s = try session()
        try server.psql("CREATE TABLE changing (id int, a text, b int); INSERT INTO changing VALUES (1, 'x', 2), (2, 'y', 3);", database: "answers")
        try s.table("attach \(server.uri("answers")) as db\ntables")
        #expect(try s.table("db.changing | count by a").rowCount == 2)
        try server.psql("ALTER TABLE changing RENAME COLUMN a TO c; ALTER TABLE changing ADD COLUMN d float8;", database: "answers")
        // The scan names a, which is gone: the tables are read again and the count runs on them.
        var notes: [String] = []
        let counted = try s.table("db.changing | count") { notes.append($0) }
        #expect(counted.strings("count") == ["2"])
        #expect(notes.contains("db's tables changed since they were read, and are read again: db.changing is now without a and with c, d"), "\(notes)")
        // What the user wrote of the old columns is now the usual message, with the new names.
        #expect(s.failure("db.changing | count by a")?.message == "unknown column \"a\" — did you mean \"c\"?")
        #expect(try s.table("db.changing | count by c").rowCount == 2)
        try server.psql("DROP TABLE changing;", database: "answers")
        // A table dropped there is gone here too, and the message is the one for a name unknown.
        let failure = s.failure("db.changing | count")
        #expect(failure?.message.hasPrefix("unknown table") == true, "\(failure?.message ?? "no error")")
        #expect(s.catalog["db.changing"] == nil)
    }

    @Test func oddTableNamesAreSavedAsWrittenAndSuggestedAsTheyCanBeTyped() throws {
        let s = try session()
        try s.table("load datasets/market.json\nmarket | limit 2 | save to db.`Odd Name \"x\"`\nmarket | limit 3 | save to `db.Odd Name 2`\ntables")
        #expect(try s.table("`db.Odd Name \"x\"` | count").strings("count") == ["2"])
        #expect(try s.table("`db.Odd Name 2` | count").strings("count") == ["3"])
        let failure = s.failure("db.Odd | count")
        #expect(failure?.message == "unknown table \"db.Odd\" — did you mean `db.Odd Name \"x\"`?", "\(failure?.message ?? "")")
        #expect(failure?.hint?.contains("`db.Odd Name 2`") == true)
    }

    @Test func rowsThatTieKeepTheTablesOrderAsInMemory() throws {
        let s = try session()
        try server.psql("CREATE TABLE ties AS SELECT i AS id, (i % 3)::float8 AS price FROM generate_series(1, 20000) AS i;", database: "answers")
        try s.table("attach \(server.uri("answers")) as db\ntables")
        let before = server.statements().count
        // utq's sort is stable: of the 6,666 rows priced 2, the first five in the table's order.
        #expect(try s.table("db.ties | top 5 by price | select id").strings("id") == ["2", "5", "8", "11", "14"])
        #expect(try s.table("db.ties | sort price | limit 3 offset 1 | select id").strings("id") == ["6", "9", "12"])
        let sent = server.statements().dropFirst(before)
        #expect(sent.allSatisfy { $0.contains("\"utq_row\"") && $0.contains("LIMIT") }, "\(sent)")
    }

    @Test func aLimitIsTheDatabasesAndKeepsTheFirstRows() throws {
        let s = try session()
        try s.table("load datasets/rides.csv\nrides | save to db.rides\ntables")
        let before = server.statements().count
        let remote = try s.table("db.rides | where miles > 2 | limit 3 offset 1")
        let sent = server.statements().dropFirst(before)
        #expect(sent.count == 1 && sent.first?.contains("LIMIT 3 OFFSET 1") == true, "\(sent)")
        #expect(tableDifference(remote, try s.table("rides | where miles > 2 | limit 3 offset 1")) == nil)
        // Over groups whose text keys utq orders when they come back, the limit stays here.
        let groups = try s.table("db.rides | count by driver | limit 2")
        #expect(groups.strings("driver") == (try s.table("rides | count by driver | limit 2")).strings("driver"))
    }
}
