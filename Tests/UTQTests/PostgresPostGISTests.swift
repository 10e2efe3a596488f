import Foundation
import Testing
@testable import UTQCore
@testable import UTQPostgres

/// Geometry in PostgreSQL with PostGIS answers as it does in memory: the shipped data saved
/// into a database with PostGIS (the market square's entries and zones on a plan, the demo
/// feed's stops in lng/lat, Seattle's PLDP count lines), then each pipeline run on the loaded
/// tables and on the saved ones gives the same rows (numbers within 1e-9 of their size,
/// geodesic metres within a millimetre, geometries vertex by vertex), with every step in the
/// database and `ST_` in the SQL explain shows.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.runs, "PostgreSQL is not installed"))
final class PostgresPostGISTests {
    let server: ThrowawayPostgres
    let folder: String

    init() throws {
        // PostgreSQL without PostGIS is a machine the suite cannot test on: it fails, saying what to install.
        guard ThrowawayPostgres.hasExtension("postgis") else {
            throw TestError(description: "PostGIS is not installed: make pg-deps installs postgresql-NN-postgis-3")
        }
        server = try ThrowawayPostgres()
        try server.psql("CREATE DATABASE gis")
        try server.psql("CREATE EXTENSION postgis", database: "gis")
        folder = NSTemporaryDirectory() + "utq-postgis-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The shipped data loaded (`market`, `zones`, `feed`, `places`, and `stop_points`: the
    /// feed's stops with a geometry column, through a CSV of WKT) and saved into `db`.
    func session() throws -> Session {
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("""
            load datasets/market.json
            load datasets/market-zones.csv as zones
            load datasets/gtfs/demo-transit.zip as feed
            load datasets/pldp-seattle/locations.csv as places
            feed.stops | select stop_id, stop_name, position = point(stop_lon, stop_lat) | save \(folder)/stop_points.csv
            load \(folder)/stop_points.csv as stop_points with crs=lnglat
            attach \(server.uri("gis")) as db
            market | save! to db.market
            zones | save! to db.zones
            feed.stops | save! to db.stops
            stop_points | save! to db.stop_points
            places | save! to db.places
            tables
            """)
        return s
    }

    /// Each pipeline with `{market}` … standing for a table: the loaded one, or the saved one.
    static let loaded = ["market": "market", "zones": "zones", "stops": "feed.stops", "points": "stop_points", "places": "places"]

    static func on(_ pipeline: String, _ tables: [String: String]) -> String {
        var text = pipeline
        for (name, table) in tables { text = text.replacingOccurrences(of: "{\(name)}", with: table) }
        return text
    }

    /// Pipelines over every spatial join and geometry function, and the columns that are geodesic metres.
    static let cases: [(pipeline: String, metres: Set<String>)] = [
        // Entries in the zones of the square (a plan: x and y).
        ("{market} | join {zones} on within | count by zone", []),
        ("{market} | join {zones} on within | select time, legend, x, y, zone", []),
        ("{market} | left join {zones} on intersects | count by zone", []),
        ("{zones} | join {market} on contains | count by zone, legend", []),
        ("{market} | join {market} nearest 2 | select time, legend, market.legend, distance | limit 300", []),
        // Stops (lng/lat): by their latitude and longitude, and by a geometry column.
        ("{stops} | join {stops} within 400 m | select stop_id, stops.stop_id, distance", ["distance"]),
        ("{points} | join {points} within 60 km | select stop_id, stop_points.stop_id, distance", ["distance"]),
        ("{points} | join {points} nearest 3 | select stop_id, stop_points.stop_id, distance", ["distance"]),
        ("{stops} | left join {stops} nearest 2 within 1 km | select stop_id, stops.stop_id, distance", ["distance"]),
        // Measures in let.
        ("{points} | let walk = buffer(position, 400), a = area(walk), l = length(walk), c = centroid(walk), off = distance(c, position), "
            + "b = bearing(position, point(-116.76, 36.91)), k = cell(position, 250) | select stop_id, walk, a, l, c, off, b, k", ["off"]),
        ("{points} | let px = x(position), py = y(position), g = geometry(\"POINT (-116.76 36.91)\"), d = distance(position, g), "
            + "inside = within(position, buffer(g, 2000)) | select stop_id, px, py, d, inside", ["d"]),
        ("{market} | let at = xy(x, y), near = buffer(at, 12.5), k = cell(at, 100), b = bearing(at, xy(412, 384)), d = distance(at, xy(412, 384)) "
            + "| select time, near, k, b, d", []),
        ("{zones} | let a = area(area), p = length(area), c = centroid(area), k = cell(area, 100), b = bearing(area, xy(0, 0)), "
            + "inside = contains(area, xy(412, 384)) | select zone, a, p, c, k, b, inside", []),
        ("{market} | let k = cell(xy(x, y), 100) | count by k", []),
        // Seattle's count lines: lengths, middles, distances from a point and between lines.
        ("{places} | let m = length(Location_Geometry), c = centroid(Location_Geometry), b = bearing(Location_Geometry, point(-122.33, 47.61)), "
            + "d = distance(point(-122.33, 47.61), Location_Geometry) | select Location_ID, m, c, b, d", ["d"]),
        ("{places} | join {places} within 30 m | select Location_ID, places.Location_ID, distance", ["distance"]),
        ("{places} | join {places} nearest 2 | select Location_ID, places.Location_ID, distance", ["distance"]),
        ("{places} | join {places} within 30 m | count by Location_ID", []),
        ("{places} | let k = cell(Location_Geometry, 500) | count by k", []),
    ]

    @Test func everyPipelineGivesTheSameRowsInPostGISAsInMemory() throws {
        let s = try session()
        let saved = Dictionary(uniqueKeysWithValues: Self.loaded.keys.map { ($0, "db.\($0 == "points" ? "stop_points" : $0)") })
        for (pipeline, metres) in Self.cases {
            let local = try s.table(Self.on(pipeline, Self.loaded))
            let remote = try s.table(Self.on(pipeline, saved))
            #expect(local.rowCount > 0, "\(pipeline): no rows to compare")
            #expect(geometryDifference(local, remote, metres: metres) == nil, "\(pipeline): \(geometryDifference(local, remote, metres: metres) ?? "")")
            // Every step runs in the database, as PostGIS SQL.
            let placed = try s.place(try s.plan(Self.on(pipeline, saved)))
            let inMemory = placed.steps.filter { $0.site.isMemory && !$0.restoresKeyOrder }.map { $0.plan.explainLine }
            #expect(inMemory.isEmpty, "\(pipeline): in memory: \(inMemory)")
            #expect(try s.explainText(Self.on(pipeline, saved)).contains("ST_"), "\(pipeline): no ST_ in the SQL")
        }
    }

    /// The smallest and largest geometry are utq's order's, which PostGIS's is not: that
    /// summary stays in memory, says why, and gives what memory gives.
    @Test func minAndMaxOfGeometriesStayInMemory() throws {
        let s = try session()
        let placed = try s.place(try s.plan("db.zones | min area, max area by zone"))
        guard case .memory(let why)? = placed.steps.first(where: { $0.plan.explainLine.hasPrefix("aggregate") })?.site else {
            Issue.record("min and max of geometries were placed in the database"); return
        }
        #expect(why == "min of geometries follows utq's order of them, which PostGIS's order is not", "\(why ?? "")")
        for pipeline in ["{zones} | min area, max area", "{places} | min Location_Geometry, max Location_Geometry, count distinct Location_Geometry"] {
            let local = try s.table(Self.on(pipeline, Self.loaded)), remote = try s.table(Self.on(pipeline, ["zones": "db.zones", "places": "db.places"]))
            #expect(tableDifference(local, remote) == nil, "\(pipeline): \(tableDifference(local, remote) ?? "")")
        }
    }

    /// A small loaded table joined with a database table is copied in with its geometries,
    /// and the join runs in PostGIS.
    @Test func aLoadedTableOfZonesIsCopiedInForTheJoin() throws {
        let s = try session()
        let pipeline = "db.market | join zones on within | count by zone, legend"
        let explained = try s.explainText(pipeline)
        #expect(explained.contains("copied into temporary tables of db first: zones"), "\(explained)")
        #expect(explained.contains("ST_Within"), "\(explained)")
        let remote = try s.table(pipeline)
        let local = try s.table("market | join zones on within | count by zone, legend")
        #expect(geometryDifference(local, remote) == nil, "\(geometryDifference(local, remote) ?? "")")
    }

    /// Saved tables read back as they were: the same geometries, to the last digit, in
    /// geometry columns of SRID 4326 (lng/lat) or of none (a plan).
    @Test func savedGeometriesReadBackTheSame() throws {
        let s = try session()
        for (local, remote) in [("zones", "db.zones"), ("stop_points", "db.stop_points"), ("places", "db.places")] {
            let a = try s.table(local), b = try s.table(remote)
            #expect(tableDifference(a, b) == nil, "\(remote): \(tableDifference(a, b) ?? "")")
            for c in b.columns { if case .geometry(let g) = c.storage { #expect(g.space == (local == "zones" ? .plane : .lnglat), "\(remote).\(c.name)") } }
        }
        let types = try PGConnection(uri: server.uri("gis")).query("""
            SELECT c.relname || '.' || a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
            WHERE c.relname IN ('zones', 'stop_points', 'places') AND a.attnum > 0 AND format_type(a.atttypid, a.atttypmod) LIKE 'geometry%' ORDER BY 1
            """)
        #expect(types.cells[0] == ["places.Location_Geometry", "stop_points.position", "zones.area"])
        #expect(types.cells[1] == ["geometry(Geometry,4326)", "geometry(Geometry,4326)", "geometry"])
    }

    /// `save append to` a table made by SQL with a geometry column: the rows go in with their
    /// SRID and read back the same; points of a plan are refused where lng/lat is held.
    @Test func appendedGeometriesGoInWithTheirSRID() throws {
        try server.psql("CREATE TABLE visits (name text, at geometry(Point, 4326), note text)", database: "gis")
        let s = try session()
        try s.table("stop_points | select name = stop_id, at = position, note = wkt(position) | save append to db.visits\ntables")
        let back = try s.table("db.visits")
        let sent = try s.table("stop_points | select name = stop_id, at = position, note = wkt(position)")
        #expect(tableDifference(sent, back) == nil, "\(tableDifference(sent, back) ?? "")")
        var failure: Diagnostic?
        s.run("market | select name = legend, at = xy(x, y) | save append to db.visits", name: "<test>") { _, o in failure = o.error }
        #expect(failure?.message.contains("holds lng/lat") == true, "\(failure?.message ?? "no error")")
    }

    /// A table PostGIS made (not utq): geometry of SRID 4326, geography, a projected SRID, a
    /// geometry column without an SRID in its type holding lng/lat, and one holding a plan's
    /// points. Each reads as a geometry in its space, and the measures over it in the database
    /// equal those over its rows in memory.
    @Test func aTableMadeInPostGISReadsBackRight() throws {
        try server.psql("""
            CREATE TABLE drawn (name text, shape geometry(Polygon, 4326), spot geography(Point), plan geometry(Point, 3857), loose geometry, drawing geometry(Point));
            INSERT INTO drawn VALUES
              ('square', 'SRID=4326;POLYGON((21.16 42.66, 21.17 42.66, 21.17 42.67, 21.16 42.67, 21.16 42.66))', 'POINT(21.165 42.665)',
               'SRID=3857;POINT(2355000.5 5260000.25)', 'SRID=4326;LINESTRING(21.16 42.66, 21.17 42.67, 21.18 42.665)', 'POINT(3 4)'),
              ('holed', 'SRID=4326;POLYGON((21.1 42.6, 21.2 42.6, 21.2 42.7, 21.1 42.7, 21.1 42.6), (21.12 42.62, 21.12 42.64, 21.14 42.64, 21.12 42.62))',
               'POINT(21.3 42.5)', NULL, 'SRID=4326;POINT(21.15 42.65)', 'POINT(10.5 -2)'),
              ('none', NULL, NULL, NULL, NULL, NULL);
            CREATE INDEX ON drawn USING gist (shape);
            """, database: "gis")
        let s = makeSession()
        s.databaseConnector = PostgresConnector()
        try s.table("attach \(server.uri("gis")) as db\ntables")
        let drawn = try s.table("db.drawn")
        let spaces = drawn.columns.compactMap { c -> String? in
            guard case .geometry(let g) = c.storage else { return nil }
            return "\(c.name) \(g.space == .lnglat ? "lnglat" : "plane")"
        }
        #expect(spaces == ["shape lnglat", "spot lnglat", "plan plane", "loose lnglat", "drawing plane"])
        func geometry(_ wkt: String, _ space: GeoSpace = .lnglat) throws -> Value { .geometry(try WKT.parse(wkt, space: space)) }
        #expect(drawn.columns[1].value(at: 1) == (try geometry("POLYGON ((21.1 42.6, 21.2 42.6, 21.2 42.7, 21.1 42.7, 21.1 42.6), (21.12 42.62, 21.12 42.64, 21.14 42.64, 21.12 42.62))")))
        #expect(drawn.columns[2].value(at: 0) == (try geometry("POINT (21.165 42.665)")))
        #expect(drawn.columns[3].value(at: 0) == (try geometry("POINT (2355000.5 5260000.25)", .plane)))
        #expect(drawn.columns[4].value(at: 0) == (try geometry("LINESTRING (21.16 42.66, 21.17 42.67, 21.18 42.665)")))
        #expect(drawn.columns[5].value(at: 1) == (try geometry("POINT (10.5 -2)", .plane)))
        #expect(drawn.columns[1].value(at: 2) == .null)
        // The same measures in memory over the rows that came back (_), and in PostGIS.
        let measures = "let a = area(shape), d = distance(spot, shape), l = length(loose), n = distance(loose, shape), px = x(plan), "
            + "far = distance(plan, xy(2355000, 5260000)), inside = within(spot, shape), near = distance(drawing, xy(0, 0)) "
            + "| select name, a, d, l, n, px, far, inside, near"
        let local = try s.table("_ | " + measures)
        let remote = try s.table("db.drawn | " + measures)
        #expect(geometryDifference(local, remote, metres: ["d", "n"]) == nil, "\(geometryDifference(local, remote, metres: ["d", "n"]) ?? "")")
        #expect(try s.explainText("db.drawn | " + measures).contains("ST_Area(\"shape\"::geography)"))
    }
}
