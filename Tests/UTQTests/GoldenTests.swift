import Foundation
import Testing
@testable import UTQCore

/// Scripts with expected transcripts: every `.utq` under Tests/Golden/cases and under
/// examples/ runs, and its transcript must equal the `.out` file kept beside it (for
/// examples: under Tests/Golden/examples). `UTQ_RECORD=1 swift test` re-records them,
/// so a change of output shows up as a diff a reviewer can read.
@Suite struct GoldenTests {
    static let record = ProcessInfo.processInfo.environment["UTQ_RECORD"] == "1"

    struct Case: CustomTestStringConvertible, Sendable {
        let script: String
        let expected: String
        var testDescription: String { script }
    }

    static func cases() throws -> [Case] {
        var out: [Case] = []
        for name in try Repo.files(in: "Tests/Golden/cases", ending: ".utq", recursive: true) {
            out.append(Case(script: "Tests/Golden/cases/" + name, expected: "Tests/Golden/cases/" + String(name.dropLast(4)) + ".out"))
        }
        for name in try Repo.files(in: "examples", ending: ".utq", recursive: true) {
            out.append(Case(script: "examples/" + name, expected: "Tests/Golden/examples/" + String(name.dropLast(4)) + ".out"))
        }
        return out.sorted { $0.script < $1.script }
    }

    @Test(arguments: try cases())
    func transcriptMatches(_ c: Case) throws {
        let text = try String(contentsOfFile: Repo.path(c.script), encoding: .utf8)
        let session = makeSession()
        let actual = session.transcript(text, name: c.script)
        let expectedPath = Repo.path(c.expected)
        if GoldenTests.record {
            try FileManager.default.createDirectory(atPath: (expectedPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try actual.write(toFile: expectedPath, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: expectedPath, encoding: .utf8) else {
            Issue.record("no expected output \(c.expected); run UTQ_RECORD=1 swift test to record it")
            return
        }
        if actual != expected {
            Issue.record("\(c.script) differs from \(c.expected):\n\(firstDifference(expected, actual))")
        }
    }

    /// The first differing line, with a little context.
    func firstDifference(_ a: String, _ b: String) -> String {
        let x = a.components(separatedBy: "\n"), y = b.components(separatedBy: "\n")
        for i in 0..<max(x.count, y.count) {
            let l = i < x.count ? x[i] : "<end>", r = i < y.count ? y[i] : "<end>"
            if l != r { return "line \(i + 1)\n  expected: \(l)\n  actual:   \(r)" }
        }
        return "(same lines, different endings)"
    }
}
