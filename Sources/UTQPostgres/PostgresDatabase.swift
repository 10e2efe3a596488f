import Foundation
import UTQCore

/// Makes PostgreSQL connections for `attach`.
public struct PostgresConnector: DatabaseConnector {
    public init() {}

    public func attach(uri: String, name: String, zone: ZoneRules, cancel: CancellationFlag?) throws -> any AttachedDatabase {
        try PostgresDatabase(uri: uri, name: name, zone: zone)
    }
}

/// An attached PostgreSQL database: its tables as `NAME.table`, and the SQL forms of the steps
/// placement sends it.
public final class PostgresDatabase: AttachedDatabase, @unchecked Sendable {
    public let name: String
    let connection: PGConnection
    /// The zone the tables' times are shown in (the session's when attached), unless a table
    /// utq saved keeps its own.
    let zone: ZoneRules
    /// Each table's columns as the database has them: name, utq type, and how it is read.
    private(set) var columns: [String: [RemoteColumn]] = [:]
    /// The table name in the database for each `NAME.table`.
    private(set) var sourceNames: [String: String] = [:]
    /// Each table's zone: its own when utq saved it, else the database's.
    private(set) var zones: [String: ZoneRules] = [:]
    /// Each table's own order, where the database keeps one (see `TableOrder`).
    private(set) var orders: [String: TableOrder] = [:]
    /// Loaded tables copied into temporary tables of this connection, for pipelines that
    /// join them with the database's (kept while the table is the same).
    var uploads: [String: Upload] = [:]
    /// Loaded tables up to this many rows are copied in when a pipeline joins them with the
    /// database's tables; a larger one stays, and the database's side is pulled (filtered as
    /// far as it compiles) and joined in memory.
    public var copyLimit = 1_000_000
    /// The partitions of each table split over other servers (every partition a foreign table),
    /// as SQL names: summaries over them are made in two steps (SQLPartitions.swift).
    private(set) var partitions: [String: [String]] = [:]
    private var listingNotes: [String] = []
    public var notes: [String] { listingNotes }
    /// Whether the database has PostGIS (asked once, when it is attached): geometry columns,
    /// functions and spatial joins run there only with it.
    let postgis: PostGIS
    /// What the last save or append has to say (geometry saved as text without PostGIS).
    var savedNotes: [String] = []
    public var saveNotes: [String] { savedNotes }

    public init(uri: String, name: String, zone: ZoneRules = .utc) throws {
        self.name = name
        self.zone = zone
        connection = try PGConnection(uri: uri)
        connection.owner = name
        postgis = try PostGIS(connection)
        // PostGIS prices its functions high, so a query of a few thousand rows passes
        // jit_above_cost, and compiling it took 1.5 s where running it took 50 ms.
        if postgis.available { try connection.query("SET jit = off") }
    }

    public var kind: String { "PostgreSQL" }
    public var location: String { connection.location }
    public func close() {}

    public func tables() throws -> [RemoteTable] {
        // Tables and views of the schemas on the search path, with their columns in order;
        // not an extension's own (PostGIS's spatial_ref_sys and geometry_columns).
        let rows = try connection.query("""
            SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), t.typname, t.typtype, a.atttypid::text,
                   coalesce(obj_description(c.oid, 'pg_class'), ''), c.relkind::text, a.atttypmod::text
            FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            JOIN pg_type t ON t.oid = a.atttypid
            WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f') AND n.nspname = ANY (current_schemas(false))
              AND NOT c.relispartition
              AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
            ORDER BY c.relname, a.attnum
            """)
        // Enum types' labels in their order: text whose order is the type's.
        var enumLabels: [String: [String]] = [:]
        if rows.cells[4].contains("e") {
            let labels = try connection.query("SELECT enumtypid::text, enumlabel FROM pg_enum ORDER BY enumtypid, enumsortorder")
            for i in 0..<labels.count { enumLabels[labels.cells[0][i], default: []].append(labels.cells[1][i]) }
        }
        var order: [String] = []
        var found: [String: [RemoteColumn]] = [:]
        var notes: [String: TableNotes] = [:]
        var kinds: [String: String] = [:]
        var stored: Set<String> = []
        for i in 0..<rows.count {
            let table = rows.cells[0][i]
            if found[table] == nil {
                order.append(table)
                notes[table] = TableNotes(comment: rows.cells[6][i])
                kinds[table] = rows.cells[7][i]
                found[table] = []
            }
            // A whole-number utq_row is the table's stored order: not one of its columns.
            if rows.cells[1][i] == TableOrder.column, ["int2", "int4", "int8"].contains(rows.cells[3][i]) {
                stored.insert(table)
                continue
            }
            var column = RemoteColumn(name: rows.cells[1][i], declared: rows.cells[2][i], typeName: rows.cells[3][i],
                                      typmod: Int(rows.cells[8][i]) ?? -1, postgis: postgis.available)
            if rows.cells[4][i] == "e" { column = RemoteColumn(name: column.name, declared: column.declared, labels: enumLabels[rows.cells[5][i]] ?? []) }
            found[table, default: []].append(column)
        }
        columns = [:]
        sourceNames = [:]
        zones = [:]
        partitions = [:]
        let splits = try foreignPartitions()
        orders = try tableOrders(kinds: kinds, stored: stored)
        peekSRIDs(&found)
        // Columns of types utq has no type for (json, arrays …) are read as text.
        // One note for each table that has such columns, naming them.
        listingNotes = order.compactMap { table in
            let unknown = found[table]!.filter(\.unknownType).map { "\($0.name) (\($0.declared))" }
            guard !unknown.isEmpty else { return nil }
            return "\(name).\(table): " + (unknown.count == 1 ? "1 column has" : "\(unknown.count) columns have") + " a type utq reads as its text: "
                + unknown.prefix(6).joined(separator: ", ") + (unknown.count > 6 ? ", …" : "")
        } + PGIntervals.notes(database: name, tables: order, columns: found)
        return order.map { table in
            let full = "\(name).\(table)"
            columns[full] = found[table]
            sourceNames[full] = table
            partitions[full] = splits[table]
            if let order = orders.removeValue(forKey: table) { orders[full] = order }
            // A table utq saved reads back as it was: its zone, units, time column and noun.
            let kept = notes[table]
            let tableZone = kept?.zoneRules ?? zone
            zones[full] = tableZone
            let floating = Set(kept?.floating ?? [])
            let fields = found[table]!.map {
                Field(name: $0.name, type: $0.type, unit: kept?.unit(of: $0.name) ?? $0.unit, ordered: $0.labels != nil,
                      floating: floating.contains($0.name), space: $0.space)
            }
            let first = fields.first { $0.type == .timestamp }?.name
            let time = kept?.time.flatMap { t in fields.contains { $0.name == t } ? t : nil } ?? first
            return RemoteTable(name: full, database: name, schema: Schema(fields: fields, zone: tableZone, timeColumn: time),
                               rowNoun: kept?.noun ?? "rows")
        }
    }

    /// The partitioned tables whose partitions are all foreign tables (on other servers), and
    /// those partitions' names as SQL writes them.
    private func foreignPartitions() throws -> [String: [String]] {
        let rows = try connection.query("""
            SELECT p.relname, c.oid::regclass::text, c.relkind::text
            FROM pg_inherits i
            JOIN pg_class p ON p.oid = i.inhparent
            JOIN pg_class c ON c.oid = i.inhrelid
            JOIN pg_namespace n ON n.oid = p.relnamespace
            WHERE p.relkind = 'p' AND n.nspname = ANY (current_schemas(false))
            ORDER BY 1, 2
            """)
        var parts: [String: [String]] = [:], local = Set<String>()
        for i in 0..<rows.count {
            if rows.cells[2][i] == "f" { parts[rows.cells[0][i], default: []].append(rows.cells[1][i]) } else { local.insert(rows.cells[0][i]) }
        }
        return parts.filter { !local.contains($0.key) }
    }

    /// The SELECT list that reads a table's columns as utq has them.
    func scanSQL(_ table: String) throws -> String {
        guard let cols = columns[table], let source = sourceNames[table] else {
            throw Diagnostic("\(table) is not a table of \(name)", hint: "tables lists what is attached")
        }
        let list = cols.map { c -> String in
            let id = connection.identifier(c.name)
            switch c.read {
            case .plain: return id
            case .micros: return PGIntervals.micros(id)
            case .wallTime: return "(\(id)::timestamp AT TIME ZONE \(connection.literal((zones[table] ?? zone).identifier))) AS \(id)"
            case .text: return "\(id)::text AS \(id)"
            case .float: return "\(id)::float8 AS \(id)"
            case .money: return "\(id)::numeric::float8 AS \(id)"
            case .geometry(let g): return g.select(id)
            }
        }
        // The stored order's columns come last, under names of their own (see `TableOrder`).
        let hidden = (orders[table]?.columns ?? []).enumerated().map { "\(connection.identifier($1)) AS \(TableOrder.hiddenName($0))" }
        return "SELECT \((list + hidden).joined(separator: ", ")) FROM \(connection.identifier(source))"
    }

    /// The columns of a table whose values are an enum's labels, with the labels in order.
    func labels(of table: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for c in columns[table] ?? [] { if let l = c.labels { out[c.name] = l } }
        return out
    }

    public func save(_ table: Table, as tableName: String, replace: Bool, cancel: CancellationFlag?) throws -> Int {
        try copyIn(table, as: tableName, replace: replace, cancel: cancel)
    }

    // MARK: placement

    /// A step in SQL over its inputs' SQL: a scan of this database's table, or the step's
    /// SQL form (SQLSteps.swift and the files beside it).
    public func compile(_ step: LogicalPlan, inputs: [any DatabaseStep], orderMatters: Bool) throws -> any DatabaseStep {
        let relations = inputs.compactMap { $0 as? SQLCompiler.Relation }
        guard relations.count == inputs.count else { throw NotInDatabase("its input is another database's") }
        if relations.contains(where: { $0.described != nil }) {
            throw NotInDatabase("describe's table is made here from the counts the database gives")
        }
        if let scan = step.as(ScanNode.self), case .table(let table) = scan.relation {
            var r = SQLCompiler.Relation(sql: try scanSQL(table), labels: labels(of: table))
            r.inTableOrder = true
            if let parts = partitions[table], let source = sourceNames[table] {
                r.partitioned = .init(from: "FROM \(connection.identifier(source))", parts: parts)
            }
            r.hidden = (orders[table]?.columns ?? []).indices.map(TableOrder.hiddenName)
            if case .partitions(let why)? = orders[table] { r.orderNote = "\(table): \(why)" }
            r.orderMatters = orderMatters
            return r
        }
        guard let form = step.node as? any SQLStep else { throw NotInDatabase("\(step.stepName) has no SQL form") }
        var r = try form.sql(relations, SQLCompiler(database: self), orderMatters: orderMatters)
        // A filter or a projection over a split table's rows can be sent to each part; no other step can.
        r.partitioned = step.is(FilterNode.self) || step.is(ProjectNode.self) ? relations.first?.partitioned : nil
        r.orderMatters = orderMatters
        return r
    }

    public func compileCopy(of table: Table, named name: String, index: Int) -> any DatabaseStep {
        let copy = plannedCopy(of: table, named: name, index: index)
        return SQLCompiler.Relation(sql: scanSQL(copy.upload), labels: copy.upload.labels, copies: [copy])
    }

    public func fragment(_ step: any DatabaseStep, schema: Schema) -> any RemoteFragment {
        var relation = step as! SQLCompiler.Relation
        // The stored order's columns do not come back; the rows come in that order where it matters.
        if !relation.hidden.isEmpty, relation.described == nil {
            let names = schema.fields.map { connection.identifier($0.name) }.joined(separator: ", ")
            let inOrder = relation.inTableOrder && relation.orderMatters ? " ORDER BY " + relation.hidden.joined(separator: ", ") : ""
            relation.sql = "SELECT \(names) FROM (\(relation.sql)) AS t" + inOrder
            relation.hidden = []
        }
        // Said only where the rows' order matters.
        if relation.inTableOrder && !relation.orderMatters { relation.orderNote = nil }
        return PostgresFragment(postgres: self, relation: relation, schema: schema)
    }
}

/// A column of a database table and how utq reads it.
struct RemoteColumn {
    var name: String
    var declared: String
    var type: DataType
    var unit: DisplayUnit = .automatic
    var read: Read
    /// An enum's labels in the type's order.
    var labels: [String]?

    enum Read: Equatable { case plain, micros, wallTime, text, float, money, geometry(GeometryRead) }

    /// `typmod`: the type's modifier (a geometry's SRID is in it); `postgis`: whether the
    /// database has PostGIS, without which no column is a geometry.
    init(name: String, declared: String, typeName: String, typmod: Int = -1, postgis: Bool = false) {
        self.name = name
        self.declared = declared
        switch typeName {
        // A geography is lng/lat; a geometry is where its SRID says, found from its first
        // value when its type names none (PostGIS.swift).
        case "geography" where postgis:
            type = .geometry; read = .geometry(GeometryRead(space: .lnglat, geography: true, srid: PostGIS.srid(typmod: typmod)))
        case "geometry" where postgis:
            let srid = PostGIS.srid(typmod: typmod)
            type = .geometry; read = .geometry(GeometryRead(space: srid == 4326 ? .lnglat : .plane, geography: false, srid: srid))
        case "int2", "int4", "int8", "oid": type = .int; read = .plain
        case "float4", "float8": type = .double; read = .plain
        case "numeric": type = .double; read = .float
        // money has no cast to float8 (a query naming one failed whole): through numeric.
        case "money": type = .double; read = .money
        case "bool": type = .bool; read = .plain
        case "timestamptz": type = .timestamp; read = .plain
        // Wall-clock times and dates are read in the table's zone, as utq reads them from files.
        case "timestamp": type = .timestamp; read = .wallTime
        case "date": type = .timestamp; unit = .day; read = .wallTime
        case "interval": type = .duration; read = .micros
        case "text", "varchar", "bpchar", "name", "citext", "char": type = .string; read = .plain
        default: type = .string; read = .text; unknownType = true   // kept as its text
        }
    }

    /// A type utq has none for: the column is its text.
    var unknownType = false

    /// A geometry column's space (lng/lat for any other column, which has none).
    var space: GeoSpace {
        if case .geometry(let g) = read { return g.space }
        return .lnglat
    }

    /// A column of an enum type: text, read as text, ordered as the type orders its labels.
    init(name: String, declared: String, labels: [String]) {
        self.name = name
        self.declared = declared
        type = .string
        read = .text
        self.labels = labels
    }
}

extension Column {
    /// A column of a type and no rows.
    static func empty(_ name: String, _ type: DataType, unit: DisplayUnit = .automatic, labels: [String]? = nil) -> Column {
        let storage: Column.Storage
        switch type {
        case .int: storage = .int([])
        case .double: storage = .double([])
        case .bool: storage = .bool([])
        case .string: storage = .string(StringStorage(codes: [], dictionary: labels ?? [], ordered: labels != nil))
        case .timestamp: storage = .timestamp([])
        case .duration: storage = .duration([])
        case .geometry: storage = .geometry(.points(xs: [], ys: [], space: .lnglat))
        case .null: storage = .null(0)
        }
        return Column(name: name, storage: storage, unit: unit)
    }
}
