import Foundation
import UTQCore

/// Runs plans on an attached PostgreSQL database: the part of the plan that reads the
/// database's tables and compiles to SQL is sent as one query; the steps above it that do
/// not compile run in memory on the rows that come back (a note says how many).
struct PostgresBackend: Backend {
    let database: PostgresDatabase
    /// The session's tables, for explain to tell loaded tables from the database's.
    var catalog = Catalog()

    var name: String { "in PostgreSQL (\(database.name): \(database.location))" }

    func explain(_ plan: LogicalPlan) -> String? {
        // Which loaded tables would be sent (their temporary names as they would be).
        var compiler = SQLCompiler(database: database)
        var sent: [String] = []
        for (k, local) in database.localTables(of: plan, in: catalog).enumerated() where local.sent {
            compiler.uploads[local.name] = database.uploads[local.name].flatMap { $0.same(as: local.table) ? $0 : nil }
                ?? Upload(local.table, temp: database.uploads[local.name]?.temp ?? "utq_upload_\(database.uploads.count + k + 1)")
            sent.append("\(local.name) (\(NumberText.counted(local.table.rowCount, "row")))")
        }
        var sql: String? = nil
        var local: [String] = []
        var node = plan
        if case .describe(let input) = plan, let below = try? compiler.compile(input, ordered: false) {
            return "describe in \(database.name): one query counts each column's values, nulls and distinct values and finds the extremes "
                + "of numbers and times; text sends its distinct values, ordered here. Over:\n" + Self.indented(below.sql)
        }
        while true {
            if let r = try? compiler.compile(node) { sql = r.sql; break }
            local.append(node.stepName)
            guard let first = node.inputs.first, node.inputs.count == 1 else { break }
            node = first
        }
        var text = ""
        if !sent.isEmpty { text += "copied into temporary tables of \(database.name) first: " + sent.joined(separator: ", ") + "\n" }
        text += "SQL sent to \(database.name):\n" + (sql.map(Self.indented) ?? "  (none: no step compiles)")
        if !local.isEmpty { text += "\nthen in memory: " + local.reversed().joined(separator: ", ") }
        return text
    }

    static func indented(_ sql: String) -> String {
        SQLLayout.layout(sql).split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    func run(_ plan: LogicalPlan, in context: ExecutionContext) throws -> Table {
        // Loaded tables the pipeline joins with the database's: small ones are copied in, so
        // the join runs there; a large one stays, and the database's side comes here.
        var compiler = SQLCompiler(database: database)
        for local in database.localTables(of: plan, in: context.catalog) {
            guard local.sent else {
                context.notes?.add(RunNotes.wherePrefix + "database kept \(local.name)", "\(local.name) has \(NumberText.counted(local.table.rowCount, "row")), too many to copy into \(database.name): "
                                   + "the database's rows are brought here for the join")
                continue
            }
            let started = DispatchTime.now().uptimeNanoseconds
            let (upload, copied) = try database.upload(local.table, as: local.name, cancel: context.cancel)
            if copied { context.notes?.time("copying \(local.name) in", Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9) }
            compiler.uploads[local.name] = upload
            if copied {
                context.notes?.add(RunNotes.wherePrefix + "database upload \(local.name)", "\(local.name) (\(NumberText.counted(local.table.rowCount, "row"))) was copied into a temporary table of \(database.name) for this pipeline")
            }
        }
        return try run(plan, compiler, context)
    }

    private func run(_ plan: LogicalPlan, _ compiler: SQLCompiler, _ context: ExecutionContext) throws -> Table {
        if let relation = try? compiler.compile(plan) {
            var table = try fetch(relation, schema: plan.schema, cancel: context.cancel, notes: context.notes)
            // Groups come out of utq in key order (and stay so through a where); the database
            // gives them in any order.
            if let keys = Self.groupKeyCount(plan), keys > 0 {
                let schema = plan.schema
                table = try inMemory(.sort(.scan(.result(-1), schema: schema), keys: (0..<keys).map { k in
                    BoundSortKey(expr: .column(k, schema.fields[k]), descending: false)
                }), with: [-1: table], context)
            }
            return table
        }
        if case .describe(let input) = plan, let below = try? compiler.compile(input, ordered: false) {
            return try describe(input, below, context)
        }
        // This step runs here, over its inputs run where they can.
        var results: [Int: Table] = [:]
        var inputs: [LogicalPlan] = []
        for (i, input) in plan.inputs.enumerated() {
            let slot = -1 - i
            let rows = try run(input, compiler, context)
            if input.scannedTables.contains(where: { context.catalog[$0]?.database == database.name }) {
                context.notes?.add(RunNotes.wherePrefix + "database pull \(i)", "\(plan.stepName) runs in memory on \(NumberText.grouped(rows.rowCount)) rows from \(database.name)")
            }
            results[slot] = rows
            inputs.append(.scan(.result(slot), schema: input.schema))
        }
        return try inMemory(plan.replacingInputs(inputs), with: results, context)
    }

    /// How many group keys lead the rows of a summary, when the plan is one (under wheres,
    /// windows, and lets that keep the keys first).
    static func groupKeyCount(_ plan: LogicalPlan) -> Int? {
        switch plan {
        case .aggregate(_, let keys, _, _): return keys.count
        case .filter(let input, _), .window(let input, _, _, _): return groupKeyCount(input)
        case .project(let input, let exprs, _):
            // Columns added after the keys (let), the keys still first.
            guard let k = groupKeyCount(input), exprs.count >= k else { return nil }
            for j in 0..<k { guard case .column(j, _) = exprs[j].expr else { return nil } }
            return k
        default: return nil
        }
    }

    private func inMemory(_ plan: LogicalPlan, with results: [Int: Table], _ context: ExecutionContext) throws -> Table {
        var c = context
        for (k, t) in results { c.results[k] = t }
        return try MemoryBackend().run(plan, in: c)
    }

    /// Runs the SQL and reads its rows into columns of the plan's types.
    func fetch(_ relation: SQLCompiler.Relation, schema: Schema, cancel: CancellationFlag?, notes: RunNotes? = nil) throws -> Table {
        let started = DispatchTime.now().uptimeNanoseconds
        let rows = try database.connection.query(relation.sql, cancel: cancel)
        let wait = database.connection.lastWait
        defer {
            notes?.time("in \(database.name)", wait)
            notes?.time("reading its rows", Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 - wait)
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

extension LogicalPlan {
    /// The verb a step comes from, for notes and explain.
    var stepName: String {
        switch self {
        case .scan: return "scan"
        case .tables: return "tables"
        case .filter: return "where"
        case .project: return "select/let"
        case .aggregate: return "summary"
        case .sort: return "sort"
        case .limit: return "limit"
        case .join: return "join"
        case .fill: return "fill"
        case .describe: return "describe"
        case .window: return "let … by"
        case .pivot: return "pivot"
        case .unpivot: return "unpivot"
        case .union: return "union"
        }
    }
}
