/// What the binder may look names up in.
public struct BindContext: Sendable {
    public var catalog: Catalog
    public var results: [Int: Table]
    public var lastResult: Int?
    public var currentTable: String?
}

/// Turns parsed stages into a logical plan, one stage at a time, checking every name and
/// type against the schema the stage before produces.
struct Binder {
    let context: BindContext

    // MARK: sources

    func source(_ s: PipelineSource) throws -> LogicalPlan {
        switch s {
        case .current:
            guard let name = context.currentTable, let t = context.catalog[name] else {
                throw Diagnostic("no table is loaded yet", hint: "start with load FILE, for example: load datasets/market.json")
            }
            return .scan(table: t.name, schema: Schema(t))
        case .table(let name, let span):
            return try table(name, span)
        case .result(let n, let span):
            guard let t = context.results[n] else {
                let known = context.results.keys.sorted()
                throw Diagnostic("there is no result $\(n)", at: span,
                                 hint: known.isEmpty ? "results are numbered as they are shown: [1], [2], …" : "results so far: " + known.map { "$\($0)" }.joined(separator: ", "))
            }
            return .values(t, label: "$\(n)")
        case .last(let span):
            guard let n = context.lastResult, let t = context.results[n] else {
                throw Diagnostic("there is no result yet for _ to stand for", at: span)
            }
            return .values(t, label: "$\(n)")
        }
    }

    func table(_ name: String, _ span: SourceSpan) throws -> LogicalPlan {
        if let resolved = context.catalog.resolve(name), let t = context.catalog[resolved] {
            return .scan(table: t.name, schema: Schema(t))
        }
        let several = context.catalog.candidates(endingWith: name)
        if several.count > 1 {
            throw Diagnostic("\"\(name)\" could be \(several.joined(separator: " or "))", at: span, hint: "write the full name")
        }
        let suggestion = Suggest.didYouMean(name, among: context.catalog.names)
        throw Diagnostic("unknown table \"\(name)\"" + suggestion, at: span,
                         hint: context.catalog.names.isEmpty ? "no tables are loaded; use load FILE" : "tables: " + context.catalog.names.joined(separator: ", "))
    }

    // MARK: stages

    func bind(_ stage: Stage, input: LogicalPlan) throws -> LogicalPlan {
        let schema = input.schema
        let exprs = ExprBinder(schema: schema)
        switch stage.args {
        case .filter(let e):
            let b = try exprs.bind(e)
            guard b.type == .bool || b.type == .null else {
                throw Diagnostic("where needs a condition, but this is \(b.type.displayName)", at: e.span,
                                 hint: "compare it with something, as in: where legend = \"Bike\"")
            }
            return .filter(input, predicate: b)
        case .aggregate(let items, let keys):
            return try AggregateBinder(schema: schema).bind(items, keys, input: input)
        case .distinct(let items):
            let keys = items.map { GroupKey(kind: .expr($0), alias: nil, span: $0.span) }
            return try AggregateBinder(schema: schema).bind([], keys, input: input)
        case .sort(let keys):
            return .sort(input, keys: try keys.map { BoundSortKey(expr: try exprs.bind($0.expr), descending: $0.descending) })
        case .top(let n, let keys):
            if !keys.isEmpty {
                return .limit(.sort(input, keys: try keys.map { BoundSortKey(expr: try exprs.bind($0.expr), descending: $0.descending) }), count: n, offset: 0)
            }
            if case .sort = input { return .limit(input, count: n, offset: 0) }
            guard let i = schema.fields.lastIndex(where: { $0.type.isNumeric || $0.type == .duration }) else {
                throw Diagnostic("top needs a key when there is no numeric column", at: stage.span, hint: "write top \(n) by COLUMN")
            }
            return .limit(.sort(input, keys: [BoundSortKey(expr: .column(i, schema.fields[i]), descending: true)]), count: n, offset: 0)
        case .limit(let n, let offset):
            return .limit(input, count: n, offset: offset)
        case .select(let items):
            return try select(items, input: input)
        case .derive(let assignments):
            // Each assignment sees the columns made before it: let a = x * 2, b = a + 1.
            var plan = input
            for (name, e) in assignments {
                let current = plan.schema
                var items = current.fields.enumerated().map { NamedExpr(name: $1.name, expr: .column($0, $1)) }
                let named = NamedExpr(name: name, expr: try ExprBinder(schema: current).bind(e))
                if let i = current.index(of: name) { items[i] = named } else { items.append(named) }
                plan = project(plan, items)
            }
            return plan
        case .rename(let pairs):
            var items = schema.fields.enumerated().map { NamedExpr(name: $1.name, expr: .column($0, $1)) }
            for (from, to) in pairs {
                guard let i = schema.index(of: from) else { throw exprs.unknownColumn(from, stage.span) }
                items[i].name = to
            }
            var plan = project(input, items)
            if let t = schema.timeColumn, let renamed = pairs.first(where: { $0.from.lowercased() == t.lowercased() }) {
                plan = plan.withTimeColumn(renamed.to)
            }
            return plan
        case .join(let other, let kind, let keys):
            return try JoinBinder(context: context, binder: self).bind(input, other, kind, keys, span: stage.span)
        case .fill(let step):
            return try FillBinder.bind(input, step: step, span: stage.span)
        default:
            throw Diagnostic("\(stage.verb) cannot be used inside a pipeline", at: stage.span)
        }
    }

    func project(_ input: LogicalPlan, _ items: [NamedExpr]) -> LogicalPlan {
        let schema = input.schema
        let fields = items.map { item -> Field in
            var ordered = false
            if case .column(_, let f) = item.expr { ordered = f.ordered }
            if case .bucket(.weekday, _, _) = item.expr { ordered = true }
            return Field(name: item.name, type: item.expr.type, unit: item.expr.unit, ordered: ordered)
        }
        // The time column survives if it is still there under its name.
        // GTFS stop times keep a duration (a service time) as their time column.
        let time = schema.timeColumn.flatMap { t in fields.contains(where: { $0.name == t && ($0.type == .timestamp || $0.type == .duration) }) ? t : nil }
            ?? fields.first(where: { $0.type == .timestamp })?.name
        return .project(input, items, schema: Schema(fields: fields, zone: schema.zone, timeColumn: time))
    }

    func select(_ items: [SelectItem], input: LogicalPlan) throws -> LogicalPlan {
        let schema = input.schema
        let exprs = ExprBinder(schema: schema)
        var out: [NamedExpr] = []
        let all = schema.fields.enumerated().map { NamedExpr(name: $1.name, expr: .column($0, $1)) }
        for (k, item) in items.enumerated() {
            switch item.kind {
            case .all:
                out.append(contentsOf: all)
            case .exclude(let name):
                if k == 0 || out.isEmpty { out = all }
                guard schema.index(of: name) != nil else { throw exprs.unknownColumn(name, item.span) }
                out.removeAll { $0.name.lowercased() == name.lowercased() }
            case .expr(let e, let alias):
                let b = try exprs.bind(e)
                let name = alias ?? ExprNaming.name(e)
                out.removeAll { $0.name == name }
                out.append(NamedExpr(name: name, expr: b))
            }
        }
        return project(input, out)
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
            if args.isEmpty { return f }
            return f
        case .literal(let v, _): return "\(Arithmetic.text(v))"
        default: return "value"
        }
    }
}
