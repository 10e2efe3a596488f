import Foundation
import Testing

/// Lesson 1 taken at a real (pseudo-)terminal as a student would: the text a section at a
/// time, a let table, a command continued on a second line, `$n`, `_`, a sort with a
/// tie-break of the student's own; each graded as the terminal shows it, and the record
/// keeps the marks.
@Suite struct LessonTerminalTests {
    @Test func lessonOneGradesWhatTheStudentSees() throws {
        let records = FileManager.default.temporaryDirectory.appendingPathComponent("utq-lesson-pty-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: records) }
        let steps: [(wait: Double, text: String)] = [
            (0.2, "\n"),                                          // the second section
            (0.2, "q\n"),                                         // the rest at once
            (0.2, "let standing = where legend = \"Standing\"\n"),
            (0.2, "standing | count\n"),
            (0.2, "where legend = \"Sitting\"\n"),
            (0.2, "$19 | count by hour\n"),
            (0.2, "where note is not null |\n"),                 // goes on at ...>
            (0.2, "count by note\n"),
            (0.2, "_ | sort count desc, note desc\n"),
            (0.5, "\u{4}"),
        ]
        let seen: [Int: String] = [0: "(Enter: more", 1: "(Enter: more", 2: "exercise 1 of 3", 3: "is kept", 4: "exercise 2 of 3",
                                   5: "[19] 9 rows", 6: "exercise 3 of 3", 7: "...> ", 8: "rows", 9: "lesson done"]
        let r = try runUTQInTerminal(steps, arguments: ["lesson", "examples/lessons/01-counting.utq"],
                                     environment: ["UTQ_LESSON_PROGRESS": records, "UTQ_STUDENT": "Ana", "NO_COLOR": "1"], seen: seen)
        let screen = r.screen.replacingOccurrences(of: "\r", with: "")
        // What followed each line typed at lesson>, up to the next prompt.
        func after(_ typed: String) -> String {
            let parts = screen.components(separatedBy: "lesson> ")
            return parts.first { $0.hasPrefix(typed) } ?? "(never typed: \(typed))"
        }
        #expect(after("let standing").contains("standing is kept"))
        #expect(after("standing | count").contains("21") && after("standing | count").contains("right!"))
        #expect(after("where legend = \"Sitting\"").contains("not yet"))
        #expect(after("$19 | count by hour").contains("right!"), "\(after("$19"))")
        let notes = after("where note is not null |")
        #expect(notes.contains("   ...> count by note") && notes.contains("7 rows") && notes.contains("not yet"), "\(notes)")
        let sorted = after("_ | sort count desc, note desc")
        #expect(sorted.contains("7 rows") && sorted.contains("right!"), "\(sorted)")
        #expect(screen.contains("lesson done: 3 of 3 right"))
        // The lesson did not pour out before the first prompt: the first pause came first.
        let firstPause = try #require(screen.range(of: "(Enter: more"))
        #expect(!screen[..<firstPause.lowerBound].contains("## Exercises"))
        let files = try FileManager.default.contentsOfDirectory(atPath: records).filter { $0.hasSuffix(".record.json") }
        #expect(files.count == 1)
        let record = try String(contentsOfFile: records + "/" + files[0], encoding: .utf8)
        #expect(record.components(separatedBy: "\"mark\" : \"right\"").count == 4, "\(record)")
        // The notebook of the session keeps what the student typed, never the answers the
        // lesson ran for them after each right one.
        let notebook = try FileManager.default.contentsOfDirectory(atPath: records).first { $0.hasSuffix("-session.md") }
        let page = try String(contentsOfFile: records + "/" + (notebook ?? "-"), encoding: .utf8)
        #expect(page.contains("standing | count"))
        #expect(!page.contains("where legend = \"Sitting\" | count by hour"))
        #expect(!page.contains("where note is not null | count by note | sort count desc\n"))
    }
}
