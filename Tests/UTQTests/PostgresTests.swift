import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// Pipelines on an attached PostgreSQL database give what the same pipelines give on the
/// same rows loaded from CSV, and only their results come back.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class PostgresTests {
    let server: ThrowawayPostgres

    init() throws {
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE mobility")
        let csv = Repo.root + "/datasets/rides.csv"
        try server.psql(#"""
            CREATE TABLE rides (ride_id int, driver text, rider text, status text, requested_at timestamptz,
              accepted_at timestamptz, picked_up_at timestamptz, dropped_off_at timestamptz, pickup_place text,
              pickup_lat float8, pickup_lng float8, dropoff_place text, dropoff_lat float8, dropoff_lng float8,
              miles float8, rate_per_mile float8, cheapest_rate float8, fee_percent int, price numeric(8,2), paid bool);
            \copy rides from '\#(csv)' csv header
            CREATE TABLE "we""ird; table" ("a ""b""" text, n int);
            CREATE TABLE shapes (id int, points point[], info jsonb);
            INSERT INTO shapes VALUES (1, ARRAY[point(1,2)], '{"a": 1}');
            INSERT INTO "we""ird; table" VALUES ('it''s; DROP TABLE rides; --', 1), ('back\slash', 2);
            """#, database: "mobility")
    }

    deinit { server.stop() }

    /// A session with the rides both loaded and attached, both in London time.
    func session() throws -> Session {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("load datasets/rides.csv\nset timezone Europe/London\nattach \(server.uri("mobility")) as db\nuse db.rides\nset timezone Europe/London\ntables")
        return s
    }

    func cells(_ t: Table) -> [[String]] { t.columnNames.map { t.strings($0) } }

    func difference(_ a: Table, _ b: Table) -> String? { tableDifference(a, b) }

    @Test func aSummaryRunsInTheDatabaseAndEqualsTheLoadedRows() throws {
        let s = try session()
        let before = server.statements().count
        let remote = try s.table("db.rides | count by weekday(requested_at), hour(requested_at)")
        let local = try s.table("rides | count by weekday(requested_at), hour(requested_at)")
        #expect(remote.rowCount > 100)
        #expect(remote.columnNames == local.columnNames)
        #expect(cells(remote) == cells(local))
        // One statement, grouped in the database: the rows were not pulled.
        let sent = server.statements().dropFirst(before)
        #expect(sent.count == 1)
        #expect(sent.first?.contains("GROUP BY") == true)
    }

    static let pipelines = [
        "where status = \"completed\" | count by hour(requested_at)",
        "sum price by driver",
        "avg miles by status",
        "let long = miles > 5 | min long, max long, avg long, sum long, min paid, max paid by status",
        "median price by status",
        "p90 miles by pickup_place",
        "count distinct rider",
        "where miles > 5 and paid | count by day(requested_at)",
        "where accepted_at is null | count by status",
        "count by month(requested_at), status",
        "top 5 by price",
        "let fare = price * 2 - miles | max fare by status",
        "where status in (\"cancelled\", \"declined\") | count by weekday(requested_at)",
        "min requested_at by driver",
        "count by every 15m",
        "describe",
        "where status = \"completed\" | let wd = weekday(requested_at) | describe",
        "sort requested_at | let gap = requested_at - prev(requested_at) by driver | avg gap by driver",
        "sort requested_at | let n = row_number(), total = running_sum(price) by driver | where n <= 3",
        "let share = price / sum(price) by status | max share by status",
        "count by driver, status | let r = rank(count) by status | where r <= 2",
        "count by status, weekday(requested_at) | pivot weekday",
        "count by hour(requested_at), weekday(requested_at) | pivot weekday",
        "where paid | avg price by month(requested_at), pickup_lat > 52.4 | pivot month",
    ]

    @Test(arguments: pipelines)
    func thePipelineGivesTheSameRowsOnBothEngines(pipeline: String) throws {
        let s = try session()
        let remote = try s.table("db.rides | \(pipeline)")
        let local = try s.table("rides | \(pipeline)")
        #expect(difference(remote, local) == nil, "\(pipeline)")
    }

    /// A loaded table joined with the database's: a small one is copied into a temporary
    /// table and the join runs in the database (one statement with JOIN after the COPY); a
    /// large one stays, and the database's rows come here, with a note either way.
    @Test func aLoadedTableJoinsTheDatabasesInTheDatabase() throws {
        let s = try session()
        try s.table("load datasets/users.csv\ntables")
        let pipeline = "join users on driver = username | where driving | sum price by familyName"
        let before = server.statements().count
        var notes: [String] = []
        let remote = try s.table("db.rides | \(pipeline)") { notes.append($0) }
        let local = try s.table("rides | \(pipeline)")
        #expect(remote.rowCount > 3)
        #expect(difference(remote, local) == nil)
        #expect(notes.contains { $0.contains("users (") && $0.contains("copied into a temporary table of db") }, "\(notes)")
        let sent = server.statements().dropFirst(before)
        #expect(sent.contains { $0.hasPrefix("COPY pg_temp.") })
        #expect(sent.filter { $0.contains("JOIN") }.count == 1 && sent.contains { $0.contains("JOIN") && $0.contains("GROUP BY") })
        var shown = ""
        s.run("explain db.rides | \(pipeline)", name: "<test>") { _, outcome in for case .text(let t) in outcome.outputs { shown += t } }
        #expect(shown.contains("copied into temporary tables of db first: users ("), "\(shown)")
        #expect(try stepsInMemory(s, "db.rides | \(pipeline)").isEmpty, "\(shown)")
        // A union with a loaded table, in the database too: columns matched by name, rows in order.
        let union = "where miles > 12 | select ride_id, driver, miles | union users"
        #expect(difference(try s.table("db.rides | \(union)"), try s.table("rides | \(union)")) == nil)
        #expect(server.statements().contains { $0.contains("UNION ALL") })
        // The same rows again are not copied again.
        let again = server.statements().count
        #expect(difference(try s.table("db.rides | \(pipeline)"), local) == nil)
        #expect(!server.statements().dropFirst(again).contains { $0.hasPrefix("COPY") })
        // Above the limit the loaded table stays, and the database's rows are brought here.
        let database = try #require(s.databases["db"] as? PostgresDatabase)
        database.copyLimit = 10
        database.uploads = [:]
        notes = []
        let pulled = try s.table("db.rides | \(pipeline)") { notes.append($0) }
        #expect(difference(pulled, local) == nil)
        #expect(notes.contains { $0.contains("users has 40 rows, more than are copied into db (10)") }, "\(notes)")
        #expect(try stepsInMemory(s, "db.rides | \(pipeline)") == ["aggregate sum_price = sum(price) by familyName", "where driving", "inner join on driver = username", "scan users (6 columns)"])
        #expect(notes.contains { $0.contains("join runs in memory on 3,200 rows from db") }, "\(notes)")
    }

    /// attach's help examples, with this server's socket in the URI.
    @Test func attachsExamplesRun() throws {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        for line in AttachVerb.spec.examples {
            let local = line.replacingOccurrences(of: "postgresql:///mobility?host=/tmp/pg", with: server.uri("mobility"))
            let failure = s.failure(local)
            #expect(failure == nil, "\(line): \(failure.map { DiagnosticRenderer.render($0, showLocation: false) } ?? "")")
        }
    }

    @Test func explainShowsTheSQL() throws {
        let s = try session()
        var text = ""
        s.run("explain db.rides | count by hour(requested_at)", name: "<test>") { _, outcome in
            for case .text(let t) in outcome.outputs { text += t }
        }
        #expect(text.contains("runs in PostgreSQL"))
        #expect(text.contains("SELECT extract(hour FROM (\"requested_at\" AT TIME ZONE 'Europe/London'))::int8 AS \"hour\", count(*)"))
        // Windows and describe are SQL too: nothing left to run here.
        for (pipeline, sql) in [("sort requested_at | let gap = requested_at - prev(requested_at) by driver | avg gap by driver", "lag(\"requested_at\", 1) OVER (PARTITION BY \"driver\" ORDER BY \"utq_row\")"),
                                ("let share = price / sum(price) by status | max share by status", "(\"price\")::numeric END)) OVER (PARTITION BY \"status\")"),
                                ("describe", "describe in db: one query")] {
            var shown = ""
            s.run("explain db.rides | \(pipeline)", name: "<test>") { _, outcome in
                for case .text(let t) in outcome.outputs { shown += t }
            }
            #expect(shown.contains(sql), "\(pipeline):\n\(shown)")
            #expect(try stepsInMemory(s, "db.rides | \(pipeline)").isEmpty, "\(pipeline):\n\(shown)")
        }
        // A pivot's columns are the values of its key: explain shows the probe that finds them
        // (in the database), and running sends the pivot as conditional aggregation.
        var shown = ""
        let pivot = "db.rides | count by hour(requested_at), weekday(requested_at) | pivot weekday"
        s.run("explain \(pivot)", name: "<test>") { _, outcome in for case .text(let t) in outcome.outputs { shown += t } }
        #expect(shown.contains("pivot weekday: a column for each value of weekday, which probe 1 finds"), "\(shown)")
        #expect(shown.contains("1. the values of weekday, for pivot's columns:") && shown.contains("distinct weekday"), "\(shown)")
        let before = server.statements().count
        try s.table(pivot)
        let sent = server.statements().dropFirst(before)
        #expect(sent.contains { $0.contains("FILTER (WHERE") }, "\(sent)")
    }

    /// The steps of a pipeline that placement keeps in memory, besides putting groups that
    /// come back from the database in key order.
    func stepsInMemory(_ s: Session, _ pipeline: String) throws -> [String] {
        let placed = try s.place(try s.plan(pipeline))
        return placed.steps.filter { $0.site.isMemory && !$0.restoresKeyOrder }.map(\.plan.explainLine)
    }

    /// `set timer on` splits a database pipeline's time into the database's and reading its rows.
    @Test func theTimerSaysWhereTheTimeWent() throws {
        let s = try session()
        var lines: [String] = []
        s.run("set timer on\ndb.rides | count by status\nrides | count by status", name: "<test>") { _, outcome in
            for case .info(let t) in outcome.outputs where t.hasPrefix("time: ") { lines.append(t) }
        }
        #expect(lines.count == 2)
        #expect(lines.first?.range(of: #"^time: .+ \(in db .+, reading its rows .+\)$"#, options: .regularExpression) != nil, "\(lines)")
        #expect(lines.last?.contains("(") == false, "\(lines)")
    }

    @Test func namesAndValuesWithQuotesCannotInjectSQL() throws {
        let s = try session()
        let t = try s.table("`db.we\"ird; table` | where n >= 1 | count by `a \"b\"`")
        #expect(t.strings("a \"b\"") == ["back\\slash", "it's; DROP TABLE rides; --"])
        let found = try s.table("`db.we\"ird; table` | where `a \"b\"` = \"it's; DROP TABLE rides; --\" | count")
        #expect(found.strings("count") == ["1"])
        #expect(try s.table("db.rides | count").strings("count") == ["3200"])
    }

    @Test func savedRowsComeBackTheSame() throws {
        let s = try session()
        try s.table("rides | save to db.copy\nuse db.copy\nset timezone Europe/London\ntables")
        #expect(try s.table("db.copy | count").strings("count") == ["3200"])
        for pipeline in ["sum price by status", "min requested_at by driver", "count by weekday(requested_at), hour(requested_at)",
                         "where accepted_at is null | count by status"] {
            #expect(difference(try s.table("db.copy | \(pipeline)"), try s.table("rides | \(pipeline)")) == nil, "\(pipeline)")
        }
        // An existing table is kept unless save! asks.
        let refused = s.failure("rides | limit 5 | save to db.copy")
        #expect(refused.map { DiagnosticRenderer.render($0, showLocation: false) }?.contains("db.copy exists already") == true)
        #expect(try s.table("db.copy | count").strings("count") == ["3200"])
        try s.table("rides | limit 5 | save! to db.copy\ntables")
        #expect(try s.table("db.copy | count").strings("count") == ["5"])
        // Text with quotes, tabs, backslashes and line breaks goes in and out unchanged.
        try s.table("`db.we\"ird; table` | let t = `a \"b\"` + \"\\ttab\" | save to db.texts\ntables")
        #expect(try s.table("db.texts | count by t").strings("t") == (try s.table("`db.we\"ird; table` | let t = `a \"b\"` + \"\\ttab\" | count by t")).strings("t"))
    }

    /// Ctrl-C during a long query cancels it on the server, not only here.
    @Test func cancellingStopsTheQueryOnTheServer() throws {
        let connection = try PGConnection(uri: server.uri("mobility"))
        let flag = CancellationFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { flag.cancel() }
        let started = Date()
        #expect(throws: CancellationError.self) { try connection.query("SELECT pg_sleep(10)", cancel: flag) }
        #expect(Date().timeIntervalSince(started) < 2)
        let other = try PGConnection(uri: server.uri("mobility"))
        let running = try other.query("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active'")
        #expect(running.cells[0] == ["0"])
        // The connection goes on working.
        #expect(try connection.query("SELECT 1").cells[0] == ["1"])
    }

    /// A column of a type utq has none for is read as its text, and attach says which.
    @Test func columnsOfUnknownTypesAreTextWithANote() throws {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        var notes: [String] = []
        s.run("attach \(server.uri("mobility")) as db", name: "<test>") { _, outcome in
            for case .info(let t) in outcome.outputs { notes.append(t) }
        }
        #expect(notes.contains("db.shapes: 2 columns have a type utq reads as its text: points (point[]), info (jsonb)"), "\(notes)")
        let t = try s.table("db.shapes | select points, info")
        #expect(t.strings("points") == ["{\"(1,2)\"}"])
        #expect(t.strings("info") == ["{\"a\": 1}"])
    }

    @Test func useOfADatabaseTableSaysWhereItIs() throws {
        let s = try session()
        var lines: [String] = []
        s.run("use db.rides", name: "<test>") { _, outcome in for case .info(let t) in outcome.outputs { lines.append(t) } }
        #expect(lines == ["db.rides: 20 columns, in database db"])
    }

    @Test func aMisspelledTableIsSuggested() throws {
        let s = try session()
        let text = s.failure("db.ride | count").map { DiagnosticRenderer.render($0, showLocation: false) } ?? ""
        #expect(text.contains("unknown table \"db.ride\"") && text.contains("db.rides"), "\(text)")
    }

    /// The server going away in the middle of a query is an error; the session goes on, and
    /// attaching again works.
    @Test func aServerThatGoesAwayIsAnErrorAndAttachWorksAgain() throws {
        let connection = try PGConnection(uri: server.uri("mobility"))
        let killer = try PGConnection(uri: server.uri("mobility"))
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) {
            _ = try? killer.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(5)'")
        }
        let started = Date()
        do {
            try connection.query("SELECT pg_sleep(5)")
            Issue.record("the query went on after its server process was gone")
        } catch {
            let text = (error as? Diagnostic).map { DiagnosticRenderer.render($0, showLocation: false) } ?? "\(error)"
            #expect(text.contains("the connection to") && text.contains("was lost") && text.contains("attach the database again"), "\(text)")
        }
        #expect(Date().timeIntervalSince(started) < 4)
        // In a session: every server process of the database ends, the next query says so,
        // and attach again brings it back.
        let s = try session()
        _ = try killer.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'mobility' AND pid <> pg_backend_pid()")
        let lost = s.failure("db.rides | count").map { DiagnosticRenderer.render($0, showLocation: false) } ?? ""
        #expect(lost.contains("was lost"), "\(lost)")
        #expect(try s.table("rides | count").strings("count") == ["3200"])
        try s.table("attach \(server.uri("mobility")) as db\ntables")
        #expect(try s.table("db.rides | count").strings("count") == ["3200"])
    }

    /// A wrong password is libpq's reason, and the password is not in the message.
    @Test func aWrongPasswordSaysSoWithoutThePassword() throws {
        let guarded = try ThrowawayPostgres(hba: "local all postgres trust\nlocal all all scram-sha-256\n")
        defer { guarded.stop() }
        try guarded.psql("CREATE ROLE analyst LOGIN PASSWORD 'right-one'")
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        let uri = "postgresql:///postgres?host=\(guarded.folder)&user=analyst"
        let failure = s.failure("attach \(uri)&password=secret-guess as db")
        // The message (the line it points at is the one just typed).
        let text = (failure?.message ?? "") + (failure?.hint ?? "")
        #expect(text.contains("password authentication failed for user \"analyst\""), "\(text)")
        #expect(!text.contains("secret-guess"), "\(text)")
        try s.table("attach \(uri)&password=right-one as db\ntables")
        #expect(s.databases["db"] != nil)
        // Nor is it in the history a script is saved from.
        #expect(s.history.contains { $0.hasPrefix("attach ") && $0.contains("password=…") })
        #expect(!s.history.contains { $0.contains("right-one") })
    }

    @Test func aURIThatDoesNotConnectSaysWhy() throws {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        let started = Date()
        let failure = s.failure("attach postgresql:///nothing?host=/tmp/no-such-folder-\(getpid()) as x")
        #expect(Date().timeIntervalSince(started) < 10)
        let text = failure.map { DiagnosticRenderer.render($0, showLocation: false) } ?? ""
        #expect(text.contains("could not connect to postgresql:///nothing"))
        #expect(text.contains("No such file or directory") || text.contains("connection"))
        // libpq's lines are one line, and the hint is for the cause, not the URI's form.
        #expect(!text.contains("\t") && failure?.message.contains("\n") == false, "\(text)")
        #expect(failure?.hint == "no server listens at that socket: is PostgreSQL running, and is host= the folder its socket is in?")
        #expect(s.catalog.names.isEmpty)
        for (reason, start) in [("FATAL:  database \"x\" does not exist", "the server has no such database"),
                                ("FATAL:  password authentication failed for user \"a\"", "check the user and password"),
                                ("connection to server at \"127.0.0.1\", port 1 failed: Connection refused", "no server answered there"),
                                ("invalid integer value \"port\" for connection option \"port\"", "a URI looks like")] {
            #expect(PGConnection.hint(for: reason)?.hasPrefix(start) == true, "\(reason)")
        }
    }
}

/// A name under a prefix that is no loaded table's points at attach.
@Suite struct DatabaseHintTests {
    @Test func anUnattachedDatabaseNameSuggestsAttach() throws {
        let s = makeSession()
        let text = s.failure("db.rides | count").map { DiagnosticRenderer.render($0, showLocation: false) } ?? ""
        #expect(text.contains("unknown table \"db.rides\""))
        #expect(text.contains("attach postgresql:///dbname as db"))
        // A prefix that loaded tables have is not a database.
        try s.table("load datasets/gtfs/demo-transit\ntables")
        let gtfs = s.failure("demo_transit.nope | count").map { DiagnosticRenderer.render($0, showLocation: false) } ?? ""
        #expect(gtfs.contains("unknown table") && !gtfs.contains("attach"))
        // attach without its URI says so.
        let bare = s.failure("attach as db").map { DiagnosticRenderer.render($0, showLocation: false) } ?? ""
        #expect(bare.contains("attach needs a database URI before as"))
    }
}

/// Reading libpq's cells into columns, without a server.
@Suite struct PGDecodeTests {
    /// A text column of nulls only (a left join that matched nothing) still has an entry for
    /// its rows' code 0: a text test over it once read past the end of an empty dictionary.
    @Test func aTextColumnOfNullsOnlyCanBeSearched() throws {
        for labels in [nil, [] as [String]] {
            let c = try PGDecode.column(Field(name: "x", type: .string), cells: ["", ""], nulls: [true, true], codes: nil, labels: labels)
            var t = Table(name: "t", columns: [c], zone: .utc)
            t.rowCount = 2
            let s = makeSession()
            s.workspace.put([t], makeCurrent: true)
            #expect(try s.table("t | where x contains \"a\" | count").strings("count") == ["0"])
            #expect(c.value(at: 1) == .null)
        }
    }

    @Test func averagesOfDurationsAndTimesAreRoundedAsUtqRoundsThem() throws {
        let d = try PGDecode.column(Field(name: "d", type: .duration), cells: ["2.5", "-2.5", "7"], nulls: [false, false, false], codes: nil)
        #expect((0..<3).map { d.value(at: $0) } == [.duration(3), .duration(-3), .duration(7)])
    }
}

/// explain's SQL laid out for reading, without a server.
@Suite struct SQLLayoutTests {
    @Test func clausesBreakLinesAndSubqueriesIndentButQuotesAndCallsStayWhole() {
        let sql = #"SELECT extract(hour FROM "t") AS "x FROM y", 'a WHERE b' AS w FROM (SELECT * FROM "rides" WHERE ("s" = 'ON (x)')) AS t GROUP BY 1"#
        #expect(SQLLayout.layout(sql) == """
            SELECT extract(hour FROM "t") AS "x FROM y", 'a WHERE b' AS w
            FROM (
              SELECT *
              FROM "rides"
              WHERE ("s" = 'ON (x)')
            ) AS t
            GROUP BY 1
            """)
    }
}
