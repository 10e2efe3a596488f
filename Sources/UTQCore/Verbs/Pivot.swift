/// `pivot KEY [values COL]`: each value of KEY becomes a column holding the summary's value.
enum PivotVerb {
    static let spec = VerbSpec(
        name: "pivot", category: .columns,
        usage: "pivot KEY [values COLUMN] [with totals]",
        summary: "Turn each value of a key into a column of its own (the table long to wide).",
        details: """
        After a summary, pivot hour gives one row per value of the other keys and one column per
        hour, in the key's order, holding the summary's column (name it with values COLUMN when
        there are several; the others are left out). Columns named by numbers are written in
        backquotes: sum `8`. A combination with no rows is 0 in a count (nothing was counted
        there) and empty otherwise, as in a spreadsheet's pivot table: a sum or a mean of rows
        that are not there is unknown, not 0. with totals adds a total column and a total row:
        counts and sums add up, min and max take the least and the greatest (the total of a
        mean is no sum of means: pivot count and sum, and divide). pivot makes at most 2,000
        columns.
        """,
        examples: ["count by legend, hour | pivot hour", "count by legend, hour | pivot hour with totals",
                   "avg x, count by legend, hour | pivot hour values count"],
        keywords: ["values", "with", "totals"],
        parse: { p, _ in
            let key = try p.name("the key whose values become columns")
            var value: (String, SourceSpan)? = nil
            if p.eatKeyword("values") || p.eatKeyword("value") { value = try p.name("the column whose values fill the table") }
            var totals = false
            if p.current.isKeyword("with") {
                let at = p.advance().span
                guard p.eatKeyword("totals") || p.eatKeyword("total") else {
                    throw Diagnostic("expected totals after with", at: p.current.isEnd ? at : p.current.span,
                                     hint: "for a total row and column: pivot \(key.0) with totals")
                }
                totals = true
            }
            return Syntax(key: key.0, keySpan: key.1, value: value?.0, valueSpan: value?.1, totals: totals)
        })

    /// The most columns a pivot makes.
    static let maxColumns = 2000

    struct Syntax: StageSyntax {
        var key: String
        var keySpan: SourceSpan
        var value: String?
        var valueSpan: SourceSpan?
        var totals = false

        var syntax: String { key + (value.map { " values " + $0 } ?? "") + (totals ? " with totals" : "") }

        func bind(_ input: LogicalPlan, _ binder: Binder) throws -> LogicalPlan {
            let schema = input.schema
            let exprs = binder.expressions(input)
            guard let k = schema.index(of: key) else { throw exprs.unknownColumn(key, keySpan) }
            let v: Int
            if let value {
                guard let i = schema.index(of: value) else { throw exprs.unknownColumn(value, valueSpan ?? keySpan) }
                v = i
            } else {
                // The summary's own columns, or failing that the last column.
                let keys = Set((schema.groupKeys ?? []).map { $0.lowercased() })
                let candidates = schema.fields.indices.filter { $0 != k && (keys.isEmpty ? true : !keys.contains(schema.fields[$0].name.lowercased())) }
                if !keys.isEmpty && candidates.count > 1 {
                    throw Diagnostic("pivot needs one column to spread, and there are \(candidates.count): "
                                     + candidates.map { schema.fields[$0].name }.joined(separator: ", "), at: keySpan,
                                     hint: "name it: pivot \(key) values \(schema.fields[candidates[0]].name)")
                }
                guard let last = keys.isEmpty ? schema.fields.indices.last(where: { $0 != k }) : candidates.first else {
                    throw Diagnostic("pivot needs a column to spread besides \(key)", at: keySpan)
                }
                v = last
            }
            guard v != k else { throw Diagnostic("the key and the values of pivot must be two columns", at: valueSpan ?? keySpan) }
            // The rows are the summary's other keys (its other columns go); without a summary,
            // every other column.
            let groupKeys = Set((schema.groupKeys ?? []).map { $0.lowercased() })
            let rowKeys = schema.fields.indices.filter {
                $0 != k && $0 != v && (groupKeys.isEmpty || groupKeys.contains(schema.fields[$0].name.lowercased()))
            }
            // The columns are the key's values: a probe finds them before the plan is made. Over
            // loaded rows, the probe keeps its input's rows and the pivot reads them, so they are
            // computed once.
            let keyField = schema.fields[k]
            let distinct = AggregateNode.distinct(input, column: k)
            let keep = input.scannedTables.allSatisfy { binder.context.catalog[$0]?.database == nil }
            let probe = Probe(key: "pivot \(binder.stage)", purpose: "the values of \(key), for pivot's columns" + (keep ? "; pivot then reads the rows kept" : ""),
                              plan: distinct, keepsInput: keep)
            let (answer, number) = binder.ask(probe)
            let source = keep ? LogicalPlan(ScanNode(.probe(probe.key, number: number), schema: schema)) : input
            guard let answer else {
                return LogicalPlan(PendingNode(source, stepName: "pivot",
                                               description: "pivot \(keyField.name): a column for each value of \(keyField.name), which probe \(number) finds"))
            }
            let values = (0..<answer.rowCount).map { answer.columns[0].value(at: $0) }
            guard values.count <= PivotVerb.maxColumns else {
                throw Diagnostic("pivot would make \(NumberText.grouped(values.count)) columns, one for each value of \(key); it makes at most \(NumberText.grouped(PivotVerb.maxColumns))",
                                 at: keySpan, hint: "pivot a key with fewer values, or keep fewer rows first (where …, or count by a bucket)")
            }
            let valueField = schema.fields[v]
            var names: [String] = []
            var taken = Set(rowKeys.map { schema.fields[$0].name.lowercased() })
            for value in values {
                var name = PivotVerb.columnName(value, schema.fields[k], zone: schema.zone)
                if taken.contains(name.lowercased()) { name = "\(key)_\(name)" }
                while taken.contains(name.lowercased()) { name += "_" }
                taken.insert(name.lowercased())
                names.append(name)
            }
            let fill = PivotVerb.zero(forValueOf: input, valueField)
            let fields = rowKeys.map { schema.fields[$0] } + names.map { Field(name: $0, type: valueField.type, unit: valueField.unit) }
            let spec = PivotSpec(key: k, value: v, rowKeys: rowKeys, values: values, names: names, fill: fill)
            let pivoted = LogicalPlan(PivotNode(source, spec, schema: Schema(fields: fields, zone: schema.zone, timeColumn: nil,
                                                                            groupKeys: rowKeys.isEmpty ? nil : rowKeys.map { schema.fields[$0].name })))
            return totals ? try PivotVerb.totals(pivoted, input: input, value: valueField, rowKeys: rowKeys.count, span: keySpan) : pivoted
        }
    }

    /// A total column and a total row after the pivot, when its cells add up (or are minima
    /// or maxima).
    static func totals(_ pivoted: LogicalPlan, input: LogicalPlan, value: Field, rowKeys: Int, span: SourceSpan) throws -> LogicalPlan {
        let function = summary(of: input)?.aggregates.first(where: { $0.name == value.name })?.function
        guard [.int, .double, .duration].contains(value.type) || (function == .min || function == .max) && value.type != .bool else {
            throw Diagnostic("pivot with totals adds up the cells, but \(value.name) is \(value.type.displayName)", at: span,
                             hint: "pivot a count or a sum: count by KEY, \(pivoted.schema.fields.first?.name ?? "KEY") | pivot KEY with totals")
        }
        guard let rule = TotalsRule.of(function) else {
            throw Diagnostic("pivot with totals cannot total \(value.name): a total of \(function!.name) values is not found from the cells (the mean of means is not the mean)", at: span,
                             hint: "pivot a count or a sum, or keep count and sum and divide after: let mean = sum_x / count")
        }
        var fields = pivoted.schema.fields
        let cells = Array(rowKeys..<fields.count)
        if rowKeys > 0 { fields[0].type = .string; fields[0].unit = .automatic }
        var name = "total"
        while fields.contains(where: { $0.name.lowercased() == name }) { name = "_" + name }
        fields.append(Field(name: name, type: value.type == .int && rule == .sum ? .int : value.type, unit: value.unit))
        let schema = Schema(fields: fields, zone: pivoted.schema.zone, timeColumn: nil, groupKeys: pivoted.schema.groupKeys)
        return LogicalPlan(TotalsNode(pivoted, cells: cells, rule: rule, schema: schema))
    }

    /// The summary whose columns a plan shows, through the steps that keep them as they are.
    static func summary(of plan: LogicalPlan) -> AggregateNode? {
        var p = plan
        while p.is(SortNode.self) || p.is(FilterNode.self) || p.is(LimitNode.self) || p.is(FillNode.self) { p = p.inputs[0] }
        return p.as(AggregateNode.self)
    }

    /// A column's name from a key's value, as the value is shown (8, Mon, 2017-03-23).
    static func columnName(_ v: Value, _ field: Field, zone: ZoneRules) -> String {
        switch v {
        case .null: return "null"
        case .timestamp(let t): return TimeText.display(t, zone: zone, unit: field.unit == .automatic ? .minute : field.unit)
        case .duration(let d): return TimeText.duration(d, unit: field.unit)
        default: return v.plainText
        }
    }

    /// Zero for a missing combination when the values are counts: nothing counted is 0. A sum
    /// or a mean of rows that are not there is unknown, and stays empty, as a spreadsheet's
    /// pivot table leaves it.
    static func zero(forValueOf plan: LogicalPlan, _ field: Field) -> Value? {
        guard let summary = summary(of: plan),
              let a = summary.aggregates.first(where: { $0.name == field.name }), a.function == .count else { return nil }
        switch field.type {
        case .int: return .int(0)
        case .double: return .double(0)
        case .duration: return .duration(0)
        default: return nil
        }
    }
}
