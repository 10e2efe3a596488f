import Foundation
import UTQCore

// The SQL forms of the steps that are one SELECT over one input.

extension FilterNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters: Bool) throws -> SQLCompiler.Relation {
        let below = inputs[0]
        var r = below
        r.sql = "SELECT * FROM (\(below.sql)) AS t WHERE \(try c.expr(predicate, input.schema, below.codes))"
        // A subquery's order is not kept for certain: groups are put back in key order here,
        // and a limit above does not rely on a join's or a window's order.
        r.givesKeyOrder = false
        r.inUtqOrder = false
        return r
    }
}

extension ProjectNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters: Bool) throws -> SQLCompiler.Relation {
        let below = inputs[0]
        // Rows that are a summary's groups (or come from them) are in their key order in memory;
        // where the database's rows are not, placement puts them back in key order, which it
        // can only do while the keys are there: a select that drops one waits for that.
        if orderMatters, !below.givesKeyOrder, let keys = input.schema.keyOrder, !keys.isEmpty, (schema.keyOrder ?? []).count < keys.count {
            throw NotInSQL("the rows are in their groups' order, which the database does not give here, and it drops a key that order needs")
        }
        var codes: [String: [String]] = [:], labels: [String: [String]] = [:]
        let list = try items.map { e -> String in
            if let x = try c.codesOf(e.expr, below) { codes[e.name] = x }
            if case .column(_, let f) = e.expr, let l = below.labels[f.name] { labels[e.name] = l }
            return "\(try c.expr(e.expr, input.schema, below.codes)) AS \(c.connection.identifier(e.name))"
        }
        // The table's stored order goes along, hidden, while the rows keep it.
        let hidden = below.inTableOrder ? below.hidden : []
        var r = SQLCompiler.Relation(sql: "SELECT \((list + hidden).joined(separator: ", ")) FROM (\(below.sql)) AS t", codes: codes, labels: labels, copies: below.copies)
        r.inTableOrder = below.inTableOrder
        r.inUtqOrder = below.inUtqOrder
        r.hidden = hidden
        r.orderNote = below.orderNote
        return r
    }
}

extension AggregateNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters: Bool) throws -> SQLCompiler.Relation {
        let below = inputs[0]
        var codes: [String: [String]] = [:], labels: [String: [String]] = [:]
        var keySQL: [(sql: String, name: String)] = []
        for k in keys {
            if let x = try c.codesOf(k.expr, below) { codes[k.name] = x }
            if case .column(_, let f) = k.expr, let l = below.labels[f.name] { labels[k.name] = l }
            keySQL.append((try c.expr(k.expr, input.schema, below.codes), k.name))
        }
        var list = keySQL.map { "\($0.sql) AS \(c.connection.identifier($0.name))" }
        for a in aggregates { list.append("\(try c.aggregate(a, input.schema)) AS \(c.connection.identifier(a.name))") }
        let group = keys.isEmpty ? "" : " GROUP BY " + (1...keys.count).map(String.init).joined(separator: ", ")
        // first and last read the rows in utq's order: numbered as "utq_row" (a weekday or month
        // sent as its number would come back as the number).
        var from = below.sql
        let ordered = aggregates.filter { $0.function == .first || $0.function == .last }
        if !ordered.isEmpty {
            guard ordered.allSatisfy({ $0.argument.map { c.coded($0, below.codes) == nil } ?? true }) else {
                throw NotInSQL("first and last of a weekday or month, which the database holds as a number")
            }
            from = "SELECT t.*, \(try c.numbering(input, below)) AS \"utq_row\" FROM (\(below.sql)) AS t"
        }
        let sql = try (ordered.isEmpty ? c.splitSummary(keys: keySQL, aggregates: aggregates, input.schema, over: below) : nil)
            ?? "SELECT \(list.joined(separator: ", ")) FROM (\(from)) AS t\(group)"
        var r = SQLCompiler.Relation(sql: sql, codes: codes, labels: labels, copies: below.copies)
        // Groups come in key order, nulls last. Where the keys sort alike in both engines the
        // database is told; text keys sort in utq's order when they come back.
        if orderMatters, !keys.isEmpty, keys.allSatisfy({ SQLCompiler.sortsAlike($0.expr.type) || codes[$0.name] != nil }) {
            r.sql += " ORDER BY " + (1...keys.count).map { "\($0) ASC NULLS LAST" }.joined(separator: ", ")
            r.givesKeyOrder = true
        }
        return r
    }
}

extension SortNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters: Bool) throws -> SQLCompiler.Relation {
        let below = inputs[0]
        // Text is ordered by utq's natural order, which the database does not have: only
        // numbers, times and booleans are sorted there.
        guard keys.allSatisfy({ SQLCompiler.sortsAlike($0.expr.type) || c.coded($0.expr, below.codes) != nil }) else {
            throw NotInSQL("text sorts in utq's natural order (Line 2 before Line 10), which no collation of the database gives")
        }
        var order = try keys.map { k in "\(try c.expr(k.expr, input.schema, below.codes)) \(k.descending ? "DESC" : "ASC") NULLS LAST" }
        // utq sorts stably, and groups come out in key order: rows that tie keep the order
        // of their groups' keys. The database's sort is not stable, so it is told.
        if let groups = c.keyOrder(input.schema) {
            guard groups.allSatisfy({ SQLCompiler.sortsAlike($0.type) || below.codes[$0.name] != nil }) else {
                throw NotInSQL("rows that tie keep the order of their groups, whose text keys sort in utq's natural order")
            }
            order += groups.map { "\(c.connection.identifier($0.name)) ASC NULLS LAST" }
        }
        var r = below
        if c.keyOrder(input.schema) == nil, below.inTableOrder, !below.hidden.isEmpty {
            // Rows that tie keep the table's stored order.
            let columns = input.schema.fields.map { c.connection.identifier($0.name) }.joined(separator: ", ")
            r.sql = "SELECT \(columns) FROM (\(below.sql)) AS t ORDER BY \((order + below.hidden).joined(separator: ", "))"
        } else if c.keyOrder(input.schema) == nil, below.inTableOrder || orderMatters {
            // Rows that tie keep the order the table gives them, as utq's stable sort keeps
            // them: numbered as they come, and the number ends the ORDER BY (PostgreSQL's
            // sort is not stable, and `top 5` over ties took other rows each run). Rows of a
            // join, a union or a window come in utq's order where it matters (their SQL ends
            // with it), and are numbered in it the same way.
            let columns = input.schema.fields.map { c.connection.identifier($0.name) }.joined(separator: ", ")
            r.sql = "SELECT \(columns) FROM (SELECT t.*, row_number() OVER () AS \"utq_row\" FROM (\(below.sql)) AS t) AS t "
                + "ORDER BY \((order + ["\"utq_row\""]).joined(separator: ", "))"
        } else {
            r.sql = "SELECT * FROM (\(below.sql)) AS t ORDER BY \(order.joined(separator: ", "))"
            r.orderNote = nil
        }
        r.inTableOrder = false
        r.hidden = []
        return r
    }
}

extension LimitNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters: Bool) throws -> SQLCompiler.Relation {
        // Which rows a limit keeps must not depend on the engine: after a sort, after groups the
        // database puts in key order, over a table's rows in the order the database keeps
        // them (as memory would take them, the first it is given), or over a join's, a union's
        // or a window's in utq's order, never over rows whose order utq fixes only when they
        // come back.
        var r = inputs[0]
        let limit = " LIMIT \(count)" + (offset > 0 ? " OFFSET \(offset)" : "")
        if input.is(SortNode.self) {
            r.sql += limit
        } else if r.inTableOrder, !r.hidden.isEmpty {
            // The first rows of the table's stored order.
            r.sql = "SELECT * FROM (\(r.sql)) AS t ORDER BY \(r.hidden.joined(separator: ", "))" + limit
        } else if r.givesKeyOrder || r.inTableOrder || r.inUtqOrder {
            r.sql = "SELECT * FROM (\(r.sql)) AS t" + limit
        } else {
            throw NotInSQL("which rows a limit keeps here follows the order utq gives the rows when they come back")
        }
        return r
    }
}

extension DescribeNode: SQLStep {
    /// Counted in the database by queries of its own (see `PostgresFragment`); its table is
    /// made here from their answers.
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters: Bool) throws -> SQLCompiler.Relation {
        var r = inputs[0]
        r.described = input.schema
        return r
    }
}

extension SQLCompiler {
    /// Types whose order is the same in both engines.
    static func sortsAlike(_ t: DataType) -> Bool { [.int, .double, .timestamp, .duration, .bool].contains(t) }
}
