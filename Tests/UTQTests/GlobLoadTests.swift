import Foundation
import Testing
@testable import UTQCore

/// `load "days/*.csv"`: the files a pattern matches make one table, as their rows would in
/// one file, with a `file` column; columns are matched by name and their kinds joined, each
/// difference a warning naming the file; a pattern that matches nothing says what is there.
@Suite struct GlobLoadTests {
    static let dir: String = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("utq-glob-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    static func write(_ relative: String, _ text: String) {
        let path = dir + "/" + relative
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    /// The shipped rides split by the day they were requested: the first 30 days, a file
    /// each (`days/2020-02-17.csv` …), and the same rows in one file, in the same order.
    static let days: (names: [String], rowsPerFile: [Int]) = {
        let text = (try? String(contentsOfFile: Repo.path("datasets/rides.csv"), encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        let header = lines.removeFirst()
        let column = header.split(separator: ",").firstIndex(of: "requested_at")!
        var byDay: [String: [String]] = [:]
        for line in lines { byDay[String(line.split(separator: ",", omittingEmptySubsequences: false)[column].prefix(10)), default: []].append(line) }
        let chosen = Array(byDay.keys.sorted().prefix(30))
        var all: [String] = []
        for day in chosen {
            write("days/\(day).csv", ([header] + byDay[day]!).joined(separator: "\n") + "\n")
            all += byDay[day]!
        }
        write("all-days.csv", ([header] + all).joined(separator: "\n") + "\n")
        return (chosen.map { "\($0).csv" }, chosen.map { byDay[$0]!.count })
    }()

    /// Runs a command; the tables it showed, its warnings and notes, or its error.
    static func run(_ s: Session, _ text: String) -> (warnings: [String], notes: [String], error: String?) {
        var warnings: [String] = [], notes: [String] = []
        var error: String? = nil
        s.run(text, name: "<test>") { _, outcome in
            for o in outcome.outputs {
                if case .warning(let w) = o { warnings.append(w) }
                if case .info(let n) = o { notes.append(n) }
            }
            if let e = outcome.error { error = e.message }
        }
        return (warnings, notes, error)
    }

    static func table(_ s: Session, _ name: String) throws -> Table {
        guard let t = s.catalog.table(name) else { throw TestError(description: "no table \(name)") }
        return t
    }

    @Test func thirtyDailyFilesMakeTheTableTheirRowsMakeInOneFile() throws {
        let (names, counts) = Self.days
        #expect(names.count == 30)
        let s = makeSession()
        let loaded = Self.run(s, "load \"\(Self.dir)/days/*.csv\" as rides\nload \(Self.dir)/all-days.csv as whole")
        #expect(loaded.error == nil)
        #expect(loaded.notes.contains { $0.hasPrefix("rides: \(NumberText.grouped(counts.reduce(0, +))) rows, 21 columns, from 30 files") }, "\(loaded.notes)")
        let glob = try Self.table(s, "rides"), whole = try Self.table(s, "whole")
        #expect(glob.rowCount == whole.rowCount)
        #expect(glob.columnNames == whole.columnNames + ["file"])
        for c in whole.columns {
            let g = try #require(glob.column(c.name))
            #expect(g.type == c.type, "\(c.name)")
            let differing = (0..<whole.rowCount).first { g.value(at: $0) != c.value(at: $0) }
            #expect(differing == nil, "\(c.name) differs at row \(differing ?? -1)")
        }
        // Each row names its file, in the files' order.
        let expected = zip(names, counts).flatMap { name, n in Array(repeating: name, count: n) }
        #expect(glob.strings("file") == expected)
        #expect(glob.zone.identifier == whole.zone.identifier)
        #expect(glob.timeRange()! == whole.timeRange()!)
    }

    @Test func patternsWithAndWithoutQuotes() throws {
        _ = Self.days
        let s = makeSession()
        // Unquoted, named after its folder.
        #expect(Self.run(s, "load \(Self.dir)/days/*.csv").error == nil)
        #expect(try Self.table(s, "days").rowCount > 0)
        // `?` and `[…]` in the last name; named after what comes before the wildcard.
        #expect(Self.run(s, "load \"\(Self.dir)/days/2020-02-1?.csv\"").error == nil)
        #expect(Set(try Self.table(s, "t2020_02_1").strings("file")) == ["2020-02-17.csv", "2020-02-18.csv", "2020-02-19.csv"])
        #expect(Self.run(s, "load \(Self.dir)/days/2020-02-2[0-2].csv as three").error == nil)
        #expect(Set(try Self.table(s, "three").strings("file")) == ["2020-02-20.csv", "2020-02-21.csv", "2020-02-22.csv"])
        #expect(Self.run(s, "load \"\(Self.dir)/days/2020-03-1[!0-4].csv\" as march").error == nil)
        #expect(Set(try Self.table(s, "march").strings("file")) == ["2020-03-15.csv", "2020-03-16.csv", "2020-03-17.csv"])
        // Wildcards in a folder's name, and `**` for folders at any depth: the file column
        // is the path under the pattern's folder.
        Self.write("nested/2020/jan/a.csv", "x,y\n1,2\n")
        Self.write("nested/2020/feb/b.csv", "x,y\n3,4\n")
        Self.write("nested/2021/deep/er/c.csv", "x,y\n5,6\n")
        Self.write("nested/top.csv", "x,y\n7,8\n")
        #expect(Self.run(s, "load \"\(Self.dir)/nested/*/*/*.csv\" as two").error == nil)
        #expect(try Self.table(s, "two").strings("file") == ["2020/feb/b.csv", "2020/jan/a.csv"])
        #expect(Self.run(s, "load \"\(Self.dir)/nested/**/*.csv\" as any").error == nil)
        #expect(try Self.table(s, "any").strings("file") == ["2020/feb/b.csv", "2020/jan/a.csv", "2021/deep/er/c.csv", "top.csv"])
        #expect(try Self.table(s, "any").strings("x") == ["3", "1", "5", "7"])
    }

    @Test func columnsMatchedByNameEachDifferenceSaid() throws {
        Self.write("mismatch/a.csv", "id,name,fee\n1,x,2\n2,y,3\n")
        Self.write("mismatch/b.csv", "name,ID,tip\nz,3,0.5\n")
        Self.write("mismatch/c.csv", "id,name,fee,tip\n4,w,5,1\n")
        let s = makeSession()
        let r = Self.run(s, "load \"\(Self.dir)/mismatch/*.csv\"")
        #expect(r.error == nil)
        let t = try Self.table(s, "mismatch")
        #expect(t.columnNames == ["id", "name", "fee", "tip", "file"])
        #expect(t.strings("id") == ["1", "2", "3", "4"])
        #expect(t.strings("name") == ["x", "y", "z", "w"])
        #expect(t.strings("fee") == ["2", "3", "null", "5"])
        #expect(t.strings("tip") == ["null", "null", "0.5", "1"])
        #expect(t.column("tip")?.type == .double)
        let path = Self.dir + "/mismatch/"
        #expect(r.warnings == [
            "\(path)b.csv: has column tip, which the files before it do not have; their rows are empty (null) there",
            "\(path)b.csv: has no column fee; its rows are empty (null) there",
        ])
    }

    @Test func kindsJoinToNumbersOrTextWithAWarning() throws {
        Self.write("kinds/1.csv", "zone,speed,when\n12,30,2024-03-01T08:00:00Z\n13,40,2024-03-01T09:00:00Z\n")
        Self.write("kinds/2.csv", "zone,speed,when\n14,32.5,2024-03-02T08:00:00Z\n")
        Self.write("kinds/3.csv", "zone,speed,when\nA1,31,2024-03-03T08:00:00Z\n")
        let s = makeSession()
        let r = Self.run(s, "load \"\(Self.dir)/kinds/*.csv\"")
        #expect(r.error == nil)
        let t = try Self.table(s, "kinds")
        #expect(t.column("speed")?.type == .double)
        #expect(t.strings("speed") == ["30", "40", "32.5", "31"])
        #expect(t.column("zone")?.type == .string)
        #expect(t.strings("zone") == ["12", "13", "14", "A1"])
        #expect(t.column("when")?.type == .timestamp)
        #expect(r.warnings == ["\(Self.dir)/kinds/3.csv: column zone holds integer in \(Self.dir)/kinds/1.csv (and 1 file more), text in \(Self.dir)/kinds/3.csv; "
                               + "it is text in the whole table (each value as save writes it)"])
        // A file whose column has no values takes the others' kind, without a warning.
        Self.write("empty-column/1.csv", "a,b\n1,\n2,\n")
        Self.write("empty-column/2.csv", "a,b\n3,2024-01-01\n")
        let e = Self.run(s, "load \"\(Self.dir)/empty-column/*.csv\" as e")
        #expect(e.error == nil && e.warnings.isEmpty, "\(e)")
        #expect(try Self.table(s, "e").column("b")?.type == .timestamp)
        #expect(try Self.table(s, "e").strings("b").prefix(2) == ["null", "null"])
    }

    /// Files on either side of a change of clock each choose their own offset; together they
    /// show in the session's zone, with the zone that agrees with both named.
    @Test func filesWrittenInDifferentOffsets() throws {
        Self.write("clocks/1-winter.csv", "at,n\n2024-03-20T08:00:00+00:00,1\n2024-03-21T08:00:00+00:00,2\n")
        Self.write("clocks/2-summer.csv", "at,n\n2024-04-02T08:00:00+01:00,3\n")
        let s = makeSession()
        let r = Self.run(s, "load \"\(Self.dir)/clocks/*.csv\"")
        #expect(r.error == nil)
        let t = try Self.table(s, "clocks")
        #expect(t.zone.identifier == "UTC")
        #expect(t.strings("at") == ["2024-03-20T08:00:00Z", "2024-03-21T08:00:00Z", "2024-04-02T07:00:00Z"])
        #expect(r.warnings == ["\(Self.dir)/clocks/*.csv: the files' times were written with different offsets (UTC in \(Self.dir)/clocks/1-winter.csv, "
                               + "+01:00 in \(Self.dir)/clocks/2-summer.csv); times show in UTC — set timezone Europe/London to see them in local time"])
        // One offset in every file: the table shows in it, as each file would.
        Self.write("summer/a.csv", "at\n2024-06-01T08:00:00+02:00\n")
        Self.write("summer/b.csv", "at\n2024-06-02T08:00:00+02:00\n")
        let one = Self.run(s, "load \"\(Self.dir)/summer/*.csv\"")
        #expect(one.error == nil && one.warnings.isEmpty, "\(one)")
        #expect(try Self.table(s, "summer").zone.identifier == "+02:00")
    }

    @Test func compressedFilesAndOtherFormatsInOnePattern() throws {
        let s = makeSession()
        Self.write("mixed/a.csv", "k,v\n1,x\n")
        Self.write("mixed/b.ndjson", "{\"k\": 2, \"v\": \"y\"}\n")
        _ = FileManager.default.createFile(atPath: Self.dir + "/mixed/c.csv.gz", contents: Data(try CompressedFilesTests.gzip(Array("k,v\n3,z\n".utf8))))
        #expect(Self.run(s, "load \"\(Self.dir)/mixed/*\"").error == nil)
        let t = try Self.table(s, "mixed")
        #expect(t.strings("k") == ["1", "2", "3"])
        #expect(t.strings("file") == ["a.csv", "b.ndjson", "c.csv.gz"])
        #expect(Self.run(s, "load \"\(Self.dir)/mixed/*.csv.gz\" as gz").error == nil)
        #expect(try Self.table(s, "gz").strings("v") == ["z"])
    }

    @Test func nothingMatchedSaysWhatIsThere() throws {
        Self.write("few/one.csv", "a\n1\n")
        Self.write("few/two.tsv", "a\n2\n")
        let s = makeSession()
        let e = Self.run(s, "load \(Self.dir)/few/*.json").error
        #expect(e == "cannot load \(Self.dir)/few/*.json: the pattern matched no file; \(Self.dir)/few holds one.csv, two.tsv")
        let missing = Self.run(s, "load \"\(Self.dir)/few/nowhere/*.csv\"").error
        #expect(missing == "cannot load \(Self.dir)/few/nowhere/*.csv: the pattern matched no file (there is no folder \(Self.dir)/few/nowhere); "
                + "\(Self.dir)/few holds one.csv, two.tsv")
    }

    @Test func feedsProjectsAndBrokenFilesAreRefusedAndChangeNothing() throws {
        let s = makeSession()
        #expect(s.run("load datasets/market.json").isEmpty)
        let before = s.catalog.names
        // A folder (a GTFS feed) among the matches.
        Self.write("withfeed/a.csv", "a\n1\n")
        try? FileManager.default.createDirectory(atPath: Self.dir + "/withfeed/feed.csv", withIntermediateDirectories: true)
        let feed = Self.run(s, "load \"\(Self.dir)/withfeed/*.csv\"").error
        #expect(feed?.contains("withfeed/feed.csv: is a GTFS feed") == true, "\(feed ?? "")")
        // A file of two tables (a Behaviour Mapper project).
        Self.write("withproject/a.json", "[{\"a\": 1}]")
        try? FileManager.default.removeItem(atPath: Self.dir + "/withproject/b.json")
        try FileManager.default.copyItem(atPath: Repo.path("datasets/market.json"), toPath: Self.dir + "/withproject/b.json")
        let project = Self.run(s, "load \"\(Self.dir)/withproject/*.json\"").error
        #expect(project?.contains("withproject/b.json: holds 2 tables") == true, "\(project ?? "")")
        // A broken file fails the whole load, with its own message.
        Self.write("withbroken/a.csv", "a,b\n1,2\n")
        Self.write("withbroken/b.csv", "a,b\n1,\"never closed\n")
        let broken = Self.run(s, "load \"\(Self.dir)/withbroken/*.csv\" as market").error
        #expect(broken?.contains("withbroken/b.csv:2:") == true && broken?.contains("never closed") == true, "\(broken ?? "")")
        #expect(Self.run(s, "load \"\(Self.dir)/withbroken/*.csv\" at x").error?.contains("at PATH") == true)
        #expect(s.catalog.names == before)
        #expect(try Self.table(s, "market").rowCount == 516)
    }

    @Test func namePatterns() {
        #expect(FilePattern.match("*.csv", "a.csv"))
        #expect(!FilePattern.match("*.csv", "a.csv.gz"))
        #expect(FilePattern.match("*.csv*", "a.csv.gz"))
        #expect(!FilePattern.match("*.csv", ".hidden.csv"))
        #expect(FilePattern.match(".*.csv", ".hidden.csv"))
        #expect(FilePattern.match("day?.csv", "day1.csv") && !FilePattern.match("day?.csv", "day10.csv"))
        #expect(FilePattern.match("[abc]*", "b1") && !FilePattern.match("[abc]*", "d1"))
        #expect(FilePattern.match("[!abc]*", "d1") && !FilePattern.match("[!abc]*", "a1"))
        #expect(FilePattern.match("[0-9][0-9].csv", "07.csv") && !FilePattern.match("[0-9][0-9].csv", "7a.csv"))
        #expect(FilePattern.match("a*b*c", "aXXbYYbc") && !FilePattern.match("a*b*c", "aXXbYYb"))
        #expect(FilePattern.match("\\*.csv", "*.csv") && !FilePattern.match("\\*.csv", "a.csv"))
        #expect(FilePattern.match("x[.csv", "x[.csv"))
        #expect(FilePattern.match("rides-ø*.csv", "rides-øst.csv"))
        #expect(!FilePattern.match(String(repeating: "*a", count: 30) + "b", String(repeating: "a", count: 60)))
        let p = FilePattern("data/2024-*/x?.csv")
        #expect(p.folder == "data" && p.names == ["2024-*", "x?.csv"])
        #expect(FilePattern("/abs/*.csv").folder == "/abs")
        #expect(FilePattern("*.csv").folder == "")
        #expect(PatternLoader.tableName(FilePattern("days/*.csv")) == "days")
        #expect(PatternLoader.tableName(FilePattern("rides-*.csv.gz")) == "rides")
        #expect(PatternLoader.tableName(FilePattern("*.csv")) == "table")
    }
}

/// union joins its tables with the same column-by-column copy as a pattern's files.
@Suite struct UnionColumnsTests {
    /// Bitmaps joined a word at a time hold the bits appended one at a time.
    @Test func bitmapsJoinWordByWord() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var fast = Bitmap(), slow = Bitmap()
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let n = Int.random(in: 0...200, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    var other = Bitmap()
                    for _ in 0..<n { other.append(Bool.random(using: &rng)) }
                    fast.append(contentsOf: other)
                    for i in 0..<n { slow.append(other[i]) }
                default:
                    let bit = Bool.random(using: &rng)
                    fast.append(repeating: bit, count: n)
                    for _ in 0..<n { slow.append(bit) }
                }
            }
            #expect(fast == slow)
            #expect(fast.setCount == (0..<slow.count).filter { slow[$0] }.count)
        }
    }

    @Test func unionKeepsEveryValue() throws {
        let s = makeSession()
        let a = GlobLoadTests.dir + "/union-a.csv", b = GlobLoadTests.dir + "/union-b.csv"
        _ = FileManager.default.createFile(atPath: a, contents: Data("k,n,t,when\nx,1,,2024-01-01T10:00:00Z\ny,,p,2024-01-02T10:00:00Z\n".utf8))
        _ = FileManager.default.createFile(atPath: b, contents: Data("k,n,extra\nz,2.5,true\nx,3,false\n".utf8))
        #expect(s.run("load \(a) as a\nload \(b) as b").isEmpty)
        let t = try s.table("a | union b")
        #expect(t.columnNames == ["k", "n", "t", "when", "extra"])
        #expect(t.strings("k") == ["x", "y", "z", "x"])
        #expect(t.column("n")?.type == .double)
        #expect(t.strings("n") == ["1", "null", "2.5", "3"])
        #expect(t.strings("t") == ["null", "p", "null", "null"])
        #expect(t.strings("when") == ["2024-01-01T10:00:00Z", "2024-01-02T10:00:00Z", "null", "null"])
        #expect(t.strings("extra") == ["null", "null", "true", "false"])
        #expect(try s.table("a | union b | count by k").strings("count") == ["2", "1", "1"])
    }
}
