import Foundation
import UTQCore

/// A loaded table copied into a temporary table of the connection.
struct Upload {
    var temp: String
    var rows: Int
    var columns: [String]
    var zone: String
    var fields: [Field]
    /// Ordered text columns' values in their order (a temporary table holds them as text).
    var labels: [String: [String]]

    /// What copying `table` into the temporary table `temp` makes.
    init(_ table: Table, temp: String) {
        var labels: [String: [String]] = [:]
        for c in table.columns { if case .string(let s) = c.storage, s.ordered { labels[c.name] = s.dictionary } }
        self.init(temp: temp, rows: table.rowCount, columns: table.columnNames, zone: table.zone.identifier,
                  fields: table.columns.map { Field($0) }, labels: labels)
    }

    init(temp: String, rows: Int, columns: [String], zone: String, fields: [Field], labels: [String: [String]]) {
        self.temp = temp; self.rows = rows; self.columns = columns; self.zone = zone; self.fields = fields; self.labels = labels
    }

    func same(as table: Table) -> Bool {
        rows == table.rowCount && columns == table.columnNames && zone == table.zone.identifier
    }
}

extension PostgresDatabase {
    /// The loaded tables of a plan that reads this database's tables too, and whether each is
    /// small enough to send.
    func localTables(of plan: LogicalPlan, in catalog: Catalog) -> [(name: String, table: Table, sent: Bool)] {
        var seen = Set<String>()
        return plan.scannedTables.compactMap { name in
            guard seen.insert(name).inserted, let t = catalog[name], t.database == nil else { return nil }
            return (name, t, t.rowCount <= uploadLimit)
        }
    }

    /// Copies a loaded table into a temporary table, unless the same rows are there already.
    /// Returns the upload and whether it was copied now.
    func upload(_ table: Table, as name: String, cancel: CancellationFlag?) throws -> (Upload, Bool) {
        if let u = uploads[name], u.same(as: table) { return (u, false) }
        let temp = uploads[name]?.temp ?? "utq_upload_\(uploads.count + 1)"
        _ = try copyIn(table, as: temp, replace: true, temporary: true, cancel: cancel)
        let u = Upload(table, temp: temp)
        uploads[name] = u
        return (u, true)
    }

    /// The SELECT that reads an uploaded table's columns as utq has them.
    func scanSQL(_ upload: Upload) -> String {
        let list = upload.fields.map { f -> String in
            let id = connection.identifier(f.name)
            return f.type == .duration ? "(extract(epoch from \(id)) * 1000000)::int8 AS \(id)" : id
        }
        return "SELECT \(list.joined(separator: ", ")) FROM pg_temp.\(connection.identifier(upload.temp))"
    }
}
