import Foundation
import Testing

/// The Jupyter kernel through Jupyter's own client (Tests/Support/jupyter/test_kernel.py):
/// jupyter_kernel_test's checks, an interrupt during a long load, kernels that die, and every
/// lesson as .ipynb executed by nbclient. The Python packages go into a virtual environment
/// of the tests' own in .build, made from PyPI the first time.
@Suite(.serialized) struct JupyterKernelTests {
    static let modules = ["ipykernel", "jupyter_client", "nbclient", "nbformat", "jupyter_kernel_test"]
    static let venv = Repo.path(".build/jupyter-venv")

    static func python() throws -> String {
        let python = venv + "/bin/python"
        let check = "import " + modules.joined(separator: ", ")
        if FileManager.default.isExecutableFile(atPath: python), try run(python, ["-c", check]).status == 0 { return python }
        let made = try run("/usr/bin/env", ["python3", "-m", "venv", venv])
        #expect(made.status == 0, "python3 -m venv: \(made.output.suffix(600))")
        let pip = try run(python, ["-m", "pip", "install", "-q", "--disable-pip-version-check"] + modules.map { $0.replacingOccurrences(of: "_", with: "-") })
        #expect(pip.status == 0, "pip install: \(pip.output.suffix(1200))")
        return python
    }

    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theKernelPassesJupytersChecks() throws {
        let python = try Self.python()
        // The lessons as notebooks, as a teacher would write them.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("utq-lessons-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lessons = try FileManager.default.contentsOfDirectory(atPath: Repo.path("examples/lessons")).filter { $0.hasSuffix(".utq") }
        #expect(lessons.count >= 5)
        for lesson in lessons {
            let r = try runUTQ(["notebook", "examples/lessons/" + lesson, "-o", folder + "/" + lesson.replacingOccurrences(of: ".utq", with: ".ipynb")])
            #expect(r.status == 0, "\(lesson): \(r.stderr)")
        }
        // A handout of lesson 1 for the check cells, made where a teacher would make it.
        let handout = folder + "/handout/01-counting.ipynb"
        try FileManager.default.createDirectory(atPath: folder + "/handout", withIntermediateDirectories: true)
        let made = try runUTQ(["notebook", "examples/lessons/01-counting.utq", "--no-answers", "-o", handout])
        #expect(made.status == 0, "\(made.stderr)")
        let result = try Self.run(python, [Repo.path("Tests/Support/jupyter/test_kernel.py")],
                                  environment: ["UTQ_BINARY": Repo.utqBinary, "UTQ_LESSON_NOTEBOOKS": folder, "UTQ_HANDOUT": handout])
        let summary = result.output.split(separator: "\n").filter { $0.hasPrefix("Ran ") || $0.hasPrefix("OK") || $0.hasPrefix("FAILED") }
        #expect(result.status == 0, "\(result.output.suffix(4000))")
        // Every check ran: jupyter_kernel_test's and utq's own, none skipped but the two utq has no use for.
        #expect(summary.contains { $0.hasPrefix("OK (skipped=2)") }, "\(summary)")
        let ran = summary.first { $0.hasPrefix("Ran ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        #expect(ran >= 21, "\(summary)")
    }
}
