/// Runs a logical plan on tables in memory, one operator per node. Only `MemoryBackend`
/// makes one.
struct Executor {
    let context: ExecutionContext
    var catalog: Catalog { context.catalog }
    var cancel: CancellationFlag? { context.cancel }

    func checkCancelled() throws {
        if cancel?.isCancelled == true { throw CancellationError() }
    }

    func run(_ plan: LogicalPlan) throws -> Table {
        try checkCancelled()
        if let memo = context.memo, let kept = memo.table(for: plan) { return kept }
        switch plan {
        case .scan(.table(let name), _):
            guard let t = catalog[name] else { throw Diagnostic("table \(name) is no longer loaded") }
            return t
        case .scan(.result(let n), _):
            guard let t = context.results[n] else { throw Diagnostic("result $\(n) is no longer kept") }
            return t
        case .tables(let current):
            return TablesListing.table(catalog, current: current)
        case .describe(let input):
            return Describe.table(for: try run(input))
        case .pivot(let input, let spec, let schema):
            return try Reshape.pivot(try run(input), spec, schema: schema, cancel: cancel)
        case .unpivot(let input, let columns, let kept, let schema):
            return try Reshape.unpivot(try run(input), columns: columns, kept: kept, schema: schema)
        case .union(let plans, let schema):
            return try Reshape.union(try plans.map { try run($0) }, schema: schema)
        case .window(let input, let partition, let calls, _):
            return try Window(table: try run(input), notes: context.notes, cancel: cancel).run(partition: partition, calls: calls)
        case .filter(let input, let predicate):
            let t = try run(input)
            let rows = try Evaluator(table: t, notes: context.notes).selection(predicate)
            if rows.count == t.rowCount { return t }
            return t.gather(rows)
        case .project(let input, let items, let schema):
            let t = try run(input)
            let ev = Evaluator(table: t, notes: context.notes)
            var columns: [Column] = []
            for item in items {
                var c = try ev.column(item.expr, name: item.name)
                if let f = schema.fields.first(where: { $0.name == item.name }) { c.unit = f.unit; c.floating = f.floating }
                columns.append(c)
            }
            var out = Table(name: t.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: t.rowNoun)
            out.rowCount = t.rowCount
            return out
        case .aggregate(let input, let keys, let aggregates, let schema):
            let t = try run(input)
            return try GroupBy(table: t, cancel: cancel, notes: context.notes).run(keys: keys, aggregates: aggregates, schema: schema)
        case .sort(let input, let keys):
            return try sorted(try run(input), keys, limit: nil)
        case .limit(.sort(let input, let keys), let count, let offset):
            // Only the rows kept are ordered: `top 3 by x` of a million rows is a heap pass.
            let (wanted, overflow) = count.addingReportingOverflow(offset)
            let t = try sorted(try run(input), keys, limit: overflow ? Int.max : wanted)
            return sliced(t, count: count, offset: offset)
        case .limit(let input, let count, let offset):
            return sliced(try run(input), count: count, offset: offset)
        case .join(let left, let right, let kind, let lk, let rk, let ranges, let rightColumns, let schema):
            let l = try run(left), r = try run(right)
            return try HashJoin.run(l, r, kind: kind, leftKeys: lk, rightKeys: rk, ranges: ranges, rightColumns: rightColumns, schema: schema, cancel: cancel,
                                    memoryLimit: context.memoryLimit, notes: context.notes)
        case .fill(let input, let spec):
            return try Fill.run(try run(input), key: spec.key, step: spec.step, otherKeys: spec.otherKeys,
                                zeroColumns: spec.zeroColumns, cancel: cancel)
        }
    }
}

extension Executor {
    func sorted(_ t: Table, _ keys: [BoundSortKey], limit: Int?) throws -> Table {
        let ev = Evaluator(table: t, notes: context.notes)
        let columns = try keys.map { try ev.column($0.expr) }
        let order = try Sorting.order(columns, descending: keys.map(\.descending), count: t.rowCount, limit: limit, cancel: cancel)
        if limit == nil || order.count == t.rowCount, order.elementsEqual(0..<Int32(t.rowCount)) { return t }
        return t.gather(order)
    }

    func sliced(_ t: Table, count: Int, offset: Int) -> Table {
        let start = min(offset, t.rowCount), end = min(t.rowCount, start + count)
        if start == 0 && end == t.rowCount { return t }
        return t.gather((start..<end).map { Int32($0) })
    }
}

public struct CancellationError: Error {
    public init() {}
}
