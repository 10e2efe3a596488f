import Foundation
import Testing
@testable import UTQCore

/// "Do not replace" is kept by the file system itself: of two saves to the same new file at
/// once, one makes it and the other is told it exists, whatever the order they ran in.
@Suite struct ConcurrentSaveTests {
    func folder(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-race-\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Two writers held at the same moment: each has found no file there and written its
    /// content before either finishes.
    @Test func twoWritersMeetingHalfwayGiveOneFileAndOneRefusal() throws {
        let dir = try folder("threads")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/out.csv"
        let arrived = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var results: [Int: Result<Void, Error>] = [:]
        let lock = NSLock()
        let group = DispatchGroup()
        for k in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                let content = Array(String(repeating: "writer \(k)\n", count: 10_000).utf8)
                let r = Result {
                    try AtomicFile.write(to: target, replace: false) { fd, _ in
                        arrived.signal()
                        _ = go.wait(timeout: .now() + 5)
                        _ = content.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    }
                }
                lock.lock(); results[k] = r; lock.unlock()
                group.leave()
            }
        }
        // Both are inside, past any look at whether the file exists; then both go on.
        #expect(arrived.wait(timeout: .now() + 5) == .success && arrived.wait(timeout: .now() + 5) == .success)
        go.signal(); go.signal()
        group.wait()
        let refused = results.values.compactMap { r -> AtomicFile.Failure? in
            if case .failure(let e) = r { return e as? AtomicFile.Failure }
            return nil
        }
        #expect(results.values.filter { if case .success = $0 { return true }; return false }.count == 1)
        #expect(refused.count == 1 && refused.first?.exists == true && refused.first?.reason == "the file exists")
        let text = try String(contentsOfFile: target, encoding: .utf8)
        #expect(text == String(repeating: "writer 0\n", count: 10_000) || text == String(repeating: "writer 1\n", count: 10_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.csv"])
    }

    /// Two utq processes saving to one new file at once, a few times over.
    @Test func twoProcessesSavingOneNewFile() throws {
        let dir = try folder("processes")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for round in 0..<4 {
            let target = dir + "/rides-\(round).csv"
            nonisolated(unsafe) var outcomes: [(status: Int32, stderr: String)] = []
            let lock = NSLock()
            let group = DispatchGroup()
            for limit in [3000, 3100] {
                group.enter()
                Thread.detachNewThread {
                    let r = try? runUTQ(["-c", "load datasets/rides.csv", "-c", "limit \(limit) | save \(target)"])
                    lock.lock(); outcomes.append((r?.status ?? -1, r?.stderr ?? "")); lock.unlock()
                    group.leave()
                }
            }
            group.wait()
            #expect(outcomes.filter { $0.status == 0 }.count == 1, "round \(round): \(outcomes)")
            #expect(outcomes.contains { $0.status != 0 && $0.stderr.contains("cannot write \(target): the file exists") }, "round \(round): \(outcomes)")
            let lines = try String(contentsOfFile: target, encoding: .utf8).split(separator: "\n").count
            #expect(lines == 3001 || lines == 3101)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).allSatisfy { !$0.hasPrefix(".") })
    }
}

extension ConcurrentSaveTests {
    /// Where a folder cannot hold unnamed files, a named temporary file stands in: it is
    /// linked to the target's name, never renamed over a file that is there.
    @Test func aNamedTemporaryFileIsLinkedNotRenamedOver() throws {
        let dir = try folder("named")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let temp = dir + "/.out.csv.utq-temp", target = dir + "/out.csv"
        for round in 0..<2 {
            try "new\n".write(toFile: temp, atomically: false, encoding: .utf8)
            let fd = open(temp, O_RDONLY)
            defer { close(fd) }
            if round == 0 {
                try AtomicFile.placeWithoutReplacing(fd: fd, named: temp, at: target)
                #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.csv"])
            } else {
                try "theirs\n".write(toFile: target, atomically: false, encoding: .utf8)
                #expect(throws: AtomicFile.Failure.self) { try AtomicFile.placeWithoutReplacing(fd: fd, named: temp, at: target) }
                #expect(try String(contentsOfFile: target, encoding: .utf8) == "theirs\n")
            }
        }
    }
}
