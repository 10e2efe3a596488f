import Foundation

/// `utq lesson FILE` without the terminal: the lesson's text up to each exercise, the
/// exercise, and what a student types graded by its result. The shell reads the lines and
/// prints the outputs; the student's commands run in a session of their own, which follows
/// the lesson (an exercise right or skipped runs its answer there too). A recorder, when
/// given, keeps the student's record of the run as it goes.
public final class LessonTutor {
    public let lesson: Lesson
    public let session: Session
    let grader: LessonGrader
    let progress: LessonProgress?
    public let recorder: LessonRecorder?
    public private(set) var current = 0
    public private(set) var finished = false
    private var hintsShown = 0
    private var ranUpTo = 0
    private var right = Set<Int>()
    /// Every command the student's session has run, the lesson's and theirs, in order: the
    /// grader runs them again on changed copies of the data.
    private var transcript: [ScriptCommand] = []

    public init(lesson: Lesson, session: Session, progress: LessonProgress?, recorder: LessonRecorder? = nil) {
        self.lesson = lesson
        self.session = session
        self.progress = progress
        self.recorder = recorder
        grader = LessonGrader(lesson: lesson, workingDirectory: session.workingDirectory, zone: session.defaultZone)
    }

    /// The lesson from its start, or from where it stopped last time.
    public func start() -> [Output] {
        var out: [Output] = []
        if lesson.exercises.isEmpty { finished = true; return [.warning("\(lesson.name) has no exercises (## Exercise headings with #> answers)")] }
        if let progress, let resume = progress.load(), resume.exercise > 0, resume.exercise < lesson.exercises.count {
            silently(upTo: lesson.exercises[resume.exercise].blockIndex)
            current = resume.exercise
            right = resume.right
            out.append(.info("resuming at exercise \(current + 1) of \(lesson.exercises.count) (delete \(progress.path) to start over)"))
        } else if let note = progress?.setAside {
            out.append(.info(note))
        }
        return out + show(upTo: lesson.exercises[current].blockIndex) + present()
    }

    /// What a line typed at the `lesson>` prompt does.
    public func handle(_ line: String) -> [Output] {
        let word = line.trimmingCharacters(in: .whitespaces).lowercased()
        guard !finished else { return [] }
        let exercise = lesson.exercises[current]
        switch word {
        case "":
            return []
        case "hint", "?":
            guard hintsShown < exercise.hints.count else {
                return [.info("no more hints for this one; skip goes on without it")]
            }
            hintsShown += 1
            recorder?.hinted(hintsShown)
            return [.info("hint \(hintsShown) of \(exercise.hints.count): " + exercise.hints[hintsShown - 1])]
        case "skip":
            recorder?.skipped()
            return [.info("skipped (back returns to it)")] + advance()
        case "back":
            guard current > 0 else { return [.info("this is the first exercise")] }
            recorder?.touched()
            current -= 1
            hintsShown = 0
            save()
            return present()
        case "quit", "exit", ":quit", "q":
            save()
            finished = true
            recorder?.leave()
            return [.info("stopped at exercise \(current + 1) of \(lesson.exercises.count); utq lesson \(lesson.name) goes on from here")]
        default:
            let commands = Script.commands(in: SourceText(name: "<lesson>", text: line))
            let before = transcript
            let attempt = LessonAttempt.run(commands, exercise: current, session: session, grader: grader, before: before)
            transcript += attempt.ran
            if case .notGraded(nil) = attempt.mark {
                recorder?.tried(line, result: attempt.result, verdict: attempt.verdict, right: false)
                return attempt.outputs
            }
            recorder?.tried(line, result: attempt.result, verdict: attempt.verdict, right: attempt.isRight)
            let feedback = attempt.feedback(still: "exercise \(current + 1)", hint: hintsShown < exercise.hints.count ? "hint helps" : nil)
            if attempt.isRight {
                right.insert(current)
                return attempt.outputs + feedback + advance()
            }
            return attempt.outputs + feedback
        }
    }

    /// On to the next exercise: this one's answer runs in the student's session (so what
    /// comes next finds what it needs), then the lesson's text up to the next one.
    func advance() -> [Output] {
        let exercise = lesson.exercises[current]
        // The answer runs (silently); the lesson's words after it are shown, not the question.
        var after = exercise.blockIndex + 1
        var k = after
        while k < lesson.blocks.count {
            if case .heading = lesson.blocks[k] { break }
            if case .answer = lesson.blocks[k] { after = k + 1 }
            k += 1
        }
        if ranUpTo < after {
            session.unrecorded { for c in exercise.answer { _ = run(c) } }
            ranUpTo = after
        }
        hintsShown = 0
        current += 1
        save()
        guard current < lesson.exercises.count else {
            finished = true
            recorder?.leave()
            progress?.clear()
            return show(upTo: lesson.blocks.count) + [.info("lesson done: \(right.count) of \(lesson.exercises.count) right")]
        }
        return show(upTo: lesson.exercises[current].blockIndex) + present()
    }

    func present() -> [Output] {
        let e = lesson.exercises[current]
        recorder?.enter(current, title: e.title)
        var text = "\n\(e.title) (exercise \(current + 1) of \(lesson.exercises.count))\n"
        text += e.question.joined(separator: "\n\n") + "\n"
        text += "Type a pipeline; or hint, skip, back, quit.\n"
        return [.text(text)]
    }

    /// The lesson's headings, prose and commands (with their outputs) up to a block; an
    /// exercise's answers and hints on the way are not shown.
    func show(upTo end: Int) -> [Output] {
        var out: [Output] = []
        var inExercise = false
        while ranUpTo < end {
            let block = lesson.blocks[ranUpTo]
            ranUpTo += 1
            switch block {
            case .heading(let level, let text):
                inExercise = Lesson.isExercise(text)
                if !inExercise { out.append(.text("\n" + String(repeating: "#", count: level) + " " + text + "\n")) }
            case .prose(let text) where !inExercise:
                out.append(.text(text + "\n"))
            case .command(let c):
                out.append(.text("utq> " + c.shownText + "\n"))
                let outcome = run(c)
                out += outcome.outputs
                if let e = outcome.error { out.append(.text(DiagnosticRenderer.render(e, showLocation: true))) }
            case .answer(let c):
                session.unrecorded { _ = run(c) }
            default:
                continue
            }
        }
        return out
    }

    /// A command of the lesson, run in the student's session and kept in its transcript.
    @discardableResult
    func run(_ c: ScriptCommand) -> CommandOutcome {
        let outcome = session.execute(c)
        if outcome.error == nil { transcript.append(c) }
        return outcome
    }

    func silently(upTo end: Int) {
        while ranUpTo < end {
            switch lesson.blocks[ranUpTo] {
            case .command(let c): run(c)
            case .answer(let c): session.unrecorded { _ = run(c) }
            default: break
            }
            ranUpTo += 1
        }
    }

    func save() { progress?.save(exercise: current, right: right) }

    /// Outputs cut into the lesson's sections, each starting at a heading, so that a terminal
    /// can show the text a section at a time rather than all of it before the first prompt.
    public static func sections(_ outputs: [Output]) -> [[Output]] {
        var sections: [[Output]] = []
        for output in outputs {
            if case .text(let t) = output, t.hasPrefix("\n#"), !(sections.last?.isEmpty ?? true) {
                sections.append([])
            }
            if sections.isEmpty { sections.append([]) }
            sections[sections.count - 1].append(output)
        }
        return sections
    }
}
