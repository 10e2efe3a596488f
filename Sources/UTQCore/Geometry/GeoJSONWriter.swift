/// A table as a GeoJSON FeatureCollection (RFC 7946), which QGIS, kepler.gl, geojson.io and
/// `ogrinfo` open: a feature per row, its position (`ImpliedPosition`) as the geometry and
/// every other column as a property (other geometry columns as their well-known text).
enum GeoJSONWriter {
    static func write(_ t: Table, cells: [MachineCell], into out: inout [UInt8]) {
        let schema = Schema(t)
        let position = ImpliedPosition.find(schema)
        var geometryColumn: Int? = nil
        var points: (x: [Double], y: [Double], space: GeoSpace)? = nil
        var pointValid: ((Int) -> Bool)? = nil
        switch position {
        case .column(let i)?: geometryColumn = i
        case .pair(let x, let y, let space)?:
            let xs = t.columns[x].doubles() ?? [], ys = t.columns[y].doubles() ?? []
            points = (xs, ys, space)
            pointValid = { r in t.columns[x].isValid(r) && t.columns[y].isValid(r) && xs[r].isFinite && ys[r].isFinite }
        case nil: break
        }
        let names = t.columns.map { JSONText.quote($0.name) }
        out.append(contentsOf: "{\"type\":\"FeatureCollection\",\"features\":[".utf8)
        for r in 0..<t.rowCount {
            out.append(contentsOf: (r == 0 ? "\n" : ",\n").utf8)
            out.append(contentsOf: "{\"type\":\"Feature\",\"properties\":{".utf8)
            var first = true
            for (i, cell) in cells.enumerated() where i != geometryColumn {
                if !first { out.append(0x2C) }
                first = false
                out.append(contentsOf: names[i].utf8)
                out.append(0x3A)
                if cell.column.type == .geometry {
                    out.append(contentsOf: (cell.text(r).map(JSONText.quote) ?? "null").utf8)
                } else {
                    out.append(contentsOf: cell.json(r).utf8)
                }
            }
            out.append(contentsOf: "},\"geometry\":".utf8)
            if let g = geometryColumn, t.columns[g].isValid(r), case .geometry(let s) = t.columns[g].storage {
                out.append(contentsOf: GeoJSONGeometry.text(s[r]).utf8)
            } else if let points, pointValid?(r) == true {
                out.append(contentsOf: GeoJSONGeometry.text(.point(points.x[r], points.y[r], space: points.space)).utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
            out.append(0x7D)
        }
        out.append(contentsOf: "\n]}\n".utf8)
    }
}
