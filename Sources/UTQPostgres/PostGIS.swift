import Foundation
import UTQCore

/// What utq knows of an attached database's PostGIS: whether it is there (asked once, when
/// the database is attached), and how a geometry or geography column is read: SRID 4326 as
/// lng/lat, any other SRID (or none) as a plane, a geography column as lng/lat always.
struct PostGIS {
    /// PostGIS's version, when the extension is installed where the search path finds it.
    var version: String?
    /// Why a geometry step runs in memory here, when PostGIS is not there.
    var missing: String

    static let absent = "the database has no PostGIS: this step runs in memory"

    init(_ connection: PGConnection) throws {
        let found = try connection.query("""
            SELECT e.extversion, n.nspname, (n.nspname = ANY (current_schemas(false)))::text
            FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'postgis'
            """)
        if found.count == 0 {
            missing = Self.absent
        } else if found.cells[2][0] != "true" {
            missing = "PostGIS is in the schema \(found.cells[1][0]), which is not on the search path: this step runs in memory"
        } else {
            version = found.cells[0][0]
            missing = ""
        }
    }

    var available: Bool { version != nil }

    /// The SRID a column's type modifier holds (`geometry(Point,4326)`), or nil where it has
    /// none (`geometry`, and `geometry(Geometry)` whose SRID is 0, which holds any).
    static func srid(typmod: Int) -> Int? {
        guard typmod >= 0 else { return nil }
        // PostGIS keeps the SRID in bits 8 to 28 of the modifier, bit 28 its sign.
        let srid = ((typmod & 0x0FFF_FF00) - (typmod & 0x1000_0000)) >> 8
        return srid == 0 ? nil : srid
    }
}

/// How a geometry column is read: its space, and whether the scan must cast it (a geography
/// to geometry, so every function takes it) or set its SRID (to 0, so a plane's geometries
/// of any SRID meet `xy()` points and each other).
struct GeometryRead: Equatable {
    var space: GeoSpace
    var geography: Bool
    var srid: Int?

    /// The column as a scan selects it.
    func select(_ id: String) -> String {
        if geography { return srid == nil || srid == 4326 ? "\(id)::geometry AS \(id)" : "ST_SetSRID(\(id)::geometry, 4326) AS \(id)" }
        if space == .plane, let srid, srid != 0 { return "ST_SetSRID(\(id), 0) AS \(id)" }
        return id
    }
}

extension PostgresDatabase {
    /// The space of each geometry column whose type says no SRID: the SRID of its first value
    /// (a table made by SQL as `geometry` often holds lng/lat), a plane where it has none or
    /// where it cannot be read (a view that fails is said so when it is used, not at attach).
    func peekSRIDs(_ columns: inout [String: [RemoteColumn]]) {
        for (table, list) in columns {
            for (k, c) in list.enumerated() {
                guard case .geometry(var read) = c.read, !read.geography, read.srid == nil else { continue }
                let id = connection.identifier(c.name)
                let first = try? connection.query("SELECT ST_SRID(\(id))::text FROM \(connection.identifier(table)) WHERE \(id) IS NOT NULL LIMIT 1")
                read.srid = first.flatMap { $0.count > 0 ? Int($0.cells[0][0]) : nil }
                read.space = read.srid == 4326 ? .lnglat : .plane
                columns[table]![k].read = .geometry(read)
            }
        }
    }
}
