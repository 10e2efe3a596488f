import UTQCore

/// A summary over a table split over other servers, made in two steps: each partition (a
/// foreign table) is summed up on its own server, and the coordinator adds the parts.
/// PostgreSQL 15's postgres_fdw sends a shard a whole summary over its table but no partial
/// one, so a `count` or `count by status` over the partitioned table brought every row to
/// the coordinator; over each partition in turn, each shard sends its groups.
extension SQLCompiler {
    /// The summary's SELECT, given its keys as SQL with their names; nil where a summary does
    /// not split (a median, a distinct count) or the rows are not a split table's.
    func splitSummary(keys: [(sql: String, name: String)], aggregates: [BoundAggregate], _ schema: Schema, over below: Relation) throws -> String? {
        guard let split = below.partitioned, split.parts.count > 1, below.sql.contains(split.from) else { return nil }
        // postgres_fdw sends no function with a text constant among its arguments (a zone, a
        // field's name: `hour(t)`); grouped by one, each part's rows would come to the
        // coordinator one partition after the other, slower than the plan PostgreSQL makes.
        guard !keys.contains(where: { $0.sql.contains("'") }) else { return nil }
        var partColumns: [String] = [], combined: [String] = []
        for a in aggregates {
            let call = SQLCall(arguments: try a.arguments.map { try expr($0, schema, below.codes) }, types: a.arguments.map(\.type),
                               distinct: a.distinct)
            guard let (parts, combine) = a.function.splitSQL(call), !call.arguments.contains(where: { $0.contains("'") }) else { return nil }
            let names = parts.indices.map { "\"utq_part\(partColumns.count + $0)\"" }
            partColumns += zip(parts, names).map { "\($0) AS \($1)" }
            combined.append("\(combine(names)) AS \(connection.identifier(a.name))")
        }
        let keyNames = keys.indices.map { "\"utq_key\($0)\"" }
        let group = keys.isEmpty ? "" : " GROUP BY " + (1...keys.count).map(String.init).joined(separator: ", ")
        let perPart = split.parts.map { part in
            let sql = below.sql.replacingOccurrences(of: split.from, with: "FROM \(part)")
            let list = zip(keys, keyNames).map { "\($0.sql) AS \($1)" } + partColumns
            return "SELECT \(list.joined(separator: ", ")) FROM (\(sql)) AS t\(group)"
        }
        let list = zip(keyNames, keys).map { "\($0) AS \(connection.identifier($1.name))" } + combined
        return "SELECT \(list.joined(separator: ", ")) FROM (\(perPart.joined(separator: " UNION ALL "))) AS t\(group)"
    }
}
