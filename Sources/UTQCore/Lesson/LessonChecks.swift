import Foundation

/// A lesson checked from a notebook. `:lesson FILE` (a lesson notebook's first cell) makes
/// the session keep what it runs; a cell whose first line is `check N` runs its other lines
/// and grades the last table it shows against exercise N, as `lesson>` grades a line: on
/// the data and on changed copies of it, with the student's whole session replayed there.
/// Each check goes into the student's record, as a run at the terminal does.
public final class LessonChecks {
    public let lesson: Lesson
    let path: String
    let grader: LessonGrader
    let recorder: LessonRecorder
    /// Every command the session ran without an error since `:lesson`, in order.
    var transcript: [ScriptCommand] = []

    init(lesson: Lesson, path: String, text: String, session: Session, student: String? = nil,
         folder: String = LessonProgress.folder()) {
        self.lesson = lesson
        self.path = path
        grader = LessonGrader(lesson: lesson, workingDirectory: session.workingDirectory, zone: session.defaultZone)
        recorder = LessonRecorder(lesson: lesson, lessonPath: path, text: text, student: LessonRecord.student(student),
                                  folder: folder)
    }

    /// The exercise a `check` line names: `check 3`, `check exercise 3`.
    static func exercise(in line: Substring) -> Int? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.first?.lowercased() == "check" else { return nil }
        let rest = words.dropFirst().filter { $0.lowercased() != "exercise" }
        return rest.count == 1 ? Int(rest[rest.startIndex]) : nil
    }

    /// Whether a cell is a check: its first line that is not blank begins with the word `check`.
    public static func isCheck(_ code: String) -> Bool {
        guard let first = code.split(separator: "\n").first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return false }
        let word = first.drop(while: { $0 == " " || $0 == "\t" }).prefix(while: { !$0.isWhitespace })
        return word.lowercased() == "check"
    }
}

extension Session {
    /// `:lesson FILE`: the lesson the `check` cells of a notebook are graded against.
    func startLessonChecks(_ argument: String?, span: SourceSpan, into outcome: inout CommandOutcome) throws {
        guard let argument, !argument.isEmpty else {
            throw Diagnostic(":lesson needs the lesson's file, as in :lesson examples/lessons/01-counting.utq", at: span)
        }
        let found = files.lookUp(argument)
        guard let data = FileManager.default.contents(atPath: found.path) else {
            throw Diagnostic("no such lesson: \(argument)", at: span, hint: files.lookedIn())
        }
        let text = String(decoding: data, as: UTF8.self)
        let lesson = Lesson(SourceText(name: argument, text: text))
        guard !lesson.exercises.isEmpty else {
            throw Diagnostic("\(argument) has no exercises (## Exercise headings with #> answers)", at: span)
        }
        lessonChecks = LessonChecks(lesson: lesson, path: argument, text: text, session: self, folder: lessonRecordFolder ?? LessonProgress.folder())
        if let note = found.note { outcome.outputs.append(.info(note)) }
        outcome.outputs.append(.info("\(lesson.name): \(NumberText.counted(lesson.exercises.count, "exercise")); a cell that starts with check N is graded against exercise N"))
    }

    /// Runs a notebook cell: a `check N` cell is graded (see `LessonChecks`), any other runs as
    /// `run` would. `emit` gets each command's outcome, then, for a check, one with its mark.
    @discardableResult
    public func runCell(_ code: String, name: String = "<cell>", emit: (ScriptCommand?, CommandOutcome) -> Void) -> [Diagnostic] {
        guard LessonChecks.isCheck(code) else {
            return run(code, name: name) { c, outcome in emit(c, outcome) }
        }
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        let at = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) })!
        let checkLine = lines[at]
        // The answer's lines keep their line numbers in messages: the check line is left blank.
        lines[at] = ""
        let answer = lines.joined(separator: "\n")
        func refuse(_ message: String, hint: String? = nil) -> [Diagnostic] {
            var outcome = CommandOutcome()
            var d = Diagnostic(message, hint: hint)
            d.source = SourceText(name: name, text: code)
            outcome.error = d
            emit(nil, outcome)
            return [d]
        }
        guard let checks = lessonChecks else {
            return refuse("check grades an exercise of a lesson, and no lesson is open here",
                          hint: "run the notebook's first cell, :lesson FILE.utq, then this one again")
        }
        let count = checks.lesson.exercises.count
        guard let n = LessonChecks.exercise(in: checkLine), (1...count).contains(n) else {
            return refuse("`\(checkLine.trimmingCharacters(in: .whitespaces))` names no exercise of \(checks.lesson.name): write check 1 … check \(count) on the cell's first line")
        }
        let commands = Script.commands(in: SourceText(name: name, text: answer))
        let k = n - 1
        let exercise = checks.lesson.exercises[k]
        checks.recorder.enter(k, title: exercise.title)
        defer { checks.recorder.leave() }
        let typed = commands.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: "\n")
        guard !commands.isEmpty else {
            var outcome = CommandOutcome()
            let name = Lesson.isExercise(exercise.title) ? exercise.title : "exercise \(n), \(exercise.title)"
            outcome.outputs = [.info("\(name): write your pipeline under the check line, then run the cell")]
            emit(nil, outcome)
            return []
        }
        let before = checks.transcript
        var errors: [Diagnostic] = []
        // The commands are kept as they run (execute appends them): the grader replays
        // only what came before them.
        let attempt = LessonAttempt.run(commands, exercise: k, session: self, grader: checks.grader, before: before) { c, outcome in
            if let e = outcome.error { errors.append(e) }
            emit(c, outcome)
        }
        checks.recorder.tried(typed, result: attempt.result, verdict: attempt.verdict, right: attempt.isRight)
        var outcome = CommandOutcome()
        if case .failed = attempt.mark {
            outcome.outputs = [.info("not checked: the cell did not run")]
        } else {
            outcome.outputs = attempt.feedback(still: "exercise \(n)", hint: exercise.hints.isEmpty ? nil : "the hints above help")
            if case .notGraded(nil) = attempt.mark {
                outcome.outputs = [.info("not checked: the cell shows no table to compare; end it with a pipeline")]
            }
        }
        emit(nil, outcome)
        return errors
    }
}
