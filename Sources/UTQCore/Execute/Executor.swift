/// Runs a logical plan on tables in memory, one operator per node.
public struct Executor {
    public let catalog: Catalog
    public let cancel: CancellationFlag?

    public init(catalog: Catalog, cancel: CancellationFlag? = nil) {
        self.catalog = catalog
        self.cancel = cancel
    }

    func checkCancelled() throws {
        if cancel?.isCancelled == true { throw CancellationError() }
    }

    public func run(_ plan: LogicalPlan) throws -> Table {
        try checkCancelled()
        switch plan {
        case .scan(let name, _):
            guard let t = catalog[name] else { throw Diagnostic("table \(name) is no longer loaded") }
            return t
        case .values(let t, _):
            return t
        case .filter(let input, let predicate):
            let t = try run(input)
            let rows = try Evaluator(table: t).selection(predicate)
            if rows.count == t.rowCount { return t }
            return t.gather(rows)
        case .project(let input, let items, let schema):
            let t = try run(input)
            let ev = Evaluator(table: t)
            var columns: [Column] = []
            for item in items {
                var c = try ev.column(item.expr, name: item.name)
                if let f = schema.fields.first(where: { $0.name == item.name }) { c.unit = f.unit }
                if case .column(let i, _) = item.expr { c.floating = t.columns[i].floating }
                columns.append(c)
            }
            var out = Table(name: t.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: t.rowNoun)
            out.rowCount = t.rowCount
            return out
        case .aggregate(let input, let keys, let aggregates, let schema):
            let t = try run(input)
            return try GroupBy(table: t, cancel: cancel).run(keys: keys, aggregates: aggregates, schema: schema)
        case .sort(let input, let keys):
            let t = try run(input)
            let ev = Evaluator(table: t)
            let columns = try keys.map { try ev.column($0.expr) }
            let order = try Sorting.order(columns, descending: keys.map(\.descending), count: t.rowCount, cancel: cancel)
            return t.gather(order)
        case .limit(let input, let count, let offset):
            let t = try run(input)
            let start = min(offset, t.rowCount), end = min(t.rowCount, start + count)
            if start == 0 && end == t.rowCount { return t }
            return t.gather((start..<end).map { Int32($0) })
        case .join(let left, let right, let kind, let lk, let rk, let rightColumns, let schema):
            let l = try run(left), r = try run(right)
            return try HashJoin.run(l, r, kind: kind, leftKeys: lk, rightKeys: rk, rightColumns: rightColumns, schema: schema, cancel: cancel)
        case .fill(let input, let key, let step, let schema):
            let t = try run(input)
            var zeroColumns: Set<Int> = []
            var otherKeys: [Int] = []
            if case .aggregate(_, let keys, let aggregates, _) = input {
                otherKeys = Array(0..<keys.count).filter { $0 != key }
                for (i, a) in aggregates.enumerated() where a.function == .count || a.function == .sum {
                    zeroColumns.insert(keys.count + i)
                }
            } else {
                for (i, f) in schema.fields.enumerated() where i != key {
                    if f.type == .string { otherKeys.append(i) } else if f.type.isNumeric { zeroColumns.insert(i) }
                }
            }
            return try Fill.run(t, key: key, step: step, otherKeys: otherKeys, zeroColumns: zeroColumns, cancel: cancel)
        }
    }
}

public struct CancellationError: Error {}
