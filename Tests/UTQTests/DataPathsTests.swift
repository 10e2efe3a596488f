import Foundation
import Testing
@testable import UTQCore

/// Loads find the shipped data from anywhere: typed commands (-c, standard input, the prompt)
/// look in the folders above as scripts do and say so, an install's share/utq (or UTQ_DATA)
/// is looked in last, and "no such file" says where it looked.
@Suite struct DataPathsTests {
    /// utq run in a folder, with extra environment.
    func utq(in folder: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Repo.utqBinary)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: folder)
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "UTC"
        env.removeValue(forKey: "UTQ_DATA")
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out; p.standardError = err; p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, o, e)
    }

    @Test func typedCommandsFindDataAboveAndSaySo() throws {
        let lessons = Repo.path("examples/lessons")
        let c = try utq(in: lessons, ["-c", "load datasets/market.json; count"])
        #expect(c.status == 0 && c.out.contains("516"))
        #expect(c.err.contains("datasets/market.json: not in this folder; read from \(Repo.root)"))
        let piped = try utq(in: lessons, [], stdin: "load datasets/market.json\ncount\n")
        #expect(piped.status == 0 && piped.out.contains("516"), "\(piped.err)")
    }

    @Test func shippedDataIsLookedInLastAndTheErrorSaysWhere() throws {
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("utq-elsewhere-\(getpid())")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let missing = try utq(in: elsewhere.path, ["-c", "load datasets/market.json"])
        #expect(missing.status != 0 && missing.err.contains("hint: looked in \(elsewhere.path) and the folders above it"))
        let shipped = try utq(in: elsewhere.path, ["-c", "load datasets/market.json; count"], environment: ["UTQ_DATA": Repo.root])
        #expect(shipped.status == 0 && shipped.out.contains("516"))
        #expect(shipped.err.contains("read from utq's shipped data in \(Repo.root)"))
    }
}

