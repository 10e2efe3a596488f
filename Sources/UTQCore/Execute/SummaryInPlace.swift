/// A summary of the whole table (no keys) that reads the rows where they are: after a `where`
/// (`where condition | count, sum x, avg y`), the rows the condition keeps, instead of a copy
/// of them, and without one, every row, with no group numbered for each. A row the condition
/// drops counts as a null of each column summarised, which every summary here leaves out; so
/// the answer is the copy's, without writing the kept rows' numbers and values, or a group
/// number a row (at 100M rows, most of a second of pages the kernel hands over fresh).
///
/// Only summaries of plain columns: `sum coalesce(x, 0)` would read a dropped row as 0, not
/// as a null. And only count, sum, avg, min and max: sums and means of one group read no row's
/// group, and the others are found here.
struct SummaryInPlace {
    let aggregates: [BoundAggregate]
    let schema: Schema

    /// `arithmetic`: with no `where` below, a sum may be of arithmetic (`sum x * 2 + y`, or a
    /// let's, `SummaryOfLet`), which `Accumulate` adds as it works it out.
    init?(aggregates: [BoundAggregate], schema: Schema, arithmetic: Bool = false) {
        guard !aggregates.isEmpty else { return nil }
        for a in aggregates {
            guard !a.distinct, a.second == nil, [.count, .sum, .avg, .min, .max].contains(a.function) else { return nil }
            if let arg = a.argument {
                switch arg {
                case .column: break
                case .binary(_, _, _, .double) where arithmetic && a.function == .sum: break
                default: return nil
                }
            } else if a.function != .count { return nil }
        }
        self.aggregates = aggregates
        self.schema = schema
    }

    init?(_ node: AggregateNode) {
        guard node.keys.isEmpty, node.input.is(FilterNode.self) else { return nil }
        self.init(aggregates: node.aggregates, schema: node.schema)
    }

    /// The summary a step makes in place, and the `where` below it, when it makes one.
    static func over(_ plan: LogicalPlan) -> (SummaryInPlace, FilterNode)? {
        guard let summary = plan.as(AggregateNode.self), let inPlace = SummaryInPlace(summary),
              let filter = summary.input.as(FilterNode.self) else { return nil }
        return (inPlace, filter)
    }

    /// The summary of `table`'s rows for which `predicate` is true (nil: every row).
    func run(_ table: Table, predicate: BoundExpr?, notes: RunNotes?, cancel: CancellationFlag?) throws -> Table {
        let keep = try predicate.map { try Evaluator(table: table, notes: notes, cancel: cancel).kept($0) }
        let n = table.rowCount
        // The columns summarised, with the dropped rows as nulls.
        var masked = table
        if let keep {
            for a in aggregates {
                guard case .column(let i, _)? = a.argument else { continue }
                masked.columns[i].validity = table.columns[i].validity.map { $0 & keep } ?? keep
            }
        }
        let ev = Evaluator(table: masked, notes: notes, cancel: cancel)
        var columns: [Column] = []
        for a in aggregates {
            var c: Column
            switch a.function {
            case .count:
                var kept = keep?.setCount ?? n
                if case .column(let i, _)? = a.argument {
                    let col = masked.columns[i]
                    if case .null = col.storage { kept = 0 } else { kept = col.validity?.setCount ?? n }
                }
                c = Column(name: a.name, storage: .int([Int64(kept)]))
            case .min, .max:
                c = Self.extreme(a, try ev.column(a.argument!), rows: n)
            default:
                c = try Accumulate.run(a, table: masked, evaluator: ev, groupOf: [], groups: 1, rows: n)
            }
            c.name = a.name
            columns.append(c)
        }
        var out = Table(name: table.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: "rows")
        out.rowCount = 1
        return out
    }
}

extension SummaryInPlace {
    /// The least or greatest value of a column's valid rows, the first of equals, as the
    /// summary by groups finds it (a null when there is none).
    static func extreme(_ a: BoundAggregate, _ arg: Column, rows n: Int) -> Column {
        if case .null = arg.storage { return Column.constant(.null, type: a.type, count: 1, name: a.name) }
        let cmp = Sorting.comparator(arg)
        var best = -1
        let f = a.function
        @inline(__always) func consider(_ i: Int) { if Accumulate.replaces(f, cmp, i, best) { best = i } }
        if let valid = arg.validity {
            valid.words.withUnsafeBufferPointer { words in
                for k in 0..<words.count {
                    var m = words[k]
                    while m != 0 { consider(k << 6 | m.trailingZeroBitCount); m &= m &- 1 }
                }
            }
        } else {
            for i in 0..<n { consider(i) }
        }
        return Accumulate.picked(arg, [Int32(best)], name: a.name)
    }
}
