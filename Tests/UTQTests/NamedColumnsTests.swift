import Foundation
import Testing
@testable import UTQCore

/// A script's load of a CSV file reads the columns the script names and the table's time;
/// the others are read when a question first needs them. Each question's answer is held to
/// the answer of the same question on the file read whole, in a fresh session each time.
@Suite struct NamedColumnsTests {
    static let load = "load datasets/users.csv\nload datasets/rides.csv\n"

    /// A session whose loads read what their script names, or every column.
    static func session(named: Bool) -> Session {
        let s = makeSession()
        s.readsNamedColumnsFirst = named
        return s
    }

    static func deferred(_ s: Session, _ name: String) throws -> DeferredTable {
        try ParquetDeferredTests.deferred(s, name)
    }

    /// Each question after `load`, in a session whose loads read the columns named, against
    /// the same in a session that reads every column. `apart`: the load in a script of its own
    /// (naming no column), each question in the next; `afterLoad` looks at the session then.
    static func sameAnswers(load: String, questions: [String], apart: Bool, afterLoad: (Session) throws -> Void = { _ in }) throws {
        for q in questions {
            let whole = try session(named: false).table(load + q)
            let s = session(named: true)
            let answer: Table
            do {
                if apart {
                    try ParquetDeferredTests.run(s, load)
                    try afterLoad(s)
                }
                answer = try s.table(apart ? q : load + q)
            } catch {
                Issue.record("\(q): \(error)")
                continue
            }
            #expect(tableDifference(answer, whole) == nil, "\(q): \(tableDifference(answer, whole) ?? "")")
        }
    }

    /// The load and the question as one script: the load knows the question's names.
    @Test func everyQuestionAfterTheLoadGivesTheWholeFilesAnswer() throws {
        try Self.sameAnswers(load: Self.load, questions: ParquetDeferredTests.questions, apart: false)
    }

    /// The load in a script of its own: it names no column, so only the time is read, and
    /// every question reads what it needs later.
    @Test func everyQuestionInALaterScriptGivesTheWholeFilesAnswer() throws {
        try Self.sameAnswers(load: Self.load, questions: ParquetDeferredTests.questions, apart: true) { s in
            let read = try Self.deferred(s, "rides").columnsRead
            #expect(read == ["requested_at"])
        }
    }

    /// datasets/rides.csv written as NDJSON and as one JSON array by utq.
    static let jsonFiles: Result<[String], any Error> = Result {
        let s = makeSession()
        var paths: [String] = []
        for ext in ["ndjson", "json"] {
            let path = try write("rides.\(ext)", "")
            try ParquetDeferredTests.run(s, "load datasets/rides.csv\nrides | save! \(path)")
            paths.append(path)
        }
        return paths
    }

    /// The same for records in JSON: the load passes over the values of the columns it does
    /// not read.
    @Test func everyQuestionOnJSONRecordsGivesTheWholeFilesAnswer() throws {
        for path in try Self.jsonFiles.get() {
            let load = "load datasets/users.csv\nload \(path) as rides\n"
            for q in ParquetDeferredTests.questions {
                let whole = try Self.session(named: false).table(load + q)
                for script in [load + q, nil] {
                    let s = Self.session(named: true)
                    let answer: Table
                    do {
                        if script == nil { try ParquetDeferredTests.run(s, load) }
                        answer = try s.table(script ?? q)
                    } catch {
                        Issue.record("\(path): \(q): \(error)")
                        continue
                    }
                    #expect(tableDifference(answer, whole) == nil, "\(path): \(q): \(tableDifference(answer, whole) ?? "")")
                }
            }
            let s = Self.session(named: true)
            try s.table(load + "count by status, weekday")
            #expect(try Self.deferred(s, "rides").columnsRead == ["status", "requested_at"])
        }
    }

    @Test func theLoadReadsTheNamedColumnsAndTheTime() throws {
        let s = Self.session(named: true)
        let counted = try s.table("load datasets/rides.csv\ncount by status, weekday")
        #expect(try Self.deferred(s, "rides").columnsRead == ["status", "requested_at"])
        #expect(try Self.deferred(s, "rides").source.readCount == 0)
        #expect(tableDifference(counted, try Self.session(named: false).table("load datasets/rides.csv\ncount by status, weekday")) == nil)
        // explain says what a question would read from the file, and what is read already.
        var explained = ""
        s.run("explain rides | sum price by status", name: "<test>") { _, outcome in
            for case .text(let t) in outcome.outputs { explained += t }
        }
        #expect(explained.contains("rides: reads price from datasets/rides.csv (read already: status, requested_at)"), "\(explained)")
        // Also what the probes of a pivot would read.
        explained = ""
        s.run("explain rides | count by driver, status | pivot status", name: "<test>") { _, outcome in
            for case .text(let t) in outcome.outputs { explained += t }
        }
        #expect(explained.contains("rides: reads driver from datasets/rides.csv"), "\(explained)")
        // A table scanned twice (both sides of a join) reads what each scan needs, on one line.
        explained = ""
        s.run("explain rides | count by status | join (rides | sum miles by status) on status", name: "<test>") { _, outcome in
            for case .text(let t) in outcome.outputs { explained += t }
        }
        #expect(explained.contains("rides: reads miles from datasets/rides.csv (read already: status, requested_at)"), "\(explained)")
        #expect(explained.components(separatedBy: "rides: reads").count == 2, "\(explained)")
        // A column the script did not name is read when a question needs it, once.
        try s.table("rides | sum price by status")
        #expect(try Self.deferred(s, "rides").columnsRead == ["status", "requested_at", "price"])
        #expect(try Self.deferred(s, "rides").source.readCount == 1)
        // What the load says is what a whole load says.
        let said = Self.session(named: true).transcript("load datasets/rides.csv\ncount", name: "<test>")
        #expect(said == Self.session(named: false).transcript("load datasets/rides.csv\ncount", name: "<test>"))
        // A script that writes or describes a table reads every column at load, once.
        let out = try Self.write("saved.csv", "")
        for script in ["load datasets/rides.csv\ncount by status\nrides | save! \(out)", "load datasets/rides.csv\ncount by status\ndescribe"] {
            let whole = Self.session(named: true)
            try ParquetDeferredTests.run(whole, script)
            guard case .loaded? = whole.catalog["rides"] else {
                Issue.record("rides was not read whole for: \(script)")
                continue
            }
        }
        // Without a column of times the file is read whole (its time may be a date and a clock).
        let users = Self.session(named: true)
        try users.table("load datasets/users.csv\ncount by driving")
        guard case .loaded? = users.catalog["users"] else {
            Issue.record("users was not read whole")
            return
        }
    }

    /// Each `-c` command and script file is a script of its own; the names of those that run
    /// after the load count as its script's (the file is not read again at each question).
    @Test func laterScriptsOfTheSameRunNameColumnsToo() throws {
        let s = Self.session(named: true)
        s.scriptsAfter = ["rides | count by status", "sum price by weekday"]
        try ParquetDeferredTests.run(s, "load datasets/rides.csv")
        #expect(try Self.deferred(s, "rides").columnsRead == ["status", "requested_at", "price"])
        let whole = Self.session(named: true)
        whole.scriptsAfter = ["count by status", "rides | save! \(try Self.write("later.csv", ""))"]
        try ParquetDeferredTests.run(whole, "load datasets/rides.csv")
        if case .loaded? = whole.catalog["rides"] {} else { Issue.record("a later save did not read rides whole") }
        // The command line: three -c commands, the question's columns read with the load.
        let r = try runUTQ(["-c", "load datasets/rides.csv", "-c", "set timer off", "-c", "explain rides | sum price by status"])
        #expect(r.status == 0 && r.stdout.contains("rides: reads nothing from datasets/rides.csv (read already: status, requested_at, price)"),
                "\(r.stdout)\(r.stderr)")
    }

    static func write(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("utq-tests-\(getpid())/named").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// 3,000 rows; `n` is whole numbers in the first rows (the sample) and a word on line
    /// 2,502, `at` clock times: a guess from the first rows that the file breaks.
    static func guessed() throws -> String {
        var text = "time,kind,n,at\n"
        for i in 0..<3000 {
            text += "2020-01-01T\(String(format: "%02d", i % 24)):00:00Z,\(i % 3 == 0 ? "a" : "b"),\(i == 2500 ? "many" : String(i)),8:\(String(format: "%02d", i % 60))\n"
        }
        return try write("guessed.csv", text)
    }

    /// A question bound on a guessed type is bound again on the type the column has: the
    /// answer, the error and the warnings are those of the file read whole.
    @Test func aColumnThatIsNotWhatItsFirstRowsSaidIsBoundAgain() throws {
        let path = try Self.guessed()
        for q in ["describe guessed", "guessed | where kind = \"a\" | limit 3", "guessed | sum at by kind", "count by kind | sort kind"] {
            let s = Self.session(named: true)
            try ParquetDeferredTests.run(s, "load \(path)\ncount by kind")
            #expect(try Self.deferred(s, "guessed").schema.fields[2].type == .int, "the sample says n is whole numbers")
            let w = Self.session(named: false)
            try ParquetDeferredTests.run(w, "load \(path)")
            let (named, whole) = (try s.table(q), try w.table(q))
            #expect(tableDifference(named, whole) == nil, "\(q): \(tableDifference(named, whole) ?? "")")
        }
        // A question the new type refuses is refused as on the whole file, naming the column.
        let s = Self.session(named: true)
        try ParquetDeferredTests.run(s, "load \(path)\ncount by kind")
        let (warnings, _) = try ParquetDeferredTests.run(s, "guessed | count by kind, n | limit 1")
        #expect(warnings.contains { $0.contains(":2502: n is kept as text") }, "\(warnings)")
        #expect(try Self.deferred(s, "guessed").schema.fields[2].type == .string)
        let refused = s.failure("guessed | sum n")
        let whole = Self.session(named: false)
        try ParquetDeferredTests.run(whole, "load \(path)")
        #expect(refused?.message != nil && refused?.message == whole.failure("guessed | sum n")?.message)
        // The same when the question that reads the column is the one the new type refuses.
        for q in ["guessed | sum n", "guessed | where n > 10 | count"] {
            let fresh = Self.session(named: true)
            try ParquetDeferredTests.run(fresh, "load \(path)\ncount by kind")
            let e = fresh.failure(q)
            #expect(e?.message != nil && e?.message == whole.failure(q)?.message, "\(q): \(String(describing: e?.message))")
        }
    }

    /// Times written without an offset keep their wall-clock reading when the zone changes
    /// after the load: a column not read yet is moved when it is read, not read to be moved.
    @Test func aZoneSetAfterTheLoadMovesTheColumnsReadLater() throws {
        var text = "started,kind,ended\n"
        for i in 0..<300 {
            text += "2020-03-29 \(String(format: "%02d", i % 24)):\(String(format: "%02d", i % 60)):00,\(i % 2 == 0 ? "a" : "b"),2020-03-29 \(String(format: "%02d", (i + 3) % 24)):15:00\n"
        }
        let path = try Self.write("walls.csv", text)
        let load = "load \(path)\nset timezone Europe/Oslo\n"
        let s = Self.session(named: true)
        try ParquetDeferredTests.run(s, load + "count by kind")
        #expect(try Self.deferred(s, "walls").columnsRead == ["started", "kind"])
        for q in ["walls | select started, ended | limit 5", "walls | count by hour(ended), kind | sort hour, kind", "walls | let d = ended - started | sum d by kind"] {
            let named = Self.session(named: true)
            try ParquetDeferredTests.run(named, load + "count by kind")
            let whole = Self.session(named: false)
            try ParquetDeferredTests.run(whole, load)
            let (a, b) = (try named.table(q), try whole.table(q))
            #expect(tableDifference(a, b) == nil, "\(q): \(tableDifference(a, b) ?? "")")
        }
    }

    /// A file changed after the load is not read as if it were the one loaded.
    @Test func aFileChangedSinceTheLoadIsSaidToBe() throws {
        let path = try Self.write("changing.csv", "time,kind,n\n2020-01-01T00:00:00Z,a,1\n2020-01-01T01:00:00Z,b,2\n")
        let s = Self.session(named: true)
        try ParquetDeferredTests.run(s, "load \(path)\ncount by kind")
        try "time,kind,n\n2020-01-01T00:00:00Z,a,1\n2020-01-01T01:00:00Z,b,2\n2020-01-01T02:00:00Z,b,3\n".write(toFile: path, atomically: true, encoding: .utf8)
        let e = s.failure("changing | sum n")
        #expect(e?.message.contains("has changed since it was loaded") == true, "\(String(describing: e?.message))")
        // What was read stays usable.
        #expect(try s.table("changing | count by kind").rowCount == 2)
    }
}
