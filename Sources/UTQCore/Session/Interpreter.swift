/// Runs one statement on a session: a query is bound into a plan and handed to the
/// session's backend; a command acts on the session's parts. One is made per command.
struct Interpreter {
    let session: Session
    /// The script or line the command came from (paths in it are found relative to it).
    let source: SourceText
    /// What the command's probes answered, and the rows they kept, for running the plan.
    let probes = ProbeState()
    /// Table names that stand for other tables while binding (`market` for a saved copy
    /// `db.market`): the tests run one pipeline on both.
    var substitutes: [String: String] = [:]

    init(session: Session, source: SourceText, substitutes: [String: String] = [:]) {
        self.session = session; self.source = source; self.substitutes = substitutes
    }

    var workspace: Workspace { session.workspace }

    /// Binds with the answers the command's probes have given so far.
    func binder(_ answers: ProbeAnswers = ProbeAnswers()) -> Binder {
        var context = workspace.bindContext
        if !substitutes.isEmpty { context.catalog = context.catalog.substituting(substitutes) }
        context.answers = answers
        return Binder(context: context)
    }

    func perform(_ statement: Statement, into outcome: inout CommandOutcome) throws {
        switch statement {
        case .query(let p):
            let notes = RunNotes()
            try run(try bind(p, notes: notes), sinkStage: p.sink, notes: notes, into: &outcome)
        case .command(let stage):
            guard let syntax = stage.syntax as? any StatementSyntax else {
                throw Diagnostic("\(stage.verb) is not a command of its own", at: stage.span)
            }
            try stage.locating { try syntax.perform(self, into: &outcome) }
        case .assign(let name, let p, let span):
            try assign(name, p, span, into: &outcome)
        case .session(let command, let argument, let span):
            try command.spec.run(SessionCommandCall(interpreter: self, replace: command.replace, argument: argument, span: span), &outcome)
        }
    }

    /// A pipeline as a query, ready to run: bound against the tables, then, while its steps ask
    /// probes (a pivot's columns, a feed's calendar), the probes are run and it is bound again
    /// with their answers. What running the probes notes goes into `notes`.
    func bind(_ p: Pipeline, notes: RunNotes? = nil) throws -> Query {
        var answers = ProbeAnswers()
        // Each round answers what the round before asked; a step may ask more once it knows.
        for _ in 0..<Self.probeRounds {
            let query = try binder(answers).bind(p)
            guard !query.probes.isEmpty else {
                guard query.isComplete else {
                    throw Diagnostic("this pipeline could not be planned: a step still waits for what the data holds", at: p.span)
                }
                probes.answers = answers
                return query
            }
            for probe in query.probes { try answer(probe, into: &answers, notes: notes) }
        }
        throw Diagnostic("this pipeline could not be planned: its steps asked the data \(Self.probeRounds) times over", at: p.span)
    }

    static let probeRounds = 8

    /// A pipeline bound once, with nothing run: the probes it would ask are in the query.
    func plan(_ p: Pipeline) throws -> Query {
        try binder().bind(p)
    }

    /// Runs one probe, placed as any plan is, and keeps its answer (and its input's rows, when
    /// the probe keeps them for the step that asked).
    private func answer(_ probe: Probe, into answers: inout ProbeAnswers, notes: RunNotes?) throws {
        var context = workspace.executionContext(cancel: session.cancel, memoryLimit: session.settings.memoryLimit, notes: notes,
                                                 loadPhase: session.loadPhase)
        context.probed = answers.inputs
        guard probe.keepsInput, let input = probe.plan.inputs.first else {
            answers.rows[probe.key] = try Executor(context: context).run(try session.place(probe.plan))
            return
        }
        let rows = try Executor(context: context).run(try session.place(input))
        answers.inputs[probe.key] = rows
        context.probed[probe.key] = rows
        let over = probe.plan.replacingInputs([LogicalPlan(ScanNode(.probe(probe.key, number: 0), schema: input.schema))])
        answers.rows[probe.key] = try Executor(context: context).run(try session.place(over))
    }

    /// Runs a query through the backend and sends its rows where the query says; errors of
    /// the sink point at its verb (`sinkStage`).
    func run(_ query: Query, sinkStage: Stage? = nil, notes: RunNotes = RunNotes(), into outcome: inout CommandOutcome) throws {
        let table = try rows(of: query.plan, notes: notes)
        outcome.outputs += notes.entries.map { $0.category == .warning ? .warning($0.text) : .info($0.text) }
        outcome.timings += notes.timings

        func send(_ outcome: inout CommandOutcome) throws {
            switch query.sink {
            case .show:
                let n = workspace.keep(table)
                outcome.outputs.append(.table(TableResult(number: n, table: table, elapsed: 0)))
            case .save(let request):
                try save(table, request, into: &outcome)
            case .chart(let request):
                try chart(table, request, filters: query.plan.filters, into: &outcome)
            }
        }
        if let sinkStage { try sinkStage.locating { try send(&outcome) } } else { try send(&outcome) }
        outcome.outputs += query.notes.map { .info($0) }
        if ZeroRowHints.looksEmpty(table) { outcome.outputs += ZeroRowHints(interpreter: self).notes(for: query.plan).map { .info($0) } }
    }

    /// The rows of a plan, carrying the summary keys its schema names.
    func rows(of plan: LogicalPlan, notes: RunNotes? = nil, trace: PlacementTrace? = nil) throws -> Table {
        var context = workspace.executionContext(cancel: session.cancel, memoryLimit: session.settings.memoryLimit, notes: notes,
                                                 loadPhase: session.loadPhase)
        context.probed = probes.answers.inputs
        context.trace = trace
        var table = try Executor(context: context).run(try session.place(plan))
        table.groupKeys = plan.schema.groupKeys
        return table
    }

    /// `let NAME = PIPELINE` keeps the result as a table; `let NAME = WORD | …`, where WORD
    /// is no table, adds a column and goes on (`let d = weekday | sort d`).
    func assign(_ name: String, _ p: Pipeline, _ span: SourceSpan, into outcome: inout CommandOutcome) throws {
        if case .table(let word, let wordSpan) = p.source, workspace.catalog.resolve(word) == nil {
            let derive = Stage(spec: LetVerb.spec, span: span,
                               syntax: LetVerb.Syntax(assignments: [LetVerb.Assignment(name: name, expr: .column(word, wordSpan))]))
            let notes = RunNotes()
            try run(try bind(Pipeline(source: .current, stages: [derive] + p.stages, sink: p.sink, span: p.span), notes: notes), notes: notes, into: &outcome)
            return
        }
        let notes = RunNotes()
        let query = try bind(p, notes: notes)
        guard case .show = query.sink else {
            throw Diagnostic("let \(name) = … keeps a table; it cannot end with \(p.sink?.verb ?? "a sink")", at: p.sink?.span ?? span,
                             hint: "keep the table first, then: \(name) | \(p.sink?.verb ?? "save") …")
        }
        var table = try rows(of: query.plan, notes: notes)
        outcome.outputs += notes.entries.map { $0.category == .warning ? .warning($0.text) : .info($0.text) }
        outcome.timings += notes.timings
        let n = workspace.keep(table)
        table.name = name
        workspace.put([table], makeCurrent: false)
        outcome.outputs.append(.table(TableResult(number: n, table: table, elapsed: 0, keptAs: name)))
        outcome.outputs.append(.info("\(name): kept as a table (\(NumberText.counted(table.rowCount, "row")))"))
    }
}

/// The answers of one command's probes, kept for running its plan.
final class ProbeState: @unchecked Sendable {
    var answers = ProbeAnswers()
}
