import Foundation
import UTQCore

extension PostgresDatabase {
    public func append(_ table: Table, to tableName: String, cancel: CancellationFlag?) throws -> Int {
        try appendIn(table, to: tableName, cancel: cancel)
    }

    /// `save append to NAME.table`: the rows added to an existing table (plain, partitioned, or
    /// foreign) with COPY … FROM STDIN, its columns matched by name, in one transaction: if
    /// anything fails (a value the table refuses, a shard, Ctrl-C) nothing is added. The
    /// table's columns the rows lack take their defaults. A table with a `utq_row` column (its
    /// stored order, see `TableOrder`) numbers the new rows on from its largest, so they come
    /// after the rows it has.
    func appendIn(_ table: Table, to tableName: String, cancel: CancellationFlag?) throws -> Int {
        let full = "\(name).\(tableName)"
        let found = try connection.query("""
            SELECT c.oid::text, c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relname = \(connection.literal(tableName)) AND n.nspname = ANY (current_schemas(false))
            ORDER BY array_position(current_schemas(false), n.nspname) LIMIT 1
            """)
        guard found.count > 0 else {
            let names = (try? tables().map { String($0.name.dropFirst(name.count + 1)) }) ?? []
            throw Diagnostic("\(full) does not exist, so there is nothing to append to" + Suggest.didYouMean(tableName, among: names),
                             hint: "save to \(full) creates it")
        }
        let kind = found.cells[1][0]
        guard ["r", "p", "f"].contains(kind) else {
            throw Diagnostic("\(full) is \(kind == "v" ? "a view" : kind == "m" ? "a materialized view" : "not a table of rows"); rows are appended only to tables",
                             hint: "save to a new name")
        }
        // The table's columns, domains as their base types; generated columns take no values.
        let rows = try connection.query("""
            SELECT a.attname, format_type(a.atttypid, a.atttypmod), coalesce(b.typname, t.typname), t.typtype::text, (a.attgenerated <> '')::text,
                   a.atttypmod::text
            FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
            LEFT JOIN pg_type b ON t.typtype = 'd' AND b.oid = t.typbasetype
            WHERE a.attrelid = \(found.cells[0][0]) AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum
            """)
        struct Target { var name, declared, typeName, typeKind: String; var generated: Bool; var typmod: Int }
        let targets = (0..<rows.count).map {
            Target(name: rows.cells[0][$0], declared: rows.cells[1][$0], typeName: rows.cells[2][$0], typeKind: rows.cells[3][$0], generated: rows.cells[4][$0] == "true",
                   typmod: Int(rows.cells[5][$0]) ?? -1)
        }
        let order = targets.first { $0.name == TableOrder.column && ["int2", "int4", "int8"].contains($0.typeName) }
        let shown = targets.filter { $0.name != order?.name }.map(\.name)
        func listed() -> String {
            "its columns: " + shown.prefix(12).joined(separator: ", ") + (shown.count > 12 ? ", … (\(shown.count))" : "")
        }
        var matched: [(column: Column, target: Target)] = []
        for c in table.columns {
            guard let t = targets.first(where: { $0.name == c.name }) ?? Self.uniqueFold(c.name, targets, \.name) else {
                throw Diagnostic("\(full) has no column \(c.name)" + Suggest.didYouMean(c.name, among: shown),
                                 hint: listed() + "; select or rename the columns to append")
            }
            if t.generated {
                throw Diagnostic("\(full).\(t.name) is computed by the database (a generated column) and takes no values",
                                 hint: "drop \(c.name) from the rows to append: select the others")
            }
            guard Self.takes(t.typeName, kind: t.typeKind, c.type) else {
                throw Diagnostic("\(c.name) is \(c.type.displayName) here and \(t.declared) in \(full), which cannot hold it",
                                 hint: "convert it first (let \(c.name) = …), or select the other columns")
            }
            if case .geometry(let g) = c.storage, let why = Self.spaceMismatch(g.space, into: t.typeName, srid: PostGIS.srid(typmod: t.typmod)) {
                throw Diagnostic("\(c.name) is \(g.space == .lnglat ? "in lng/lat" : "on a plan") here and \(full).\(t.name) is \(t.declared), \(why)",
                                 hint: "append to a geometry column of SRID \(g.space == .lnglat ? "4326" : "0 or the plan's own"), or save to a new table")
            }
            matched.append((c, t))
        }
        let zone = zones[full] ?? self.zone
        let writers = matched.map { m -> CopyWriter in
            let w = CopyWriter(m.column)
            if ["timestamp", "date"].contains(m.target.typeName) { w.wallClock = zone }
            // Geometries go into geometry and geography columns with their SRID, into text as WKT.
            w.geometryAsWKT = !["geometry", "geography"].contains(m.target.typeName)
            return w
        }
        var names = matched.map { connection.identifier($0.target.name) }
        let numbered = order != nil && !matched.contains { $0.target.name == order!.name }
        if let order, numbered { names.append(connection.identifier(order.name)) }
        let target = connection.identifier(tableName)
        try connection.query("BEGIN")
        do {
            // The new rows are numbered on from the table's last.
            var next: Int64 = 1
            if let order, numbered {
                let last = try connection.query("SELECT coalesce(max(\(connection.identifier(order.name))), 0)::text FROM \(target)", cancel: cancel)
                next = (Int64(last.cells[0][0]) ?? 0) + 1
            }
            try connection.copyIn("COPY \(target) (\(names.joined(separator: ", "))) FROM STDIN") { send in
                try CopyWriter.rows(table.rowCount, writers, numberedFrom: numbered ? next : nil, cancel: cancel, send: send)
            }
            try connection.query("COMMIT")
        } catch let failure as Diagnostic {
            _ = try? connection.query("ROLLBACK")
            throw Diagnostic("nothing was appended to \(full): \(failure.message)", hint: failure.hint)
        } catch {
            _ = try? connection.query("ROLLBACK")
            throw error
        }
        return table.rowCount
    }

    /// The one target whose name is the column's but for case, if there is one.
    static func uniqueFold<T>(_ name: String, _ targets: [T], _ key: KeyPath<T, String>) -> T? {
        let same = targets.filter { $0[keyPath: key].lowercased() == name.lowercased() }
        return same.count == 1 ? same[0] : nil
    }

    /// Why geometries of a space do not go into a geometry or geography column of an SRID
    /// (nil: no SRID, or the right one). utq does not move geometries between SRIDs.
    static func spaceMismatch(_ space: GeoSpace, into typeName: String, srid: Int?) -> String? {
        let target = typeName == "geography" ? (srid ?? 4326) : srid
        guard let target else { return nil }
        switch space {
        case .lnglat where target != 4326: return "whose SRID \(target) is not lng/lat (4326): utq does not transform between them"
        case .plane where target == 4326: return "which holds lng/lat: points of a plan are no places on the Earth"
        default: return nil
        }
    }

    /// Whether a column of PostgreSQL's type (pg_type's name and kind) holds utq's values of a
    /// type as COPY's text writes them. Text holds anything; a type utq reads as its text
    /// (json, uuid, arrays, enums) holds text.
    static func takes(_ typeName: String, kind: String, _ type: DataType) -> Bool {
        let whole = ["int2", "int4", "int8"], numbers = ["numeric", "float4", "float8", "money"]
        let text = ["text", "varchar", "bpchar", "citext", "name", "char"]
        if text.contains(typeName) || type == .null { return true }
        let known = Set(whole + numbers + ["bool", "timestamptz", "timestamp", "date", "interval", "oid"])
        switch type {
        case .int: return whole.contains(typeName) || numbers.contains(typeName)
        case .double: return numbers.contains(typeName)
        case .bool: return typeName == "bool"
        case .timestamp: return ["timestamptz", "timestamp", "date"].contains(typeName)
        case .duration: return typeName == "interval"
        case .string: return kind == "e" || !known.contains(typeName)
        case .geometry: return typeName == "geometry" || typeName == "geography"
        case .null: return true
        }
    }
}
