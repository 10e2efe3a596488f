import Foundation
import UTQCore

/// `let … by` as SQL windows over the rows numbered in their order (a summary's rows in its
/// key order, as utq has them): prev/next are lag/lead, row_number and running_sum count and
/// add in that order, rank ranks the largest first (a null has none), and a summary of the
/// group is the aggregate over the whole partition.
extension WindowNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters ordered: Bool) throws -> SQLCompiler.Relation {
        let below = inputs[0]
        let schema = input.schema
        let connection = c.connection
        func expr(_ e: BoundExpr, _ schema: Schema, _ codes: [String: [String]]) throws -> String { try c.expr(e, schema, codes) }
        let parts = try partition.map { try expr($0.expr, schema, below.codes) }
        let over = parts.isEmpty ? "" : "PARTITION BY " + parts.joined(separator: ", ")
        let inOrder = "(\(over) ORDER BY \"utq_row\")"
        var list = schema.fields.map { connection.identifier($0.name) }
        var needsOrder = false
        for call in calls {
            let x = try call.argument.map { try expr($0, schema, below.codes) }
            let sql: String
            switch call.kind {
            case .prev(let k): sql = "lag(\(x!), \(k)) OVER \(inOrder)"; needsOrder = true
            case .next(let k): sql = "lead(\(x!), \(k)) OVER \(inOrder)"; needsOrder = true
            case .rowNumber: sql = "row_number() OVER \(inOrder)"; needsOrder = true
            case .runningSum:
                guard let arg = call.argument, [.int, .double, .duration].contains(arg.type) else { throw NotInSQL("running_sum of \(call.argument?.type.displayName ?? "this") has no SQL form") }
                let added = arg.type == .double ? AggregateFunction.exactNumeric(x!, .double) : x!
                sql = "(sum(\(added)) OVER (\(over) ORDER BY \"utq_row\" ROWS UNBOUNDED PRECEDING))\(arg.type == .double ? "::float8" : "")"; needsOrder = true
            case .rank:
                // Text ranks by utq's natural order, which no collation matches.
                guard let arg = call.argument, [.int, .double, .timestamp, .duration].contains(arg.type) else { throw NotInSQL("rank of text ranks in utq's natural order, which no collation of the database gives") }
                sql = "CASE WHEN \(x!) IS NULL THEN NULL ELSE rank() OVER (\(over) ORDER BY \(x!) DESC NULLS LAST) END"
            case .rolling(let f, .rows(let size)):
                sql = try c.summary(f, call.argument.map { [$0] } ?? [], schema, codes: below.codes,
                                    over: " OVER (\(over) ORDER BY \"utq_row\" ROWS BETWEEN \(size - 1) PRECEDING AND CURRENT ROW)")
                needsOrder = true
            case .rolling(let f, .time(let span, let column)):
                // (t − span, t]: RANGE's preceding edge is inclusive, so it stops a microsecond short.
                // Whole days follow the table's calendar, which the session's zone need not be.
                if span % 86_400_000_000 == 0 && !schema.zone.isFixed {
                    throw NotInSQL("a window of days follows the calendar of \(schema.zone.identifier), where a day may have 23 or 25 hours")
                }
                let time = connection.identifier(schema.fields[column].name)
                let window = try c.summary(f, call.argument.map { [$0] } ?? [], schema, codes: below.codes,
                                           over: " OVER (\(over) ORDER BY \(time) RANGE BETWEEN INTERVAL '\(span - 1) microseconds' PRECEDING AND CURRENT ROW)")
                sql = "CASE WHEN \(time) IS NULL THEN NULL ELSE \(window) END"
            case .summary(let f):
                // The registry's summary, over the whole partition.
                sql = try c.summary(f, [call.argument, call.second].compactMap { $0 }, schema, codes: below.codes, over: " OVER (\(over))")
            }
            list.append("\(sql) AS \(connection.identifier(call.name))")
        }
        // The rows' order: the input's, or a summary's key order when the rows come from one
        // (with text keys, placement puts the groups back in key order in memory). Without a
        // call that reads it, the rows still come back in that order where it matters: a
        // table's stored order where it keeps one (a sharded table's partitions give theirs
        // one after the other).
        let numbering = needsOrder ? try c.numbering(input, below) : ordered ? (try? c.numbering(input, below)) ?? c.rowNumber(below) : c.rowNumber(below)
        let sql = "SELECT \(list.joined(separator: ", ")) FROM (SELECT t.*, \(numbering) AS \"utq_row\" FROM (\(below.sql)) AS t) AS t"
            + (ordered ? " ORDER BY \"utq_row\"" : "")
        var codes = below.codes
        for call in calls { codes[call.name] = nil }
        var r = SQLCompiler.Relation(sql: sql, codes: codes, labels: below.labels, copies: below.copies)
        // Numbered in a summary's key order, and ending with it.
        r.givesKeyOrder = ordered && c.keyOrder(input.schema) != nil && (try? c.numbering(input, below)) != nil
        if needsOrder { r.orderNote = SQLCompiler.orderNote(inputs) }
        // Groups whose key order the database cannot give (text keys) are numbered in its order:
        // not utq's, so a limit above must wait for placement to put them back in key order.
        let keyed = c.keyOrder(input.schema) != nil
        r.inUtqOrder = ordered && (!keyed || r.givesKeyOrder || below.givesKeyOrder)
        return r
    }
}
