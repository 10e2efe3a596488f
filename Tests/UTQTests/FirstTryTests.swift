import Foundation
import Testing
@testable import UTQCore

/// docs/language.md's table of first tries: each line a person typed first gives the answer
/// or a hint that names the form that works. The table is the test's input, so the docs
/// cannot promise what utq does not say.
@Suite struct FirstTryTests {
    struct Row: CustomStringConvertible {
        var typed: String
        var says: String
        var write: String
        var description: String { typed }
    }

    static let rows: [Row] = {
        let text = (try? String(contentsOfFile: Repo.path("docs/language.md"), encoding: .utf8)) ?? ""
        guard let start = text.range(of: "<!-- utq:first-tries -->"), let end = text.range(of: "<!-- /utq:first-tries -->") else { return [] }
        func cell(_ s: Substring) -> String {
            var c = s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\\|", with: "|")
            if c.hasPrefix("`") && c.hasSuffix("`") && c.count >= 2 { c = String(c.dropFirst().dropLast()) }
            return c
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `") else { return nil }
            // Cells split at | not escaped as \|.
            let parts = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|", omittingEmptySubsequences: false)
                .map { Substring($0.replacingOccurrences(of: "\u{1}", with: "\\|")) }
            guard parts.count >= 5 else { return nil }
            return Row(typed: cell(parts[1]), says: cell(parts[2]), write: cell(parts[3]))
        }
    }()

    @Test func theTableHasItsLines() {
        #expect(Self.rows.count >= 10)
    }

    @Test(arguments: rows) func eachFirstTryAnswersOrNamesTheWorkingForm(_ row: Row) throws {
        let s = makeSession()
        s.run("load datasets/market-weather.csv as weather; load datasets/gtfs/demo-transit.zip as feed; load datasets/market.json", name: "<setup>") { _, o in
            #expect(o.error == nil)
        }
        var said = "", failed = false
        s.run(row.typed, name: "<test>") { _, o in
            if let e = o.error { failed = true; said += e.message + "\n" + (e.hint ?? "") + "\n" }
            for output in o.outputs {
                switch output {
                case .info(let n), .warning(let n): said += n + "\n"
                case .text(let t): said += t + "\n"
                default: break
                }
            }
        }
        if row.says.hasPrefix("(") {
            // The answer itself: no error, and what it shows names the form.
            #expect(!failed, "\(row.typed) failed: \(said)")
        } else {
            let words = row.says.replacingOccurrences(of: " …", with: "").components(separatedBy: ";")[0]
            #expect(said.contains(words), "\(row.typed) said: \(said)")
        }
        if !row.says.hasPrefix("(the answer") {
            #expect(said.contains(row.write), "\(row.typed) does not name \(row.write): \(said)")
        }
    }
}
