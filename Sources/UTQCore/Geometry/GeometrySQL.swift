/// The PostGIS forms of the geometry functions, each giving what utq gives in memory on the
/// same geometries, or saying why it has none. In lng/lat the measures go through PostGIS's
/// geography, whose distances, lengths, areas and azimuths are GeographicLib's on WGS 84, as
/// utq's are; tests of geometries against each other read the coordinates as they are, as
/// utq and PostGIS's geometry type both do. A lng/lat geometry has SRID 4326, one on a plane
/// none (0), so the two never meet in one call: PostGIS refuses mixed SRIDs, and utq's
/// answer for them means nothing either.
enum GeometrySQL {
    /// Why a call of two geometries in two spaces has no form.
    static let mixed = "one geometry is in lng/lat and the other on a plan; PostGIS compares only geometries of one SRID"

    /// The one space of a call's geometry arguments, or nil where they are in two.
    static func space(_ c: SQLCall) -> GeoSpace? {
        let spaces = Set(zip(c.types, c.spaces).filter { $0.0 == .geometry }.map(\.1))
        return spaces.count > 1 ? nil : spaces.first ?? .lnglat
    }

    /// A test of two geometries (`ST_Within`), in one space.
    static func predicate(_ function: String) -> SQLForm {
        .build({ c in space(c) == nil ? nil : "\(function)(\(c.arguments[0]), \(c.arguments[1]))" }, otherwise: { _ in mixed })
    }

    /// `point(lng, lat)`: null outside the Earth's range (and for NaN, which PostgreSQL orders
    /// above every number), as utq leaves such a point empty.
    static let point = SQLForm.build { c in
        let x = c.number(0), y = c.number(1)
        return "(CASE WHEN abs(\(x)) <= 180 AND abs(\(y)) <= 90 THEN ST_SetSRID(ST_MakePoint(\(x), \(y)), 4326) END)"
    }

    /// `xy(x, y)`: null where a coordinate is not a finite number.
    static let xy = SQLForm.build { c in
        let x = c.number(0), y = c.number(1)
        let finite = { (v: String) in SQLForm.finite.replacingOccurrences(of: "{0}", with: v) }
        return "(CASE WHEN \(finite(x)) AND \(finite(y)) THEN ST_MakePoint(\(x), \(y)) END)"
    }

    /// `geometry(text [, "plane"])`: GeoJSON where the text starts with a brace, else WKT, as
    /// utq tells them apart. Text that is neither stops the question in both, with each one's
    /// own message.
    static let fromText = SQLForm.build({ c in
        var srid = 4326
        if c.arguments.count == 2 {
            guard c.constants.count == 2, case .string(let s)? = c.constants[1] else { return nil }
            switch s.lowercased() {
            case "plane", "xy": srid = 0
            case "lnglat", "wgs84": srid = 4326
            default: return nil
            }
        }
        let t = c.arguments[0]
        return "(CASE WHEN ltrim(\(t), E' \\t\\r\\n') LIKE '{%' THEN ST_SetSRID(ST_GeomFromGeoJSON(\(t)), \(srid)) "
            + "ELSE ST_GeomFromText(\(t), \(srid)) END)"
    }, otherwise: { _ in "its second argument is not \"plane\" or \"lnglat\" written as text, which utq says is wrong" })

    /// `x(point)`, `y(point)`: null for anything but a point (PostGIS's ST_X stops there).
    static func coordinate(_ name: String) -> SQLForm {
        .build { c in "(CASE WHEN ST_GeometryType(\(c.arguments[0])) = 'ST_Point' THEN ST_\(name.uppercased())(\(c.arguments[0])) END)" }
    }

    /// `distance(a, b)`: the plane's own distance on a plane; in lng/lat geodesic metres as
    /// GeoMeasure.distance finds them (between points GeographicLib's, which PostGIS's
    /// geography distance is).
    static let distance = SQLForm.build({ c in
        guard let space = space(c) else { return nil }
        let a = c.arguments[0], b = c.arguments[1]
        return space == .lnglat ? geodesicDistance(a, b) : "ST_Distance(\(a), \(b))"
    }, otherwise: { _ in mixed })

    /// Geodesic metres between two lng/lat geometries, step for step as GeoMeasure.distance:
    /// between points GeographicLib's distance; 0 where they meet; else the least distance
    /// from a vertex of either to the other. PostGIS's own geography distance to a line finds
    /// the nearest point on an edge drawn as a great circle on a sphere, which is 1.8 mm off
    /// for a point 400 m from a 1 km edge running north-east in Seattle; here each edge is
    /// measured on the azimuthal equidistant plane about the vertex, whose distances and
    /// directions from it are geodesic (as utq's buffer draws it), where an edge of a city's
    /// geometry is straight to well under a millimetre.
    static func geodesicDistance(_ a: String, _ b: String) -> String {
        "(CASE WHEN ST_IsEmpty(\(a)) OR ST_IsEmpty(\(b)) THEN NULL "
            + "WHEN ST_GeometryType(\(a)) = 'ST_Point' AND ST_GeometryType(\(b)) = 'ST_Point' THEN ST_Distance(\(a)::geography, \(b)::geography) "
            + "WHEN ST_Intersects(\(a), \(b)) THEN 0::float8 "
            + "ELSE (SELECT min(utq_v.d) FROM (SELECT \(vertexDistance("utq_a.geom", b)) AS d FROM ST_DumpPoints(\(a)) AS utq_a "
            + "UNION ALL SELECT \(vertexDistance("utq_b.geom", a)) FROM ST_DumpPoints(\(b)) AS utq_b) AS utq_v) END)"
    }

    /// Metres from the point `p` to the geometry `g` that does not meet it: to each of its
    /// points, geodesic; to each edge, the plane distance to the edge between its ends placed
    /// at their geodesic distance and azimuth from `p`.
    static func vertexDistance(_ p: String, _ g: String) -> String {
        let at = { (end: String) in
            "ST_Distance(\(p)::geography, utq_e.\(end)::geography) AS d\(end.suffix(1)), coalesce(ST_Azimuth(\(p)::geography, utq_e.\(end)::geography), 0) AS a\(end.suffix(1))"
        }
        let placed = { (k: String) in "ST_MakePoint(utq_s.d\(k) * sin(utq_s.a\(k)), utq_s.d\(k) * cos(utq_s.a\(k)))" }
        return "(SELECT min(CASE WHEN utq_s.d2 IS NULL THEN utq_s.d1 ELSE ST_Distance(ST_MakePoint(0, 0), ST_MakeLine(\(placed("1")), \(placed("2")))) END) "
            + "FROM (SELECT \(at("p1")), \(at("p2")) FROM (SELECT ST_StartPoint(utq_g.geom) AS p1, ST_EndPoint(utq_g.geom) AS p2 FROM ST_DumpSegments(\(g)) AS utq_g "
            + "UNION ALL SELECT utq_g.geom, NULL::geometry FROM ST_DumpPoints(\(g)) AS utq_g WHERE ST_Dimension(\(g)) = 0) AS utq_e) AS utq_s)"
    }

    /// `length(g)`: a line's length and, as shapely has it, a polygon's perimeter (PostGIS's
    /// ST_Length of a polygon is 0 and its ST_Perimeter of a line 0, so their sum is utq's).
    static func length(_ c: SQLCall) -> String {
        let g = c.spaces.first == .lnglat ? "\(c.arguments[0])::geography" : c.arguments[0]
        return "(ST_Length(\(g)) + ST_Perimeter(\(g)))"
    }

    static let area = SQLForm.build { c in
        c.spaces.first == .lnglat ? "ST_Area(\(c.arguments[0])::geography)" : "ST_Area(\(c.arguments[0]))"
    }

    /// `centroid(g)`: planar in both spaces, as utq's; null for an empty geometry.
    static let centroid = SQLForm.build { c in
        "(CASE WHEN ST_IsEmpty(\(c.arguments[0])) THEN NULL ELSE ST_Centroid(\(c.arguments[0])) END)"
    }

    /// `buffer(g, d)`: on a plane GEOS's buffer (8 segments a quarter circle, as utq draws it);
    /// in lng/lat the same buffer in metres on the azimuthal equidistant projection about the
    /// middle of the geometry's box, whose distances and directions from its centre are
    /// geodesic, as utq makes it. A point's buffer is then utq's polygon to the last digits;
    /// a line's or a polygon's is GEOS's, whose area utq's is within about 1e-3 of.
    static let buffer = SQLForm.build { c in
        let g = c.arguments[0], d = c.number(1)
        let made: String
        if c.spaces.first == .lnglat {
            let projection = "'+proj=aeqd +lat_0=' || ((ST_YMin(\(g)) + ST_YMax(\(g))) / 2) || ' +lon_0=' || ((ST_XMin(\(g)) + ST_XMax(\(g))) / 2) "
                + "|| ' +datum=WGS84 +units=m +no_defs'"
            made = "(CASE WHEN ST_IsEmpty(\(g)) THEN \(g) ELSE ST_Transform(ST_Buffer(ST_Transform(\(g), \(projection)), \(d)), \(projection), 4326) END)"
        } else {
            made = "ST_Buffer(\(g), \(d))"
        }
        // Zero is the geometry itself; below zero (or not a number) nothing.
        return "(CASE WHEN \(d) = 0 THEN \(g) WHEN \(d) > 0 AND \(d) < 'Infinity'::float8 THEN \(made) END)"
    }

    /// A point as itself, anything else as its centroid (bearing's and cell's reading of a
    /// geometry's place).
    static func representative(_ g: String) -> String {
        "(CASE WHEN ST_GeometryType(\(g)) = 'ST_Point' THEN \(g) ELSE ST_Centroid(\(g)) END)"
    }

    /// `bearing(a, b)`: degrees clockwise from north, 0 up to 360; geodesic through geography
    /// in lng/lat. Null where either is empty or both are one point.
    static let bearing = SQLForm.build({ c in
        guard let space = space(c) else { return nil }
        let a = representative(c.arguments[0]), b = representative(c.arguments[1])
        let azimuth = space == .lnglat ? "ST_Azimuth(\(a)::geography, \(b)::geography)" : "ST_Azimuth(\(a), \(b))"
        // A direction a hair west of north can come to 360 in degrees: that is 0.
        return "(SELECT CASE WHEN utq_b.d >= 360 THEN utq_b.d - 360 ELSE utq_b.d END FROM (SELECT degrees(\(azimuth)) AS d "
            + "WHERE NOT ST_IsEmpty(\(c.arguments[0])) AND NOT ST_IsEmpty(\(c.arguments[1]))) AS utq_b)"
    }, otherwise: { _ in mixed })

    /// `cell(point, size)`: GridCells' arithmetic step for step (the same operations on the
    /// same doubles, sines and cosines from the same C library), so a point falls in the same
    /// square in both and the squares' corners are the same numbers.
    static let cell = SQLForm.build({ c in
        guard c.constants.count == 2, let size = c.constants[1]?.doubleValue, size.isFinite, size > 0 else { return nil }
        let lnglat = c.spaces.first == .lnglat
        if lnglat && size < 0.01 { return nil }
        func number(_ d: Double) -> String { "\(d)::float8" }
        let place = "(SELECT \(representative(c.arguments[0])) AS p) AS utq_p WHERE utq_p.p IS NOT NULL AND NOT ST_IsEmpty(utq_p.p)"
        let corners: String
        if lnglat {
            let height = number(size / GridCells.metresPerDegreeLatitude), s = number(size)
            // LocalFrame(lat:).metresPerDegreeLon at the row's middle latitude.
            let perDegree = "(pi() / 180 * \(number(6_378_137)) * cos(utq_r.phi) / sqrt(1 - \(number(0.006_694_379_990_14)) * sin(utq_r.phi) * sin(utq_r.phi)))"
            corners = "SELECT utq_w.i * utq_w.w AS x0, (utq_w.i + 1) * utq_w.w AS x1, utq_w.j * \(height) AS y0, (utq_w.j + 1) * \(height) AS y1 FROM "
                + "(SELECT floor(utq_m.x / utq_m.w) AS i, utq_m.j, utq_m.w FROM "
                + "(SELECT utq_r.x, utq_r.j, LEAST(360, \(s) / \(perDegree)) AS w FROM "
                + "(SELECT utq_q.x, utq_q.j, GREATEST(-89.999, LEAST(89.999, (utq_q.j + 0.5) * \(height))) * pi() / 180 AS phi FROM "
                + "(SELECT ST_X(utq_p.p) AS x, floor(ST_Y(utq_p.p) / \(height)) AS j FROM \(place) "
                + "AND abs(ST_X(utq_p.p)) <= 180 AND abs(ST_Y(utq_p.p)) <= 90) AS utq_q) AS utq_r) AS utq_m) AS utq_w"
        } else {
            let s = number(size)
            corners = "SELECT utq_w.i * \(s) AS x0, (utq_w.i + 1) * \(s) AS x1, utq_w.j * \(s) AS y0, (utq_w.j + 1) * \(s) AS y1 FROM "
                + "(SELECT floor(ST_X(utq_p.p) / \(s)) AS i, floor(ST_Y(utq_p.p) / \(s)) AS j FROM \(place)) AS utq_w"
        }
        let ring = [("x0", "y0"), ("x1", "y0"), ("x1", "y1"), ("x0", "y1"), ("x0", "y0")].map { "ST_MakePoint(utq_k.\($0.0), utq_k.\($0.1))" }
        let polygon = "ST_MakePolygon(ST_MakeLine(ARRAY[\(ring.joined(separator: ", "))]))"
        return "(SELECT \(lnglat ? "ST_SetSRID(\(polygon), 4326)" : polygon) FROM (\(corners)) AS utq_k)"
    }, otherwise: { _ in "a cell's size is one number above 0 (at least 0.01 m in lng/lat), the same for every row: utq says what is wrong" })

    static let wkt = SQLForm.none("utq writes each coordinate's shortest exact digits as POINT (21.16 42.66); PostGIS's ST_AsText rounds to 15 decimals and writes POINT(21.16 42.66)")
    static let geojson = SQLForm.none("utq writes each coordinate's shortest exact digits; PostGIS's ST_AsGeoJSON rounds to 9 decimals")
    static let polyline = SQLForm.none("PostGIS's ST_LineFromEncodedPolyline reads text that is no polyline as a line, and one point as a line, where utq gives null and a point")
}
