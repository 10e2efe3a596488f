import Foundation
import UTQCore

extension SQLCompiler {
    /// `pivot` as conditional aggregation: one row per combination of the row keys (in the
    /// order the combinations first appear, as utq gives them), one column per value of the
    /// key holding the value of the last row with it; a combination without such a row holds
    /// the fill (0 for counts and sums) or null.
    func pivot(_ input: LogicalPlan, _ spec: PivotSpec, schema: Schema) throws -> Relation {
        let below = try compile(input, ordered: true)
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
        let sql = "SELECT \(list.joined(separator: ", ")) FROM (SELECT t.*, \(try numbering(input, below)) AS \"utq_row\" FROM (\(below.sql)) AS t) AS t"
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
        return Relation(sql: sql, codes: codes, labels: labels)
    }

    /// Numbers a step's rows in utq's order: the input's own, or a summary's key order when the
    /// rows come from one (its keys must sort alike in SQL: numbers, times, booleans, codes).
    func numbering(_ input: LogicalPlan, _ below: Relation) throws -> String {
        guard let keys = groupKeys(input), !keys.isEmpty else { return "row_number() OVER ()" }
        guard keys.allSatisfy({ [.int, .double, .timestamp, .duration, .bool].contains($0.type) || below.codes[$0.name] != nil }) else {
            throw NotInSQL(what: "the order of groups of text")
        }
        return "row_number() OVER (ORDER BY \(keys.map { "\(connection.identifier($0.name)) ASC NULLS LAST" }.joined(separator: ", ")))"
    }
}

extension SQLCompiler {
    /// `union` as UNION ALL, columns matched by name (a missing one is null, whole numbers
    /// under a number column become numbers); in order, each part's rows after the one before.
    func union(_ plans: [LogicalPlan], schema: Schema, ordered: Bool) throws -> Relation {
        var parts: [String] = []
        var codes: [String: [String]] = [:], labels: [String: [String]] = [:]
        for (i, plan) in plans.enumerated() {
            let below = try compile(plan, ordered: ordered)
            var list: [String] = []
            for f in schema.fields {
                guard let have = plan.schema.fields.first(where: { $0.name.lowercased() == f.name.lowercased() }) else {
                    list.append("NULL::\(Self.readType(f.type)) AS \(connection.identifier(f.name))")
                    continue
                }
                let id = connection.identifier(have.name)
                if have.type == f.type {
                    list.append("\(id) AS \(connection.identifier(f.name))")
                } else if have.type == .int && f.type == .double {
                    list.append("\(id)::float8 AS \(connection.identifier(f.name))")
                } else {
                    throw NotInSQL(what: "union of \(have.type.displayName) and \(f.type.displayName)")
                }
                // Codes and labels must agree: the rows are read back one way.
                for (mine, theirs) in [(below.codes[have.name], codes[f.name]), (below.labels[have.name], labels[f.name])] where i > 0 && mine != theirs {
                    throw NotInSQL(what: "union of differently ordered text")
                }
                if i == 0 { codes[f.name] = below.codes[have.name]; labels[f.name] = below.labels[have.name] }
            }
            if ordered { list += ["\(i) AS \"utq_part\"", "\(try numbering(plan, below)) AS \"utq_row\""] }
            parts.append("SELECT \(list.joined(separator: ", ")) FROM (\(below.sql)) AS t")
        }
        let names = schema.fields.map { connection.identifier($0.name) }.joined(separator: ", ")
        let sql = "SELECT \(names) FROM (\(parts.joined(separator: " UNION ALL "))) AS u" + (ordered ? " ORDER BY \"utq_part\", \"utq_row\"" : "")
        return Relation(sql: sql, codes: codes.compactMapValues { $0 }, labels: labels.compactMapValues { $0 })
    }

    /// The SQL type of a column as the compiler reads it (durations as microseconds).
    static func readType(_ t: DataType) -> String {
        switch t {
        case .int, .duration: return "int8"
        case .double: return "float8"
        case .bool: return "boolean"
        case .string, .null: return "text"
        case .timestamp: return "timestamptz"
        }
    }
}
