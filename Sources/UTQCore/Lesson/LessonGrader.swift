/// Grades pipelines against a lesson's answers by their results, on the lesson's data and on
/// altered copies of it, never by their text.
public final class LessonGrader {
    public enum Verdict: Sendable {
        case accepted
        /// What differs, without the answer.
        case rejected(String)
        /// The pipeline did not run: the error as the prompt shows it.
        case failed(Diagnostic)
    }

    public let lesson: Lesson
    let workingDirectory: String
    let zone: ZoneRules
    /// The grader's sessions write no files: the lesson's commands and the answers run on
    /// altered copies of the data, again and again.
    let unwritten = UnwrittenFiles(reason: "checking a lesson writes no files")
    private var prepared: (index: Int, session: Session, state: Workspace.State, settings: Settings)?

    public init(lesson: Lesson, workingDirectory: String, zone: ZoneRules) {
        self.lesson = lesson
        self.workingDirectory = workingDirectory
        self.zone = zone
    }

    /// A session that has run everything before exercise k, once per exercise.
    func setup(_ k: Int) throws -> (Session, Workspace.State, Settings) {
        if let p = prepared, p.index == k { return (p.session, p.state, p.settings) }
        let session = Session(workingDirectory: workingDirectory, defaultZone: zone)
        session.files.unwritten = unwritten
        for block in lesson.blocks[..<lesson.exercises[k].blockIndex] {
            switch block {
            case .command(let c), .answer(let c):
                let outcome = session.execute(c)
                if let e = outcome.error {
                    throw Diagnostic("\(lesson.name):\(c.line): the lesson stops before \(lesson.exercises[k].title): \(e.message)")
                }
            default: continue
            }
        }
        prepared = (k, session, session.workspace.state, session.settings)
        return (session, session.workspace.state, session.settings)
    }

    /// The last table of commands run from the state the exercise starts in, with the
    /// lesson's tables altered (or not).
    func run(_ commands: [ScriptCommand], _ k: Int, _ alteration: AlteredData?) throws -> Result<(Table, LogicalPlan?), Diagnostic> {
        let (session, state, settings) = try setup(k)
        session.workspace.state = state
        session.settings = settings
        if let alteration {
            let changed = state.catalog.loadedTables.map(alteration.apply)
            session.workspace.put(changed, makeCurrent: false)
        }
        var last: Table? = nil
        var plan: LogicalPlan? = nil
        for c in commands {
            let before = session.workspace.lastResult
            let outcome = session.execute(c)
            if let e = outcome.error { return .failure(e) }
            for case .table(let r) in outcome.outputs { last = r.table }
            // A chart keeps the rows it drew as a result: those are what it answers.
            if case .chart? = outcome.outputs.last, let n = session.workspace.lastResult, n != before { last = session.workspace.results[n] }
            if case .query(let p)? = try? Session.parse(c) { plan = try? Binder(context: session.workspace.bindContext).bind(p).plan }
        }
        guard let last else { return .failure(Diagnostic("this gives no table to compare; write a pipeline, as in: count by legend")) }
        return .success((last, plan))
    }

    /// Grades a student's text for exercise k.
    public func grade(_ k: Int, _ text: String, name: String = "<lesson>") throws -> Verdict {
        let commands = Script.commands(in: SourceText(name: name, text: text))
        guard !commands.isEmpty else { return .rejected("type a pipeline, or hint, skip, back, quit") }
        return try grade(k, commands)
    }

    func grade(_ k: Int, _ commands: [ScriptCommand]) throws -> Verdict {
        let exercise = lesson.exercises[k]
        for alteration in [nil] + AlteredData.allCases.map(Optional.some) {
            let expected: (Table, LogicalPlan?)
            switch try run(exercise.answer, k, alteration) {
            case .success(let t): expected = t
            case .failure(let e):
                throw Diagnostic("\(lesson.describe(k)): its answer fails: \(e.message)")
            }
            let got: Table
            switch try run(commands, k, alteration) {
            case .success(let t): got = t.0
            case .failure(let e): return .failed(e)
            }
            // The answer's plan was bound before the rows ran: re-bind it here to see if it sorts.
            let ordered = expected.1?.sortsOutput ?? false
            if let difference = ResultMatch.difference(expected: expected.0, got: got, ordered: ordered) {
                return .rejected(alteration == nil ? difference : difference + " (on a changed copy of the data: a right pipeline works on any data)")
            }
        }
        return .accepted
    }

    /// The files the lesson's commands and answers would have written, had they not run in a check.
    public var unwrittenFiles: [String] { unwritten.paths }

    /// Every answer runs, and every wrong answer is rejected; each problem names the exercise.
    public func check() -> [String] {
        var problems = lesson.problems
        for k in lesson.exercises.indices {
            let e = lesson.exercises[k]
            if e.answer.isEmpty { problems.append("\(lesson.describe(k)): no answer (#>)"); continue }
            do {
                for wrong in e.wrong {
                    if case .accepted = try grade(k, wrong) {
                        let text = wrong.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
                        problems.append("\(lesson.name):\(wrong[0].line): \(e.title): the wrong answer `\(text)` gives the answer's result, so it is no wrong answer")
                    }
                }
                if case .accepted = try grade(k, e.answer) {} else {
                    problems.append("\(lesson.describe(k)): the answer does not match itself")
                }
            } catch let d as Diagnostic {
                problems.append(d.message)
            } catch {
                problems.append("\(lesson.describe(k)): \(error)")
            }
        }
        return problems
    }
}
