import Foundation
import Testing
@testable import UTQCore

/// Files whose size says nothing of the memory they take — a zip member that unpacks to far
/// more than it declares, JSON records that each name other members — loaded under an
/// address-space limit (`ulimit -v`): the load is refused with a message, and utq exits with
/// status 1 instead of being ended by a failed allocation. With `set memory-limit` above what
/// the limit leaves, too.
@Suite(.serialized) struct AddressSpaceLimitTests {
    /// The limit, in KB: a few hundred MB, of which utq itself takes about a hundred.
    static let limitKB = 400_000

    /// Runs utq with `commands` under the limit; its exit status, standard error, and whether
    /// it exited (rather than being ended by a signal).
    func underLimit(_ commands: [String]) throws -> (status: Int32, stderr: String, exited: Bool) {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", "ulimit -v \(Self.limitKB); exec \"$0\" \"$@\"", Repo.utqBinary] + commands.flatMap { ["-c", $0] }
        shell.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
        var env = ProcessInfo.processInfo.environment
        env["UTQ_MEMORY_LIMIT"] = nil
        shell.environment = env
        let err = Pipe()
        shell.standardError = err
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        return (shell.terminationStatus, text, shell.terminationReason == .exit)
    }

    /// A feed whose stop_times.txt unpacks to 700 MB but declares 1,000 bytes, in its local
    /// header and in the central directory.
    static let lyingZip: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utq-lying-\(getpid()).zip").path
        let script = """
        import struct, sys, zipfile
        out, feed = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
            for n in ['agency.txt', 'stops.txt', 'routes.txt', 'trips.txt', 'calendar.txt']:
                z.write(feed + '/' + n, n)
            with z.open('stop_times.txt', 'w', force_zip64=False) as f:
                f.write(b'trip_id,arrival_time,departure_time,stop_id,stop_sequence\\n')
                chunk = b'STBA,6:00:00,6:00:00,STAGECOACH,1\\n' * 32768
                for _ in range(700_000_000 // len(chunk)):
                    f.write(chunk)
        data = bytearray(open(out, 'rb').read())
        name = b'stop_times.txt'
        for signature, size_at, name_length_at, name_at in [(b'PK\\x03\\x04', 22, 26, 30), (b'PK\\x01\\x02', 24, 28, 46)]:
            at = data.find(signature)
            while at >= 0:
                n = struct.unpack_from('<H', data, at + name_length_at)[0]
                if data[at + name_at:at + name_at + n] == name:
                    struct.pack_into('<I', data, at + size_at, 1000)
                at = data.find(signature, at + 4)
        open(out, 'wb').write(data)
        """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, path, Repo.path("datasets/gtfs/demo-transit")]
        try! python.run()
        python.waitUntilExit()
        return path
    }()

    @Test func aZipMemberThatUnpacksToMoreThanItSaysIsStoppedAtTheBudget() throws {
        for commands in [["load \(Self.lyingZip)"], ["set memory-limit 2GB", "load \(Self.lyingZip)"]] {
            let r = try underLimit(commands)
            #expect(r.exited, "\(commands): ended by a signal: \(r.stderr.prefix(300))")
            #expect(r.status == 1, "\(commands): \(r.stderr.prefix(300))")
            #expect(r.stderr.contains("cannot load \(Self.lyingZip)/stop_times.txt: says it unpacks to 1000 bytes but unpacks to more than"),
                    "\(commands): \(r.stderr.prefix(300))")
            #expect(r.stderr.contains("more than fits in memory; the archive may be damaged"), "\(commands): \(r.stderr.prefix(300))")
        }
    }

    @Test func recordsThatEachNameANewMemberAreRefusedWhereTheyStopFitting() throws {
        let lines = (0..<200_000).map { "{\"k\($0)\": \($0)}\n" }.joined()
        let ndjson = try temporaryFile("sparse.ndjson", lines)
        let array = try temporaryFile("sparse.json", "[" + lines.split(separator: "\n").joined(separator: ",") + "]")
        for (path, setting) in [(ndjson, nil), (array, nil), (ndjson, "set memory-limit 4GB")] {
            let commands = (setting.map { [$0] } ?? []) + ["load \(path)"]
            let r = try underLimit(commands)
            #expect(r.exited, "\(commands): ended by a signal: \(r.stderr.prefix(300))")
            #expect(r.status == 1, "\(commands): \(r.stderr.prefix(300))")
            // Named by line (NDJSON) or line and column (an array on one line), and why.
            #expect(r.stderr.contains("cannot load \(path):" + (path == ndjson ? "" : "1:")), "\(r.stderr.prefix(300))")
            #expect(r.stderr.contains("different members between them make a table of"), "\(commands): \(r.stderr.prefix(300))")
            #expect(r.stderr.contains("(one for each record and member, named or not), which takes about"), "\(r.stderr.prefix(300))")
        }
    }

    @Test func aDocumentWhoseRowsEachNameANewMemberIsRefused() throws {
        let rows = (0..<200_000).map { "{\"k\($0)\": \($0)}" }.joined(separator: ",")
        let path = try temporaryFile("sparse-document.json", "{\"rows\": [" + rows + "]}")
        let r = try underLimit(["load \(path) at rows"])
        #expect(r.exited && r.status == 1, "\(r.stderr.prefix(300))")
        #expect(r.stderr.contains("cannot load \(path): record 100001: its records name more than 100,000 different members, a column each; "
                                  + "utq reads at most 100,000 columns"), "\(r.stderr.prefix(300))")
    }

    @Test func aRecordOfMoreMembersThanColumnsIsRefusedAsAWideHeaderIs() throws {
        let wide = "[{" + (0...100_000).map { "\"c\($0)\": 1" }.joined(separator: ", ") + "},\n{\"c0\": 2}]\n"
        let path = try temporaryFile("wide.json", wide)
        let r = try underLimit(["load \(path)"])
        #expect(r.exited && r.status == 1, "\(r.stderr.prefix(300))")
        #expect(r.stderr.contains("cannot load \(path):1:2: its records name more than 100,000 different members, a column each; "
                                  + "utq reads at most 100,000 columns"), "\(r.stderr.prefix(300))")
        // The session's tables are as they were: a load that fails adds nothing.
        let s = makeSession()
        try s.table("load \(try temporaryFile("before.csv", "a\n1\n")) as before; before")
        #expect(s.failure("load \(path) as before") != nil)
        #expect(s.catalog.names == ["before"])
        #expect(try s.table("before").strings("a") == ["1"])
    }
}
