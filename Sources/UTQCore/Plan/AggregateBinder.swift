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
        }
    }
}

