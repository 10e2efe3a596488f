/// Binds `count …, avg … by keys` into an aggregate node with named output columns.
struct AggregateBinder {
    let schema: Schema

    func bind(_ items: [AggregateItem], _ keys: [GroupKey], input: LogicalPlan) throws -> LogicalPlan {
        let exprs = ExprBinder(schema: schema)
        var used = Set<String>()
        func unique(_ base: String) -> String {
            var name = base
            var n = 2
            while used.contains(name.lowercased()) { name = "\(base)_\(n)"; n += 1 }
            used.insert(name.lowercased())
            return name
        }
        var boundKeys: [NamedExpr] = []
        var keyFields: [Field] = []
        for key in keys {
            let bound: BoundExpr
            var name: String
            switch key.kind {
            case .every(let step, let column):
                let target = try column.map(exprs.bind) ?? exprs.timeColumn(for: "every", key.span)
                try exprs.checkTimeArgument(target, "every", key.span)
                bound = .bucket(.every(step), target, schema.zone)
                if case .column(_, let f) = target { name = f.name } else { name = "time" }
            case .expr(let e):
                bound = try exprs.bind(e)
                name = ExprNaming.name(e)
                if case .column(let n, _) = e, schema.index(of: n) == nil, TimeBucket.named(n) != nil { name = n.lowercased() }
                if case .call(let f, let args, _) = e, TimeBucket.named(f) != nil, args.count == 1,
                   case .column(let c, _) = args[0], used.contains(f.lowercased()) {
                    name = "\(f)_\(c)"
                }
            }
            if bound.type == .null {
                throw Diagnostic("this key has no values to group by", at: key.span)
            }
            let finalName = unique(key.alias ?? name)
            boundKeys.append(NamedExpr(name: finalName, expr: bound))
            var ordered = false
            if case .column(_, let f) = bound { ordered = f.ordered }
            if case .bucket(.weekday, _, _) = bound { ordered = true }
            keyFields.append(Field(name: finalName, type: bound.type, unit: bound.unit, ordered: ordered))
        }

        var aggregates: [BoundAggregate] = []
        var aggregateFields: [Field] = []
        for item in items {
            let argument = try item.argument.map(exprs.bind)
            let type = try resultType(item, argument)
            var base = item.function.name
            if item.distinct { base = "distinct" }
            if let arg = item.argument { base += "_" + ExprNaming.name(arg) }
            if item.function == .count && !item.distinct && item.argument != nil { base = "count_" + ExprNaming.name(item.argument!) }
            let name = unique(item.alias ?? base)
            aggregates.append(BoundAggregate(function: item.function, argument: argument, distinct: item.distinct, name: name, type: type))
            var unit = DisplayUnit.automatic
            if let argument, type == argument.type, [.timestamp, .duration].contains(type) { unit = argument.unit }
            aggregateFields.append(Field(name: name, type: type, unit: unit == .clock && item.function == .sum ? .automatic : unit))
        }
        let fields = keyFields + aggregateFields
        let time = keyFields.first(where: { $0.type == .timestamp })?.name
        return .aggregate(input, keys: boundKeys, aggregates: aggregates,
                          schema: Schema(fields: fields, zone: schema.zone, timeColumn: time))
    }

    func resultType(_ item: AggregateItem, _ argument: BoundExpr?) throws -> DataType {
        let f = item.function
        if f == .count { return .int }
        guard let argument else { throw Diagnostic("\(f.name) needs a column", at: item.span) }
        let t = argument.type
        let what = ExprNaming.name(item.argument!)
        func refuse(_ needs: String) -> Diagnostic {
            var hint: String? = nil
            if t == .string { hint = "to count different values, write: count distinct \(what)" }
            return Diagnostic("\(f.name) needs \(needs), but \(what) is \(t.displayName)", at: item.span, hint: hint)
        }
        switch f {
        case .count: return .int
        case .sum:
            if t == .int || t == .double || t == .duration { return t }
            if t == .bool { return .int }
            throw refuse("numbers or durations")
        case .avg, .median, .percentile:
            if t.isNumeric { return .double }
            if t == .duration || t == .timestamp { return t }
            throw refuse("numbers, durations or times")
        case .stddev:
            if t.isNumeric { return .double }
            if t == .duration { return .duration }
            throw refuse("numbers or durations")
        case .min, .max, .first, .last:
            if t == .null { throw Diagnostic("\(what) has no values", at: item.span) }
            return t
        }
    }
}

/// Binds `join TABLE on KEY`.
struct JoinBinder {
    let context: BindContext
    let binder: Binder

    func bind(_ left: LogicalPlan, _ other: PipelineSource, _ kind: JoinKind, _ keys: [(Expr, Expr)], span: SourceSpan) throws -> LogicalPlan {
        let right = try binder.source(other)
        let ls = left.schema, rs = right.schema
        let lb = ExprBinder(schema: ls), rb = ExprBinder(schema: rs)
        var leftKeys: [BoundExpr] = [], rightKeys: [BoundExpr] = []
        var dropRight = Set<Int>()
        for (l, r) in keys {
            var a = try lb.bind(l), b = try rb.bind(r)
            // Ids read as numbers on one side and text on the other still match.
            if a.type != b.type {
                if a.type == .string && (b.type == .int || b.type == .double) { b = .call("text", [b], .string) }
                else if b.type == .string && (a.type == .int || a.type == .double) { a = .call("text", [a], .string) }
                else if a.type.isNumeric && b.type.isNumeric { a = .cast(a, .double); b = .cast(b, .double) }
                else {
                    throw Diagnostic("cannot match \(ExprNaming.name(l)) (\(a.type.displayName)) with \(ExprNaming.name(r)) (\(b.type.displayName))", at: l.span.union(r.span))
                }
            }
            leftKeys.append(a); rightKeys.append(b)
            if case .column(let i, let f) = b, case .column(_, let g) = a, f.name.lowercased() == g.name.lowercased() { dropRight.insert(i) }
        }
        let rightName: String
        switch other {
        case .table(let n, _): rightName = n.split(separator: ".").last.map(String.init) ?? n
        case .result(let n, _): rightName = "r\(n)"
        default: rightName = "right"
        }
        var fields = ls.fields
        var rightColumns: [Int] = []
        let taken = Set(ls.fields.map { $0.name.lowercased() })
        for (i, f) in rs.fields.enumerated() where !dropRight.contains(i) {
            var f = f
            if taken.contains(f.name.lowercased()) { f.name = "\(rightName).\(f.name)" }
            fields.append(f)
            rightColumns.append(i)
        }
        return .join(left, right, kind: kind, leftKeys: leftKeys, rightKeys: rightKeys, rightColumns: rightColumns,
                     schema: Schema(fields: fields, zone: ls.zone, timeColumn: ls.timeColumn))
    }
}

/// Binds `fill`: which key is the time axis and how it steps.
enum FillBinder {
    static func bind(_ input: LogicalPlan, step: Int64?, span: SourceSpan) throws -> LogicalPlan {
        let schema = input.schema
        var keyIndex: Int? = nil
        var inferred: FillStep? = nil
        if case .aggregate(_, let keys, _, _) = input {
            for (i, k) in keys.enumerated() {
                if case .bucket(let b, let target, _) = k.expr {
                    keyIndex = i
                    switch b {
                    case .hour, .year: inferred = .integer
                    case .minute: inferred = .micros(CivilTime.microsPerMinute)
                    case .every(let s): inferred = .micros(s)
                    case .day: inferred = target.type == .duration ? .integer : .micros(CivilTime.microsPerDay)
                    case .week: inferred = .micros(7 * CivilTime.microsPerDay)
                    case .month: inferred = .months(1)
                    case .weekday, .timeOfDay: inferred = nil
                    }
                    if inferred != nil { break }
                }
            }
        }
        if keyIndex == nil {
            // After a summary only its keys can be filled between; its counts are not a key.
            var candidates = schema.fields.indices
            if case .aggregate(_, let keys, _, _) = input { candidates = 0..<keys.count }
            keyIndex = candidates.first(where: { schema.fields[$0].type == .timestamp || schema.fields[$0].type == .int || schema.fields[$0].type == .duration })
        }
        guard let key = keyIndex else {
            throw Diagnostic("fill needs a time or number key to fill between", at: span, hint: "use it after count by hour or count by every 15m")
        }
        let field = schema.fields[key]
        let finalStep: FillStep
        if let step { finalStep = .micros(step) }
        else if let inferred { finalStep = inferred }
        else if field.type == .int { finalStep = .integer }
        else {
            throw Diagnostic("fill cannot tell the span between \(field.name) values", at: span, hint: "give it: fill 15m")
        }
        return .fill(input, key: key, step: finalStep, schema: schema)
    }
}
