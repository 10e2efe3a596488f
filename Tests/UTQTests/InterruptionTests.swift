import Foundation
import Testing
@testable import UTQCore

/// Ctrl-C, limits and files that must not be lost: a cancelled command stops within a
/// fraction of a second and changes nothing (the bound here is one second, for a debug build
/// sharing the machine with the other tests; a release build alone stops within ~0.1 s); a load that would not fit in memory is refused
/// before it reads; save replaces a file only when told.
@Suite(.serialized) struct InterruptionTests {
    /// A session with a table of `rows` rows: an id, a random whole number, a text key.
    func bigSession(rows: Int) -> Session {
        let s = makeSession()
        var state: UInt64 = 42
        var values = [Int64](repeating: 0, count: rows), keys = [Int64](repeating: 0, count: rows)
        for i in 0..<rows {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            values[i] = Int64(state >> 40)
            keys[i] = Int64(state >> 50)
        }
        let t = Table(name: "big", columns: [
            Column(name: "id", storage: .int((0..<rows).map(Int64.init))),
            Column(name: "v", storage: .int(values)),
            Column(name: "k", storage: .int(keys)),
        ])
        s.workspace.put([t, Table(name: "other", columns: t.columns)], makeCurrent: true)
        return s
    }

    /// Runs `text`, cancels it after `after` seconds, and returns how long it took to stop
    /// after the cancel, and the outcome.
    func cancelled(_ s: Session, _ text: String, after: Double = 0.15) -> (seconds: Double, outcome: CommandOutcome?) {
        nonisolated(unsafe) var outcome: CommandOutcome?
        nonisolated(unsafe) var finished = Date.distantFuture
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            s.run(text, name: "<test>") { _, o in outcome = o }
            finished = Date()
            done.signal()
        }
        Thread.sleep(forTimeInterval: after)
        let cancelledAt = Date()
        s.cancel.cancel()
        done.wait()
        return (finished.timeIntervalSince(cancelledAt), outcome)
    }

    @Test func longQueriesStopSoonAfterCtrlC() throws {
        let s = bigSession(rows: 2_000_000)
        let before = s.catalog.names.map { s.catalog.table($0)!.rowCount }
        for query in ["sort v desc", "big | join other on v | count", "count by v, k, id", "let w = v * 2 + k | sort w, id"] {
            let (seconds, outcome) = cancelled(s, query)
            #expect(outcome?.cancelled == true, "\(query) was not cancelled")
            #expect(outcome?.error?.message.contains("cancelled") == true)
            // Stopping takes milliseconds; the bound leaves room for a shared, busy machine
            // (a query that never looks at the flag fails `cancelled` above instead).
            #expect(seconds < 3 * TestTiming.scale, "\(query) took \(seconds) s to stop")
        }
        #expect(s.catalog.names.map { s.catalog.table($0)!.rowCount } == before)
        // And the session goes on as before.
        #expect(try s.table("count").strings("count") == ["2000000"])
    }

    @Test func loadStopsSoonAfterCtrlCAndChangesNothing() throws {
        var text = "id,when,name,value\n"
        text.reserveCapacity(40_000_000)
        for i in 0..<600_000 { text += "\(i),2017-03-23T08:\(10 + i % 50):00+0100,name \(i % 97),\(i % 1000).5\n" }
        let csv = try temporaryFile("cancel-me.csv", text)
        let s = makeSession()
        #expect(s.run("load \(BadInputTests.fixture("good.csv")) as cancel_me").isEmpty)
        let before = try s.table("count").strings("count")
        let (seconds, outcome) = cancelled(s, "load \(csv); count", after: 0.05)
        #expect(outcome?.cancelled == true)
        #expect(seconds < 3 * TestTiming.scale, "the load took \(seconds) s to stop")
        #expect(s.catalog.names == ["cancel_me"])
        #expect(try s.table("cancel_me | count").strings("count") == before)
    }

    @Test func ctrlCStopsTheRestOfTheLineToo() throws {
        let s = bigSession(rows: 2_000_000)
        let (_, outcome) = cancelled(s, "sort v; let marker = 1 | limit 1", after: 0.1)
        #expect(outcome?.cancelled == true)
        #expect(s.failure("marker") != nil || s.catalog["marker"] == nil)
        #expect(s.results.count == 0, "nothing after the cancelled command ran")
    }

    @Test func aFileLargerThanTheMemoryLimitIsRefusedBeforeReading() throws {
        let s = makeSession()
        #expect(s.run("load datasets/market.json").isEmpty)
        let before = s.catalog.names
        #expect(s.failure("set memory-limit 100KB") == nil)
        let e = try #require(s.failure("load datasets/rides.csv"))
        #expect(e.message.contains("cannot load datasets/rides.csv: is 644 KB; loading it takes about 616 KB of memory, and 100 KB is free"))
        #expect(s.catalog.names == before)
        let doc = try #require(s.failure("load datasets/market.json as again"))
        #expect(doc.message.contains("takes about 3.6 MB"), "\(doc.message)")  // a document: 40 times its size
        #expect(s.failure("set memory-limit auto") == nil)
        #expect(s.failure("load datasets/rides.csv") == nil)
        #expect(s.failure("set memory-limit lots")?.message.contains("a size such as 500MB") == true)
        // The same from the environment, for the shell.
        let r = try runUTQ(["-c", "load datasets/rides.csv"], environment: ["UTQ_MEMORY_LIMIT": "64k"])
        #expect(r.exited && r.status == 1)
        #expect(r.stderr.contains("is 644 KB; loading it takes about 616 KB of memory, and 64 KB is free"))
    }

    @Test func saveReplacesOnlyWhenTold() throws {
        let dir = (try temporaryFile("marker", "") as NSString).deletingLastPathComponent
        let path = dir + "/kept.csv"
        FileManager.default.createFile(atPath: path, contents: Data("old\n".utf8))
        let refused = try runUTQ(["-c", "load datasets/market.json; count by legend | save \(path)"])
        #expect(refused.status == 1 && refused.exited)
        #expect(refused.stderr.contains("the file exists"))
        #expect(refused.stderr.contains("--force"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        let forced = try runUTQ(["--force", "-c", "load datasets/market.json; count by legend | save \(path)"])
        #expect(forced.status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("legend,count\n"))
        // No temporary file is left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func controlCharactersFromDataAreEscapedInMessagesAndNotes() throws {
        let evil = "name\u{1B}[31m"
        let path = try temporaryFile("evil.csv", "\(evil),\(evil)\n1,2\n")
        let s = makeSession()
        var printed = ""
        s.run("load \(path); count by nope", keepGoing: true) { c, o in printed += OutputText.transcript(c, o, settings: s.settings) }
        #expect(printed.contains("appears twice"))
        #expect(!printed.contains("\u{1B}"), "\(printed.debugDescription)")
        #expect(printed.contains("\\u{1b}[31m"))
    }
}
