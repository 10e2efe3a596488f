import Foundation
import Testing
@testable import UTQCore

/// The course in examples/lessons: every lesson runs without an error (the golden test
/// keeps its exact output), reads as a lesson, and makes a notebook with every command.
@Suite struct LessonTests {
    static func lessons() throws -> [String] {
        try Repo.files(in: "examples/lessons", ending: ".utq").map { "examples/lessons/" + $0 }
    }

    @Test func thereAreFiveLessonsInOrder() throws {
        #expect(try Self.lessons().map { ($0 as NSString).lastPathComponent } == [
            "01-counting.utq", "02-time-and-charts.utq", "03-bus-lines.utq", "04-rides.utq", "05-comparing.utq",
        ])
    }

    @Test(arguments: try lessons())
    func aLessonRunsWithoutErrorsAndReadsAsALesson(_ path: String) throws {
        let text = try String(contentsOfFile: Repo.path(path), encoding: .utf8)
        let blocks = LiterateScript.blocks(in: SourceText(name: path, text: text))
        guard case .heading(_, let title) = blocks.first else { Issue.record("\(path) does not start with its title"); return }
        #expect(title.hasPrefix("Lesson "))
        let headings = blocks.compactMap { if case .heading(_, let t) = $0 { return t }; return nil }
        #expect(headings.contains("Exercises"))
        #expect(headings.filter { $0.hasPrefix("Exercise ") }.count >= 3, "\(path) needs three exercises")
        let prose = blocks.filter { if case .prose = $0 { return true }; return false }
        #expect(prose.count >= 8, "\(path) should explain itself")

        let session = makeSession()
        let notebook = session.notebook(text, name: path)
        #expect(notebook.errorCount == 0)
        for entry in notebook.entries {
            if case .cell(let c) = entry, let e = c.error {
                Issue.record("\(path): \(DiagnosticRenderer.render(e, showLocation: true))")
            }
        }
        // Every exercise has an answer that runs: a command before the next heading.
        var open: String? = nil
        for block in blocks {
            switch block {
            case .heading(_, let t):
                if let o = open { Issue.record("\(path): \(o) has no answer") }
                open = t.hasPrefix("Exercise ") ? t : nil
            case .command, .answer: open = nil
            case .prose, .hint, .wrong, .alternative, .rule: break
            }
        }
        #expect(open == nil, "\(path): the last exercise has no answer")
        let charts = notebook.entries.filter { entry in
            if case .cell(let c) = entry { return c.outputs.contains { if case .chart = $0 { return true }; return false } }
            return false
        }
        #expect(!charts.isEmpty, "\(path) draws no chart")
    }

    @Test func theFirstLessonsNotebookHasEveryCommandAndItsOutput() throws {
        let path = "examples/lessons/01-counting.utq"
        let text = try String(contentsOfFile: Repo.path(path), encoding: .utf8)
        let md = NotebookFormat.markdown.render(makeSession().notebook(text, name: path))
        for command in Script.commands(in: SourceText(name: path, text: text)) {
            #expect(md.contains("```utq\n" + command.text + "\n```\n"), "\(command.text)")
        }
        #expect(md.hasPrefix("# Lesson 1 — Loading and counting: the market square\n"))
        #expect(md.contains("## Exercises\n"))
        #expect(md.contains("| Walking | 451 |"))
        #expect(md.contains("bar chart of 7 rows"))
        // The done-when of the issue: the commonest legend, by _ and by number.
        #expect(md.contains("```utq\n_ | sort count desc | limit 1\n```\n\n| legend | count |\n|---|---:|\n| Walking | 451 |\n"))
    }
}
