import Foundation
import Testing
@testable import UTQCore

/// The grader sees the student's session: `_`, `$n` and their own `let` tables mean at
/// `lesson>` what they mean at `utq>`, the table graded is the one shown, ties of the
/// answer's sort may come in any order, columns beside the answer's are allowed (unless
/// `#= exact`), and `#+` lines are other right answers.
@Suite struct GraderSessionTests {
    static let notes = """
    load datasets/market.json
    ## Notes
    count by legend
    ## Exercise 1
    # Which notes were written, most written first?
    #> where note is not null | count by note | sort count desc
    ## Exercise 2
    # How many people were standing?
    #> where legend = "Standing" | count
    #+ count by legend | where legend = "Standing" | select count
    ## Exercise 3
    # How many entries has each legend? Just the legend and its count.
    #> count by legend
    #= exact
    """

    func tutor(_ text: String = notes) -> LessonTutor {
        LessonTutor(lesson: Lesson(SourceText(name: "notes.utq", text: text)),
                    session: Session(workingDirectory: Repo.path(""), defaultZone: .utc), progress: nil)
    }

    /// What the tutor said to a line, as text.
    func say(_ t: LessonTutor, _ line: String) -> String {
        t.handle(line).map { output -> String in
            switch output {
            case .info(let s), .warning(let s), .text(let s): return s
            case .table(let r): return "[\(r.number ?? 0)] \(r.table.rowCount) rows"
            default: return ""
            }
        }.joined(separator: "\n")
    }

    @Test func theLastResultAndNumberedResultsAreTheStudents() {
        let t = tutor()
        _ = t.start()
        // The rows first, then `_` sorted: graded as the terminal shows it.
        let first = say(t, "where note is not null | count by note")
        #expect(first.contains("not yet"))
        #expect(say(t, "_ | sort count desc").contains("right!"))
        #expect(t.current == 1)
        // `$n` of a result on screen.
        let shown = say(t, "count by legend")
        let number = shown.split(separator: "\n").first { $0.hasPrefix("[") }.map { String($0.dropFirst().prefix { $0 != "]" }) } ?? "?"
        let graded = say(t, "$\(number) | where legend = \"Standing\" | select count")
        #expect(graded.contains("right!"), "\(graded)")
    }

    @Test func aKeptTableIsNoAnswerAndIsThereAfter() {
        let t = tutor()
        _ = t.start()
        _ = say(t, "skip")
        let kept = say(t, "let standing = where legend = \"Standing\"")
        #expect(kept.contains("standing is kept") && !kept.contains("not yet") && !kept.contains("right"))
        #expect(say(t, "standing | count").contains("right!"))
    }

    @Test func tiesOfTheAnswersSortComeInAnyOrder() throws {
        let g = LessonGrader(lesson: Lesson(SourceText(name: "notes.utq", text: Self.notes)), workingDirectory: Repo.path(""), zone: .utc)
        func verdict(_ text: String) throws -> String {
            switch try g.grade(0, text) {
            case .accepted: return "right"
            case .rejected(let why): return why
            case .failed(let e): return e.message
            }
        }
        // Notes that tie on their count may come in any order; the counts must fall.
        #expect(try verdict("where note is not null | count by note | sort count desc, note desc") == "right")
        #expect(try verdict("where note is not null | count by note | sort count, note").hasPrefix("the rows are right, but not in the order asked for (by count)"))
    }

    @Test func otherAnswersAndExactColumns() throws {
        let g = LessonGrader(lesson: Lesson(SourceText(name: "notes.utq", text: Self.notes)), workingDirectory: Repo.path(""), zone: .utc)
        func right(_ k: Int, _ text: String) throws -> Bool { if case .accepted = try g.grade(k, text) { return true } else { return false } }
        // The answer, the #+ answer, and the count beside its key.
        #expect(try right(1, "where legend = \"Standing\" | count"))
        #expect(try right(1, "count by legend | where legend = \"Standing\" | select count"))
        #expect(try right(1, "count by legend | where legend = \"Standing\""))
        #expect(try !right(1, "count by legend | where legend = \"Sitting\""))
        // #= exact: no column beside the answer's.
        #expect(try right(2, "count by legend"))
        guard case .rejected(let why) = try g.grade(2, "count, avg x by legend") else { Issue.record("exact let an extra column by"); return }
        #expect(why.contains("answer's columns only") && why.contains("avg_x"))
        #expect(g.check().isEmpty, "\(g.check())")
        #expect(Lesson(SourceText(name: "n.utq", text: "## Exercise\n#> count\n#= strict")).problems.first?.contains("#= strict is no rule") == true)
    }
}
