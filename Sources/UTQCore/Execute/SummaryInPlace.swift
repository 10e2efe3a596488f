/// `where condition | count, sum x, avg y` (a summary of the whole table after a `where`): the
/// summary reads the rows the condition keeps where they are, instead of a copy of them. A
/// row the condition drops counts as a null of each column summed, which every summary here
/// leaves out; so the answer is the copy's, without writing the kept rows' numbers and
/// values (at 100M rows, most of a second of pages the kernel hands over fresh).
///
/// Only summaries of plain columns: `sum coalesce(x, 0)` would read a dropped row as 0, not
/// as a null. And only count, sum and avg, which read no group of a row when there is one
/// group.
struct SummaryInPlace {
    let aggregates: [BoundAggregate]
    let schema: Schema

    init?(_ node: AggregateNode) {
        guard node.keys.isEmpty, node.input.is(FilterNode.self), !node.aggregates.isEmpty else { return nil }
        for a in node.aggregates {
            guard !a.distinct, a.second == nil, [.count, .sum, .avg].contains(a.function) else { return nil }
            if let arg = a.argument { guard case .column = arg else { return nil } } else if a.function != .count { return nil }
        }
        aggregates = node.aggregates
        schema = node.schema
    }

    /// The summary a step makes in place, and the `where` below it, when it makes one.
    static func over(_ plan: LogicalPlan) -> (SummaryInPlace, FilterNode)? {
        guard let summary = plan.as(AggregateNode.self), let inPlace = SummaryInPlace(summary),
              let filter = summary.input.as(FilterNode.self) else { return nil }
        return (inPlace, filter)
    }

    /// The summary of `table`'s rows for which `predicate` is true.
    func run(_ table: Table, predicate: BoundExpr, context: ExecutionContext) throws -> Table {
        let ev = Evaluator(table: table, notes: context.notes, cancel: context.cancel)
        let keep = try ev.kept(predicate)
        let n = table.rowCount
        // The columns summed, with the dropped rows as nulls.
        var masked = table
        for a in aggregates {
            guard case .column(let i, _)? = a.argument else { continue }
            let c = table.columns[i]
            masked.columns[i].validity = c.validity.map { $0 & keep } ?? keep
        }
        let mev = Evaluator(table: masked, notes: context.notes, cancel: context.cancel)
        var columns: [Column] = []
        for a in aggregates {
            var c: Column
            if a.function == .count {
                var kept = keep.setCount
                if case .column(let i, _)? = a.argument {
                    let col = masked.columns[i]
                    if case .null = col.storage { kept = 0 } else { kept = col.validity?.setCount ?? n }
                }
                c = Column(name: a.name, storage: .int([Int64(kept)]))
            } else {
                // Sums and means of one group read no row's group.
                c = try Accumulate.run(a, table: masked, evaluator: mev, groupOf: [], groups: 1, rows: n)
            }
            c.name = a.name
            columns.append(c)
        }
        var out = Table(name: table.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: "rows")
        out.rowCount = 1
        return out
    }
}

extension Evaluator {
    /// The rows for which a condition is true (not false, not null), a bit each.
    func kept(_ predicate: BoundExpr) throws -> Bitmap {
        let n = rowCount
        switch try eval(predicate) {
        case .constant(.bool(true), _): return Bitmap(count: n, value: true)
        case .constant: return Bitmap(count: n, value: false)
        case .column(let c):
            guard case .bool(let values) = c.storage else { return Bitmap(count: n, value: false) }
            var words = [UInt64](repeating: 0, count: (n + 63) >> 6)
            values.withUnsafeBytes { raw in
                // A Bool is the byte 0 or 1: eight of them, read as one 64-bit number, times
                // 0x0102040810204080 put byte k's bit at bit 56 + k; eight such make a word.
                let b = raw.baseAddress!
                words.withUnsafeMutableBufferPointer { w in
                    let whole = n >> 6
                    for k in 0..<whole {
                        var word: UInt64 = 0
                        for j in 0..<8 {
                            let eight = b.loadUnaligned(fromByteOffset: (k << 6) + (j << 3), as: UInt64.self)
                            word |= ((eight &* 0x0102_0408_1020_4080) >> 56) << UInt64(j << 3)
                        }
                        w[k] = word
                    }
                    if whole < w.count {
                        var word: UInt64 = 0
                        for i in (whole << 6)..<n { word |= UInt64(b.load(fromByteOffset: i, as: UInt8.self)) << UInt64(i & 63) }
                        w[whole] = word
                    }
                }
            }
            let truths = Bitmap(words: words, count: n)
            return c.validity.map { truths & $0 } ?? truths
        }
    }
}
