/// The totals of a pivoted table: a last column and a last row.
enum Totals {
    static func add(_ t: Table, cells: [Int], rule: TotalsRule, schema: Schema) -> Table {
        let n = t.rowCount
        let type = schema.fields[schema.fields.count - 1].type
        func combine(_ values: [Value]) -> Value {
            let present = values.filter { if case .null = $0 { return false } else { return true } }
            guard var acc = present.first else { return .null }
            for v in present.dropFirst() {
                switch (rule, acc, v) {
                case (.sum, .int(let a), .int(let b)): acc = .int(a &+ b)
                case (.sum, .duration(let a), .duration(let b)): acc = .duration(a &+ b)
                case (.sum, _, _): acc = .double((acc.doubleValue ?? 0) + (v.doubleValue ?? 0))
                case (.min, _, _): if Comparison.compareValues(v, acc) < 0 { acc = v }
                case (.max, _, _): if Comparison.compareValues(v, acc) > 0 { acc = v }
                }
            }
            if type == .double, case .int(let i) = acc { return .double(Double(i)) }
            return acc
        }
        // The total column: each row's cells combined.
        var rowTotals = (0..<n).map { i in combine(cells.map { t.columns[$0].value(at: i) }) }
        // The total row: each column's cells combined, and the corner all of them.
        let columnTotals = cells.map { c in combine((0..<n).map { t.columns[c].value(at: $0) }) }
        let corner = combine(columnTotals)
        let keyColumns = t.columns.indices.filter { !cells.contains($0) }
        // Without row keys the table is one row: its total column is all there is to add.
        let totalRow = !keyColumns.isEmpty
        var columns: [Column] = []
        for (k, field) in schema.fields.enumerated() {
            var values: [Value]
            if k == schema.fields.count - 1 {
                values = rowTotals + [corner]
            } else if let c = cells.firstIndex(of: k) {
                values = (0..<n).map { t.columns[k].value(at: $0) } + [columnTotals[c]]
            } else if k == keyColumns.first {
                // The first key names the total row; a key of numbers or times is shown as text.
                let source = t.columns[k]
                values = (0..<n).map { i in
                    let v = source.value(at: i)
                    if field.type == .string, source.type != .string, !(v == .null) {
                        return .string(PivotVerb.columnName(v, Field(name: source.name, type: source.type, unit: source.unit), zone: t.zone))
                    }
                    return v
                } + [.string("total")]
            } else {
                values = (0..<n).map { t.columns[k].value(at: $0) } + [.null]
            }
            if !totalRow { values.removeLast() }
            var column = Column.from(values: values, type: field.type, name: field.name, unit: field.unit)
            column.unit = field.unit
            columns.append(column)
        }
        rowTotals.removeAll()
        var out = Table(name: t.name, columns: columns, zone: schema.zone, timeColumn: nil, rowNoun: t.rowNoun)
        out.rowCount = totalRow ? n + 1 : n
        out.groupKeys = t.groupKeys
        return out
    }
}
