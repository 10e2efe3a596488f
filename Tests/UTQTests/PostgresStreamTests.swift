import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// A database's result comes in row by row and is read into columns as it comes: it reads
/// as the whole result read at once does, a result past the memory it may take stops with
/// an estimate of the whole, Ctrl-C leaves the connection ready, and one interval longer
/// than a duration holds does not break its table.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class PostgresStreamTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE stream")
        try server.psql("""
            CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
            CREATE TABLE big AS SELECT i AS id, 'name ' || i AS name, i / 7.0 AS price FROM generate_series(1, 200000) AS i;
            ANALYZE big;
            CREATE TABLE mixed AS SELECT i AS id,
                CASE WHEN i % 5 = 0 THEN NULL ELSE i * 3 END AS n,
                CASE WHEN i % 7 = 0 THEN NULL WHEN i % 3 = 0 THEN 'w' || (i % 1000) ELSE 'é"\\t' || (i % 13) END AS word,
                CASE WHEN i % 11 = 0 THEN NULL ELSE TIMESTAMPTZ '2020-02-29 23:59:59.5+00' + i * INTERVAL '1 minute 0.25 seconds' END AS at,
                CASE WHEN i % 4 = 0 THEN NULL ELSE (i * 1.5)::float8 / 7 END AS x,
                (i / 3.0)::numeric(12,3) AS paid,
                CASE WHEN i % 6 = 0 THEN NULL ELSE i % 2 = 0 END AS even,
                CASE WHEN i % 9 = 0 THEN NULL ELSE i * INTERVAL '1.5 seconds' END AS took,
                CASE WHEN i % 8 = 0 THEN NULL ELSE (ARRAY['sad', 'ok', 'happy'])[1 + i % 3]::mood END AS feeling,
                CASE WHEN i < 100000 THEN (ARRAY['a', 'b'])[1 + i % 2] ELSE (ARRAY['a', 'b', 'c'])[1 + i % 3] END AS letter
              FROM generate_series(1, 150000) AS i;
            CREATE TABLE spans (id int, span interval);
            INSERT INTO spans VALUES (1, INTERVAL '1 hour'), (2, INTERVAL '178000000 years'), (3, NULL),
                                     (4, INTERVAL '-178000000 years'), (5, INTERVAL '2 days 3 seconds');
            """, database: "stream")
    }

    deinit { server.stop() }

    func session() throws -> Session {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("attach \(server.uri("stream")) as db\ntables")
        return s
    }

    /// The queries the server is running for utq, besides the one asking.
    func running() throws -> [String] {
        let other = try PGConnection(uri: server.uri("stream"))
        let rows = try other.query("SELECT query FROM pg_stat_activity WHERE application_name = 'utq' AND state = 'active' AND pid <> pg_backend_pid()")
        return rows.cells.first ?? []
    }

    @Test func aResultPastTheMemoryLimitStopsWithAnEstimateAndTheSessionGoesOn() throws {
        let s = try session()
        try s.table("set memory-limit 1MB\ntables")
        let failure = s.failure("db.big | select id, name")
        let message = failure?.message ?? "no error"
        #expect(message.hasPrefix("the result from db.big does not fit in the memory a result may take (1.0 MB, set by memory-limit): "), "\(message)")
        #expect(message.range(of: #"[0-9,]+ rows read took 1\.[0-9] MB, and the database expects about [0-9,]+ rows, which would take about [0-9.]+ MB$"#,
                              options: .regularExpression) != nil, "\(message)")
        // The estimate is the planner's (200,000 after ANALYZE, give or take its sampling).
        let expected = message.range(of: #"expects about [0-9,]+"#, options: .regularExpression).map {
            Int(message[$0].dropFirst("expects about ".count).replacingOccurrences(of: ",", with: "")) ?? 0
        } ?? 0
        #expect(expected > 150_000 && expected < 250_000, "\(message)")
        #expect(failure?.hint?.contains("db.big | limit 1000") == true && failure?.hint?.hasSuffix("set memory-limit 100MB") == true, "\(failure?.hint ?? "")")
        // Stopped on the server too, and the same connection answers the next query.
        #expect(try running().isEmpty)
        #expect(try s.table("db.big | count").strings("count") == ["200000"])
        #expect(try s.table("db.big | limit 3 | select id").strings("id") == ["1", "2", "3"])
        // Within the limit the result comes whole.
        try s.table("set memory-limit 200MB\ntables")
        #expect(try s.table("db.big | select id, name").rowCount == 200_000)
    }

    /// The columns a streamed result makes are those the whole result read at once makes, over
    /// more rows than a piece of a column holds: nulls, text (with an enum's labels, and a
    /// text column said to have labels until a value that is none), times, numbers.
    @Test func aStreamedResultReadsAsTheWholeResultReadAtOnce() throws {
        let db = try PostgresDatabase(uri: server.uri("stream"), name: "db")
        let tables = try db.tables()
        let mixed = try #require(tables.first { $0.name == "db.mixed" })
        var labels = db.labels(of: "db.mixed")
        labels["letter"] = ["a", "b"]
        let relation = SQLCompiler.Relation(sql: try db.scanSQL("db.mixed"), labels: labels)
        let fragment = PostgresFragment(postgres: db, relation: relation, schema: mixed.schema)
        let streamed = try fragment.fetch(ExecutionContext(catalog: Catalog()))

        let whole = try db.connection.query(relation.sql)
        let columns = try mixed.schema.fields.enumerated().map { k, field in
            try PGDecode.column(field, cells: whole.cells[k], nulls: whole.nulls[k], codes: nil, labels: labels[field.name])
        }
        var once = Table(name: "result", columns: columns, zone: mixed.schema.zone, timeColumn: mixed.schema.timeColumn)
        once.rowCount = whole.count

        #expect(streamed.rowCount == 150_000 && once.rowCount == 150_000)
        #expect(streamed.columnNames == once.columnNames)
        #expect(tableDifference(streamed, once) == nil)
        for (a, b) in zip(streamed.columns, once.columns) {
            #expect(a.type == b.type && a.unit == b.unit, "\(a.name)")
            #expect((a.validity == nil) == (b.validity == nil), "\(a.name)")
            if case .string(let x) = a.storage, case .string(let y) = b.storage {
                #expect(x.dictionary == y.dictionary && x.codes == y.codes && x.ordered == y.ordered, "\(a.name)")
            }
        }
        #expect(streamed.strings("letter").suffix(3) == ["b", "c", "a"])
        #expect(streamed.strings("n").prefix(5) == ["3", "6", "9", "12", "null"])
    }

    /// Ctrl-C while rows are arriving stops the query on the server and leaves the connection
    /// ready for the next.
    @Test func cancellingAStreamedResultLeavesTheConnectionReady() throws {
        let db = try PostgresDatabase(uri: server.uri("stream"), name: "db")
        let flag = CancellationFlag()
        var seen = 0
        let started = Date()
        #expect(throws: CancellationError.self) {
            // 40 billion rows, the first at once.
            try db.connection.stream("SELECT a.id, b.name FROM big a CROSS JOIN big b", cancel: flag, columns: { _ in }) { _ in
                seen += 1
                if seen == 1000 { flag.cancel() }
                // A stream that went on past the flag fails here rather than reading for hours.
                if seen == 2_000_000 { throw TestError(description: "the stream went on after Ctrl-C") }
            }
        }
        #expect(seen >= 1000 && seen < 200_000, "\(seen) rows")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(try running().isEmpty)
        #expect(try db.connection.query("SELECT 1").cells[0] == ["1"])

        // The same through a fragment, and a session on its own connection.
        let s = try session()
        let big = try #require(try db.tables().first { $0.name == "db.big" })
        let fragment = PostgresFragment(postgres: db, relation: SQLCompiler.Relation(sql: try db.scanSQL("db.big")),
                                        schema: big.schema)
        let cancelled = CancellationFlag()
        cancelled.cancel()
        #expect(throws: CancellationError.self) { try fragment.fetch(ExecutionContext(catalog: Catalog(), cancel: cancelled)) }
        #expect(try fragment.fetch(ExecutionContext(catalog: Catalog())).rowCount == 200_000)
        #expect(try s.table("db.big | count").strings("count") == ["200000"])
    }

    /// An interval longer than a duration holds reads as null, the others as they are, and
    /// attach says so for the table's interval columns.
    @Test func anExtremeIntervalIsNullAndTheTableStillWorks() throws {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        var notes: [String] = []
        s.run("attach \(server.uri("stream")) as db", name: "<test>") { _, outcome in
            for case .info(let t) in outcome.outputs { notes.append(t) }
        }
        #expect(notes.contains("db.spans: an interval past ±292,277 years (more than a duration holds) reads as null in span"), "\(notes)")
        #expect(try s.table("db.spans | count").strings("count") == ["5"])
        let spans = try s.table("db.spans | select id, span")
        #expect(spans.strings("span").enumerated().filter { $0.element == "null" }.map(\.offset) == [1, 2, 3], "\(spans.strings("span"))")
        #expect(try s.table("db.spans | sum span").strings("sum_span") == (try s.table("db.spans | where id = 1 or id = 5 | sum span")).strings("sum_span"))
        #expect(try s.table("describe db.spans").rowCount == 2)
    }

    /// libpq's own failure to allocate is said to be utq's, not the database's refusal.
    @Test func theClientRunningOutOfMemoryIsSaidSo() {
        let ranOut = PGConnection.clientOutOfMemory("out of memory for query result", state: "", database: "db")
        #expect(ranOut?.message == "utq ran out of memory reading the result from db (out of memory for query result)")
        #expect(PGConnection.clientOutOfMemory("out of memory", state: "53200", database: "db") == nil)
    }
}
