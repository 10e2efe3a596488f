/// Runs one statement on a session: a query is bound into a plan and handed to the
/// session's backend; a command acts on the session's parts. One is made per command.
struct Interpreter {
    let session: Session
    /// The script or line the command came from (paths in it are found relative to it).
    let source: SourceText
    /// What binding this command already ran (a pivot's input), for running it to take.
    let memo = RunMemo()

    var workspace: Workspace { session.workspace }
    var binder: Binder {
        var context = workspace.bindContext
        // pivot learns its columns from the data: the different values of its key.
        let session = self.session
        // In memory the input is run whole and kept, so running the pivot does not compute it again.
        let memo = session.backend is MemoryBackend && session.databases.isEmpty ? self.memo : nil
        context.keyValues = { plan, key in
            let distinct = LogicalPlan.aggregate(plan, keys: [NamedExpr(name: "key", expr: key)], aggregates: [],
                                                 schema: Schema(fields: [Field(name: "key", type: key.type, unit: key.unit)], zone: plan.schema.zone, timeColumn: nil))
            var running = session.workspace.executionContext(cancel: session.cancel, memoryLimit: session.settings.memoryLimit)
            if let memo {
                running.memo = memo
                running.notes = memo.notes
                if memo.table(for: plan) == nil { memo.keep(try session.backend(for: plan).run(plan, in: running), for: plan) }
            }
            let t = try session.backend(for: distinct).run(distinct, in: running)
            return (0..<t.rowCount).map { t.columns[0].value(at: $0) }
        }
        return Binder(context: context)
    }

    func perform(_ statement: Statement, into outcome: inout CommandOutcome) throws {
        switch statement {
        case .query(let p):
            try run(try bind(p), sinkStage: p.sink, into: &outcome)
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

    /// A pipeline as a query: checked against the tables, nothing run.
    func bind(_ p: Pipeline) throws -> Query {
        try binder.bind(p)
    }

    /// Runs a query through the backend and sends its rows where the query says; errors of
    /// the sink point at its verb (`sinkStage`).
    func run(_ query: Query, sinkStage: Stage? = nil, into outcome: inout CommandOutcome) throws {
        let notes = RunNotes()
        let table = try rows(of: query.plan, notes: notes)
        outcome.outputs += notes.entries.map { $0.isWarning ? .warning($0.text) : .info($0.text) }
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
        if table.rowCount == 0 { outcome.outputs += (query.whyNoRows + ZeroRowHints(interpreter: self).notes(for: query.plan)).map { .info($0) } }
    }

    /// The rows of a plan, carrying the summary keys its schema names.
    func rows(of plan: LogicalPlan, notes: RunNotes? = nil) throws -> Table {
        var context = workspace.executionContext(cancel: session.cancel, memoryLimit: session.settings.memoryLimit, notes: notes)
        context.memo = memo
        var table = try session.backend(for: plan).run(plan, in: context)
        notes?.add(memo.notes)
        table.groupKeys = plan.schema.groupKeys
        return table
    }

    /// `let NAME = PIPELINE` keeps the result as a table; `let NAME = WORD | …`, where WORD
    /// is no table, adds a column and goes on (`let d = weekday | sort d`).
    func assign(_ name: String, _ p: Pipeline, _ span: SourceSpan, into outcome: inout CommandOutcome) throws {
        if case .table(let word, let wordSpan) = p.source, workspace.catalog.resolve(word) == nil {
            let derive = Stage(spec: LetVerb.spec, span: span,
                               syntax: LetVerb.Syntax(assignments: [LetVerb.Assignment(name: name, expr: .column(word, wordSpan))]))
            try run(try bind(Pipeline(source: .current, stages: [derive] + p.stages, sink: p.sink, span: p.span)), into: &outcome)
            return
        }
        let query = try bind(p)
        guard case .show = query.sink else {
            throw Diagnostic("let \(name) = … keeps a table; it cannot end with \(p.sink?.verb ?? "a sink")", at: p.sink?.span ?? span,
                             hint: "keep the table first, then: \(name) | \(p.sink?.verb ?? "save") …")
        }
        let notes = RunNotes()
        var table = try rows(of: query.plan, notes: notes)
        outcome.outputs += notes.entries.map { $0.isWarning ? .warning($0.text) : .info($0.text) }
        outcome.timings += notes.timings
        let n = workspace.keep(table)
        table.name = name
        workspace.put([table], makeCurrent: false)
        outcome.outputs.append(.table(TableResult(number: n, table: table, elapsed: 0, keptAs: name)))
        outcome.outputs.append(.info("\(name): kept as a table (\(NumberText.counted(table.rowCount, "row")))"))
    }
}
