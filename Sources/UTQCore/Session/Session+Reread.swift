extension Session {
    /// Reads an attached database's tables again after it said one had changed, keeping the
    /// current table where it still is; the note says which tables and columns came or went.
    func rereadTables(of changed: DatabaseChanged) throws -> String {
        guard let database = databases[changed.database] else {
            throw Diagnostic("the database refused the query: \(changed.reason)")
        }
        let before = workspace.catalog.names.compactMap { name -> RemoteTable? in
            if case .remote(let r)? = workspace.catalog[name], r.database == database.name { return r } else { return nil }
        }
        let old = Dictionary(before.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        // A table that stays keeps the zone it was shown in (`use db.t` then `set timezone`).
        let tables = try database.tables().map { t -> RemoteTable in
            var t = t
            if let was = old[t.name] { t.schema.zone = was.schema.zone }
            return t
        }
        let current = workspace.currentTable
        workspace.dropTables { $0.database == database.name }
        workspace.put(tables.map { CatalogEntry.remote($0) }, makeCurrent: false)
        if let current, workspace.catalog[current] != nil { workspace.use(current) }
        var changes: [String] = []
        let new = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for t in before where new[t.name] == nil { changes.append("\(t.name) is gone") }
        for t in tables {
            guard let was = old[t.name] else { changes.append("\(t.name) is new"); continue }
            let names = Set(t.schema.names), oldNames = Set(was.schema.names)
            let gone = was.schema.names.filter { !names.contains($0) }, added = t.schema.names.filter { !oldNames.contains($0) }
            let retyped = t.schema.fields.filter { f in was.schema.fields.contains { $0.name == f.name && $0.type != f.type } }.map(\.name)
            var parts: [String] = []
            if !gone.isEmpty { parts.append("without " + gone.joined(separator: ", ")) }
            if !added.isEmpty { parts.append("with " + added.joined(separator: ", ")) }
            if !retyped.isEmpty { parts.append("a new type for " + retyped.joined(separator: ", ")) }
            if !parts.isEmpty { changes.append("\(t.name) is now " + parts.joined(separator: " and ")) }
        }
        return "\(database.name)'s tables changed since they were read, and are read again" + (changes.isEmpty ? "" : ": " + changes.joined(separator: "; "))
    }
}
