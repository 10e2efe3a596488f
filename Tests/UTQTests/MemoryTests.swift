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
