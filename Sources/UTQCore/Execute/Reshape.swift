/// pivot, unpivot and union: tables made long, wide, and longer.
enum Reshape {
    static func pivot(_ t: Table, _ spec: PivotSpec, schema: Schema, cancel: CancellationFlag?) throws -> Table {
        let n = t.rowCount
        let keys = spec.rowKeys.map { t.columns[$0] }
        let (groupOf, firstRow) = try GroupIds.of(keys, rows: n, cancel: cancel)
        let groups = n == 0 ? 0 : firstRow.count
        let slotOf = Dictionary(spec.values.enumerated().map { (PivotKey($1), $0) }, uniquingKeysWith: { a, _ in a })
        // For each new column, the row that fills each group's cell (-1: none).
        var rows = [[Int32]](repeating: [Int32](repeating: -1, count: groups), count: spec.values.count)
        let keyColumn = t.columns[spec.key]
        for i in 0..<n {
            if i & 0xFFFF == 0, cancel?.isCancelled == true { throw CancellationError() }
            guard let slot = slotOf[PivotKey(keyColumn.value(at: i))] else { continue }
            rows[slot][Int(groupOf[i])] = Int32(i)
        }
        var columns = spec.rowKeys.map { t.columns[$0].gather(Array(firstRow.prefix(groups))) }
        let value = t.columns[spec.value]
        for (slot, name) in spec.names.enumerated() {
            var c = value.gather(rows[slot])
            if let fill = spec.fill, rows[slot].contains(-1) {
                c = Column.from(values: (0..<groups).map { rows[slot][$0] < 0 ? fill : c.value(at: $0) }, type: value.type, unit: value.unit)
            }
            c.name = name
            c.unit = value.unit
            columns.append(c)
        }
        var out = Table(name: t.name, columns: columns, zone: schema.zone, timeColumn: nil, rowNoun: "rows")
        out.rowCount = groups
        return out
    }

    static func unpivot(_ t: Table, columns picked: [Int], kept: [Int], schema: Schema) throws -> Table {
        let n = t.rowCount, k = picked.count
        // Row i of the input gives rows i*k … i*k+k-1.
        let repeated = (0..<(n * k)).map { Int32($0 / max(1, k)) }
        var columns = kept.map { t.columns[$0].gather(repeated) }
        let names = picked.map { t.columns[$0].name }
        var codes = [UInt32](repeating: 0, count: n * k)
        for r in 0..<(n * k) { codes[r] = UInt32(r % k) }
        columns.append(Column(name: schema.fields[schema.fields.count - 2].name,
                              storage: .string(StringStorage(codes: codes, dictionary: names.isEmpty ? [""] : names, ordered: true))))
        let valueField = schema.fields[schema.fields.count - 1]
        var values = [Value](repeating: .null, count: n * k)
        for (j, c) in picked.enumerated() {
            let col = t.columns[c]
            for i in 0..<n { values[i * k + j] = col.value(at: i) }
        }
        columns.append(Column.from(values: values, type: valueField.type, name: valueField.name, unit: valueField.unit))
        var out = Table(name: t.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: t.rowNoun)
        out.rowCount = n * k
        return out
    }

    /// Column by column, array by array (`Column.concatenate`); the binder has made sure the
    /// columns of one name are of one kind, or whole numbers and numbers.
    static func union(_ tables: [Table], schema: Schema) throws -> Table {
        var columns: [Column] = []
        for f in schema.fields {
            let pieces = tables.map { Column.Piece(column: $0.column(f.name), count: $0.rowCount, zone: $0.zone) }
            var column = Column.concatenate(pieces, name: f.name, type: f.type)
            column.unit = f.unit
            columns.append(column)
        }
        let rows = tables.reduce(0) { $0 + $1.rowCount }
        var out = Table(name: tables.first?.name ?? "union", columns: columns, zone: schema.zone, timeColumn: schema.timeColumn,
                        rowNoun: tables.first?.rowNoun ?? "rows")
        out.rowCount = rows
        return out
    }
}

/// A key's value as a dictionary key: whole numbers and equal numbers match.
struct PivotKey: Hashable {
    let value: Value
    init(_ v: Value) { value = HashJoin.normalize(v) }
}

