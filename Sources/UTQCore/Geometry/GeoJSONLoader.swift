/// GeoJSON files (RFC 7946): a FeatureCollection is a table of one row per feature, its
/// properties as columns and its geometry as the column `geometry`; a single Feature is one
/// row, a bare geometry one row of it alone. GeoJSON is longitude and latitude on WGS 84;
/// coordinates outside their ranges (a plan exported as GeoJSON) are read as a plane.
enum GeoJSONLoader {
    static func isGeoJSON(_ doc: JSONValue) -> Bool {
        guard let type = doc["type"]?.string else { return false }
        if type == "FeatureCollection" { return doc["features"]?.array != nil }
        if type == "Feature" { return doc["geometry"] != nil }
        return Geometry.Kind.allCases.contains { $0.geoJSONName == type } && doc["coordinates"] != nil
    }

    static func load(_ doc: JSONValue, request: LoadRequest, name: String) throws -> LoadResult {
        let path = request.path
        let features: [JSONValue]
        switch doc["type"]?.string {
        case "FeatureCollection": features = doc["features"]?.array ?? []
        case "Feature": features = [doc]
        default: features = [.object([("type", .string("Feature")), ("properties", .object([])), ("geometry", doc)])]
        }
        var properties: [JSONValue] = []
        var geometries: [Geometry?] = []
        var warnings: [LoadWarning] = []
        var unread = 0
        for (k, f) in features.enumerated() {
            guard f["type"]?.string == "Feature" else {
                throw LoadError(path: path, "feature \(k + 1) is no Feature (its \"type\" is \(f["type"]?.text ?? "missing"))")
            }
            var members = f["properties"]?.objectMembers ?? []
            if let id = f["id"], !members.contains(where: { $0.0 == "id" }) { members.insert(("id", id), at: 0) }
            properties.append(.object(members))
            do {
                geometries.append(try GeoJSONGeometry.read(f["geometry"] ?? .null))
            } catch let e as GeoJSONGeometry.ParseError {
                unread += 1
                if unread == 1 { warnings.append(LoadWarning(path: path, "feature \(k + 1)'s geometry is left empty: \(e.message)")) }
                geometries.append(nil)
            }
        }
        if unread > 1 { warnings.append(LoadWarning(path: path, "\(NumberText.counted(unread, "feature")) in all have a geometry left empty")) }
        var table = try RecordTable.build(properties, name: name, zone: request.zone, path: path, memoryLimit: request.memoryLimit)
        table.rowCount = features.count
        let space = request.options.crs ?? GeometryColumns.detectSpace(geometries.compactMap { $0 })
        var b = GeometryBuilder(space: space)
        b.reserve(geometries.count)
        var valid = Bitmap(count: geometries.count, value: true)
        for (i, g) in geometries.enumerated() {
            if var g { g.space = space; b.append(g) } else { b.appendNull(); valid[i] = false }
        }
        var column = "geometry"
        while table.columnIndex(column) != nil { column += "_" }
        table.columns.append(Column(name: column, storage: .geometry(b.storage), validity: valid))
        table.rowNoun = "features"
        var summary = Loaders.summary(table)
        if space == .plane { summary += " · x and y on a plane" }
        return LoadResult(tables: [table], summary: summary, warnings: warnings)
    }
}
