/// What the binder may look names up in: the tables and kept results, by name and schema,
/// and the answers of the probes the command has run. Binding reads no rows: it checks names
/// and types and builds the plan; what a step needs of the data it asks as a probe.
public struct BindContext: Sendable {
    /// The tables' schemas: binding sees names and columns, never rows.
    public var catalog: SchemaCatalog
    /// The schema of each kept result (`$3`).
    public var results: [Int: Schema]
    public var lastResult: Int?
    public var currentTable: String?
    /// What the command's probes have answered so far.
    public var answers: ProbeAnswers

    public init(catalog: SchemaCatalog, results: [Int: Schema], lastResult: Int?, currentTable: String?, answers: ProbeAnswers = ProbeAnswers()) {
        self.catalog = catalog; self.results = results; self.lastResult = lastResult; self.currentTable = currentTable
        self.answers = answers
    }
}

/// Turns a parsed pipeline into a query: the source's plan, each stage's plan made from the
/// one before (each verb binds itself, see `StageSyntax`), and the sink.
public struct Binder: Sendable {
    public let context: BindContext
    /// The probes asked while binding, answered or not.
    let requests = ProbeRequests()
    /// The stage being bound (0 is the first after the source), for probes' keys.
    var stage = 0

    public init(context: BindContext) { self.context = context }

    /// The whole pipeline: source, stages, sink. A step that waits for probes ends the plan
    /// (a `PendingNode`); the stages after it wait too, unbound, in the query.
    public func bind(_ p: Pipeline) throws -> Query {
        var plan: LogicalPlan
        var notes: [String] = []
        var stages = Array(p.stages.enumerated())[...]
        var binder = self
        // A transit verb first reads the whole feed the source names (`feed | service on …`).
        if let first = stages.first?.element, let feedVerb = first.syntax as? any FeedSyntax {
            let feed = try first.locating { try FeedTables.of(p.source, verb: type(of: feedVerb).verb, context) }
            let made = try first.locating { try feedVerb.bind(feed: feed, self) }
            plan = made.plan
            notes = made.notes
            stages = stages.dropFirst()
        } else {
            plan = try source(p.source)
        }
        var unbound: [Stage] = []
        for (k, stage) in stages {
            if plan.is(PendingNode.self) { unbound.append(stage); continue }
            binder.stage = k
            do {
                plan = try binder.bind(stage, input: plan)
            } catch let d as Diagnostic where k == 0 {
                throw otherTablesColumn(d, source: p.source)
            }
        }
        let asked = requests.all.filter { context.answers[$0.key] == nil }
        var query = Query(plan: plan, sink: .show, notes: notes, probes: asked, unbound: unbound)
        guard let sinkStage = p.sink else { return query }
        guard let syntax = sinkStage.syntax as? any SinkSyntax else {
            throw Diagnostic("\(sinkStage.verb) cannot end a pipeline", at: sinkStage.span)
        }
        if plan.is(PendingNode.self) {
            query.unbound.append(sinkStage)
            return query
        }
        query.sink = try sinkStage.locating { try syntax.bind(plan, self) }
        return query
    }

    /// A name the current table does not have but another table does, on a line that starts
    /// with a verb: after `load weather.csv` the current table is weather, and `count by
    /// legend` meant the table loaded before. Says whose column it is, instead of a near name.
    func otherTablesColumn(_ d: Diagnostic, source: PipelineSource) -> Diagnostic {
        guard case .current = source, case .unknownColumn(let name, _, let columns) = d.kind,
              let current = context.currentTable,
              let owner = context.catalog.names.first(where: { $0 != current && context.catalog[$0]?.schema.index(of: name) != nil })
        else { return d }
        var told = Diagnostic(.unknownColumn(name, suggestion: nil, columns: columns), at: d.span, usage: d.usage)
        told.source = d.source
        told.hint = "\(name) is a column of \(owner), not of \(current) (the current table); start the line with \(owner) | to use it"
        return told
    }

    /// Asks a probe: its answer when the command has run it, else nil, and the probe is asked
    /// (the interpreter runs it and binds again). With its number, as explain shows it.
    func ask(_ probe: Probe) -> (answer: Table?, number: Int) {
        let number = requests.add(probe)
        return (context.answers[probe.key], number)
    }

    /// The rows a probe kept of its input, when it kept them.
    func keptInput(_ key: String) -> Table? { context.answers.inputs[key] }

    /// One stage on the plan before it.
    public func bind(_ stage: Stage, input: LogicalPlan) throws -> LogicalPlan {
        guard let syntax = stage.syntax as? any StageSyntax else {
            throw Diagnostic("\(stage.verb) cannot be used inside a pipeline", at: stage.span)
        }
        return try stage.locating { try syntax.bind(input, self) }
    }

    // MARK: sources

    public func source(_ s: PipelineSource) throws -> LogicalPlan {
        switch s {
        case .current:
            guard let name = context.currentTable, let t = context.catalog[name] else { throw Diagnostic(.noTableLoaded) }
            return LogicalPlan(ScanNode(.table(t.name), schema: t.schema))
        case .table(let name, let span):
            let t = context.catalog[try resolveTable(name, span)]!
            return LogicalPlan(ScanNode(.table(t.name), schema: t.schema))
        case .result(let n, let span):
            guard let schema = context.results[n] else {
                throw Diagnostic(.unknownResult(n, known: context.results.keys.sorted()), at: span)
            }
            return LogicalPlan(ScanNode(.result(n), schema: schema))
        case .last(let span):
            guard let n = context.lastResult, let schema = context.results[n] else { throw Diagnostic(.noLastResult, at: span) }
            return LogicalPlan(ScanNode(.result(n), schema: schema))
        case .verb(let stage):
            guard let syntax = stage.syntax as? any SourceSyntax else {
                throw Diagnostic("\(stage.verb) cannot start a pipeline", at: stage.span)
            }
            return try stage.locating { try syntax.bind(self) }
        case .pipeline(let p):
            // Bound as a line of its own would be; a stage that waits for a probe leaves the
            // pending step, which makes the verb around it wait too.
            return try bind(p).plan
        }
    }

    /// The catalog's name for a table as the user wrote it.
    public func resolveTable(_ name: String, _ span: SourceSpan) throws -> String {
        if let resolved = context.catalog.resolve(name), context.catalog[resolved] != nil { return resolved }
        let several = context.catalog.candidates(endingWith: name)
        if several.count > 1 { throw Diagnostic(.ambiguousTable(name, candidates: several), at: span) }
        let names = context.catalog.names
        if let feed = FeedTables.named(name, in: context.catalog) {
            let own = names.filter { $0.hasPrefix(feed.name + ".") }
            throw Diagnostic("\(name) is a GTFS feed, a set of tables: \(own.joined(separator: ", "))", at: span,
                             hint: "name one of them (\(feed.ref("trips"))), or ask the feed: \(name) | service on DATE")
        }
        throw Diagnostic(.unknownTable(name, suggestion: Suggest.closest(name, among: names), tables: names), at: span)
    }

    // MARK: helpers for verbs

    /// Expressions over the columns of a plan's rows.
    func expressions(_ input: LogicalPlan) -> ExprBinder { ExprBinder(schema: input.schema) }

    func sortKeys(_ keys: [SortKey], _ input: LogicalPlan) throws -> [BoundSortKey] {
        let exprs = expressions(input)
        return try keys.map { BoundSortKey(expr: try exprs.bind($0.expr), descending: $0.descending) }
    }

    /// A projection with its schema: types and units from the expressions; the time column
    /// and the summary's keys survive where the columns they name are kept as they were.
    func project(_ input: LogicalPlan, _ items: [NamedExpr]) throws -> LogicalPlan {
        // A name means one column, whatever step made the list.
        var names = Set<String>()
        for item in items where !names.insert(item.name.lowercased()).inserted {
            throw Diagnostic("there would be two columns called \(item.name)", hint: "give one another name")
        }
        let schema = input.schema
        let fields = items.map { item -> Field in
            var ordered = false, floating = false
            if case .column(_, let f) = item.expr { ordered = f.ordered; floating = f.floating }
            if case .bucket(.weekday, _, _) = item.expr { ordered = true }
            return Field(name: item.name, type: item.expr.type, unit: item.expr.unit, ordered: ordered, floating: floating, space: item.expr.space)
        }
        // GTFS stop times keep a duration (a service time) as their time column.
        let time = schema.timeColumn.flatMap { t in fields.contains(where: { $0.name == t && ($0.type == .timestamp || $0.type == .duration) }) ? t : nil }
            ?? fields.first(where: { $0.type == .timestamp })?.name
        // A key is kept (under its new name, after rename) where a column passes it through.
        func passed(_ key: String) -> String? {
            items.first { item in
                if case .column(_, let f) = item.expr { return f.name == key }
                return false
            }?.name
        }
        let kept = schema.groupKeys?.compactMap(passed)
        // The key order holds as far as its columns are kept.
        let order = schema.keyOrder.map { keys in Array(keys.map(passed).prefix { $0 != nil }.map { $0! }) }
        return LogicalPlan(ProjectNode(input, items, schema: Schema(fields: fields, zone: schema.zone, timeColumn: time,
                                                                    groupKeys: kept?.isEmpty == false ? kept : nil,
                                                                    keyOrder: order?.isEmpty == false ? order : nil)))
    }
}

extension LogicalPlan {
    func withTimeColumn(_ name: String?) -> LogicalPlan {
        guard var project = self.as(ProjectNode.self) else { return self }
        project.schema.timeColumn = name
        return LogicalPlan(project)
    }
}

/// Default names for computed columns.
enum ExprNaming {
    static func name(_ e: Expr) -> String {
        switch e {
        case .column(let n, _): return n
        case .call(let f, let args, _):
            if args.count == 1, case .column(let c, _) = args[0] {
                return TimeBucket.named(f) != nil ? f : "\(f)_\(c)"
            }
            return f
        case .literal(let v, _): return v.plainText
        default: return "value"
        }
    }
}
