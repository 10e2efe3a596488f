import Foundation
import Testing
@testable import UTQCore

/// A large Parquet file's columns are read when a question first needs them. These tests
/// make every file count as large (a session's `deferParquetAbove` of 0) and hold the answers
/// to those of the same file read whole at load: each question in a fresh session, so that a
/// column a plan reads but the scan did not ask for shows as a wrong answer, not as one some
/// earlier question happened to read.
@Suite struct ParquetDeferredTests {
    struct Files {
        let rides: String
        let users: String
    }

    /// datasets/rides.csv and users.csv written by utq as Parquet in row groups of 700 and 16
    /// rows, so that a column is several row groups with dictionaries of their own.
    static let files: Result<Files, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("utq-tests-\(getpid())/deferred").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let s = makeSession()
        func write(_ csv: String, _ name: String, rowGroup: Int) throws -> String {
            let table = try s.table("load datasets/\(csv)\n\(name)")
            let path = folder + "/\(name).parquet"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw TestError(description: "cannot write \(path)") }
            defer { close(fd) }
            try ParquetWriter.write(table, to: fd, rowGroupSize: rowGroup)
            return path
        }
        return Files(rides: try write("rides.csv", "rides", rowGroup: 700), users: try write("users.csv", "users", rowGroup: 16))
    }

    /// A session with rides and users loaded, read whole at load or not.
    static func session(deferred: Bool) throws -> Session {
        let f = try files.get()
        let s = makeSession()
        s.deferParquetAbove = deferred ? 0 : nil
        try run(s, "load \(f.users)\nload \(f.rides)")
        if deferred { #expect(s.catalog["rides"].flatMap(deferredTable) != nil, "rides is not deferred") }
        return s
    }

    static func deferredTable(_ e: CatalogEntry) -> DeferredTable? {
        if case .deferred(let d) = e { return d }
        return nil
    }

    static func deferred(_ s: Session, _ name: String) throws -> DeferredTable {
        guard let d = s.catalog[name].flatMap(deferredTable) else { throw TestError(description: "\(name) is not a deferred table") }
        return d
    }

    /// Runs text that must succeed; returns its warnings and notes.
    @discardableResult
    static func run(_ s: Session, _ text: String) throws -> (warnings: [String], info: [String]) {
        var warnings: [String] = [], info: [String] = []
        var failure: Diagnostic? = nil
        s.run(text, name: "<test>") { _, outcome in
            if let e = outcome.error { failure = e }
            for o in outcome.outputs {
                if case .warning(let w) = o { warnings.append(w) }
                if case .info(let n) = o { info.append(n) }
            }
        }
        if let failure { throw TestError(description: DiagnosticRenderer.render(failure, showLocation: true)) }
        return (warnings, info)
    }

    static let questions = [
        "rides",
        "rides | count by status",
        "rides | select status, miles | limit 5",
        // Renamed, computed from, filtered and sorted on columns the result does not show.
        "rides | select s = status, m = miles | sort m desc, s | limit 7",
        "rides | rename status as state | count by state",
        "rides | let km = miles * 1.609 | select ride_id, km | limit 5",
        "rides | where paid | select ride_id | limit 5",
        "rides | where fee_percent = 10 and miles > 5 | count by driver | sort count desc, driver | limit 5",
        "rides | sort price desc, ride_id | select ride_id | limit 5",
        "rides | select -driver, -rider | limit 3",
        "rides | where accepted_at is null | count",
        "rides | count by hour",
        "rides | count by weekday(dropped_off_at), status",
        "rides | sum price as revenue, avg miles by status",
        "rides | top 5 by price | select ride_id, price",
        "rides | top 3 by miles",
        "rides | distinct pickup_place, dropoff_place | limit 5",
        // Joins: keys on both sides, a clashing name renamed on the right, a range.
        "rides | join users on driver = username | select ride_id, givenName | limit 10",
        "rides | join users on driver = username | count by familyName | sort familyName",
        "rides | join users on driver = username | select ride_id, `users.rate_per_mile` | limit 10",
        "rides | left join users on rider = username | where available | count by status",
        "rides | where ride_id <= 30 | join users on miles > 8 and driver = username | select ride_id, familyName",
        "rides | where ride_id <= 20 | join users on miles * 0.05 > `rate_per_mile` | count",
        // Reshaping, windows, fill, union.
        "rides | count by status, pickup_place | pivot status",
        "rides | pivot status values miles | limit 5",
        "rides | select ride_id, miles, price | unpivot miles, price as what, value | limit 6",
        "rides | unpivot miles, price as what, value | select ride_id, what, value | limit 6",
        "rides | sort requested_at | let gap = requested_at - prev(requested_at), nth = row_number() by driver | where nth <= 2 | select driver, nth, gap | sort driver, nth",
        "rides | let share = price / sum(price) by status | select ride_id, share | limit 5",
        "rides | let most = max(miles), before = prev(rider) by driver | select driver, most, before | limit 9",
        "rides | let n = row_number() by pickup_place | where n = 1 | select ride_id | sort ride_id",
        "rides | count by day | fill",
        "rides | select ride_id, status | union rides | count by status",
        "rides | where paid | union rides | sum miles by status",
        "users | union rides | count by status",
        // Two pipelines over the same file, one kept as a table first.
        "let unpaid = rides | where not paid | select ride_id, status, price\nrides | where paid | union unpaid | sum price by status",
        "rides | describe",
        "describe rides",
        "tables",
    ]

    @Test func everyQuestionGivesTheAnswerOfTheWholeTable() throws {
        for q in Self.questions {
            let whole = try Self.session(deferred: false).table(q)
            let s = try Self.session(deferred: true)
            let answer: Table
            do { answer = try s.table(q) } catch {
                Issue.record("\(q): \(error)")
                continue
            }
            #expect(tableDifference(answer, whole) == nil, "\(q): \(tableDifference(answer, whole) ?? "")")
        }
    }

    /// A join reads of its right side the key and the columns the steps after it read, not
    /// every column it could add: it leaves the others ungathered, empty in their places.
    @Test func aJoinReadsOnlyTheRightColumnsUsedAfterIt() throws {
        let s = try Self.session(deferred: true)
        let counted = try s.table("rides | join users on driver = username | count by familyName | sort familyName")
        #expect(try Self.deferred(s, "users").columnsRead == ["username", "familyName"])
        #expect(try Self.deferred(s, "rides").columnsRead == ["driver"])
        // The same answer as with every column there.
        let whole = try Self.session(deferred: false).table("rides | join users on driver = username | count by familyName | sort familyName")
        #expect(tableDifference(counted, whole) == nil)
        // A column used after a step that keeps columns by name is still read.
        try s.table("rides | join users on driver = username | where available | count by givenName")
        #expect(try Self.deferred(s, "users").columnsRead == ["username", "givenName", "familyName", "available"])
    }

    @Test func aQuestionReadsOnlyItsColumnsOnce() throws {
        let s = try Self.session(deferred: true)
        #expect(try Self.deferred(s, "rides").columnsRead == [])
        try s.table("rides | count by status")
        let afterFirst = try Self.deferred(s, "rides")
        #expect(afterFirst.columnsRead == ["status"])
        let reads = afterFirst.source.readCount
        #expect(reads == 1)
        // The same column again is not read again; another is read beside it.
        try s.table("rides | count by status")
        #expect(try Self.deferred(s, "rides").source.readCount == reads)
        try s.table("rides | where paid | rename status as state | count by state")
        var read = try Self.deferred(s, "rides").columnsRead
        #expect(read == ["status", "paid"], "\(read)")
        #expect(try Self.deferred(s, "rides").source.readCount == 2)
        try s.table("rides | select s = driver, m = miles | sort m | limit 1")
        read = try Self.deferred(s, "rides").columnsRead
        #expect(read == ["driver", "status", "miles", "paid"], "\(read)")
        // Listing and summaries read nothing; describe reads every column.
        try Self.run(s, "tables\nuse rides")
        #expect(try Self.deferred(s, "rides").source.readCount == 4)
        try s.table("describe rides")
        #expect(try Self.deferred(s, "rides").columnsRead.count == 20)
    }

    @Test func everyUseOfTheWholeTableReadsIt() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("utq-tests-\(getpid())/deferred-whole.csv").path
        let script = """
            rides | count by status | chart bar
            rides | save \(out)
            describe
            rides | where ride_id = 7
            tables
            """
        var texts: [String] = [], saved: [String] = []
        for deferred in [false, true] {
            try? FileManager.default.removeItem(atPath: out)
            let s = try Self.session(deferred: deferred)
            texts.append(s.transcript(script, name: "<test>"))
            saved.append(try String(contentsOfFile: out, encoding: .utf8))
        }
        #expect(texts[0] == texts[1], "\(texts[0])\n---\n\(texts[1])")
        #expect(saved[0] == saved[1] && saved[0].count > 100_000)
        let s = try Self.session(deferred: true)
        let whole = try #require(s.catalog.table("rides"))
        #expect(whole.columns.allSatisfy { $0.type != .null } && whole.rowCount == 3200)
        #expect(try Self.deferred(s, "rides").columnsRead.count == 20)
    }

    // MARK: Every fixture

    static func fixtures() throws -> [String] {
        try Repo.files(in: ParquetTests.folder, ending: ".parquet").filter { !$0.hasPrefix("refused-") }
    }

    /// What the load says, the schema the binder sees, `tables` and describe: the same read
    /// later as read whole, in UTC and in a zone with summer time.
    @Test func schemaAndSummaryAreThoseOfTheWholeFile() throws {
        for file in try Self.fixtures() {
            for zone in ["UTC", "Europe/Oslo"] {
                var seen: [(info: [String], fields: [Field], zone: String, time: String?, tables: Table, describe: Table)] = []
                for deferred in [false, true] {
                    let s = makeSession()
                    s.deferParquetAbove = deferred ? 0 : nil
                    let (_, info) = try Self.run(s, "set timezone \(zone)\nload \(ParquetTests.folder)/\(file) as t")
                    let schema = try #require(s.catalog["t"]).schema
                    seen.append((info, schema.fields, schema.zone.identifier, schema.timeColumn, try s.table("tables"), try s.table("describe t")))
                    if deferred { #expect(s.catalog["t"].flatMap(Self.deferredTable) != nil, "\(file) is not deferred") }
                }
                let (a, b) = (seen[0], seen[1])
                let what = "\(file) in \(zone)"
                #expect(a.info == b.info, "\(what): \(a.info) vs \(b.info)")
                #expect(a.fields == b.fields, "\(what): \(a.fields) vs \(b.fields)")
                #expect(a.zone == b.zone && a.time == b.time, "\(what)")
                #expect(tableDifference(a.tables, b.tables) == nil, "\(what): \(tableDifference(a.tables, b.tables) ?? "")")
                #expect(tableDifference(a.describe, b.describe) == nil, "\(what): \(tableDifference(a.describe, b.describe) ?? "")")
            }
        }
    }

    /// Each column alone, as pyarrow reads it (the expectations of ParquetTests).
    @Test func eachColumnReadAloneIsPyarrows() throws {
        for file in try Self.fixtures() {
            let e = try ParquetTests.expected(for: file)
            for c in e.columns {
                let s = makeSession()
                s.deferParquetAbove = 0
                let t = try s.table("load \(ParquetTests.folder)/\(file) as t\nt | select `\(c.name)`")
                let one = ParquetTests.Expected(rows: e.rows, skipped: [], columns: [c])
                let problems = ParquetTests.differences(t, one)
                #expect(problems.isEmpty, "\(file), \(c.name): \(problems.joined(separator: "; "))")
                let read = try Self.deferred(s, "t").columnsRead
                #expect(read.contains(c.name) && read.count <= 3, "\(file), \(c.name): read \(read)")
            }
        }
    }

    /// Whose type their values decide are read at load, so a schema never changes after.
    @Test func columnsTypedByTheirValuesAreReadAtLoad() throws {
        let s = makeSession()
        s.deferParquetAbove = 0
        try Self.run(s, "load \(ParquetTests.folder)/types_snappy_v1_dict.parquet as t")
        #expect(try Self.deferred(s, "t").columnsRead == ["u64", "bytes"])
    }

    @Test func zoneAndTimeColumnChangeAsTheyDoForAWholeTable() throws {
        let script = """
            load \(ParquetTests.folder)/types_snappy_v1_dict.parquet as t
            t | select ts_ms_local, ts_us_utc, day | limit 5
            set timezone Europe/Oslo
            tables
            t | select ts_ms_local, ts_us_utc, day, ts_ns_local | limit 5
            set time ts_us_local
            tables
            t | count by hour
            set timezone America/New_York
            t | count by day, hour(ts_ms_local)
            """
        var texts: [String] = []
        for deferred in [false, true] {
            let s = makeSession()
            s.deferParquetAbove = deferred ? 0 : nil
            texts.append(s.transcript(script, name: "<test>"))
        }
        #expect(texts[0] == texts[1])
    }

    // MARK: Reading late

    @Test func aDamagedPageFoundLateIsTheQuestionsError() throws {
        let path = try ParquetTests.damaged("late-page.parquet") { b, file in
            let leaf = file.footer.schema.dropFirst().firstIndex { $0.name == "f64" }! - 1
            let chunk = file.footer.rowGroups[0].columns[leaf]
            let start = Int(chunk.dataPageOffset)
            let headerLength = try b.withUnsafeBytes { raw -> Int in
                var r = ThriftReader(raw, from: start)
                _ = try ParquetPageHeader(&r)
                return r.pos - start
            }
            for i in 0..<4 { b[start + headerLength + i] = 0xFF }
        }
        let s = makeSession()
        s.deferParquetAbove = 0
        try Self.run(s, "load \(path) as t")
        let e = try #require(s.failure("t | select f64"))
        #expect(e.message.contains("late-page.parquet: column f64, row group 1, page 2: its Snappy data is damaged"), "\(e.message)")
        #expect(e.hint?.contains("t stays loaded") == true, "\(String(describing: e.hint))")
        // The table stays, and its other columns are read.
        #expect(try s.table("t | count by text").rowCount > 1)
        #expect(try s.table("tables").rowCount == 1)
        #expect(!(try Self.deferred(s, "t").columnsRead.contains("f64")))
    }

    /// A script names the columns it uses: a small file is read from its footer too, and its
    /// questions read the columns they need, with the whole file's answers.
    @Test func aScriptReadsASmallFilesColumnsAsItsQuestionsNeedThem() throws {
        let f = try Self.files.get()
        let script = "load \(f.rides)\ncount by status, weekday"
        let named = makeSession()
        named.readsNamedColumnsFirst = true
        let counted = try named.table(script)
        #expect(try Self.deferred(named, "rides").columnsRead == ["status", "requested_at"])
        let whole = makeSession()
        #expect(tableDifference(counted, try whole.table(script)) == nil)
        guard case .loaded? = whole.catalog["rides"] else {
            Issue.record("rides was not read whole at the prompt")
            return
        }
        // A script that saves the table reads it whole at load, as a CSV file.
        let saving = makeSession()
        saving.readsNamedColumnsFirst = true
        try Self.run(saving, "load \(f.rides)\nrides | limit 2 | save! \(try temporaryFile("small-saved.csv", ""))")
        guard case .loaded? = saving.catalog["rides"] else {
            Issue.record("rides was not read whole for a save")
            return
        }
    }

    @Test func warningsFoundLateAreTheQuestions() throws {
        // A PLAIN, uncompressed text value made not UTF-8.
        let source = Repo.path("\(ParquetTests.folder)/types_none_v1_plain.parquet")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let value: [UInt8] = [5, 0, 0, 0] + Array("ferry".utf8)
        let at = try #require((0...(bytes.count - value.count)).first { Array(bytes[$0..<($0 + value.count)]) == value })
        bytes[at + 4] = 0xFF
        let path = try temporaryFile("late-text.parquet", bytes)
        let notUTF8 = "text: bytes that are not UTF-8 are shown as U+FFFD"

        let whole = makeSession()
        whole.deferParquetAbove = nil
        #expect(try Self.run(whole, "load \(path) as t").warnings.contains { $0.contains(notUTF8) })

        let s = makeSession()
        s.deferParquetAbove = 0
        #expect(!(try Self.run(s, "load \(path) as t").warnings.contains { $0.contains(notUTF8) }))
        let (warnings, _) = try Self.run(s, "t | count by text")
        #expect(warnings.contains { $0.contains("late-text.parquet: " + notUTF8) }, "\(warnings)")
        #expect(try s.table("t | count by text").strings("text").contains("\u{FFFD}erry"))
    }

    @Test func aFileChangedSinceLoadIsSaidToBe() throws {
        let path = try temporaryFile("changing.parquet", [UInt8](try Data(contentsOf: URL(fileURLWithPath: Repo.path("\(ParquetTests.folder)/many_pages.parquet")))))
        let s = makeSession()
        s.deferParquetAbove = 0
        try Self.run(s, "load \(path) as c")
        #expect(try s.table("c | count by mode").rowCount == 3)
        let other = try Data(contentsOf: URL(fileURLWithPath: Repo.path("\(ParquetTests.folder)/types_snappy_v1_dict.parquet")))
        try other.write(to: URL(fileURLWithPath: path))
        let e = try #require(s.failure("c | sum x"))
        #expect(e.message.contains("changing.parquet: it has changed since it was loaded"), "\(e.message)")
        #expect(e.hint == "load it again to read it as it is now")
        // What was read stays: it is the file as it was loaded.
        #expect(try s.table("c | count by mode").rowCount == 3)
        try Self.run(s, "load \(path) as c")
        #expect(try s.table("c | count").strings("count") == ["40"])
        try FileManager.default.removeItem(atPath: path)
        #expect(s.failure("c | count by text")?.message.contains("it is no longer there") == true)
    }

    // MARK: Against DuckDB

    @Test func countsAreDuckDBs() throws {
        guard let python = Oracle.python(with: "duckdb") else { Issue.record("no Python with duckdb (make oracle-deps)"); return }
        let f = try Self.files.get()
        let s = try Self.session(deferred: true)
        let utq = try s.table("rides | count by status, paid | sort status, paid")
        let script = """
            import duckdb, sys
            for s, p, n in duckdb.sql(f"select status, paid, count(*) from '{sys.argv[1]}' group by 1, 2 order by 1, 2").fetchall():
                print(f"{s},{str(p).lower()},{n}")
            """
        let p = Process()
        let parts = python.split(separator: " ").map(String.init)
        p.executableURL = URL(fileURLWithPath: parts[0])
        p.arguments = Array(parts.dropFirst()) + ["-c", script, f.rides]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let ours = (0..<utq.rowCount).map { i in utq.columns.map { $0.value(at: i).plainText }.joined(separator: ",") }
        #expect(ours == text.split(separator: "\n").map(String.init))
    }
}
