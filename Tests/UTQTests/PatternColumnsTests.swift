import Foundation
import Testing
@testable import UTQCore

/// A script's load of a pattern reads, from each file, the columns the script names and the
/// time; the others are read from every file when a question first needs them. Each answer
/// is held to the answer on the files read whole, in a fresh session each time.
@Suite struct PatternColumnsTests {
    static var days: String {
        _ = GlobLoadTests.days
        return "\"\(GlobLoadTests.dir)/days/*.csv\""
    }

    static var load: String { "load datasets/users.csv\nload \(days) as rides\n" }

    @Test func everyQuestionAfterTheLoadGivesTheWholeFilesAnswer() throws {
        let questions = ParquetDeferredTests.questions + ["rides | count by file | sort file | limit 3", "rides | where file = \"2020-02-18.csv\" | sum miles"]
        try NamedColumnsTests.sameAnswers(load: Self.load, questions: questions, apart: false)
    }

    /// The load in a script of its own names no column: each file reads its time alone, and
    /// every question reads what it needs later, from every file.
    @Test func everyQuestionInALaterScriptGivesTheWholeFilesAnswer() throws {
        try NamedColumnsTests.sameAnswers(load: Self.load, questions: ParquetDeferredTests.questions, apart: true) { s in
            let read = try NamedColumnsTests.deferred(s, "rides").columnsRead
            #expect(read == ["requested_at", "file"])
        }
    }

    @Test func theLoadReadsTheNamedColumnsOfEveryFile() throws {
        let s = NamedColumnsTests.session(named: true)
        let (_, info) = try ParquetDeferredTests.run(s, "load \(Self.days) as rides\nrides | count by status")
        #expect(info.contains { $0.hasPrefix("rides: ") && $0.contains("21 columns, from 30 files") }, "\(info)")
        let d = try NamedColumnsTests.deferred(s, "rides")
        #expect(Set(d.columnsRead) == ["status", "requested_at", "file"])
        // The table that loads whole says the same.
        let whole = NamedColumnsTests.session(named: false)
        try ParquetDeferredTests.run(whole, "load \(Self.days) as rides")
        let t = try #require(whole.catalog.table("rides"))
        #expect(d.rowCount == t.rowCount)
        #expect(d.schema.fields.map(\.name) == t.columnNames)
        #expect(d.schema.fields.map(\.type) == t.columns.map(\.type))
        #expect(d.timeRange! == t.timeRange()!)
        #expect(d.schema.zone.identifier == t.zone.identifier)
        // A column read later is read once, from every file.
        #expect(try s.table("rides | sum miles").rowCount == 1)
        #expect(try s.table("rides | avg miles").rowCount == 1)
        #expect(Set(try NamedColumnsTests.deferred(s, "rides").columnsRead) == ["status", "requested_at", "miles", "file"])
    }

    /// A column whose files hold different kinds: said at load from the files' first rows, and
    /// the column read later is the one the whole load makes.
    @Test func kindsThatDifferBetweenFilesAreSaidAndJoinedAsWhole() throws {
        GlobLoadTests.write("later-kinds/1.csv", "zone,speed,when\n12,30,2024-03-01T08:00:00Z\n13,40,2024-03-01T09:00:00Z\n")
        GlobLoadTests.write("later-kinds/2.csv", "zone,speed,when\n14,32.5,2024-03-02T08:00:00Z\n")
        GlobLoadTests.write("later-kinds/3.csv", "zone,speed,extra,when\nA1,31,x,2024-03-03T08:00:00Z\n")
        let load = "load \"\(GlobLoadTests.dir)/later-kinds/*.csv\" as k\n"
        let s = NamedColumnsTests.session(named: true)
        let (warnings, _) = try ParquetDeferredTests.run(s, load + "count by hour")
        let w = NamedColumnsTests.session(named: false)
        let (wholeWarnings, _) = try ParquetDeferredTests.run(w, load)
        #expect(warnings == wholeWarnings, "\(warnings) against \(wholeWarnings)")
        #expect(warnings.contains { $0.contains("column zone holds integer in") }, "\(warnings)")
        #expect(try NamedColumnsTests.deferred(s, "k").columnsRead == ["when", "file"])
        for q in ["k", "k | sum speed", "k | count by zone | sort zone", "k | where extra = \"x\" | select zone"] {
            let (a, b) = (try s.table(q), try w.table(q))
            #expect(tableDifference(a, b) == nil, "\(q): \(tableDifference(a, b) ?? "")")
        }
    }

    /// Parquet files by a pattern: each file's columns are read as a question needs them.
    @Test func parquetFilesReadTheirColumnsWhenAsked() throws {
        let folder = GlobLoadTests.dir + "/parquet-days"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try ParquetDeferredTests.run(makeSession(), "load datasets/rides.csv\nrides | where ride_id <= 1000 | save! \(folder)/a.parquet\n"
                                     + "rides | where ride_id > 1000 | save! \(folder)/b.parquet")
        let load = "load datasets/users.csv\nload \"\(folder)/*.parquet\" as rides\n"
        let s = NamedColumnsTests.session(named: true)
        try ParquetDeferredTests.run(s, load + "rides | count by status")
        #expect(Set(try NamedColumnsTests.deferred(s, "rides").columnsRead) == ["status", "requested_at", "file"])
        for q in ParquetDeferredTests.questions.prefix(12) + ["rides | sum miles by file"] {
            let whole = try NamedColumnsTests.session(named: false).table(load + q)
            let answer = try s.table(q)
            #expect(tableDifference(answer, whole) == nil, "\(q): \(tableDifference(answer, whole) ?? "")")
        }
    }

    /// Files written with different offsets: the same table, zone and warnings, in the same
    /// order, as the files read whole.
    @Test func filesInDifferentOffsetsSayWhatTheWholeLoadSays() throws {
        // The first file crosses the change of clock itself: a warning of its own, said first.
        GlobLoadTests.write("later-clocks/1-winter.csv", "at,n\n2024-03-30T08:00:00+00:00,1\n2024-03-31T08:00:00+01:00,2\n")
        GlobLoadTests.write("later-clocks/2-summer.csv", "at,n,extra\n2024-04-02T08:00:00+01:00,3,x\n")
        let load = "load \"\(GlobLoadTests.dir)/later-clocks/*.csv\" as c\n"
        let s = NamedColumnsTests.session(named: true)
        let (warnings, info) = try ParquetDeferredTests.run(s, load + "count by hour")
        let w = NamedColumnsTests.session(named: false)
        let (wholeWarnings, wholeInfo) = try ParquetDeferredTests.run(w, load)
        #expect(warnings.count == 3 && warnings == wholeWarnings, "\(warnings) against \(wholeWarnings)")
        #expect(info == wholeInfo)
        #expect(try NamedColumnsTests.deferred(s, "c").schema.zone.identifier == "UTC")
        let (a, b) = (try s.table("c | select at, n, extra, file"), try w.table("c | select at, n, extra, file"))
        #expect(tableDifference(a, b) == nil, "\(tableDifference(a, b) ?? "")")
    }

    /// A file changed after the load is named when a question would read it.
    @Test func aFileChangedSinceTheLoadIsNamed() throws {
        GlobLoadTests.write("changing/a.csv", "time,kind,n\n2020-01-01T00:00:00Z,a,1\n")
        GlobLoadTests.write("changing/b.csv", "time,kind,n\n2020-01-02T00:00:00Z,b,2\n")
        let s = NamedColumnsTests.session(named: true)
        try ParquetDeferredTests.run(s, "load \"\(GlobLoadTests.dir)/changing/*.csv\" as c\ncount by kind")
        GlobLoadTests.write("changing/b.csv", "time,kind,n\n2020-01-02T00:00:00Z,b,2\n2020-01-03T00:00:00Z,b,3\n")
        let e = s.failure("c | sum n")
        #expect(e?.message.contains("changing/b.csv") == true && e?.message.contains("has changed since it was loaded") == true,
                "\(String(describing: e?.message))")
        #expect(try s.table("c | count by kind").rowCount == 2)
    }

    /// What every file says alike is said once, of the pattern.
    @Test func aWarningEveryFileGivesIsSaidOnce() {
        let said = PatternLoader.saidOnce([
            LoadWarning(path: "d/1.csv", "code holds zero-padded numbers"), LoadWarning(path: "d/2.csv", "code holds zero-padded numbers"),
            LoadWarning(path: "d/2.csv", line: 4, "a cell is missing"), LoadWarning(path: "d/3.csv", line: 4, "a cell is missing"),
            LoadWarning(path: "d/3.csv", "only here"),
        ], pattern: "d/*.csv")
        #expect(said.map(\.description) == ["d/*.csv: code holds zero-padded numbers", "d/2.csv:4: a cell is missing",
                                            "d/3.csv:4: a cell is missing", "d/3.csv: only here"])
    }
}
