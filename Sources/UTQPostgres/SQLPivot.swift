import Foundation
import UTQCore

/// `pivot` as conditional aggregation: one row per combination of the row keys (in the order
/// the combinations first appear, as utq gives them), one column per value of the key holding
/// the value of the last row with it; a combination without such a row holds the fill (0 for
/// counts and sums) or null.
extension PivotNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters: Bool) throws -> SQLCompiler.Relation {
        let below = inputs[0]
        let connection = c.connection
        func literal(_ v: Value) -> String { c.literal(v) }
        let fields = input.schema.fields
        let key = fields[spec.key], value = fields[spec.value]
        let keyNames = below.codes[key.name]
        let k = connection.identifier(key.name), v = connection.identifier(value.name)
        var list = spec.rowKeys.map { connection.identifier(fields[$0].name) }
        for (slot, name) in spec.names.enumerated() {
            let match: String
            switch spec.values[slot] {
            case .null: match = "\(k) IS NULL"
            case .string(let s) where keyNames != nil: match = "\(k) = \(keyNames!.firstIndex(of: s) ?? -1)"
            case let other: match = "\(k) = \(literal(other))"
            }
            let last = "(array_agg(\(v) ORDER BY \"utq_row\" DESC) FILTER (WHERE \(match)))[1]"
            let cell = spec.fill.map { "CASE WHEN count(*) FILTER (WHERE \(match)) = 0 THEN \(literal($0)) ELSE \(last) END" } ?? last
            list.append("\(cell) AS \(connection.identifier(name))")
        }
        // Without row keys, one row, unless there are no rows at all.
        let group = spec.rowKeys.isEmpty ? " HAVING count(*) > 0" : " GROUP BY " + (1...spec.rowKeys.count).map(String.init).joined(separator: ", ")
        let sql = "SELECT \(list.joined(separator: ", ")) FROM (SELECT t.*, \(try c.numbering(input, below)) AS \"utq_row\" FROM (\(below.sql)) AS t) AS t"
            + group + " ORDER BY min(\"utq_row\")"
        var codes: [String: [String]] = [:], labels: [String: [String]] = [:]
        for r in spec.rowKeys {
            if let c = below.codes[fields[r].name] { codes[fields[r].name] = c }
            if let l = below.labels[fields[r].name] { labels[fields[r].name] = l }
        }
        for name in spec.names {
            if let c = below.codes[value.name] { codes[name] = c }
            if let l = below.labels[value.name] { labels[name] = l }
        }
        var r = SQLCompiler.Relation(sql: sql, codes: codes, labels: labels, copies: below.copies)
        r.orderNote = SQLCompiler.orderNote(inputs)
        return r
    }
}
