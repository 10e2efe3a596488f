import Foundation

/// One try at an exercise, wherever it is typed (the `lesson>` prompt, a notebook's `check`
/// cell): the student's commands run in their own session, and the table they were shown
/// is graded. Both places give the same marks and the same words for them.
struct LessonAttempt {
    enum Mark {
        case right
        /// What differs, without the answer.
        case notYet(String)
        /// A command failed in the student's session (its error is among the outputs).
        case failed(Diagnostic)
        /// It ran in the student's session but not on a changed copy of the data.
        case failedOnCopy(Diagnostic)
        /// `let name = …` kept a table to use next: no answer yet.
        case kept(String)
        /// Nothing to grade (no table), or the lesson itself failed (a warning).
        case notGraded(String?)
    }

    /// What each command showed, in order (the caller prints or sends them as they come).
    var outputs: [Output] = []
    /// The commands that ran without an error.
    var ran: [ScriptCommand] = []
    var mark: Mark = .notGraded(nil)
    /// The result's shape, as the record keeps it ("7 rows × 2 columns").
    var shape = "no table"

    /// Runs `commands` in `session` and grades the last table shown against exercise k, the
    /// session having run `before` (what the grader replays on changed copies of the data).
    static func run(_ commands: [ScriptCommand], exercise k: Int, session: Session, grader: LessonGrader,
                    before: [ScriptCommand], emit: (ScriptCommand, CommandOutcome) -> Void = { _, _ in }) -> LessonAttempt {
        var attempt = LessonAttempt()
        var failed: Diagnostic? = nil
        var saw: Table? = nil
        var kept: String? = nil
        for c in commands {
            let outcome = session.execute(c)
            emit(c, outcome)
            attempt.outputs += outcome.outputs
            if let e = outcome.error {
                attempt.outputs.append(.text(DiagnosticRenderer.render(e, showLocation: false)))
                failed = e
                break
            }
            attempt.ran.append(c)
            for case .table(let r) in outcome.outputs { saw = r.table; kept = r.keptAs }
            // A chart keeps the rows it drew as a result: those are what it answers.
            if case .chart? = outcome.outputs.last, let n = session.workspace.lastResult { saw = session.workspace.results[n] }
        }
        attempt.shape = saw.map(LessonRecord.shape) ?? "no table"
        if let failed { attempt.mark = .failed(failed); return attempt }
        if let kept, saw != nil { attempt.mark = .kept(kept); return attempt }
        guard saw != nil else { return attempt }
        do {
            switch try grader.grade(k, attempt.ran, after: before, saw: saw) {
            case .accepted: attempt.mark = .right
            case .rejected(let why): attempt.mark = .notYet(why)
            case .failed(let e): attempt.mark = .failedOnCopy(e)
            }
        } catch let d as Diagnostic {
            attempt.mark = .notGraded(d.message)
        } catch {
            attempt.mark = .notGraded("\(error)")
        }
        return attempt
    }

    var isRight: Bool { if case .right = mark { return true } else { return false } }

    /// What the teacher's record keeps of the result: its shape, or the error's first line.
    var result: String {
        if case .failed(let e) = mark { return Self.firstLine(e.message) }
        return shape
    }

    /// The verdict as the teacher's record keeps it.
    var verdict: String {
        switch mark {
        case .right: return "right"
        case .notYet(let why): return "not yet: \(why)"
        case .failed: return "did not run"
        case .failedOnCopy(let e): return "did not run on a changed copy of the data: " + Self.firstLine(e.message)
        case .kept(let name): return "kept as \(name), no answer yet"
        case .notGraded(let why): return "not graded" + (why.map { ": " + Self.firstLine($0) } ?? "")
        }
    }

    /// What the student reads after the outputs: the same at the prompt and in a notebook.
    /// `still` names where they are ("exercise 3"); `hint` is said when a hint is left.
    func feedback(still: String, hint: String?) -> [Output] {
        switch mark {
        case .right: return [.info("right!")]
        case .notYet(let why): return [.info("not yet: \(why)" + (hint.map { " (\($0))" } ?? ""))]
        case .failed: return [.info("that did not run; this is still \(still)")]
        case .failedOnCopy(let e): return [.text(DiagnosticRenderer.render(e, showLocation: false))]
        case .kept(let name): return [.info("\(name) is kept; now answer with it, as in: \(name) | …")]
        case .notGraded(let why): return why.map { [.warning($0)] } ?? []
        }
    }

    static func firstLine(_ s: String) -> String {
        String(s.split(separator: "\n", omittingEmptySubsequences: true).first ?? "")
    }
}
