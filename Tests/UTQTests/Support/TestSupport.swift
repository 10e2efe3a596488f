import Foundation
import Testing
@testable import UTQCore

/// Paths inside the repository, found from this file's location.
enum Repo {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Support, UTQTests, Tests, root
        return url.path
    }()

    static func path(_ relative: String) -> String { (root as NSString).appendingPathComponent(relative) }

    /// The files of a folder of the repository (and its subfolders, with `recursive`) whose
    /// names end in `suffix`, sorted; an error when the folder cannot be read or holds none,
    /// so a list of test cases is never empty by mistake (a wrong path would pass green).
    static func files(in folder: String, ending suffix: String, recursive: Bool = false) throws -> [String] {
        let full = path(folder)
        let names = recursive ? try FileManager.default.subpathsOfDirectory(atPath: full) : try FileManager.default.contentsOfDirectory(atPath: full)
        let found = names.filter { $0.hasSuffix(suffix) }.sorted()
        guard !found.isEmpty else { throw TestError(description: "\(folder) holds no \(suffix) files") }
        return found
    }

    /// The utq executable built next to the test bundle.
    static var utqBinary: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("utq").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for candidate in [".build/debug/utq", ".build/x86_64-unknown-linux-gnu/debug/utq"] {
            let p = path(candidate)
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return beside
    }
}

/// A session as the tests use it: the repository as working directory, UTC, fixed width.
func makeSession(zone: ZoneRules = .utc) -> Session {
    let s = Session(workingDirectory: Repo.root, defaultZone: zone)
    s.settings.render = RenderOptions(width: 100, maxRows: 40, charset: .unicode, color: false)
    return s
}

struct TestError: Error, CustomStringConvertible {
    let description: String
}

extension Session {
    /// Runs text and returns the last table, failing on the first error.
    @discardableResult
    func table(_ text: String) throws -> Table {
        var last: Table? = nil
        var failure: Diagnostic? = nil
        run(text, name: "<test>") { _, outcome in
            if let e = outcome.error { failure = e }
            for case .table(let r) in outcome.outputs { last = r.table }
        }
        if let failure { throw TestError(description: DiagnosticRenderer.render(failure, showLocation: true)) }
        guard let last else { throw TestError(description: "no table from: \(text)") }
        return last
    }

    /// Runs text and returns the last table, handing each note (an info line) to `info`.
    func table(_ text: String, info: (String) -> Void) throws -> Table {
        var notes: [String] = []
        var last: Table? = nil
        var failure: Diagnostic? = nil
        run(text, name: "<test>") { _, outcome in
            if let e = outcome.error { failure = e }
            for output in outcome.outputs {
                if case .table(let r) = output { last = r.table }
                if case .info(let n) = output { notes.append(n) }
            }
        }
        notes.forEach(info)
        if let failure { throw TestError(description: DiagnosticRenderer.render(failure, showLocation: true)) }
        guard let last else { throw TestError(description: "no table from: \(text)") }
        return last
    }

    /// The plan the binder makes of a query, nothing run.
    func plan(_ text: String) throws -> LogicalPlan {
        for block in LiterateScript.blocks(in: SourceText(name: "<test>", text: text)) {
            guard case .command(let command) = block, case .query(let p) = try Session.parse(command) else { continue }
            return try Binder(context: workspace.bindContext).bind(p).plan
        }
        throw TestError(description: "no query in: \(text)")
    }

    /// Runs text that must fail, and returns the error.
    func failure(_ text: String) -> Diagnostic? {
        var failure: Diagnostic? = nil
        run(text, name: "<test>") { _, outcome in if let e = outcome.error { failure = e } }
        return failure
    }

    /// Everything a script prints, as `utq --echo` shows it.
    func transcript(_ text: String, name: String) -> String {
        var out = ""
        run(text, name: name, keepGoing: true) { command, outcome in
            out += OutputText.transcript(command, outcome, settings: settings)
        }
        return out
    }
}

extension Table {
    /// A column's values as text (nulls as "null"), for compact assertions.
    func strings(_ column: String) -> [String] {
        guard let c = self.column(column) else { return [] }
        return (0..<rowCount).map { i in
            switch c.value(at: i) {
            case .null: return "null"
            case .string(let s): return s
            case .int(let v): return String(v)
            case .double(let v): return NumberText.double(v)
            case .bool(let b): return b ? "true" : "false"
            case .timestamp(let t): return TimeText.iso(t, zone: zone, unit: c.unit)
            case .duration(let d): return TimeText.duration(d, unit: .clock)
            case .geometry(let g): return WKT.text(g)
            }
        }
    }

    /// Rows as dictionaries of text, keyed by column name.
    func row(_ i: Int) -> [String: String] {
        var out: [String: String] = [:]
        for c in columns { out[c.name] = strings(c.name)[i] }
        return out
    }
}

/// Writes a temporary file and returns its path.
func temporaryFile(_ name: String, _ contents: String) throws -> String {
    try temporaryFile(name, Array(contents.utf8))
}

func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-tests-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent(name).path
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
}

/// Runs the utq binary and returns its exit status, standard output and standard error, and
/// whether it ended by exiting (rather than by a signal: a crash). `user`: run as that user
/// (through runuser, when the tests run as root).
func runUTQ(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], user: String? = nil) throws -> (status: Int32, stdout: String, stderr: String, exited: Bool) {
    let process = Process()
    if let user {
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", user, "--", Repo.utqBinary] + arguments
    } else {
        process.executableURL = URL(fileURLWithPath: Repo.utqBinary)
        process.arguments = arguments
    }
    process.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
    var env = ProcessInfo.processInfo.environment
    env["TZ"] = "UTC"
    env["COLUMNS"] = "100"
    env["UTQ_HISTORY"] = ""
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin.data(using: .utf8)!) }
    try input.fileHandleForWriting.close()
    // Read both pipes fully before waiting, so a large output cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var outData = Data(), errData = Data()
    group.enter()
    DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter()
    DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.wait()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self),
            process.terminationReason == .exit)
}

/// Time limits in tests grow under the sanitizers, which slow code several times over
/// (`make sanitize` sets UTQ_TIME_SCALE).
enum TestTiming {
    /// How much longer than on a quiet machine a bound may take: UTQ_TIME_SCALE, else 2 in CI,
    /// where every suite runs at once on a few shared cores.
    static let scale: Double = ProcessInfo.processInfo.environment["UTQ_TIME_SCALE"].flatMap(Double.init)
        ?? (ProcessInfo.processInfo.environment["CI"] == "true" ? 2 : 1)
}

/// Runs utq in a pseudo-terminal (Tests/Support/pty_run.py), typing each step's text after
/// its wait, as a person at the prompt would. Returns the exit status and what the terminal
/// showed.
/// `seen[k]`: text the terminal must show before step k types (pty_run.py waits for it).
func runUTQInTerminal(_ steps: [(wait: Double, text: String)], arguments: [String] = [],
                      environment: [String: String] = [:], program: [String]? = nil, seen: [Int: String] = [:]) throws -> (status: Int32, screen: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    func quoted(_ s: String) -> String { String(String(data: try! JSONSerialization.data(withJSONObject: [s]), encoding: .utf8)!.dropFirst().dropLast()) }
    let json = "[" + steps.enumerated().map { k, step in
        "[\(step.wait), \(quoted(step.text))" + (seen[k].map { ", " + quoted($0) } ?? "") + "]"
    }.joined(separator: ",") + "]"
    process.arguments = ["python3", Repo.path("Tests/Support/pty_run.py"), json] + (program ?? [Repo.utqBinary] + arguments)
    process.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
    var env = ProcessInfo.processInfo.environment
    env["TZ"] = "UTC"
    env["COLUMNS"] = "100"
    env["TERM"] = "xterm"
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
