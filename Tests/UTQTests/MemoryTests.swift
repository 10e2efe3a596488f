import Foundation
import Testing
@testable import UTQCore

/// Work that would not fit in memory is refused before it takes it, with what it would need:
/// a join whose keys multiply, a zip member larger than it says, a header of a million
/// columns, a load under `ulimit -v`. The session goes on with its tables.
@Suite struct MemoryTests {
    @Test func aJoinWhoseKeysMultiplyIsRefusedWithItsSize() throws {
        let rows = "k,a\n" + (0..<100_000).map { "1,\($0)\n" }.joined()
        let path = try temporaryFile("same-key.csv", rows)
        let s = makeSession()
        #expect(s.run("load \(path) as l; load \(path) as r").isEmpty)
        let d = try #require(s.failure("l | join r on k | count"))
        #expect(d.message.hasPrefix("this join would make 10,000,000,000 rows"), "\(d.message)")
        #expect(d.hint?.contains("summarise one side first") == true)
        // A join that fits runs, and the tables are still there.
        #expect(try s.table("l | limit 3 | join r on k | count").strings("count") == ["300000"])
    }

    /// A delimited file's memory is judged by its cells, not by its size alone: a ride log of
    /// 20 short cells a row takes less than the file, one-digit cells four times it, and long
    /// texts (kept whole) at least the file.
    @Test func aDelimitedFilesMemoryIsJudgedByItsCells() throws {
        func ratio(_ text: String) throws -> Double {
            let head = Array(text.utf8)
            let need = try #require(MemoryBudget.estimate(fileSize: 1_000_000_000, delimitedHead: head))
            return Double(need) / 1_000_000_000
        }
        let rides = try String(contentsOfFile: Repo.path("datasets/rides.csv"), encoding: .utf8)
        let r = try ratio(String(rides.prefix(65536)))
        #expect(r > 0.6 && r < 1.0, "a ride log: \(r) × the file")
        let digits = "a,b,c,d\n" + String(repeating: "1,2,3,4\n", count: 5000)
        #expect(try ratio(digits) > 4, "one-digit cells")
        let notes = "id;note\n" + (0..<300).map { "\($0);a note written by hand that is longer than any label, number \($0)\n" }.joined()
        #expect(try ratio(notes) > 1, "long texts")
        // A head that holds no record after the header is judged as before, by size.
        #expect(MemoryBudget.estimate(fileSize: 100, delimitedHead: Array("a,b,c\n1,2".utf8)) == nil)
        // Through a load: one-digit cells four times the file go past a limit of twice it.
        let path = try temporaryFile("digits.csv", digits)
        let s = makeSession()
        #expect(s.failure("set memory-limit 100KB") == nil)
        let e = try #require(s.failure("load \(path)"))
        #expect(e.message.contains("is 39 KB; loading it takes about"), "\(e.message)")
    }

    @Test func aHeaderOfAMillionColumnsIsRefused() throws {
        let header = (0..<1_000_000).map { "c\($0)" }.joined(separator: ",")
        let path = try temporaryFile("wide.csv", header + "\n" + String(repeating: "1,", count: 999_999) + "1\n")
        let d = try #require(makeSession().failure("load \(path)"))
        #expect(d.message.contains("has 1,000,000 columns; utq reads at most 100,000"), "\(d.message)")
    }

    @Test func aZipMemberIsMeasuredBeforeItIsUnpacked() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-bomb-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for name in ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "calendar.txt"] {
            try FileManager.default.copyItem(atPath: Repo.path("datasets/gtfs/demo-transit/" + name), toPath: dir + "/" + name)
        }
        try String(repeating: "\n", count: 30_000_000).write(toFile: dir + "/stop_times.txt", atomically: false, encoding: .utf8)
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zip.arguments = ["python3", "-c", "import shutil; shutil.make_archive('\(dir)', 'zip', '\(dir)')"]
        try zip.run(); zip.waitUntilExit()
        let r = try runUTQ(["-c", "load \(dir).zip"], environment: ["UTQ_MEMORY_LIMIT": "40MB"])
        #expect(r.status == 1 && r.exited)
        #expect(r.stderr.contains("stop_times.txt: is 29 MB; loading it takes about 57 MB of memory, and 40 MB is free"), "\(r.stderr)")
    }

    @Test func theAddressSpaceLimitIsHonoured() throws {
        // ulimit -v: the load is refused with a message, not ended by the system.
        let doc = "{\"rows\": [" + (0..<1_000_000).map { "{\"x\": \($0), \"y\": \"ab\"}" }.joined(separator: ",") + "]}"
        let path = try temporaryFile("doc.json", doc)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "ulimit -v 800000; exec \"$0\" -c \"load \(path) at rows\"", Repo.utqBinary]
        shell.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
        let err = Pipe()
        shell.standardError = err
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationReason == .exit && shell.terminationStatus == 1, "\(text)")
        #expect(text.contains("loading it takes about"), "\(text)")
    }

    @Test func aLimitThatIsNoSizeIsSaidAtStart() throws {
        let r = try runUTQ(["-c", "tables"], environment: ["UTQ_MEMORY_LIMIT": "lots"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("UTQ_MEMORY_LIMIT=lots is not a size such as 2GB or 500MB; it is ignored"))
    }
}
