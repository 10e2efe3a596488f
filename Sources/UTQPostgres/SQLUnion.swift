import Foundation
import UTQCore

/// `union` as UNION ALL, columns matched by name (a missing one is null, whole numbers under a
/// number column become numbers); in order, each part's rows after the one before.
extension UnionNode: SQLStep {
    func sql(_ inputs: [SQLCompiler.Relation], _ c: SQLCompiler, orderMatters ordered: Bool) throws -> SQLCompiler.Relation {
        let connection = c.connection
        var parts: [String] = []
        var codes: [String: [String]] = [:], labels: [String: [String]] = [:]
        for (i, plan) in self.parts.enumerated() {
            let below = inputs[i]
            var list: [String] = []
            for f in schema.fields {
                guard let have = plan.schema.fields.first(where: { $0.name.lowercased() == f.name.lowercased() }) else {
                    if f.type == .geometry { try c.needPostGIS() }
                    list.append("NULL::\(SQLCompiler.readType(f.type)) AS \(connection.identifier(f.name))")
                    continue
                }
                let id = connection.identifier(have.name)
                if have.type == f.type {
                    list.append("\(id) AS \(connection.identifier(f.name))")
                } else if have.type == .int && f.type == .double {
                    list.append("\(id)::float8 AS \(connection.identifier(f.name))")
                } else {
                    throw NotInSQL("\(f.name) is \(have.type.displayName) in one part and \(f.type.displayName) in another")
                }
                // Codes and labels must agree: the rows are read back one way.
                for (mine, theirs) in [(below.codes[have.name], codes[f.name]), (below.labels[have.name], labels[f.name])] where i > 0 && mine != theirs {
                    throw NotInSQL("\(f.name) is text ordered differently in its parts")
                }
                if i == 0 { codes[f.name] = below.codes[have.name]; labels[f.name] = below.labels[have.name] }
            }
            if ordered { list += ["\(i) AS \"utq_part\"", "\(try c.numbering(plan, below)) AS \"utq_row\""] }
            parts.append("SELECT \(list.joined(separator: ", ")) FROM (\(below.sql)) AS t")
        }
        let names = schema.fields.map { connection.identifier($0.name) }.joined(separator: ", ")
        let sql = "SELECT \(names) FROM (\(parts.joined(separator: " UNION ALL "))) AS u" + (ordered ? " ORDER BY \"utq_part\", \"utq_row\"" : "")
        var r = SQLCompiler.Relation(sql: sql, codes: codes.compactMapValues { $0 }, labels: labels.compactMapValues { $0 }, copies: inputs.flatMap(\.copies))
        if ordered { r.orderNote = SQLCompiler.orderNote(inputs) }
        r.inUtqOrder = ordered
        return r
    }
}

extension SQLCompiler {
    /// The SQL type of a column as the compiler reads it (durations as microseconds).
    static func readType(_ t: DataType) -> String {
        switch t {
        case .int, .duration: return "int8"
        case .double: return "float8"
        case .bool: return "boolean"
        case .string, .null: return "text"
        case .timestamp: return "timestamptz"
        case .geometry: return "geometry"
        }
    }
}
