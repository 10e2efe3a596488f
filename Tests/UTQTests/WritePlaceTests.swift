import Foundation
import Testing

/// Files are written exactly where they are named, relative to the working folder: the
/// search that finds a file to load in the folders above (a notebook's cells, a script's
/// folder) never chooses where a file is written.
@Suite struct WritePlaceTests {
    /// A folder with a notebook folder inside, the folder above holding files of the names
    /// the cells write.
    func folders(_ name: String) throws -> (above: String, notebook: String) {
        let above = FileManager.default.temporaryDirectory.appendingPathComponent("utq-place-\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: above)
        let notebook = above + "/notebook"
        try FileManager.default.createDirectory(atPath: notebook, withIntermediateDirectories: true)
        return (above, notebook)
    }

    /// Runs `utq ARGUMENTS` in `folder` with `stdin`, as Jupyter starts the kernel in the
    /// notebook's folder.
    func runUTQ(in folder: String, _ arguments: [String], stdin: String) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repo.utqBinary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"
        env["UTQ_HISTORY"] = ""
        process.environment = env
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func request(_ id: Int, _ code: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: ["id": id, "op": "execute", "code": code]), as: UTF8.self) + "\n"
    }

    @Test func theKernelWritesInTheNotebooksFolderNotTheOneAbove() throws {
        let (above, notebook) = try folders("kernel")
        defer { try? FileManager.default.removeItem(atPath: above) }
        let names = ["replaced.csv", "new.csv", "chart.txt", "notes.md", "session.utq"]
        for name in names { try "kept\n".write(toFile: above + "/" + name, atomically: false, encoding: .utf8) }
        // The data is loaded from the folder above, by the search that is for reading.
        try FileManager.default.copyItem(atPath: Repo.path("datasets/market.json"), toPath: above + "/market.json")
        let cells = [
            "load market.json",
            "count by legend | save! replaced.csv",
            "count by legend | save new.csv",
            "count by legend | chart bar to! chart.txt",
            ":record! notes.md",
            ":save! session.utq",
        ]
        let r = try runUTQ(in: notebook, ["kernel"], stdin: try cells.enumerated().map { try request($0.offset + 1, $0.element) }.joined())
        #expect(r.status == 0)
        let replies = r.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let statuses = replies.filter { $0["done"] as? Bool == true }.map { $0["status"] as? String ?? "" }
        #expect(statuses == Array(repeating: "ok", count: cells.count), "\(r.stdout)")
        for name in names {
            #expect(try String(contentsOfFile: above + "/" + name, encoding: .utf8) == "kept\n", "\(name) above the notebook was written")
            #expect(FileManager.default.fileExists(atPath: notebook + "/" + name), "\(name) is not in the notebook's folder")
        }
        #expect(try String(contentsOfFile: notebook + "/replaced.csv", encoding: .utf8).hasPrefix("legend,count\n"))
    }

    @Test func aScriptWritesInTheWorkingFolderNotBesideItself() throws {
        let (above, notebook) = try folders("script")
        defer { try? FileManager.default.removeItem(atPath: above) }
        try "kept\n".write(toFile: notebook + "/out.csv", atomically: false, encoding: .utf8)
        try "load \(Repo.path("datasets/market.json"))\ncount by legend | save out.csv\n"
            .write(toFile: notebook + "/script.utq", atomically: false, encoding: .utf8)
        let r = try runUTQ(in: above, [notebook + "/script.utq"], stdin: "")
        #expect(r.status == 0)
        #expect(try String(contentsOfFile: notebook + "/out.csv", encoding: .utf8) == "kept\n")
        #expect(try String(contentsOfFile: above + "/out.csv", encoding: .utf8).hasPrefix("legend,count\n"))
    }
}
