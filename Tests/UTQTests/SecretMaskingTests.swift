import Foundation
import Testing
@testable import UTQCore

/// A secret written in an attach line is never shown or written again: not in the error,
/// nor in the line quoted under it, nor by --echo, in notebooks, :record files, the
/// kernel's replies, the history or the history file. Every secret in these lines starts
/// with "Zq", which nothing else in them holds, so one search finds any of them.
@Suite(.serialized) struct SecretMaskingTests {
    /// Each way libpq reads a secret; the socket folder does not exist, so each attach fails
    /// at once, with libpq's reason.
    static let lines = [
        "attach postgresql://ana:Zq1secret@/m?host=/nonexistent-utq as db",
        "attach postgresql:///m?host=/nonexistent-utq&password=Zq2secret as db",
        "attach postgresql:///m?host=/nonexistent-utq&sslpassword=Zq3secret&sslmode=disable as db",
        // libpq decodes the keyword too.
        "attach postgresql:///m?host=/nonexistent-utq&pass%77ord=Zq4secret as db",
        "attach \"host=/nonexistent-utq dbname=m password='Zq5 secret' sslpassword=Zq6secret\" as db",
        // libpq quotes a value it cannot decode in its message.
        "attach postgresql://ana:Zq7%zzsecret@/m?host=/nonexistent-utq as db",
        "attach postgresql:///m?host=/nonexistent-utq&oauth_client_secret=Zq8secret as db",
        "attach postgres://:Zq9secret@localhost:1/m?connect_timeout=1 as db",
    ]

    static var script: String { lines.joined(separator: "\n") + "\n" }

    func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-secrets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func expectNoSecret(_ text: String, _ channel: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let leaks = text.split(whereSeparator: \.isNewline).filter { $0.contains("Zq") }
        #expect(leaks.isEmpty, "\(channel) shows a secret:\n\(leaks.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    @Test func aScriptRunWithEchoShowsNoSecret() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/attach.utq"
        try Self.script.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try runUTQ([path, "--echo", "--keep-going"])
        #expect(r.status == 1)
        // Each line failed, and said why under the line it quoted.
        #expect(r.stderr.components(separatedBy: "error:").count == Self.lines.count + 1, "\(r.stderr)")
        #expect(r.stdout.contains("utq> attach postgresql://ana:…@/m"), "\(r.stdout)")
        expectNoSecret(r.stdout, "--echo")
        expectNoSecret(r.stderr, "the rendered errors")
        for line in Self.lines {
            let one = try runUTQ(["-c", line])
            #expect(one.status == 1)
            expectNoSecret(one.stdout + one.stderr, "utq -c")
        }
    }

    @Test func notebooksAndRecordingsShowNoSecret() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/attach.utq"
        try Self.script.write(toFile: path, atomically: true, encoding: .utf8)
        for kind in ["md", "html", "ipynb"] {
            let page = dir + "/notebook." + kind
            let r = try runUTQ(["notebook", path, "-o", page])
            #expect(r.status == 1, "\(r.stderr)")
            let written = try String(contentsOfFile: page, encoding: .utf8)
            #expect(written.contains("nonexistent-utq"), "\(written)")
            expectNoSecret(written, "the .\(kind) notebook")
            expectNoSecret(r.stdout + r.stderr, "utq notebook")

            let recording = dir + "/recording." + kind
            let recorded = dir + "/record-\(kind).utq"
            try (":record \(recording)\n" + Self.script).write(toFile: recorded, atomically: true, encoding: .utf8)
            let rr = try runUTQ([recorded, "--keep-going", "--echo"])
            #expect(rr.status == 1)
            let kept = try String(contentsOfFile: recording, encoding: .utf8)
            #expect(kept.contains("nonexistent-utq"), "\(kept)")
            expectNoSecret(kept, "the :record .\(kind) file")
            expectNoSecret(rr.stdout + rr.stderr, "a recorded run")
        }
    }

    @Test func theKernelsRepliesShowNoSecret() throws {
        var requests = ""
        for (k, line) in Self.lines.enumerated() {
            let data = try JSONSerialization.data(withJSONObject: ["id": k, "op": "execute", "code": line])
            requests += String(decoding: data, as: UTF8.self) + "\n"
        }
        // A request that is no JSON is quoted back in the reply.
        requests += "attach postgresql://ana:Zq0secret@/m?host=/x as db\n"
        let r = try runUTQ(["kernel"], stdin: requests)
        #expect(r.stdout.contains("\"traceback\""), "\(r.stdout)")
        // JSON writes / as \/.
        expectNoSecret(r.stdout.replacingOccurrences(of: "\\/", with: "/"), "the kernel's replies")
        expectNoSecret(r.stderr, "the kernel's standard error")
    }

    /// A database that takes any URI, so the attach lines succeed and reach the history.
    struct AnyDatabase: DatabaseConnector {
        func attach(uri: String, name: String, zone: ZoneRules, cancel: CancellationFlag?) throws -> any AttachedDatabase {
            CountingDatabase(name: name, tables: [])
        }
    }

    @Test func theHistoryAndSavedScriptsShowNoSecret() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = makeSession()
        s.databaseConnector = AnyDatabase()
        var shown = ""
        s.run(Self.script + "history\n:save \(dir)/saved.utq\n", name: "<test>") { _, outcome in
            if let e = outcome.error { shown += DiagnosticRenderer.render(e, showLocation: true) }
            for output in outcome.outputs { shown += OutputText.text(output, settings: s.settings) }
        }
        #expect(s.history.count >= Self.lines.count, "\(s.history)")
        expectNoSecret(s.history.joined(separator: "\n"), "the history")
        expectNoSecret(shown, "the outputs")
        let saved = try String(contentsOfFile: dir + "/saved.utq", encoding: .utf8)
        #expect(saved.contains("attach postgresql://ana:…@/m"), "\(saved)")
        expectNoSecret(saved, "the saved script")
    }

    @Test func theHistoryFileOfThePromptKeepsNoSecret() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let history = dir + "/history"
        let typed = Self.lines.prefix(3).map { (0.3, $0 + "\n") } + [(0.5, "\u{4}")]
        let r = try runUTQInTerminal(typed, environment: ["UTQ_HISTORY": history])
        #expect(r.status == 0, "\(r.screen.suffix(400))")
        let kept = try String(contentsOfFile: history, encoding: .utf8)
        #expect(kept.contains("nonexistent-utq"), "\(kept)")
        expectNoSecret(kept, "the history file")
        // The prompt shows what was typed as it was typed; the errors under it, and the line
        // each quotes (indented), are masked.
        let errors = r.screen.split(whereSeparator: \.isNewline).filter { $0.contains("error:") || $0.hasPrefix("  ") }.joined(separator: "\n")
        #expect(errors.contains("nonexistent-utq"), "\(r.screen)")
        expectNoSecret(errors, "the prompt's errors")
    }

    @Test func everyFormLibpqReadsASecretInIsMasked() {
        let cases = [
            ("postgresql://ana:s3cr:et@db.example:5432/m", "postgresql://ana:…@db.example:5432/m"),
            ("attach postgresql:///m?host=/tmp&password=x&user=ana as db", "attach postgresql:///m?host=/tmp&password=…&user=ana as db"),
            ("attach postgresql:///m?sslpassword=k3y&PASSWORD=x", "attach postgresql:///m?sslpassword=…&PASSWORD=…"),
            ("postgresql:///m?pass%77ord=x&oauth_client_secret=y", "postgresql:///m?pass%77ord=…&oauth_client_secret=…"),
            ("host=db password='a b\\' c' user=ana", "host=db password=… user=ana"),
            ("attach \"host=db password = x sslpassword=y\" as db", "attach \"host=db password = … sslpassword=…\" as db"),
            ("postgresql:///m?host=/tmp/pg", "postgresql:///m?host=/tmp/pg"),
            // Not a connection string: a column called password compared with a text.
            ("where password = \"x\" | count", "where password = \"x\" | count"),
            ("mail ana@example.org; x == y", "mail ana@example.org; x == y"),
        ]
        for (line, shown) in cases {
            #expect(SecretText.masked(line) == shown)
            // A message quotes a masked URI and is masked again when shown: nothing changes.
            #expect(SecretText.masked(shown + ": reason") == shown + ": reason")
        }
        // libpq quotes a value it cannot decode as written: it goes from the message too.
        let line = "attach postgresql://ana:se%zzcret@/m as db"
        #expect(SecretText.masked("invalid percent-encoded token: \"se%zzcret\"", also: SecretText.values(in: line)) == "invalid percent-encoded token: \"…\"")
    }

    @Test func theCaretStaysUnderWhatItPointsAtPastAMaskedSecret() {
        let s = makeSession()
        let d = s.failure("attach postgresql://ana:longsecret@/m as db wat")
        let text = d.map { DiagnosticRenderer.render($0, showLocation: false) } ?? ""
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count >= 3, "\(text)")
        #expect(lines[1] == "  attach postgresql://ana:…@/m as db wat", "\(text)")
        let caret = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
        #expect(caret == lines[1].distance(from: lines[1].startIndex, to: lines[1].range(of: "wat")!.lowerBound), "\(text)")
    }
}
