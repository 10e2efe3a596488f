import Foundation
import Testing
@testable import UTQCore

/// Exercises in lessons: the markup, grading by result on the data and altered copies,
/// `utq lesson check`, and handouts without answers.
@Suite struct ExerciseTests {
    static let bikes = """
    load datasets/market.json
    ## Counting
    count by legend
    ## Exercise 1
    # Which hour had the most entries?
    #> count by hour | top 1 by count
    #? Count by hour first.
    #? Then keep the top one by count.
    #x count by hour | limit 1

    # The answer: lunchtime.
    ## Exercise 2
    # How many people were standing?
    #> where legend = "Standing" | count
    #x count
    """

    func grader(_ text: String) -> LessonGrader {
        LessonGrader(lesson: Lesson(SourceText(name: "bikes.utq", text: text)), workingDirectory: Repo.path(""), zone: .utc)
    }

    func feedback(_ v: LessonGrader.Verdict) -> String? {
        if case .rejected(let s) = v { return s }
        return nil
    }

    @Test func theMarkupIsRead() {
        let lesson = Lesson(SourceText(name: "bikes.utq", text: Self.bikes))
        #expect(lesson.exercises.map(\.title) == ["Exercise 1", "Exercise 2"])
        #expect(lesson.exercises[0].question == ["Which hour had the most entries?"])
        #expect(lesson.exercises[0].hints == ["Count by hour first.", "Then keep the top one by count."])
        #expect(lesson.exercises[0].answer.map { $0.text.trimmingCharacters(in: .whitespaces) } == ["count by hour | top 1 by count"])
        #expect(lesson.exercises[0].wrong.map { $0[0].line } == [9])
        #expect(lesson.problems.isEmpty)
        // A hint with no exercise is named.
        #expect(Lesson(SourceText(name: "x.utq", text: "#? a hint\ncount")).problems == ["x.utq: a hint (#?) outside an exercise: a hint"])
    }

    @Test func answersAreGradedByTheirResults() throws {
        let g = grader(Self.bikes)
        // Written differently from the key: accepted.
        #expect(feedback(try g.grade(0, "count by hour | sort count desc | limit 1")) == nil)
        #expect(feedback(try g.grade(0, "count by hour | top 1 by count")) == nil)
        // Wrong: what differs, not the answer.
        #expect(feedback(try g.grade(0, "count by hour")) == "your result has 5 rows; the answer's has 1")
        #expect(feedback(try g.grade(0, "count by legend | top 1 by count")) == "your result has a row the answer does not (legend = Walking, count = 451); look at legend")
        #expect(feedback(try g.grade(0, "count by hour | sort count | limit 1")) == "your result has a row the answer does not (hour = 8, count = 36); look at hour")
        // A column the answer does not have may be there; the answer's columns must be right.
        #expect(feedback(try g.grade(0, "count by hour, legend | top 1 by count")) == "your result has a row the answer does not (hour = 12, count = 132); look at count")
        // A number copied from the answer passes on the data, not on the altered copies.
        #expect(feedback(try g.grade(1, "count | let count = 21")) == "your result has a row the answer does not (count = 21); look at count (on a changed copy of the data: a right pipeline works on any data)")
        #expect(feedback(try g.grade(1, "where legend = \"Standing\" | count as n")) == nil)
        // An error is the error, and the exercise stays.
        guard case .failed(let e) = try g.grade(1, "where legnd = \"Standing\" | count") else { Issue.record("no error"); return }
        #expect(e.message.hasPrefix("unknown column \"legnd\""))
    }

    @Test func checkNamesAWrongAnswerThatIsRight() throws {
        #expect(grader(Self.bikes).check().isEmpty)
        let bad = Self.bikes.replacingOccurrences(of: "#x count by hour | limit 1", with: "#x count by hour | sort count desc | limit 1")
        #expect(grader(bad).check() == ["bikes.utq:9: Exercise 1: the wrong answer `count by hour | sort count desc | limit 1` gives the answer's result, so it is no wrong answer"])
        let broken = Self.bikes.replacingOccurrences(of: "#> where legend = \"Standing\" | count", with: "#> where legend = \"Standing\" | count by nothing")
        #expect(grader(broken).check().first?.hasPrefix("bikes.utq:14: exercise 2 of 2 (Exercise 2): its answer fails: unknown column \"nothing\"") == true)
    }

    /// Every shipped lesson passes its own check (the CLI's `utq lesson check` runs the same).
    @Test(arguments: ["01-counting", "02-time-and-charts", "03-bus-lines", "04-rides", "05-comparing"])
    func everyShippedLessonChecks(_ name: String) throws {
        let path = "examples/lessons/\(name).utq"
        let lesson = Lesson(SourceText(name: path, text: try String(contentsOfFile: Repo.path(path), encoding: .utf8)))
        #expect(lesson.exercises.count >= 3)
        for e in lesson.exercises {
            #expect(e.hints.count >= 2 && !e.wrong.isEmpty && !e.answer.isEmpty, "\(path): \(e.title)")
        }
        let problems = LessonGrader(lesson: lesson, workingDirectory: Repo.path(""), zone: .local).check()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func aHandoutHasTheQuestionsAndNoAnswers() throws {
        let path = "examples/lessons/01-counting.utq"
        let text = try String(contentsOfFile: Repo.path(path), encoding: .utf8)
        let lesson = Lesson(SourceText(name: path, text: text))
        let s = Session(workingDirectory: Repo.path(""), defaultZone: .utc)
        let handout = NotebookFormat.markdown.render(s.notebook(text, name: path, answers: false))
        for e in lesson.exercises {
            for q in e.question { #expect(handout.contains(q.components(separatedBy: "\n")[0]), "\(q)") }
            for h in e.hints { #expect(handout.contains(h)) }
            for a in e.answer { #expect(!handout.contains(a.text.trimmingCharacters(in: .whitespaces))) }
        }
        #expect(!handout.contains("Seven different notes"))
        // With answers, they run and show.
        let full = NotebookFormat.markdown.render(Session(workingDirectory: Repo.path(""), defaultZone: .utc).notebook(text, name: path))
        #expect(full.contains("where legend = \"Standing\" | count"))
    }

    /// `utq lesson check` from the shell: exit 0 on the shipped lessons, 1 naming the exercise.
    @Test func theCheckCommandExitsByWhatItFinds() throws {
        let good = try runUTQ(["lesson", "check", Repo.path("examples/lessons/01-counting.utq")])
        #expect(good.status == 0 && good.stdout.contains("3 exercises checked; 6 wrong answers rejected"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-lesson-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.utq").path
        let text = Self.bikes.replacingOccurrences(of: "datasets/market.json", with: Repo.path("datasets/market.json"))
            .replacingOccurrences(of: "#x count by hour | limit 1", with: "#x count by hour | top 1 by count")
        try text.write(toFile: bad, atomically: true, encoding: .utf8)
        let failed = try runUTQ(["lesson", "check", bad])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("bad.utq:9: Exercise 1: the wrong answer `count by hour | top 1 by count` gives the answer's result"))
    }

    /// The lesson> prompt without a terminal: feedback, hints, the next exercise, and a
    /// lesson that resumes where it stopped.
    @Test func aStudentWorksThroughALessonAndResumes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("utq-progress-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lesson = Lesson(SourceText(name: "bikes.utq", text: Self.bikes))
        func tutor() -> LessonTutor {
            var progress = LessonProgress(lessonPath: "bikes.utq", text: Self.bikes, folder: folder)
            progress.check()
            return LessonTutor(lesson: lesson, session: Session(workingDirectory: Repo.path(""), defaultZone: .utc), progress: progress)
        }
        func texts(_ outputs: [Output]) -> [String] {
            outputs.compactMap { o -> String? in
                switch o {
                case .info(let t), .text(let t), .warning(let t): return t
                default: return nil
                }
            }
        }
        let t = tutor()
        let opening = texts(t.start()).joined()
        #expect(opening.contains("Exercise 1 (exercise 1 of 2)\nWhich hour had the most entries?"))
        #expect(!opening.contains("top 1 by count") && !opening.contains("lunchtime"))
        #expect(texts(t.handle("count by hour")).last == "not yet: your result has 5 rows; the answer's has 1 (hint helps)")
        #expect(texts(t.handle("hint")) == ["hint 1 of 2: Count by hour first."])
        let right = texts(t.handle("count by hour | sort count desc | limit 1")).joined(separator: "\n")
        #expect(right.contains("right!") && right.contains("The answer: lunchtime.") && right.contains("Exercise 2 (exercise 2 of 2)"))
        #expect(t.current == 1)
        _ = t.handle("quit")
        #expect(t.finished)
        // Again: it resumes at exercise 2.
        let again = tutor()
        #expect(texts(again.start()).first?.hasPrefix("resuming at exercise 2 of 2") == true)
        #expect(again.current == 1)
        #expect(texts(again.handle("where legend = \"Standing\" | count")).contains("lesson done: 2 of 2 right"))
        // A progress file that cannot be read is set aside, and the lesson starts over.
        let path = LessonProgress(lessonPath: "bikes.utq", text: Self.bikes, folder: folder).path
        try "{not json".write(toFile: path, atomically: true, encoding: .utf8)
        let fresh = tutor()
        #expect(texts(fresh.start()).first?.contains("kept as \(path).old") == true)
        #expect(fresh.current == 0)
    }
}

/// `utq lesson FILE` from the shell, keys from a pipe: the progress and a notebook of the
/// student's session are written to the data folder.
@Suite struct LessonPromptTests {
    @Test func theLessonPromptKeepsProgressAndANotebook() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("utq-lp-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = try runUTQ(["lesson", Repo.path("examples/lessons/01-counting.utq")],
                           stdin: "count\nwhere legend = \"Standing\" | count\nquit\n", environment: ["UTQ_LESSON_PROGRESS": folder])
        #expect(r.status == 0)
        let all = r.stdout + r.stderr
        #expect(all.contains("not yet: ") && all.contains("right!") && all.contains("stopped at exercise 2 of 3"))
        let name = LessonProgress.notebookName(lessonPath: Repo.path("examples/lessons/01-counting.utq"))
        #expect(name.hasPrefix("01-counting.") && name.hasSuffix("-session.md"))
        let notebook = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
        #expect(notebook.contains("where legend = \"Standing\" | count"))
        #expect(r.stderr.contains("a notebook of your session: \(folder)/\(name)"))
        // A lesson of the same name in another course keeps a notebook of its own.
        #expect(LessonProgress.notebookName(lessonPath: "/courses/b/01-counting.utq") != name)
    }
}

/// Presenter mode: a command typed at a step runs there, `back` shows the step before again,
/// and with --interactive the prompt opens after the last step with everything loaded.
@Suite struct PresenterTests {
    @Test func aTypedCommandRunsBackWorksAndThePromptOpensAtTheEnd() throws {
        let script = "load datasets/market.json\ncount by legend\ncount by hour\n"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("utq-step-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.utq").path
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let keys: [(wait: Double, text: String)] = [
            (1.0, "\n"),                         // step 1: load
            (1.5, "where legend = \"Jogging\" | count as joggers\n"),  // typed at step 2
            (1.5, "back\n"),                     // step 1 again
            (1.0, "\n"), (1.5, "\n"), (1.0, "\n"),  // load, count by legend, count by hour
            (2.0, "count as all_entries\n"),     // at the prompt, market loaded
            (1.5, "\u{4}"),
        ]
        let r = try runUTQInTerminal(keys, arguments: ["--step", "--interactive", path], environment: ["UTQ_HISTORY": ""])
        #expect(r.screen.contains("joggers"))
        #expect(r.screen.components(separatedBy: "step 1 of 3").count >= 3, "back shows step 1 again")
        #expect(r.screen.contains("utq> count as all_entries") && r.screen.contains("all_entries"))
        #expect(r.screen.contains("516"))
    }
}
