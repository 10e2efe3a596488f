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

    public init(lesson: Lesson, workingDirectory: String, zone: ZoneRules) {
        self.lesson = lesson
        self.workingDirectory = workingDirectory
        self.zone = zone
    }

    /// The lesson's commands and answers before exercise k: what a student has run on reaching it.
    func prefix(_ k: Int) -> [ScriptCommand] {
        lesson.blocks[..<lesson.exercises[k].blockIndex].compactMap { block in
            switch block {
            case .command(let c), .answer(let c): return c
            default: return nil
            }
        }
    }

    /// Runs `before` (a lesson's commands, or what a student has run) in a session of its own,
    /// each table a load brings in altered as it comes, then `commands`: the last table they
    /// give, and the plan of the last query. Tables kept with let and results ($n, _) are made
    /// from the altered tables, as they were from the real ones.
    func replay(_ before: [ScriptCommand], then commands: [ScriptCommand], _ alteration: AlteredData?) throws -> Result<(Table, LogicalPlan?), Diagnostic> {
        let session = Session(workingDirectory: workingDirectory, defaultZone: zone)
        session.files.unwritten = unwritten
        for c in before {
            let loads: Bool
            if case .command(let stage)? = try? Session.parse(c), stage.verb == "load" { loads = true } else { loads = false }
            let had = loads ? Dictionary(session.workspace.catalog.loadedTables.map { ($0.name, $0.rowCount) }, uniquingKeysWith: { a, _ in a }) : [:]
            let outcome = session.execute(c)
            if let e = outcome.error {
                throw Diagnostic("\(lesson.name): `\(c.text.trimmingCharacters(in: .whitespacesAndNewlines))` no longer runs on a changed copy of the data: \(e.message)")
            }
            if loads, let alteration {
                let brought = session.workspace.catalog.loadedTables.filter { had[$0.name] != $0.rowCount }
                session.workspace.put(brought.map(alteration.apply), makeCurrent: false)
            }
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

    /// The answers' results for exercise k on one version of the data, kept: the answer's,
    /// then each other right answer's.
    private var expectedCache: [String: [(Table, ResultMatch.Order)]] = [:]

    func expected(_ k: Int, _ alteration: AlteredData?) throws -> [(Table, ResultMatch.Order)] {
        let key = "\(k) \(alteration.map { "\($0)" } ?? "-")"
        if let kept = expectedCache[key] { return kept }
        let exercise = lesson.exercises[k]
        var out: [(Table, ResultMatch.Order)] = []
        for (n, answer) in ([exercise.answer] + exercise.alternatives).enumerated() {
            switch try replay(prefix(k), then: answer, alteration) {
            case .success(let (table, plan)): out.append((table, ResultMatch.order(of: plan)))
            case .failure(let e):
                throw Diagnostic("\(lesson.describe(k)): its \(n == 0 ? "answer" : "other answer \(n)") fails: \(e.message)")
            }
        }
        expectedCache[key] = out
        return out
    }

    /// Grades a student's text for exercise k, run after the lesson's commands before it.
    public func grade(_ k: Int, _ text: String, name: String = "<lesson>") throws -> Verdict {
        let commands = Script.commands(in: SourceText(name: name, text: text))
        guard !commands.isEmpty else { return .rejected("type a pipeline, or hint, skip, back, quit") }
        return try grade(k, commands)
    }

    func grade(_ k: Int, _ commands: [ScriptCommand]) throws -> Verdict {
        try grade(k, commands, after: prefix(k), saw: nil)
    }

    /// Grades what a student ran for exercise k (`commands`) after everything their session
    /// ran before (`after`): `saw` is the table they were shown, graded as it is; on each
    /// changed copy of the data their whole session runs again, so `_`, `$n` and their own
    /// let tables mean what they meant.
    public func grade(_ k: Int, _ commands: [ScriptCommand], after: [ScriptCommand], saw: Table?) throws -> Verdict {
        let exact = lesson.exercises[k].exactColumns
        for alteration in [nil] + AlteredData.allCases.map(Optional.some) {
            let answers = try expected(k, alteration)
            let got: Table
            if alteration == nil, let saw {
                got = saw
            } else {
                switch try replay(after, then: commands, alteration) {
                case .success(let t): got = t.0
                case .failure(let e): return .failed(e)
                }
            }
            let differences = answers.map { ResultMatch.difference(expected: $0.0, got: got, order: $0.1, exact: exact) }
            if let difference = differences.first, differences.allSatisfy({ $0 != nil }) {
                return .rejected(alteration == nil ? difference! : difference! + " (on a changed copy of the data: a right pipeline works on any data)")
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
