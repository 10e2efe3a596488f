import Foundation
import UTQCore

extension PostgresFragment {
    /// `describe` of rows that stay in the database: one query counts every column's values,
    /// nulls and distinct values and finds the extremes of numbers, times and booleans; text
    /// (and weekday or month names) sends its distinct values, whose smallest and largest are
    /// found here in utq's order (natural, or the column's own), which no collation matches.
    func describe(_ described: Schema, _ context: ExecutionContext) throws -> Table {
        let below = relation
        let connection = postgres.connection
        let fields = described.fields
        // Geometries too: their smallest and largest are utq's order's, found here.
        func isText(_ f: Field) -> Bool { f.type == .string || f.type == .geometry || below.codes[f.name] != nil }
        var list = ["count(*)"]
        for f in fields {
            let id = connection.identifier(f.name)
            list += ["count(\(id))", "count(DISTINCT \(id))"]
            if !isText(f) && f.type != .null && f.type != .bool { list += ["min(\(id))", "max(\(id))"] }
        }
        let stats = try fetchRow("SELECT \(list.joined(separator: ", ")) FROM (\(below.sql)) AS t", context)
        let total = Int(stats.cells[0][0]) ?? 0
        var counts: [Describe.Counts] = []
        var columns: [Column] = []
        var extremes: [(lo: Int, hi: Int)?] = []
        var k = 1
        for f in fields {
            let values = Int(stats.cells[k][0]) ?? 0, distinct = Int(stats.cells[k + 1][0]) ?? 0
            k += 2
            counts.append(Describe.Counts(values: values, nulls: total - values, distinct: distinct))
            let column: Column
            if isText(f) {
                let id = connection.identifier(f.name)
                let rows = try fetchRow("SELECT DISTINCT \(id) FROM (\(below.sql)) AS t WHERE \(id) IS NOT NULL", context)
                column = try PGDecode.column(f, cells: rows.cells[0], nulls: rows.nulls[0], codes: below.codes[f.name], labels: below.labels[f.name])
            } else if f.type == .null || f.type == .bool {
                // describe shows false and true for a column of booleans with any value.
                column = try PGDecode.column(f, cells: values > 0 ? ["f"] : [], nulls: values > 0 ? [false] : [], codes: nil)
            } else {
                column = try PGDecode.column(f, cells: [stats.cells[k][0], stats.cells[k + 1][0]],
                                             nulls: [stats.nulls[k][0], stats.nulls[k + 1][0]], codes: nil)
                k += 2
            }
            extremes.append(Describe.extremes(of: column))
            columns.append(column)
        }
        // A table of the extremes' rows, column by column, for describe to show them as utq does.
        var shown = Table(name: "describe", columns: columns, zone: described.zone, timeColumn: described.timeColumn)
        shown.rowCount = columns.map(\.count).max() ?? 0
        return Describe.table(shown, counts: counts, extremes: extremes)
    }

    private func fetchRow(_ sql: String, _ context: ExecutionContext) throws -> PGRows {
        let started = DispatchTime.now().uptimeNanoseconds
        let rows = try postgres.connection.query(sql, cancel: context.cancel)
        context.notes?.time("in \(database)", Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        return rows
    }
}
