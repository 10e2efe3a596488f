import Foundation
import UTQCore

/// A join as SQL: each side's keys computed in a SELECT over it, then joined on them. Keys
/// must have one type on both sides, and not be a weekday or month sent as a number.
extension JoinNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters ordered: Bool) throws -> SQLCompiler.Relation {
        let left = inputs[0], right = inputs[1]
        let l = self.left, r = self.right
        let connection = c.connection
        func expr(_ e: BoundExpr, _ schema: Schema, _ codes: [String: [String]]) throws -> String { try c.expr(e, schema, codes) }
        func coded(_ e: BoundExpr, _ codes: [String: [String]]) -> [String]? { c.coded(e, codes) }
        var leftList = ["t.*"], rightList = ["t.*"], on: [String] = []
        // utq's join gives the left rows in their order, each one's matches in the right
        // side's order: told to the database when the order matters above.
        if ordered {
            leftList.append("\(c.rowNumber(left)) AS \"utq_row\"")
            rightList.append("\(c.rowNumber(right)) AS \"utq_row\"")
        }
        for (k, (a, b)) in zip(leftKeys, rightKeys).enumerated() {
            guard a.type == b.type, coded(a, left.codes) == nil, coded(b, right.codes) == nil else { throw NotInSQL("its keys are of two types, or a weekday or month the database holds as a number") }
            leftList.append("\(try expr(a, l.schema, left.codes)) AS \"utq_key\(k)\"")
            rightList.append("\(try expr(b, r.schema, right.codes)) AS \"utq_key\(k)\"")
            on.append("l.\"utq_key\(k)\" = r.\"utq_key\(k)\"")
        }
        for (k, range) in ranges.enumerated() {
            guard [.less, .lessEqual, .greater, .greaterEqual].contains(range.op), range.left.type == range.right.type,
                  [.int, .double, .timestamp, .duration].contains(range.left.type) else { throw NotInSQL("this range compares values of two types, or of a type the database orders otherwise") }
            leftList.append("\(try expr(range.left, l.schema, left.codes)) AS \"utq_range\(k)\"")
            rightList.append("\(try expr(range.right, r.schema, right.codes)) AS \"utq_range\(k)\"")
            on.append("l.\"utq_range\(k)\" \(range.op.rawValue) r.\"utq_range\(k)\"")
        }
        let leftCount = l.schema.fields.count
        var codes = left.codes, labels = left.labels
        var list = l.schema.fields.map { "l.\(connection.identifier($0.name))" }
        for (k, c) in rightColumns.enumerated() {
            let from = r.schema.fields[c].name, to = schema.fields[leftCount + k].name
            list.append("r.\(connection.identifier(from)) AS \(connection.identifier(to))")
            if let x = right.codes[from] { codes[to] = x }
            if let x = right.labels[from] { labels[to] = x }
        }
        let sql = "SELECT \(list.joined(separator: ", ")) FROM (SELECT \(leftList.joined(separator: ", ")) FROM (\(left.sql)) AS t) AS l "
            + "\(kind == .left ? "LEFT " : "")JOIN (SELECT \(rightList.joined(separator: ", ")) FROM (\(right.sql)) AS t) AS r "
            + "ON \(on.isEmpty ? "TRUE" : on.joined(separator: " AND "))"
            + (ordered ? " ORDER BY l.\"utq_row\", r.\"utq_row\"" : "")
        var joined = SQLCompiler.Relation(sql: sql, codes: codes, labels: labels, copies: left.copies + right.copies)
        if ordered { joined.orderNote = SQLCompiler.orderNote(inputs) }
        return joined
    }
}

extension SQLCompiler {
    /// Numbers a step's rows in utq's order: the input's own, or a summary's key order when the
    /// rows come from one (its keys must sort alike in SQL: numbers, times, booleans, codes).
    func numbering(_ input: LogicalPlan, _ below: Relation) throws -> String {
        guard let keys = keyOrder(input.schema) else { return rowNumber(below) }
        guard keys.allSatisfy({ Self.sortsAlike($0.type) || below.codes[$0.name] != nil }) else {
            throw NotInSQL("the rows' order is their groups', whose text keys sort in utq's natural order")
        }
        return "row_number() OVER (ORDER BY \(keys.map { "\(connection.identifier($0.name)) ASC NULLS LAST" }.joined(separator: ", ")))"
    }
}
