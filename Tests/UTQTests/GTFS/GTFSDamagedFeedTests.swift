import Foundation
import Testing
@testable import UTQCore

/// Damaged copies of the sample feed — bytes changed, cut, inserted — must each load with
/// warnings or fail with a message. A trap would end the test run; a loop would hang it.
@Suite struct GTFSDamagedFeedTests {
    /// A small deterministic generator, so a failing case can be made again.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(max(1, bound)))
        }
    }

    static let insertions: [[UInt8]] = [
        Array(",".utf8), Array("\"".utf8), [0x0A], [0x0D], [0x00], [0xFF], [0xEF, 0xBB, 0xBF],
        Array("99999999999999999999".utf8), Array("-1e308".utf8), Array("1e999".utf8), Array("nan".utf8),
        Array("25:99:99".utf8), Array("999:59:59".utf8), Array("99991399".utf8), Array("-5".utf8),
    ]

    /// The sample feed with a few changes in a few files, written to a new folder.
    static func damagedCopy(seed: UInt64) throws -> String {
        var g = Generator(state: seed)
        let source = Repo.path("datasets/gtfs/demo-transit")
        let names = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
        var files = try names.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: source + "/" + $0))) }
        for _ in 0..<(1 + g.next(5)) {
            let f = g.next(files.count)
            guard !files[f].isEmpty else { continue }
            let i = g.next(files[f].count)
            switch g.next(5) {
            case 0: files[f][i] = UInt8(g.next(256))
            case 1: files[f].insert(contentsOf: insertions[g.next(insertions.count)], at: i)
            case 2: files[f].removeSubrange(i..<min(files[f].count, i + 1 + g.next(40)))
            case 3: files[f].removeSubrange(i...)
            default: files[f].insert(contentsOf: (0..<(1 + g.next(16))).map { _ in UInt8(g.next(256)) }, at: i)
            }
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-gtfs-damaged-\(getpid())-\(seed)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, bytes) in zip(names, files) { FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(bytes)) }
        return dir
    }

    @Test(arguments: 1...120)
    func damagedFeedLoadsOrFailsWithAMessage(_ seed: Int) throws {
        let dir = try Self.damagedCopy(seed: UInt64(seed))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let session = makeSession()
        var outcome = ""
        session.run("load \(dir) as damaged\ncount by hour\ntrips | count by route_id", keepGoing: true) { _, o in
            if let e = o.error { outcome += e.message }
        }
        // Either it loaded (and the queries ran on what it holds) or it said why not.
        #expect(session.catalog["damaged.stop_times"] != nil || outcome.contains("cannot load"), "\(seed): \(outcome)")
    }

    @Test func aHeaderWithANulAndNoLineEndIsRead() throws {
        let path = try temporaryFile("nul-header.csv", Array("a,b".utf8) + [0])
        let loaded = try CSVLoader.load(path: path, name: "n", zone: .utc)
        #expect(loaded.table.columnNames == ["a", "b"])
        #expect(loaded.table.rowCount == 0)
    }
}
