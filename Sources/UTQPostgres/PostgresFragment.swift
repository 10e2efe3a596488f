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

    /// Runs the SQL and reads its rows into columns of the plan's types as they arrive. The
    /// columns are weighed against the memory a result may take (the session's memory-limit,
    /// else what the system has free) every few thousand rows: a result that would pass it
    /// is stopped on the server, and the message says how far it got and how large the whole
    /// would be.
    func fetch(_ context: ExecutionContext) throws -> Table {
        let started = DispatchTime.now().uptimeNanoseconds
        let connection = postgres.connection
        var builders = schema.fields.map {
            PGColumnBuilder($0, codes: relation.codes[$0.name], labels: relation.labels[$0.name])
        }
        let budget = MemoryBudget.limit(setting: context.memoryLimit)
        var rows = 0, textSinceCheck = 0
        defer {
            let wait = connection.lastWait
            context.notes?.time("in \(database)", wait)
            context.notes?.time("reading its rows", Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 - wait)
        }
        do {
            try connection.stream(relation.sql, cancel: context.cancel, columns: { names in
                guard names.count == schema.fields.count else {
                    throw Diagnostic("the database gave \(names.count) columns where \(schema.fields.count) were expected")
                }
            }, row: { result in
                let pq = connection.library
                for k in builders.indices {
                    if pq.getisnull(result, 0, Int32(k)) == 1 {
                        try builders[k].append(nil)
                    } else {
                        let value = pq.getvalue(result, 0, Int32(k)), length = Int(pq.getlength(result, 0, Int32(k)))
                        try builders[k].append(UnsafeRawBufferPointer(start: value, count: length))
                        textSinceCheck &+= length
                    }
                }
                rows += 1
                // Weighed every 8,192 rows, and sooner when their text is long.
                if rows & 0x1FFF == 0 || textSinceCheck > 4 << 20, let budget {
                    textSinceCheck = 0
                    let bytes = builders.reduce(0) { $0 + $1.bytes }
                    if bytes > budget { throw ResultTooLarge(rows: rows, bytes: bytes, budget: budget) }
                }
            })
        } catch let large as ResultTooLarge {
            builders = []
            throw tooLarge(large, limitSet: context.memoryLimit != nil)
        }
        let columns = builders.indices.map { builders[$0].column() }
        var table = Table(name: "result", columns: columns, zone: schema.zone, timeColumn: schema.timeColumn)
        table.rowCount = rows
        return table
    }

    /// How far a result got before it passed the memory it may take.
    struct ResultTooLarge: Error {
        let rows: Int
        let bytes: Int
        let budget: Int
    }

    /// The tables of this database the SQL reads, as the user names them.
    var tablesRead: [String] {
        postgres.tablesRead(by: relation.sql)
    }

    /// The message for a result stopped at the memory it may take: the rows read and what they
    /// took, and the whole as the planner estimates it (asked only now, as EXPLAIN costs a
    /// planning of the query).
    func tooLarge(_ large: ResultTooLarge, limitSet: Bool) -> Diagnostic {
        let names = tablesRead
        let source = "the result from " + (names.isEmpty ? database : names.joined(separator: " and "))
        var message = "\(source) does not fit in the memory a result may take (\(MemoryBudget.describe(large.budget))"
            + (limitSet ? ", set by memory-limit" : ", what the system has free") + "): "
            + "\(NumberText.counted(large.rows, "row")) read took \(MemoryBudget.describe(large.bytes))"
        var size = "SIZE"
        if let estimate = try? plannedRows(), large.rows > 0 {
            let whole = max(estimate, large.rows)
            let bytes = Double(large.bytes) / Double(large.rows) * Double(whole)
            if estimate > large.rows { size = Self.roundedSize(bytes * 1.2) }
            message += estimate > large.rows
                ? ", and the database expects about \(NumberText.counted(whole, "row")), which would take about \(MemoryBudget.describe(Int(min(bytes, 9e18))))"
                : ", more than the database expects (about \(NumberText.counted(estimate, "row"))), so how many more is not known"
        }
        let example = names.first ?? "\(database).TABLE"
        return Diagnostic(message,
                          hint: "have the database make the result smaller, where it runs: \(example) | limit 1000, a summary such as "
                              + "\(example) | count by COLUMN, or a where; or let results take more: set memory-limit \(size)")
    }

    /// A size for `set memory-limit` at least `bytes`: hundreds of MB, or whole GB.
    static func roundedSize(_ bytes: Double) -> String {
        let mb = bytes / 1_048_576
        if mb < 1000 { return "\(max(100, Int((mb / 100).rounded(.up)) * 100))MB" }
        return mb / 1024 < 1e9 ? "\(Int((mb / 1024).rounded(.up)))GB" : "SIZE"
    }

    /// The rows the planner expects the SQL to give.
    func plannedRows() throws -> Int? {
        let rows = try postgres.connection.query("EXPLAIN (FORMAT JSON) " + relation.sql)
        guard let text = rows.cells.first?.first,
              let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]],
              let plan = json.first?["Plan"] as? [String: Any], let n = plan["Plan Rows"] as? NSNumber else { return nil }
        return n.intValue
    }
}

extension PostgresDatabase {
    /// The tables (as `NAME.table`) whose scans the SQL holds, in the order of their names.
    func tablesRead(by sql: String) -> [String] {
        sourceNames.filter { sql.contains("FROM " + connection.identifier($0.value)) }.map(\.key).sorted()
    }
}
