import Foundation
import Testing

/// utq writes regular files only: a pipe, a device or a socket named as a file to write (or
/// reached through a symbolic link) is refused and stays what it was, and the prompt's
/// history is kept only in a history file, never waiting on a pipe to open it.
@Suite(.serialized) struct SpecialFileTests {
    func folder(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-special-\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func kind(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : nil
    }

    /// A device of this test's own (the null device's numbers, 1 and 3, which Linux packs
    /// as 1 << 8 | 3), so that a write that wrongly replaced it would replace nothing of the
    /// system's; false where making devices is not allowed.
    static func device(_ path: String) -> Bool {
        mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0
    }

    static let canMakeDevices: Bool = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utq-mknod-\(getpid())").path
        defer { unlink(path) }
        return device(path)
    }()

    func save(_ target: String) throws -> (status: Int32, stderr: String) {
        let r = try runUTQ(["-c", "load datasets/market.json", "-c", "count by legend | save! \(target)"])
        return (r.status, r.stderr)
    }

    @Test func saveRefusesAPipeAndALinkToOne() throws {
        let dir = try folder("fifo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe.csv", link = dir + "/link.csv"
        #expect(mkfifo(fifo, 0o644) == 0)
        symlink("pipe.csv", link)
        for target in [fifo, link] {
            let r = try save(target)
            #expect(r.status != 0)
            #expect(r.stderr.contains("cannot write \(target): it is a pipe (FIFO), not a file"), "\(r.stderr)")
            #expect(kind(fifo) == S_IFIFO && kind(link) == S_IFLNK)
        }
        // A chart, without !: the same refusal, not "it exists".
        let drawing = dir + "/pipe.txt"
        #expect(mkfifo(drawing, 0o644) == 0)
        let chart = try runUTQ(["-c", "load datasets/market.json", "-c", "count by legend | chart bar to \(drawing)"])
        #expect(chart.stderr.contains("cannot write \(drawing): it is a pipe (FIFO), not a file"), "\(chart.stderr)")
        #expect(kind(drawing) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["link.csv", "pipe.csv", "pipe.txt"])
    }

    @Test(.enabled(if: canMakeDevices, "making a device needs root")) func saveRefusesADeviceAndALinkToOne() throws {
        let dir = try folder("device")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let node = dir + "/null.csv", link = dir + "/link.csv"
        #expect(Self.device(node))
        symlink(node, link)
        for target in [node, link] {
            let r = try save(target)
            #expect(r.status != 0)
            #expect(r.stderr.contains("cannot write \(target): it is a device, not a file"), "\(r.stderr)")
            #expect(kind(node) == S_IFCHR && kind(link) == S_IFLNK)
        }
    }

    /// The prompt with UTQ_HISTORY naming `path`: one command, then Ctrl-D.
    func prompt(history path: String) throws -> (status: Int32, screen: String) {
        try runUTQInTerminal([(0.3, "tables\n"), (0.3, "\u{4}")], environment: ["UTQ_HISTORY": path], seen: [0: "utq> "])
    }

    @Test(.timeLimit(.minutes(2))) func aPipeAsHistoryIsNotWaitedOn() throws {
        let dir = try folder("history-fifo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/history"
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let r = try prompt(history: fifo)
        #expect(r.status == 0, "\(r.screen)")
        #expect(Date().timeIntervalSince(started) < 20 * TestTiming.scale)
        #expect(r.screen.contains("\(fifo) is a pipe (FIFO), not a file; no history is kept"), "\(r.screen)")
        #expect(kind(fifo) == S_IFIFO)
    }

    @Test func aFileThatIsNoHistoryIsLeftAlone() throws {
        let dir = try folder("history-csv")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let csv = dir + "/rides.csv"
        let rows = "ride_id,minutes\n1,12\n2,7\n"
        try rows.write(toFile: csv, atomically: false, encoding: .utf8)
        let r = try prompt(history: csv)
        #expect(r.status == 0, "\(r.screen)")
        #expect(r.screen.contains("\(csv) is not a utq history file (its first line is not _HiStOrY_V2_); no history is kept"), "\(r.screen)")
        #expect(try String(contentsOfFile: csv, encoding: .utf8) == rows)
    }

    @Test(.enabled(if: canMakeDevices, "making a device needs root")) func aDeviceAsHistoryStaysADevice() throws {
        let dir = try folder("history-device")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let node = dir + "/null"
        #expect(Self.device(node))
        let r = try prompt(history: node)
        #expect(r.status == 0, "\(r.screen)")
        #expect(r.screen.contains("\(node) is a device, not a file; no history is kept"), "\(r.screen)")
        #expect(kind(node) == S_IFCHR)
    }

    @Test func anEmptyFileOrALinkToAHistoryIsUsed() throws {
        let dir = try folder("history-used")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let empty = dir + "/empty"
        FileManager.default.createFile(atPath: empty, contents: Data())
        let history = dir + "/history", link = dir + "/link"
        try "_HiStOrY_V2_\ncount\n".write(toFile: history, atomically: false, encoding: .utf8)
        symlink("history", link)
        for path in [empty, link] {
            let r = try prompt(history: path)
            #expect(r.status == 0 && !r.screen.contains("no history is kept"), "\(r.screen)")
            #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("_HiStOrY_V2_\n"))
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("tables"))
        }
        #expect(kind(link) == S_IFLNK)
        #expect(try String(contentsOfFile: history, encoding: .utf8).contains("count\n"))
    }
}
