extension ProjectNode: MemoryOperator {
    func run(_ inputs: [Table], _ executor: Executor) throws -> Table {
        let t = inputs[0]
        let ev = Evaluator(table: t, notes: executor.context.notes, cancel: executor.context.cancel)
        var columns: [Column] = []
        for item in items {
            var c = try ev.column(item.expr, name: item.name)
            if let f = schema.fields.first(where: { $0.name == item.name }) { c.unit = f.unit; c.floating = f.floating }
            columns.append(c)
        }
        var out = Table(name: t.name, columns: columns, zone: schema.zone, timeColumn: schema.timeColumn, rowNoun: t.rowNoun)
        out.rowCount = t.rowCount
        return out
    }
}
