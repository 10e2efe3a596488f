import Foundation
import Testing
@testable import UTQCore

/// The history file at the prompt: lines of two utq sessions at once are merged, as shells
/// merge theirs, and a write that cannot finish (a full disk) leaves the old file as it was.
@Suite(.serialized) struct HistoryTests {
    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test func twoPromptsAtOnceKeepEachOthersLines() throws {
        let history = try temporaryFile("history-two", "")
        unlink(history)
        let env = ["UTQ_HISTORY": history]
        // The first prompt is open across the second's whole session.
        nonisolated(unsafe) var first: (status: Int32, screen: String)? = nil
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            first = try? runUTQInTerminal([(0.5, "load datasets/market.json\n"), (3.0, "count by legend\n"), (1.0, "\u{4}")], environment: env)
            done.signal()
        }
        let second = try runUTQInTerminal([(1.5, "tables\n"), (0.5, "\u{4}")], environment: env)
        done.wait()
        #expect(second.status == 0 && first?.status == 0)
        let saved = lines(history)
        for line in ["load datasets/market.json", "tables", "count by legend"] {
            #expect(saved.contains { $0.contains(line.replacingOccurrences(of: " ", with: "\\040")) || $0.contains(line) }, "\(line) lost: \(saved)")
        }
        // Private to its owner, and no temporary file beside it.
        var st = stat()
        #expect(stat(history, &st) == 0 && st.st_mode & 0o777 == 0o600)
        let dir = (history as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains("history-two.") }.isEmpty)
    }

    @Test func ctrlZThenFgRedrawsTheLineBeingTyped() throws {
        // Ctrl-Z and fg need a shell with job control around utq.
        // Each step waits for what the terminal must show first (the suite runs this beside
        // CPU-heavy tests), then a moment more.
        let r = try runUTQInTerminal([(2.0, "'\(Repo.utqBinary)'\n"), (0.5, "load datasets/market.json\n"), (0.5, "count by"), (0.5, "\u{1A}"),
                                      (0.5, "fg\n"), (1.0, " legend\n"), (0.5, "\u{4}"), (1.0, "exit\n")],
                                     environment: ["UTQ_HISTORY": "", "PS1": "$ "], program: ["bash", "--norc", "--noprofile", "-i"],
                                     seen: [1: "utq> ", 2: "entries", 3: "count by", 4: "Stopped", 5: "count by", 6: "Walking"])
        // After the stop the prompt and the words typed so far are drawn again, and the line
        // goes on as if nothing happened.
        let afterStop = r.screen.components(separatedBy: "count by").dropFirst().joined(separator: "count by")
        #expect(afterStop.contains("utq> count by"), "\(r.screen.debugDescription)")
        #expect(r.screen.contains("Walking"), "\(r.screen)")
    }

    /// Whether this machine lets the tests mount a small file system (root may); CI must.
    static let canMount: Bool = {
        getuid() == 0 || ProcessInfo.processInfo.environment["CI"] == "true"
    }()

    @Test(.enabled(if: canMount, "mounting a small file system needs root")) func aFullDiskLeavesTheOldHistoryWhole() throws {
        let mount = FileManager.default.temporaryDirectory.appendingPathComponent("utq-full-\(getpid())").path
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let mounted = Process()
        mounted.executableURL = URL(fileURLWithPath: "/bin/mount")
        mounted.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount]
        let reason = Pipe()
        mounted.standardError = reason
        try mounted.run(); mounted.waitUntilExit()
        // Where it should work and does not, the test fails rather than passing unseen.
        guard mounted.terminationStatus == 0 else {
            let why = String(decoding: reason.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            Issue.record(Comment(rawValue: "could not mount a small file system: \(why)"))
            return
        }
        defer {
            let u = Process()
            u.executableURL = URL(fileURLWithPath: "/bin/umount")
            u.arguments = [mount]
            try? u.run(); u.waitUntilExit()
        }
        let history = mount + "/history"
        let old = "_HiStOrY_V2_\ncount\\040by\\040legend\ntables\n"
        try old.write(toFile: history, atomically: false, encoding: .utf8)
        // Fill the disk to its last few kilobytes.
        let filler = mount + "/filler"
        FileManager.default.createFile(atPath: filler, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
        let block = Data(repeating: 0x61, count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try? handle.close()
        let long = "where note = \"" + String(repeating: "x", count: 6000) + "\"\n"
        let r = try runUTQInTerminal([(0.5, long), (0.3, long), (0.3, "\u{4}")], environment: ["UTQ_HISTORY": history])
        #expect(r.status == 0, "\(r.screen.suffix(300))")
        #expect(try String(contentsOfFile: history, encoding: .utf8) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount).sorted() == ["filler", "history"])
        // With room again, the lines are saved after the old ones.
        unlink(filler)
        _ = try runUTQInTerminal([(0.5, "count\n"), (0.3, "\u{4}")], environment: ["UTQ_HISTORY": history])
        let saved = lines(history)
        #expect(saved.prefix(3) == ["_HiStOrY_V2_", "count\\040by\\040legend", "tables"])
        #expect(saved.last == "count")
    }
}
