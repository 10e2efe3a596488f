/// What the binder may look names up in: the tables and kept results, by name and schema.
/// Binding reads no rows: it checks names and types and builds the plan.
public struct BindContext: Sendable {
    public var catalog: Catalog
    /// The schema of each kept result (`$3`).
    public var results: [Int: Schema]
    public var lastResult: Int?
    public var currentTable: String?
    /// The different values of a key of a plan's rows, in the key's order, for `pivot`,
    /// whose columns are those values (as DuckDB's PIVOT, it asks the data while binding).
    /// Nil where nothing may run (completion): pivot is then refused.
    public var keyValues: (@Sendable (LogicalPlan, BoundExpr) throws -> [Value])?

    public init(catalog: Catalog, results: [Int: Schema], lastResult: Int?, currentTable: String?,
                keyValues: (@Sendable (LogicalPlan, BoundExpr) throws -> [Value])? = nil) {
        self.catalog = catalog; self.results = results; self.lastResult = lastResult; self.currentTable = currentTable
        self.keyValues = keyValues
    }
}

/// Turns a parsed pipeline into a query: the source's plan, each stage's plan made from the
/// one before (each verb binds itself, see `StageSyntax`), and the sink.
public struct Binder: Sendable {
    public let context: BindContext

    public init(context: BindContext) { self.context = context }

    /// The whole pipeline: source, stages, sink.
    public func bind(_ p: Pipeline) throws -> Query {
        var plan: LogicalPlan
        var whyNoRows: [String] = [], notes: [String] = []
        var stages = p.stages[...]
        // A transit verb first reads the whole feed the source names (`feed | service on …`).
        if let first = stages.first, let feedVerb = first.syntax as? any FeedSyntax {
            let feed = try first.locating { try FeedTables.of(p.source, verb: type(of: feedVerb).verb, context) }
            plan = try first.locating { try feedVerb.bind(feed: feed, self) }
            whyNoRows = feedVerb.whyNoRows(feed)
            notes = feedVerb.notes(feed)
            stages = stages.dropFirst()
        } else {
            plan = try source(p.source)
        }
        for stage in stages {
            plan = try bind(stage, input: plan)
        }
        guard let sinkStage = p.sink else { return Query(plan: plan, sink: .show, whyNoRows: whyNoRows, notes: notes) }
        guard let syntax = sinkStage.syntax as? any SinkSyntax else {
            throw Diagnostic("\(sinkStage.verb) cannot end a pipeline", at: sinkStage.span)
        }
        return Query(plan: plan, sink: try sinkStage.locating { try syntax.bind(plan, self) }, whyNoRows: whyNoRows, notes: notes)
    }

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
            return .scan(.table(t.name), schema: Schema(t))
        case .table(let name, let span):
            let resolved = try resolveTable(name, span)
            return .scan(.table(resolved), schema: Schema(context.catalog[resolved]!))
        case .result(let n, let span):
            guard let schema = context.results[n] else {
                throw Diagnostic(.unknownResult(n, known: context.results.keys.sorted()), at: span)
            }
            return .scan(.result(n), schema: schema)
        case .last(let span):
            guard let n = context.lastResult, let schema = context.results[n] else { throw Diagnostic(.noLastResult, at: span) }
            return .scan(.result(n), schema: schema)
        case .verb(let stage):
            guard let syntax = stage.syntax as? any SourceSyntax else {
                throw Diagnostic("\(stage.verb) cannot start a pipeline", at: stage.span)
            }
            return try stage.locating { try syntax.bind(self) }
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
    func project(_ input: LogicalPlan, _ items: [NamedExpr]) -> LogicalPlan {
        let schema = input.schema
        let fields = items.map { item -> Field in
            var ordered = false, floating = false
            if case .column(_, let f) = item.expr { ordered = f.ordered; floating = f.floating }
            if case .bucket(.weekday, _, _) = item.expr { ordered = true }
            return Field(name: item.name, type: item.expr.type, unit: item.expr.unit, ordered: ordered, floating: floating)
        }
        // GTFS stop times keep a duration (a service time) as their time column.
        let time = schema.timeColumn.flatMap { t in fields.contains(where: { $0.name == t && ($0.type == .timestamp || $0.type == .duration) }) ? t : nil }
            ?? fields.first(where: { $0.type == .timestamp })?.name
        // A key is kept (under its new name, after rename) where a column passes it through.
        let kept = schema.groupKeys?.compactMap { key in
            items.first { item in
                if case .column(_, let f) = item.expr { return f.name == key }
                return false
            }?.name
        }
        return .project(input, items, schema: Schema(fields: fields, zone: schema.zone, timeColumn: time,
                                                     groupKeys: kept?.isEmpty == false ? kept : nil))
    }
}

extension LogicalPlan {
    func withTimeColumn(_ name: String?) -> LogicalPlan {
        guard case .project(let input, let items, var schema) = self else { return self }
        schema.timeColumn = name
        return .project(input, items, schema: schema)
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
