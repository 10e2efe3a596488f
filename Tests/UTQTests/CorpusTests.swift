import Foundation
import Testing
@testable import UTQCore

/// One corpus through every stage: each script in Tests/Corpus is lexed, parsed, bound and
/// run command by command, and what each stage gives is compared with its snapshot
/// (`NAME.tokens`, `.syntax`, `.plan`, `.out`). `UTQ_RECORD=1` writes the snapshots anew.
@Suite struct CorpusTests {
    static let record = ProcessInfo.processInfo.environment["UTQ_RECORD"] == "1"

    static func scripts() throws -> [String] {
        try Repo.files(in: "Tests/Corpus", ending: ".utq").map { String($0.dropLast(4)) }
    }

    @Test(arguments: try scripts())
    func everyStageMatchesItsSnapshot(_ name: String) throws {
        let path = "Tests/Corpus/\(name).utq"
        let text = try String(contentsOfFile: Repo.path(path), encoding: .utf8)
        let session = makeSession()
        var tokens = "", syntax = "", plans = "", output = ""
        for block in LiterateScript.blocks(in: SourceText(name: path, text: text)) {
            guard case .command(let command) = block else { continue }
            let heading = "# \(command.line): \(command.text)\n"
            tokens += heading + command.tokens.map(\.snapshot).joined(separator: " ") + "\n"
            syntax += heading
            plans += heading
            do {
                let statement = try Session.parse(command)
                syntax += SyntaxPrinter.text(statement) + "\n"
                plans += plan(of: statement, in: session, source: command.source)
            } catch let d as Diagnostic {
                syntax += "error \(d.kind == .message ? "" : d.kind.name + ": ")\(d.message)\n"
                plans += "(not parsed)\n"
            }
            // What runs is what placement said, step for step.
            if case .query(let p)? = try? Session.parse(command) {
                let interpreter = Interpreter(session: session, source: command.source)
                if let query = try? interpreter.bind(p) {
                    let trace = PlacementTrace()
                    if (try? interpreter.rows(of: query.plan, trace: trace)) != nil {
                        #expect(trace.text == (try session.place(query.plan)).placementText, "\(path):\(command.line): ran otherwise than placed")
                    }
                }
            }
            let outcome = session.execute(command)
            output += OutputText.transcript(command, outcome, settings: session.settings)
        }
        for (ext, actual) in [("tokens", tokens), ("syntax", syntax), ("plan", plans), ("out", output)] {
            let file = Repo.path("Tests/Corpus/\(name).\(ext)")
            if Self.record {
                try actual.write(toFile: file, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try? String(contentsOfFile: file, encoding: .utf8)
            #expect(expected == actual, "Tests/Corpus/\(name).\(ext) differs; UTQ_RECORD=1 swift test --filter CorpusTests re-records it")
        }
    }

    /// What the binder makes of a statement, against the session as it is before it runs.
    func plan(of statement: Statement, in session: Session, source: SourceText) -> String {
        let pipeline: Pipeline
        switch statement {
        case .query(let p), .assign(_, let p, _): pipeline = p
        case .command(let stage):
            guard let explained = (stage.syntax as? ExplainVerb.Syntax)?.pipeline else { return "command \(stage.verb)\n" }
            pipeline = explained
        case .session(let command, _, _): return "session :\(command.name)\n"
        }
        do {
            return try session.explain(pipeline, in: source)
        } catch let d as Diagnostic {
            return "error \(d.kind == .message ? "" : d.kind.name + ": ")\(d.message)\n"
        } catch {
            return "error \(error)\n"
        }
    }
}
