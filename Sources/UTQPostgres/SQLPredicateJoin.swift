import Foundation
import UTQCore

/// A join on a condition as SQL: each side's columns under the names the joined rows give
/// them (unique across both), joined ON the condition over those names; in utq's order (the
/// left rows', then each one's matches in the right side's) when the order matters above.
extension PredicateJoinNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters ordered: Bool) throws -> SQLCompiler.Relation {
        let left = inputs[0], right = inputs[1]
        let id = c.connection.identifier
        let width = self.left.schema.fields.count
        var codes = left.codes, labels = left.labels
        var leftList = self.left.schema.fields.map { "t.\(id($0.name)) AS \(id($0.name))" }
        var rightList: [String] = []
        for (k, f) in self.right.schema.fields.enumerated() {
            let joined = schema.fields[width + k].name
            rightList.append("t.\(id(f.name)) AS \(id(joined))")
            if let x = right.codes[f.name] { codes[joined] = x }
            if let x = right.labels[f.name] { labels[joined] = x }
        }
        if ordered {
            leftList.append("\(c.rowNumber(left)) AS \"utq_lrow\"")
            rightList.append("\(c.rowNumber(right)) AS \"utq_rrow\"")
        }
        let condition = try c.expr(predicate, schema, codes)
        let names = schema.fields.map { id($0.name) }.joined(separator: ", ")
        let sql = "SELECT \(names) FROM (SELECT \(leftList.joined(separator: ", ")) FROM (\(left.sql)) AS t) AS l "
            + "\(kind == .left ? "LEFT " : "")JOIN (SELECT \(rightList.joined(separator: ", ")) FROM (\(right.sql)) AS t) AS r ON \(condition)"
            + (ordered ? " ORDER BY \"utq_lrow\", \"utq_rrow\"" : "")
        var joined = SQLCompiler.Relation(sql: sql, codes: codes, labels: labels, copies: left.copies + right.copies)
        if ordered { joined.orderNote = SQLCompiler.orderNote(inputs) }
        return joined
    }
}
