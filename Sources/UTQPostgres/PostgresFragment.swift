import Foundation
import UTQCore

/// A part of a plan sent to PostgreSQL as one query: the loaded tables it reads are copied
/// in first, then its SQL runs and its rows are read into columns of the plan's types.
/// `describe` is counted by queries of its own.
struct PostgresFragment: RemoteFragment {
    let postgres: PostgresDatabase
    let relation: SQLCompiler.Relation
    let schema: Schema

    var database: String { postgres.name }
    var copies: [(name: String, rows: Int)] { relation.copies.map { ($0.name, $0.table.rowCount) } }

    var explainText: String {
        var text = ""
        if !relation.copies.isEmpty {
            text += "copied into temporary tables of \(database) first: "
                + relation.copies.map { "\($0.name) (\(NumberText.counted($0.table.rowCount, "row")))" }.joined(separator: ", ") + "\n"
        }
        if relation.described != nil {
            return text + "describe in \(database): one query counts each column's values, nulls and distinct values and finds the extremes "
                + "of numbers and times; text sends its distinct values, ordered here. Over:\n" + Self.indented(relation.sql)
        }
        if let note = relation.orderNote { text += note + "\n" }
        return text + "SQL sent to \(database):\n" + Self.indented(relation.sql)
    }

    static func indented(_ sql: String) -> String {
        SQLLayout.layout(sql).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    func run(_ context: ExecutionContext) throws -> Table {
        for copy in relation.copies {
            let started = DispatchTime.now().uptimeNanoseconds
            if try postgres.perform(copy, cancel: context.cancel) {
                context.notes?.time("copying \(copy.name) in", Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
                context.notes?.add("copied \(copy.name) into \(database)",
                                   "\(copy.name) (\(NumberText.counted(copy.table.rowCount, "row"))) was copied into a temporary table of \(database) for this pipeline",
                                   as: .placement)
            }
        }
        if let described = relation.described { return try describe(described, context) }
        return try fetch(context)
    }

    /// Runs the SQL and reads its rows into columns of the plan's types.
    func fetch(_ context: ExecutionContext) throws -> Table {
        let started = DispatchTime.now().uptimeNanoseconds
        let connection = postgres.connection
        let rows = try connection.query(relation.sql, cancel: context.cancel)
        let wait = connection.lastWait
        defer {
            context.notes?.time("in \(database)", wait)
            context.notes?.time("reading its rows", Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 - wait)
        }
        guard rows.columns.count == schema.fields.count else {
            throw Diagnostic("the database gave \(rows.columns.count) columns where \(schema.fields.count) were expected")
        }
        let columns = try schema.fields.enumerated().map { k, field in
            try PGDecode.column(field, cells: rows.cells[k], nulls: rows.nulls[k], codes: relation.codes[field.name], labels: relation.labels[field.name])
        }
        var table = Table(name: "result", columns: columns, zone: schema.zone, timeColumn: schema.timeColumn)
        table.rowCount = rows.count
        return table
    }
}
