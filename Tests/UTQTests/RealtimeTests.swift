import Foundation
import Testing
@testable import UTQCore

/// GTFS-Realtime feeds written by Google's own bindings (Tests/Support/gtfs_rt_fixtures.py),
/// keyed to the demo feed, load as tables whose every value is what the bindings decode:
/// vehicle positions, trip updates (a stop skipped, a trip cancelled), alerts in two
/// languages, a file of all three kinds, and a folder of snapshots.
@Suite struct RealtimeTests {
    static let folder: String? = {
        guard let python = Oracle.python(with: "google.transit.gtfs_realtime_pb2") else { return nil }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-rt-\(UUID().uuidString)").path
        let p = Process()
        let parts = python.split(separator: " ").map(String.init)
        p.executableURL = URL(fileURLWithPath: parts[0])
        p.arguments = Array(parts.dropFirst()) + [Repo.path("Tests/Support/gtfs_rt_fixtures.py"), dir]
        guard (try? p.run()) != nil else { return nil }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? dir : nil
    }()

    func expected() throws -> (String, [String: [String: [[String: Any]]]]) {
        guard let folder = Self.folder else {
            throw TestError(description: "no Python with gtfs-realtime-bindings (make oracle-deps installs it into .build/oracle-venv)")
        }
        let data = try #require(FileManager.default.contents(atPath: folder + "/expected.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: [[String: Any]]]])
        return (folder, object)
    }

    /// A table's cell as the bindings' decoding writes it: instants as POSIX seconds,
    /// durations as seconds, numbers as numbers (floats of the protocol compared as floats).
    func cell(_ t: Table, _ column: String, _ row: Int) -> Any? {
        guard let c = t.column(column) else { return "(no column \(column))" }
        switch c.value(at: row) {
        case .null: return nil
        case .string(let s): return s
        case .int(let i): return Int(i)
        case .double(let d): return Float(d)
        case .timestamp(let m): return Int(m / 1_000_000)
        case .duration(let m): return Int(m / 1_000_000)
        case .bool(let b): return b
        default: return "\(c.value(at: row))"
        }
    }

    func same(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil), (nil, is NSNull), (is NSNull, nil): return true
        case (let x as Float, let y as NSNumber): return x == y.floatValue
        case (let x as Int, let y as NSNumber): return x == y.intValue
        case (let x as Int, let y as String): return "\(x)" == y   // int64 fields come as text in JSON
        case (let x as String, let y as String): return x == y
        default: return false
        }
    }

    func compare(_ t: Table, _ rows: [[String: Any]], file: String) {
        #expect(t.rowCount == rows.count, "\(file): \(t.rowCount) rows, the bindings \(rows.count)")
        for (k, row) in rows.enumerated() where k < t.rowCount {
            for (column, value) in row {
                let got = cell(t, column, k)
                #expect(same(got, value), "\(file) row \(k + 1) \(column): utq \(String(describing: got)), the bindings \(value)")
            }
        }
    }

    @Test func eachKindLoadsAsTheBindingsDecodeIt() throws {
        let (folder, expected) = try expected()
        let s = makeSession()
        for (file, name) in [("vehicle_positions.pb", "vehicles"), ("trip_updates.pb", "trip_updates"), ("alerts.pb", "alerts")] {
            let t = try s.table("load \(folder)/\(file) as rt\nrt")
            compare(t, expected[file]?[name] ?? [], file: file)
        }
    }

    @Test func aFileOfEveryKindIsATablePerKind() throws {
        let (folder, expected) = try expected()
        let s = makeSession()
        var failure: String? = nil
        s.run("load \(folder)/mixed.pb as m") { _, o in failure = failure ?? o.error?.message }
        #expect(failure == nil, "\(failure ?? "")")
        for kind in ["vehicles", "trip_updates", "alerts"] {
            compare(try s.table("m.\(kind)"), expected["mixed.pb"]?[kind] ?? [], file: "mixed.pb (\(kind))")
        }
    }

    @Test func aFolderOfSnapshotsIsOneTableWithItsFiles() throws {
        let (folder, expected) = try expected()
        let s = makeSession()
        let t = try s.table("load \(folder)/snapshots as vp\nvp")
        let files = (0..<3).map { "snapshots/vp-\($0).pb" }
        let rows = files.flatMap { expected[$0]?["vehicles"] ?? [] }
        compare(t, rows, file: "snapshots")
        let counts = try s.table("vp | count by file")
        #expect(counts.rowCount == 3)
        #expect((0..<3).map { counts.columns[1].value(at: $0) } == [.int(2), .int(3), .int(4)])
    }

    @Test func notAFeedIsSaidSo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-rt-bad-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A feed's header cut off in the middle of its entity.
        let (folder, _) = try expected()
        let whole = try #require(FileManager.default.contents(atPath: folder + "/vehicle_positions.pb"))
        try whole.prefix(whole.count - 7).write(to: URL(fileURLWithPath: dir + "/cut.pb"))
        let s = makeSession()
        #expect(throws: TestError.self) { try s.table("load \(dir)/cut.pb") }
        var message = ""
        s.run("load \(dir)/cut.pb") { _, o in message = o.error?.message ?? "" }
        #expect(message.contains("cut.pb") && message.contains("GTFS-Realtime"), "\(message)")
    }

    /// Trip updates for every stop time of the demo feed on 2007-06-04 (some giving only a
    /// delay, some no stop_sequence, one trip no start_date): scheduled times, delays and on
    /// time as the fixture computes them with zoneinfo, and the shares on time by route.
    @Test func delaysAreTheTimetableAgainstTheUpdates() throws {
        let (folder, _) = try expected()
        let data = try #require(FileManager.default.contents(atPath: folder + "/delays.json"))
        let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let s = makeSession()
        try s.table("load datasets/gtfs/demo-transit.zip as feed\nload \(folder)/delays.pb as d\nfeed.trips")
        let t = try s.table("feed | delays d on 2007-06-04")
        #expect(t.rowCount == rows.count)
        var got: [String: (Int, Int, Bool)] = [:]
        for k in 0..<t.rowCount {
            let key = "\(cell(t, "trip_id", k)!) \(cell(t, "stop_id", k)!)"
            got[key] = (cell(t, "scheduled", k) as? Int ?? -1, cell(t, "delay", k) as? Int ?? -1, t.column("on_time")!.value(at: k) == .bool(true))
        }
        var shares: [String: (Int, Int)] = [:]
        for row in rows {
            let key = "\(row["trip_id"]!) \(row["stop_id"]!)"
            let want = ((row["scheduled"] as! NSNumber).intValue, (row["delay"] as! NSNumber).intValue, row["on_time"] as! Bool)
            #expect(got[key].map { $0 == want } == true, "\(key): utq \(String(describing: got[key])), reference \(want)")
            let route = row["route_id"] as! String
            shares[route, default: (0, 0)].0 += want.2 ? 1 : 0
            shares[route, default: (0, 0)].1 += 1
        }
        let by = try s.table("feed | delays d on 2007-06-04 by route_id")
        #expect(by.rowCount == shares.count)
        for k in 0..<by.rowCount {
            let route = cell(by, "route_id", k) as! String
            let (on, n) = shares[route] ?? (0, 0)
            #expect(cell(by, "updates", k) as? Int == n, "\(route)")
            #expect(by.column("on_time_share")!.value(at: k) == .double(Double(on) / Double(n)), "\(route)")
        }
    }
}
