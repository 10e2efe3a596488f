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
            keyFields.append(Field(name: finalName, type: bound.type, unit: bound.unit, ordered: ordered, space: bound.space))
        }

        var aggregates: [BoundAggregate] = []
        var aggregateFields: [Field] = []
        for item in items {
            let argument = try item.argument.map(exprs.bind)
            let second = try item.second.map(exprs.bind)
            let type = try resultType(item, argument, second)
            var base = item.function.name
            if item.distinct { base = "distinct" }
            // `corr_miles_price`: both columns, in the order written.
            for arg in [item.argument, item.second].compactMap({ $0 }) { base += "_" + ExprNaming.name(arg) }
            if item.function == .count && !item.distinct && item.argument != nil { base = "count_" + ExprNaming.name(item.argument!) }
            // A group's path or collection is what the row is: `path`, not `path_point`.
            if [.path, .collect, .dissolve].contains(item.function) { base = item.function.name }
            let name = unique(item.alias ?? base)
            aggregates.append(BoundAggregate(function: item.function, argument: argument, distinct: item.distinct, name: name, type: type,
                                             second: second))
            var unit = DisplayUnit.automatic
            if let argument, type == argument.type, [.timestamp, .duration].contains(type) { unit = argument.unit }
            aggregateFields.append(Field(name: name, type: type, unit: unit == .clock && item.function == .sum ? .automatic : unit,
                                         space: argument?.space ?? .lnglat))
        }
        let fields = keyFields + aggregateFields
        let time = keyFields.first(where: { $0.type == .timestamp })?.name
        return LogicalPlan(AggregateNode(input, keys: boundKeys, aggregates: aggregates,
                                         schema: Schema(fields: fields, zone: schema.zone, timeColumn: time,
                                                        groupKeys: boundKeys.isEmpty ? nil : boundKeys.map(\.name),
                                                        keyOrder: boundKeys.isEmpty ? nil : boundKeys.map(\.name))))
    }

    /// One key of a `by` list, bound alone (for the groups of `let … by`).
    func boundKey(_ key: GroupKey) throws -> NamedExpr {
        let exprs = ExprBinder(schema: schema)
        switch key.kind {
        case .every(let step, let column):
            let target = try column.map(exprs.bind) ?? exprs.timeColumn(for: "every", key.span)
            try exprs.checkTimeArgument(target, "every", key.span)
            return NamedExpr(name: key.alias ?? "every", expr: .bucket(.every(step), target, schema.zone))
        case .expr(let e):
            return NamedExpr(name: key.alias ?? ExprNaming.name(e), expr: try exprs.bind(e))
        }
    }

    func resultType(_ item: AggregateItem, _ argument: BoundExpr?, _ second: BoundExpr? = nil) throws -> DataType {
        let f = item.function
        if f == .count { return .int }
        if f.isPaired { return try pairType(item, argument, second) }
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
            // The mean of true and false is the share of true: what `avg is_late` is asked for.
            if t == .bool && f == .avg { return .double }
            if t == .duration || t == .timestamp { return t }
            throw refuse("numbers, durations or times")
        case .circmean:
            if t.isNumeric { return .double }
            throw refuse("angles in degrees (numbers)")
        case .stddev:
            if t.isNumeric { return .double }
            if t == .duration { return .duration }
            throw refuse("numbers or durations")
        case .min, .max, .first, .last:
            if t == .null { throw Diagnostic("\(what) has no values", at: item.span) }
            return t
        case .corr, .covar, .covarPop, .regrSlope, .regrIntercept, .regrR2:
            return try pairType(item, argument, second)
        case .path, .collect, .dissolve:
            guard t == .geometry else {
                throw Diagnostic("\(f.name) needs geometries, but \(what) is \(t.displayName)", at: item.span,
                                 hint: t.isNumeric ? "make points first: \(f.name) point(lng, lat) by …" : nil)
            }
            return .geometry
        }
    }

    /// Two-column summaries take numbers (whole or not) and give a number. A column of
    /// nulls only is allowed: the answer is null.
    func pairType(_ item: AggregateItem, _ first: BoundExpr?, _ second: BoundExpr?) throws -> DataType {
        let f = item.function
        guard let first, let second, let a = item.argument, let b = item.second else {
            throw Diagnostic("\(f.name) takes two columns, as in \(f.name)(a, b)", at: item.span)
        }
        for (bound, written) in [(first, a), (second, b)] where !(bound.type.isNumeric || bound.type == .null) {
            // A column by its name; anything else as written (`picked_up_at - requested_at`).
            let what = written.syntax
            var hint: String
            switch bound.type {
            case .duration: hint = "to use a duration as a number, write it in a unit: \(f.name)(minutes(\(what)), …)"
            case .bool: hint = "to count true as 1 and false as 0, write: \(f.name)(int(\(what)), …)"
            case .string: hint = "\(f.name) pairs two columns of numbers; for one value per \(what), put it after by: \(f.name)(a, b) by \(what)"
            default: hint = "\(f.name) measures how two numeric columns vary together"
            }
            throw Diagnostic("\(f.name) needs two columns of numbers, but \(what) is \(bound.type.displayName)", at: written.span, hint: hint)
        }
        return .double
    }
}

