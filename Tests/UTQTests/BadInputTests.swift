import Foundation
import Testing
@testable import UTQCore

/// Files that are broken, odd or not what they claim, from Tests/Fixtures/bad-input/ (large
/// ones are made here, in a temporary folder). Each gives a clear message naming the file and
/// where in it, or a warning and a sensible table; a failed load leaves every table as it was;
/// and the batch run ends with status 1 by exiting, never by a signal.
@Suite struct BadInputTests {
    static func fixture(_ name: String) -> String { Repo.path("Tests/Fixtures/bad-input/" + name) }

    /// Everything a user could see of the loaded tables.
    func snapshot(_ s: Session) -> [String] {
        var out = ["current: \(s.currentTable ?? "-")"]
        for name in s.catalog.names {
            let t = s.catalog.table(name)!
            out.append("\(name) \(t.rowCount) \(t.columnNames) \(t.zone.identifier)")
            for c in t.columns { out.append((0..<t.rowCount).map { "\(c.value(at: $0))" }.joined(separator: "|")) }
        }
        return out
    }

    /// A session with two tables loaded, one of them named `good`.
    func sessionWithTables() -> Session {
        let s = makeSession()
        #expect(s.run("load datasets/market.json\nload \(Self.fixture("good.csv")) as good").isEmpty)
        return s
    }

    /// Loading `path` fails with a message holding every one of `expected` (the file's name is
    /// always among them); the tables stay as they were, also when the load would have replaced
    /// a table of the same name; and utq in batch exits with status 1.
    func expectRefused(_ path: String, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let s = sessionWithTables()
        let before = snapshot(s)
        for command in ["load \(path)", "load \(path) as good", "load \(path) as market"] {
            guard let e = s.failure(command) else {
                Issue.record("\(command) did not fail", sourceLocation: sourceLocation)
                continue
            }
            for text in expected + ["cannot load \(path)"] {
                #expect(e.message.contains(text), "\(command): \(e.message)", sourceLocation: sourceLocation)
            }
            #expect(snapshot(s) == before, "\(command) changed the tables", sourceLocation: sourceLocation)
        }
        let r = try runUTQ(["-c", "load \(path)"])
        #expect(r.exited, "utq ended by a signal: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.status == 1, sourceLocation: sourceLocation)
        for text in expected { #expect(r.stderr.contains(text), "\(r.stderr)", sourceLocation: sourceLocation) }
    }

    /// Loads a file that must load, returning the table and the warnings.
    func loaded(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (Table, [String]) {
        let s = makeSession()
        var warnings: [String] = []
        var failure: Diagnostic?
        s.run("load \(path)") { _, outcome in
            failure = outcome.error
            for case .warning(let w) in outcome.outputs { warnings.append(w) }
        }
        if let failure { throw TestError(description: failure.message) }
        let t = try #require(s.currentTable.flatMap { s.catalog.table($0) }, sourceLocation: sourceLocation)
        return (t, warnings)
    }

    // MARK: refused, with the place

    @Test func truncatedFiles() throws {
        try expectRefused(Self.fixture("truncated.csv"), ["truncated.csv:3:", "never closed"])
        try expectRefused(Self.fixture("truncated.json"), ["truncated.json:3:", "invalid JSON"])
        try expectRefused(Self.fixture("truncated-project.json"), ["truncated-project.json:", "invalid JSON"])
    }

    @Test func emptyFiles() throws {
        try expectRefused(Self.fixture("empty.csv"), ["empty"])
        try expectRefused(Self.fixture("empty.json"), ["empty"])
        try expectRefused(Self.fixture("blank.csv"), ["no header line"])
    }

    @Test func binaryFiles() throws {
        try expectRefused(Self.fixture("image.png"), ["PNG image"])
        try expectRefused(Self.fixture("random.bin"), ["binary"])
    }

    @Test func compressedAndOtherKindsOfFile() throws {
        let csv = try temporaryFile("to-compress.csv", String(repeating: "a,b\n1,2\n", count: 200))
        let gz = Process()
        gz.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gz.arguments = ["-kf", csv]
        try gz.run(); gz.waitUntilExit()
        // gzip and zstd are read (CompressedFilesTests); what is damaged inside them is refused.
        #expect(try Loaders.load(LoadRequest(path: csv + ".gz", zone: .utc)).tables[0].rowCount == 399)
        let dir = (csv as NSString).deletingLastPathComponent
        let kinds: [(String, [UInt8], String)] = [
            ("x.zst", [0x28, 0xB5, 0x2F, 0xFD, 1, 2, 3], "zstd stream is damaged at byte"), ("x.bz2", Array("BZh91AY&SY".utf8), "bzip2"),
            ("x.xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0, 4], "xz"), ("prog", [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1], "program"),
            ("doc.pdf", Array("%PDF-1.7\n".utf8), "PDF"), ("data.parquet", Array("PAR1\u{15}\u{04}".utf8), "Parquet"),
            ("db.sqlite", Array("SQLite format 3".utf8) + [0, 16, 0], "SQLite"),
        ]
        for (name, bytes, what) in kinds {
            let path = dir + "/" + name
            FileManager.default.createFile(atPath: path, contents: Data(bytes + Array(repeating: 7, count: 64)))
            try expectRefused(path, [what])
        }
    }

    @Test func pipesDevicesAndLoopsAreRefusedWithoutWaiting() throws {
        let dir = (try temporaryFile("fifo-marker.txt", "x") as NSString).deletingLastPathComponent
        let fifo = dir + "/a-pipe"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o644) == 0)
        defer { unlink(fifo) }
        try expectRefused(fifo, ["is a pipe"])
        try expectRefused("/dev/zero", ["is a device"])
        try expectRefused("/dev/urandom", ["is a device"])
        let loop = dir + "/loop-a", other = dir + "/loop-b"
        unlink(loop); unlink(other)
        symlink(other, loop); symlink(loop, other)
        defer { unlink(loop); unlink(other) }
        try expectRefused(loop, ["loop of symbolic links"])
        #expect(sessionWithTables().failure("load \(loop)")?.message.contains("did you mean") == false)
    }

    @Test func folderAndMissingFile() throws {
        let folder = (try temporaryFile("folder-marker.txt", "x") as NSString).deletingLastPathComponent + "/a-folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try expectRefused(folder, ["is a folder"])
        try expectRefused(Self.fixture("no-such-file.csv"), ["no such file"])
    }

    /// What went wrong is data, set where it is raised: the session offers a near name for a
    /// missing file by the kind, whatever the message's words.
    @Test func loadErrorsCarryTheirKind() throws {
        func kind(_ path: String) throws -> LoadError.Kind? { try loadError { try Loaders.load(LoadRequest(path: path, zone: .utc)) }?.kind }
        let marker = try temporaryFile("kinds-marker.txt", "x")
        let dir = (marker as NSString).deletingLastPathComponent
        #expect(try kind(Self.fixture("no-such-file.csv")) == .noSuchFile)
        #expect(try kind(marker + "/inside.csv") == .noSuchFile)
        #expect(try kind(try temporaryFile("kinds-empty.csv", "")) == .emptyFile)
        #expect(try loadError { try CSVLoader.load(path: dir, name: "d", zone: .utc) }?.kind == .isFolder)
        #expect(try kind(Self.fixture("good.csv")) == nil)
    }

    @Test func fileWithoutReadPermission() throws {
        let path = try temporaryFile("unreadable.csv", "a,b\n1,2\n")
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        // Root reads anything: as root, utq runs as an unprivileged user to meet the refusal.
        guard geteuid() == 0 else {
            try expectRefused(path, ["permission denied"])
            return
        }
        let r = try runUTQ(["-c", "load \(path)"], user: "nobody")
        #expect(r.status == 1 && r.exited, "\(r.stderr)")
        #expect(r.stderr.contains("cannot load \(path): permission denied"), "\(r.stderr)")
    }

    @Test func jsonNestedAHundredThousandDeep() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try expectRefused(try temporaryFile("deep.json", deep), ["deep.json:1:", "nested more than 1000 deep"])
        let object = String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        try expectRefused(try temporaryFile("deep-object.json", object), ["deep-object.json:1:", "nested more than 1000 deep"])
        let record = "[{\"a\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}]"
        try expectRefused(try temporaryFile("deep-record.json", record), ["deep-record.json:1:", "nested more than 1000 deep"])
        let lines = "{\"a\":1}\n{\"b\":" + String(repeating: "{\"c\":", count: 100_000) + "1" + String(repeating: "}", count: 100_001) + "\n"
        try expectRefused(try temporaryFile("deep-lines.ndjson", lines), ["deep-lines.ndjson:2:", "nested more than 1000 deep"])
    }

    // MARK: loaded, with a warning where something was changed

    @Test func encodings() throws {
        for name in ["utf16le-bom.csv", "utf16be-bom.csv", "utf16le-nobom.csv"] {
            let (t, warnings) = try loaded(Self.fixture(name))
            #expect(t.strings("name") == ["Café", "Torget"], "\(name)")
            #expect(warnings.contains { $0.contains(name) && $0.contains("UTF-16") }, "\(name): \(warnings)")
        }
        let (latin, lw) = try loaded(Self.fixture("latin1.csv"))
        #expect(latin.strings("name") == ["Café", "Østre Torg"])
        #expect(lw.contains { $0.contains("latin1.csv") && $0.contains("Latin-1") }, "\(lw)")
        let (broken, bw) = try loaded(Self.fixture("bad-utf8.csv"))
        #expect(broken.strings("name") == ["Café Øst", "Torget", "Br\u{FFFD}\u{FFFD}ken"])
        #expect(bw.contains { $0.contains("bad-utf8.csv") && $0.contains("not UTF-8") }, "\(bw)")
    }

    @Test func nulBytes() throws {
        let (t, warnings) = try loaded(Self.fixture("nul.csv"))
        #expect(t.strings("name") == ["Walking", "Bike"])
        #expect(t.strings("id") == ["1", "2"])
        // Each line that had one is named.
        #expect(warnings.filter { $0.contains("nul.csv:") && $0.contains("NUL byte") }.count == 2, "\(warnings)")
    }

    @Test func notANumberAndTooLarge() throws {
        // 1e400 is past the largest double: it reads as infinity, and the column stays numbers.
        // NaN among numbers is a number too (utq writes NaN, Infinity and -Infinity so they read back).
        let (t, _) = try loaded(Self.fixture("nan-inf.csv"))
        #expect(t.column("big")?.type == .double)
        #expect(t.strings("big") == ["1.5", "Infinity", "-Infinity", "2.5", "3"])
        #expect(t.column("nan")?.type == .double)
        #expect(t.strings("nan") == ["1.5", "NaN", "2", "null", "4"])
        let (j, _) = try loaded(Self.fixture("nan-inf.json"))
        #expect(j.strings("value") == ["1.5", "Infinity", "-Infinity", "null"])
        // Every summary and order still runs on them.
        let s = makeSession()
        for q in ["load \(Self.fixture("nan-inf.csv"))", "sum big", "avg big, min big, max big, median big, stddev big, p90 big",
                  "sort big desc", "count by big", "let v = big * 2 | where v > 0", "count by big | chart bar", "select big | chart hist",
                  "describe", "count by nan", "sort nan"] {
            #expect(s.failure(q) == nil, "\(q): \(s.failure(q)?.message ?? "")")
        }
    }

    @Test func idsPastSixtyFourBitsStayTextWithANote() throws {
        let csv = try temporaryFile("big-ids.csv", "id,n\n12345678901234567890,1\n12345678901234567891,2\n7,3\n")
        let json = try temporaryFile("big-ids.json", "[{\"id\": 12345678901234567890}, {\"id\": 12345678901234567891}, {\"id\": 9007199254740993}]")
        for path in [csv, json] {
            let (t, warnings) = try loaded(path)
            #expect(t.column("id")?.type == .string)
            #expect(Set(t.strings("id")).count == 3, "\(t.strings("id"))")
            #expect(t.strings("id").contains("12345678901234567891"))
            #expect(warnings.contains { $0.contains("id holds whole numbers past 64 bits (12345678901234567890)") }, "\(warnings)")
        }
        // Saved, every digit comes back.
        let s = makeSession()
        let out = (csv as NSString).deletingLastPathComponent + "/big-ids-out.csv"
        #expect(s.run("load \(csv); save! \(out)").isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("12345678901234567891,2"))
        // Whole numbers that fit stay numbers, and no note is made.
        let (fits, none) = try loaded(Self.fixture("good.csv"))
        #expect(!fits.columns.isEmpty && none.allSatisfy { !$0.contains("64 bits") })
    }

    @Test func notANumberAndInfinityAreSavedWithAWarningAndReadBack() throws {
        let csv = try temporaryFile("huge.csv", "k,v\na,1.5\nb,1e308\nc,-1e308\nd,0\n")
        let dir = (csv as NSString).deletingLastPathComponent
        let s = makeSession()
        var warnings: [String] = []
        s.run("load \(csv); let w = v * 10 | save! \(dir)/w.csv; let w = v * 10 | save! \(dir)/w.json") { _, outcome in
            for case .warning(let w) in outcome.outputs { warnings.append(w) }
        }
        #expect(warnings == ["w holds 2 values that are NaN or ∞; written as NaN, Infinity or -Infinity, which utq reads back as numbers",
                             "w holds 2 values that are NaN or ∞; JSON has no such numbers, so they are written as null"])
        #expect(s.run("load \(dir)/w.csv").isEmpty)
        let back = try s.table("w | select *")
        #expect(back.column("w")?.type == .double)
        #expect(back.values("w") == [.double(15), .double(.infinity), .double(-.infinity), .double(0)])
        #expect(try String(contentsOfFile: dir + "/w.json", encoding: .utf8).contains("\"w\":null"))
        // A word alone does not make numbers: Nan is also a name.
        #expect(s.run("load \(try temporaryFile("names.csv", "name\nNan\nInf\n"))").isEmpty)
        let names = try s.table("names | select *")
        #expect(names.column("name")?.type == .string)
    }

    @Test func timesTheZoneSkipsAndDatesEitherWayRoundAreNotedOnce() throws {
        let gap = try temporaryFile("gap.csv", "time,v\n28.03.2021 02:30,1\n28.03.2021 02:45,2\n28.03.2021 01:30,3\n")
        let s = makeSession(zone: ZoneRules.named("Europe/Oslo")!)
        var warnings: [String] = []
        s.run("load \(gap)") { _, o in for case .warning(let w) in o.outputs { warnings.append(w) } }
        #expect(warnings.filter { $0.contains("2 times fall in the hour Europe/Oslo skips when clocks go forward (the first: 2021-03-28 02:30)") }.count == 1, "\(warnings)")
        let (amb, aw) = try loaded(try temporaryFile("amb.csv", "date,v\n01/02/2021,1\n03/04/2021,2\n"))
        #expect(amb.column("date")?.type == .timestamp)
        #expect(aw.filter { $0.contains("dates such as 01/02/2021 could be day or month first") }.count == 1, "\(aw)")
        // One date that can only be day first settles it: no note.
        let (_, uw) = try loaded(try temporaryFile("unamb.csv", "date,v\n01/02/2021,1\n13/04/2021,2\n"))
        #expect(!uw.contains { $0.contains("day or month first") }, "\(uw)")
    }

    @Test func aScriptStartingWithAByteOrderMarkRuns() throws {
        let script = try temporaryFile("bom.utq", [0xEF, 0xBB, 0xBF] + Array("load datasets/market.json\ncount\n".utf8))
        let r = try runUTQ([script])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("516"))
    }

    @Test func mixedTypesInOneColumn() throws {
        let (t, _) = try loaded(Self.fixture("mixed.csv"))
        #expect(t.column("value")?.type == .string)
        #expect(t.strings("value") == ["10", "ten", "10.5", "true", "null"])
        // A different kind far past the rows that decided the type: the column is read again as text.
        var text = "id,value\n"
        for i in 0..<5000 { text += "\(i),\(i)\n" }
        text += "5000,n/a\n"
        let (late, _) = try loaded(try temporaryFile("late-text.csv", text))
        #expect(late.column("value")?.type == .string)
        #expect(late.strings("value").last == "n/a")
        #expect(late.strings("value").first == "0")
    }

    @Test func duplicateAndEmptyColumnNames() throws {
        let (t, warnings) = try loaded(Self.fixture("duplicate-names.csv"))
        #expect(t.columnNames == ["legend", "legend_2", "column_3", "Legend_3", "count"])
        #expect(warnings.contains { $0.contains("appears twice") })
        #expect(warnings.contains { $0.contains("has no name") })
    }

    @Test func headerOnly() throws {
        let (t, _) = try loaded(Self.fixture("header-only.csv"))
        #expect(t.rowCount == 0)
        #expect(t.columnNames == ["time", "legend", "count"])
        let s = makeSession()
        #expect(s.failure("load \(Self.fixture("header-only.csv"))") == nil)
        #expect(try s.table("count").strings("count") == ["0"])
    }

    @Test func fiftyMegabyteLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-long-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 50_000_000)
        let csv = dir.appendingPathComponent("long.csv").path
        FileManager.default.createFile(atPath: csv, contents: Data(Array("id,text\n1,".utf8) + long + Array("\n2,short\n".utf8)))
        let (t, _) = try loaded(csv)
        #expect(t.rowCount == 2)
        #expect(t.strings("text").map(\.utf8.count) == [50_000_000, 5])
        let json = dir.appendingPathComponent("long.json").path
        FileManager.default.createFile(atPath: json, contents: Data(Array("[{\"id\":1,\"text\":\"".utf8) + long + Array("\"},{\"id\":2,\"text\":\"short\"}]".utf8)))
        let (j, _) = try loaded(json)
        #expect(j.strings("text").map(\.utf8.count) == [50_000_000, 5])
    }

    // MARK: scripts

    @Test func scriptFullOfSyntaxErrors() throws {
        let script = Self.fixture("syntax-errors.utq")
        let stop = try runUTQ([script])
        #expect(stop.exited)
        #expect(stop.status == 1)
        #expect(stop.stderr.contains("syntax-errors.utq:2:"))
        #expect(stop.stderr.components(separatedBy: "error:").count == 2, "stops at the first: \(stop.stderr)")
        let all = try runUTQ(["--keep-going", script])
        #expect(all.exited)
        #expect(all.status == 1)
        for line in [2, 3, 4, 5, 7] { #expect(all.stderr.contains("syntax-errors.utq:\(line):"), "line \(line): \(all.stderr)") }
        #expect(all.stdout.contains("516"), "the good lines still ran")
    }

    /// The issue's own check: a broken file loaded over a good table leaves it to be counted.
    @Test func keepGoingAfterAFailedLoadCountsTheGoodTable() throws {
        let good = Self.fixture("good.csv"), broken = Self.fixture("truncated.csv")
        let r = try runUTQ(["--keep-going", "-c", "load \(good) as good; load \(broken) as good; good | count"])
        #expect(r.exited)
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot load \(broken):3:"))
        #expect(r.stdout.contains("count"))
        #expect(r.stdout.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "3" }, "\(r.stdout)")
    }
}
