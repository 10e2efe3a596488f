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

/// A loaded table a pipeline reads from a temporary table, and the temporary table it goes
/// into: planned when the plan is placed, copied when it runs (unless the same rows are there).
struct PlannedCopy: Sendable {
    var name: String
    var table: Table
    var upload: Upload
}

extension PostgresDatabase {
    /// The copy a pipeline would make of a loaded table: the temporary table it has, if its
    /// rows are the same, else a new one (`index`: the table's place among those this pipeline
    /// copies, so each gets a name of its own).
    func plannedCopy(of table: Table, named name: String, index: Int) -> PlannedCopy {
        if let u = uploads[name], u.same(as: table) { return PlannedCopy(name: name, table: table, upload: u) }
        let temp = uploads[name]?.temp ?? "utq_upload_\(uploads.count + index + 1)"
        return PlannedCopy(name: name, table: table, upload: Upload(table, temp: temp))
    }

    /// Copies a planned table into its temporary table, unless the same rows are there
    /// already. Returns whether it copied.
    func perform(_ copy: PlannedCopy, cancel: CancellationFlag?) throws -> Bool {
        if let u = uploads[copy.name], u.same(as: copy.table), u.temp == copy.upload.temp { return false }
        _ = try copyIn(copy.table, as: copy.upload.temp, replace: true, temporary: true, cancel: cancel)
        uploads[copy.name] = copy.upload
        return true
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
