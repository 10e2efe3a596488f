/// Where a table's rows are, as joins, maps and GeoJSON files read them: its geometry
/// column; else x and y (a Behaviour Mapper plan's points); else a latitude and a longitude
/// column (GTFS stops' stop_lat and stop_lon, a ride's pickup_lat and pickup_lng). So a table
/// of stops is points without a column of them to make first.
enum ImpliedPosition {
    case column(Int)
    /// Numbers in two columns: a point made of them (lng/lat or a plane).
    case pair(x: Int, y: Int, space: GeoSpace)

    static let latitudeNames = ["lat", "latitude", "stop_lat", "shape_pt_lat", "y_lat"]
    static let longitudeNames = ["lng", "lon", "long", "longitude", "stop_lon", "stop_lng", "shape_pt_lon"]

    /// The table's position, or nil; `named` picks a geometry column by name.
    static func find(_ schema: Schema, named: String? = nil) -> ImpliedPosition? {
        if let named {
            guard let i = schema.index(of: named), schema.fields[i].type == .geometry else { return nil }
            return .column(i)
        }
        if let i = schema.fields.firstIndex(where: { $0.type == .geometry }) { return .column(i) }
        func numeric(_ name: String) -> Int? {
            guard let i = schema.index(of: name), schema.fields[i].type.isNumeric else { return nil }
            return i
        }
        if let x = numeric("x"), let y = numeric("y") { return .pair(x: x, y: y, space: .plane) }
        for lat in latitudeNames { for lng in longitudeNames {
            if let la = numeric(lat), let lo = numeric(lng) { return .pair(x: lo, y: la, space: .lnglat) }
        } }
        // pickup_lat and pickup_lng: the first pair that shares a prefix.
        for (i, f) in schema.fields.enumerated() where f.type.isNumeric {
            let lower = f.name.lowercased()
            for suffix in ["_lat", "_latitude"] where lower.hasSuffix(suffix) {
                let stem = String(lower.dropLast(suffix.count))
                for other in ["_lng", "_lon", "_long", "_longitude"] {
                    if let j = numeric(stem + other) { return .pair(x: j, y: i, space: .lnglat) }
                }
            }
        }
        return nil
    }

    /// The position as an expression over the schema's columns.
    func expression(_ schema: Schema) -> BoundExpr {
        switch self {
        case .column(let i): return .column(i, schema.fields[i])
        case .pair(let x, let y, let space):
            let make = Functions.spec(space == .lnglat ? "point" : "xy")!
            return .call(make, [.column(x, schema.fields[x]), .column(y, schema.fields[y])], .geometry)
        }
    }

    /// How it reads to a person: `position`, `point(stop_lon, stop_lat)`.
    func describe(_ schema: Schema) -> String { expression(schema).describe }

    /// What a table without a position is told.
    static func missingHint(_ schema: Schema) -> String {
        "make one with let position = point(lng, lat) (or xy(x, y) on a plan); columns here: "
            + schema.names.prefix(12).joined(separator: ", ")
    }
}
